"""What the printed pages show, read from the database: the only ORM reads behind the PDFs.

Values, verdicts, running totals and summaries come from the engine through
``services.list_rows`` and ``services.summarize``; this module only gathers them into the
plain row objects of ``skatliga.pdf`` and names things in the active language.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import scoring
from scoring.lists import WON_BONUS
from skatliga import pdf, services
from skatliga.collation import german_key
from skatliga.entries import list_entry
from skatliga.forms import DOUBLING_LABELS
from skatliga.messages import describe_rules
from skatliga.models import (
    Game,
    GameType,
    ListResult,
    ListSystem,
    Season,
    Seat,
    Series,
    StandingRow,
    Table,
    Tournament,
)
from skatliga.pdf.base import date_text
from skatliga.standings import (
    Progress,
    average_text,
    progress,
    season_player_standings,
    team_standings,
)
from skatliga.views.sheet import breakdown_language


def matadors_text(matadors: int | None) -> str:
    """Matadors as written on a list: ``m2`` (with 2), ``o3`` (without 3)."""
    if matadors is None:
        return ""
    if matadors > 0:
        return _("m%(count)d") % {"count": matadors}
    return _("o%(count)d") % {"count": -matadors}


def doubling_mark(game: Game) -> str:
    """The highest doubling of a game as the list's Kontra column writes it: K, Re, Su, Rs."""
    marks = {"kontra": _("K"), "re": _("Re"), "supra": _("Su"), "resupra": _("Rs")}
    return next((marks[name] for name in reversed(scoring.DOUBLINGS) if getattr(game, name)), "")


def game_label(game: Game, scored: scoring.ScoredGame, *, doubling: bool = True) -> str:
    """The game as the list names it: "Kreuz", "Grand", "Null ouvert Hand", "Herz Kontra"
    (the doubling left out where the sheet has its own column for it)."""
    words = [str(GameType(game.game).label)]
    if not scored.steps:
        if game.ouvert:
            words.append(_("ouvert"))
        if game.hand:
            words.append(_("Hand"))
    highest = next((name for name in reversed(scoring.DOUBLINGS) if getattr(game, name)), None)
    if doubling and highest is not None:
        words.append(str(DOUBLING_LABELS[highest]))
    if scored.overbid:
        words.append(_("überreizt"))
    return " ".join(words)


def _rows(
    table: Table, tournament: Tournament
) -> tuple[list[pdf.SheetRow], tuple[scoring.ListSummary, ...]]:
    size = table.size
    system = tournament.list_system
    rules = tournament.rule_set
    scored = services.list_rows(table.games.all(), size, rules)
    summaries = services.summarize(scored, size, system, rules)
    played = {game.number: (game, verdict) for game, verdict in scored}
    count = max(tournament.games_per_list(size), max(played, default=0))
    running = (0,) * size
    rows = []
    for number in range(1, count + 1):
        dealer = scoring.dealer_seat(number, size)
        sitting_out = tuple(seat + 1 for seat in scoring.sitting_out(dealer, size, rules))
        game, verdict = played.get(number, (None, None))
        if game is None:
            rows.append(pdf.SheetRow(number, dealer + 1, sitting_out))
        elif verdict is None:
            rows.append(
                pdf.SheetRow(number, dealer + 1, sitting_out, game=_("eingepasst"), totals=running)
            )
        elif isinstance(verdict, scoring.RamschScore):
            entries = scoring.row_scores(
                verdict, declarer=None, dealer=dealer, table_size=size, system=system, rules=rules
            )
            running = tuple(a + b for a, b in zip(running, entries, strict=True))
            rows.append(
                pdf.SheetRow(
                    number,
                    dealer + 1,
                    sitting_out,
                    game=scoring.format_ramsch(verdict, breakdown_language()),
                    value=list_entry(verdict),
                    totals=running,
                )
            )
        else:
            assert game.declarer is not None
            entries = scoring.row_scores(
                verdict,
                declarer=game.declarer - 1,
                dealer=dealer,
                table_size=size,
                system=system,
                rules=rules,
            )
            running = tuple(a + b for a, b in zip(running, entries, strict=True))
            rows.append(
                pdf.SheetRow(
                    number,
                    dealer + 1,
                    sitting_out,
                    declarer=game.declarer,
                    game=game_label(game, verdict, doubling=False),
                    matadors=matadors_text(game.matadors),
                    levels=frozenset(name for name, _count in verdict.steps[1:]),
                    doubling=doubling_mark(game),
                    value=list_entry(verdict),
                    totals=running,
                )
            )
    return rows, summaries


def sheet_data(table: Table) -> pdf.SheetData:
    """One table's list as the score sheet prints it.

    Reads the table's seats and games (prefetched by :func:`series_sheets`) and its
    series and tournament.
    """
    series = table.series
    tournament = series.tournament
    rows, summaries = _rows(table, tournament)
    seeger = tournament.list_system is scoring.ListSystem.SEEGER_FABIAN
    return pdf.SheetData(
        tournament=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        series=series.number,
        table=table.number,
        rules=describe_rules(tournament.rule_set),
        system=str(ListSystem(tournament.scoring).label),
        players=tuple(
            pdf.SheetPlayer(seat.player.name, seat.player.club.name if seat.player.club else "")
            for seat in table.seats.all()
        ),
        rows=tuple(rows),
        summary=tuple(
            pdf.SheetSummary(s.game_points, s.won, s.lost, s.others_lost, s.bonus, s.total)
            for s in summaries
        ),
        won_bonus=WON_BONUS if seeger else None,
        others_bonus=scoring.others_lost_bonus(table.size) if seeger else None,
        provisional=not table.is_closed or not series.is_published,
        doublings=tournament.rule_set.kontra,
    )


def series_sheets(series: Series) -> list[pdf.SheetData]:
    """Every table's list of a series, in table order, in three queries."""
    tables = (
        Table.objects.filter(series=series)
        .select_related("series__tournament")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player__club").order_by("position")),
            Prefetch("games", Game.objects.order_by("number")),
        )
        .order_by("number")
    )
    return [sheet_data(table) for table in tables]


def series_score_sheets_pdf(series: Series, *, blank: bool = False) -> bytes:
    """All lists of a series in one PDF: blank forms to print before it, or the results."""
    return pdf.score_sheets_pdf(series_sheets(series), blank=blank)


def _tournament_line(tournament: Tournament) -> str:
    parts = [tournament.name, date_text(tournament.date), tournament.venue]
    return " · ".join(part for part in parts if part)


def _provisional(state: Progress, *, unpublished: bool) -> str:
    """What a result list says at its head while it is not final: the lists still open, or
    that the referee has not published every series yet; nothing once final."""
    if state.provisional:
        return state.text()
    if unpublished:
        return _("vorläufig · noch nicht veröffentlicht")
    return ""


def series_result_pdf(series: Series) -> bytes:
    """The result list of one series."""
    rows = ListResult.objects.for_series(series).standings()
    title = _("Ergebnisliste Serie %(number)d") % {"number": series.number}
    state = progress(Table.objects.filter(series=series))
    return pdf.standings_pdf(
        title,
        _tournament_line(series.tournament),
        rows,
        provisional=_provisional(state, unpublished=not series.is_published),
        rules=_("Regelwerk: %(rules)s") % {"rules": series.tournament.rules_text},
    )


def tournament_result_pdf(tournament: Tournament) -> bytes:
    """The result list of a tournament: the series totals summed, ties by the recorded lot."""
    results = ListResult.objects.for_tournament(tournament).public()
    state = progress(Table.objects.filter(series__tournament=tournament))
    return pdf.standings_pdf(
        _("Ergebnisliste"),
        _tournament_line(tournament),
        results.standings(lots_of=tournament),
        lists=True,
        provisional=_provisional(state, unpublished=results.provisional()),
        rules=_("Regelwerk: %(rules)s") % {"rules": tournament.rules_text},
    )


def season_result_pdf(season: Season) -> bytes:
    """The individual season ranking."""
    results = ListResult.objects.for_season(season).public()
    columns = pdf.player_columns(lists=True)
    if season.ranking == Season.Ranking.AVERAGE:
        # Room for the average: a narrower name and bonus column.
        narrower = {_("Spieler"): 0.05, _("Verein"): 0.02}
        columns = [replace(c, width=c.width - narrower.get(c.label, 0)) for c in columns]
        columns.append(pdf.Column(_("Schnitt"), _average, 0.07, bold=True))
    return pdf.result_list_pdf(
        _("Einzelwertung"),
        f"{season.name} · {season.ranking_text}",
        columns,
        season_player_standings(season, results),
        provisional=_provisional(
            progress(Table.objects.filter(series__tournament__season=season)),
            unpublished=results.provisional(),
        ),
    )


def _average(row: StandingRow) -> str:
    return average_text(row.average)


def team_result_pdf(scope: Season | Tournament) -> bytes:
    """The league table of a season, or of one match day."""
    if isinstance(scope, Season):
        results, subtitle = ListResult.objects.for_season(scope), scope.name
        tables = Table.objects.filter(series__tournament__season=scope)
    else:
        results, subtitle = ListResult.objects.for_tournament(scope), _tournament_line(scope)
        tables = Table.objects.filter(series__tournament=scope)
    results = results.public()
    return pdf.team_standings_pdf(
        _("Mannschaftswertung"),
        subtitle,
        team_standings(results),
        provisional=_provisional(progress(tables), unpublished=results.provisional()),
    )


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One line of the "where do I sit" list: a player, his club, his table and seat."""

    player: str
    club: str
    table: int
    position: int


def seat_lines(series: Series) -> list[SeatLine]:
    """Every player of the series in German dictionary order (``collation.german_key``:
    Łukasz beside Lukas, whatever the database's collation) with his table and seat."""
    seats = sorted(
        Seat.objects.filter(series=series).select_related("player__club", "table"),
        key=lambda seat: (german_key(seat.player.name), seat.player_id),
    )
    return [
        SeatLine(
            seat.player.name,
            seat.player.club.name if seat.player.club else "",
            seat.table.number,
            seat.position,
        )
        for seat in seats
    ]


def seat_list_pdf(series: Series) -> bytes:
    """The alphabetical "where do I sit" list of a series, for the door of the hall."""
    columns = [
        pdf.Column(_("Spieler"), lambda row: row.player, 0.46, "LEFT", bold=True),
        pdf.Column(_("Verein"), lambda row: row.club, 0.34, "LEFT"),
        pdf.Column(_("Tisch"), lambda row: str(row.table), 0.1, bold=True),
        pdf.Column(pgettext("seat", "Platz"), lambda row: str(row.position), 0.1),
    ]
    title = _("Sitzplan Serie %(number)d") % {"number": series.number}
    return pdf.result_list_pdf(
        title, _tournament_line(series.tournament), columns, seat_lines(series)
    )

"""What the printed pages show, read from the database: the only ORM reads behind the PDFs.

Values, verdicts, running totals and summaries come from the engine through
``services.list_rows`` and ``services.summarize``; this module only gathers them into the
plain row objects of ``skatliga.pdf`` and names things in the active language.
"""

from __future__ import annotations

import datetime
import functools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, QuerySet
from django.utils import timezone, translation
from django.utils.dateformat import time_format
from django.utils.formats import get_format
from django.utils.timezone import localtime
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

import scoring
from scoring.lists import WON_BONUS
from skatliga import pdf, services
from skatliga.collation import surname_key
from skatliga.entries import list_entry
from skatliga.models import (
    Category,
    Game,
    ListResult,
    ListResultQuerySet,
    ListSystem,
    Season,
    Seat,
    Series,
    SeriesQuerySet,
    Signature,
    StandingRow,
    Table,
    Tournament,
    match_points_rule,
)
from skatliga.models.rules import describe_rules
from skatliga.pdf.base import date_text
from skatliga.sheet import shares
from skatliga.standings.queries import (
    Progress,
    match_points_scheme,
    progress_in,
    season_player_standings,
    team_standings,
)
from skatliga.standings.rankings import AVERAGE, PLAYERS_WITH_LISTS, TEAMS
from skatliga.words import breakdown, doubling_mark, game_label, list_words, matadors_text


def in_its_language(make: Callable[..., bytes]) -> Callable[..., bytes]:
    """``make(scope, ...)`` printed in the language of ``scope``'s tournament or season,
    whatever the page's: a DSU evening's sheets are Danish on a German referee's browser."""

    @functools.wraps(make)
    def printed(scope: Series | Tournament | Season, *args: Any, **kwargs: Any) -> bytes:
        owner = scope.tournament if isinstance(scope, Series) else scope
        with translation.override(owner.language):
            return make(scope, *args, **kwargs)

    return printed


def _rows(
    table: Table, tournament: Tournament, scored: list[tuple[Game, scoring.Entry]]
) -> tuple[list[pdf.SheetRow], tuple[scoring.ListSummary, ...]]:
    size = table.size
    system = tournament.list_system
    rules = tournament.rule_set
    words = list_words(get_language())
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
                pdf.SheetRow(number, dealer + 1, sitting_out, game=words["passed"], totals=running)
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
                    game=breakdown(verdict),
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
                    game=game_label(game, verdict, doubling=False, words=words),
                    matadors=matadors_text(game.matadors, words),
                    levels=frozenset(name for name, _count in verdict.steps[1:]),
                    doubling=doubling_mark(game, words),
                    value=list_entry(verdict),
                    totals=running,
                )
            )
    return rows, summaries


def sheet_data(
    table: Table,
    seats: Sequence[Seat] | None = None,
    games: Sequence[Game] | None = None,
    signed: Sequence[Signature] | None = None,
) -> pdf.SheetData:
    """One table's list as the score sheet prints it.

    ``seats`` (in seat order, with their players, clubs and substitutes), ``games`` (in
    number order) and ``signed`` (its signatures) are the table's, as :func:`series_sheets`
    reads them for a whole series; without them they are read here.
    """
    series = table.series
    tournament = series.tournament
    if seats is None:
        seats = list(table.seats.select_related("player__club", "substitute").order_by("position"))
    if games is None:
        games = list(table.games.order_by("number"))
    if signed is None:
        signed = list(table.signatures.all())
    scored = services.list_rows(games, table.size, tournament.rule_set)
    rows, summaries = _rows(table, tournament, scored)
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
            pdf.SheetPlayer(
                seat.player.public_name,
                seat.player.club.name if seat.player.club else "",
                seat.substitute.public_name if seat.substitute else "",
                seat.substitute_from,
            )
            for seat in seats
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
        signed=tuple(_signed(seat, signed) for seat in seats),
        shares=tuple(
            pdf.SheetShare(
                share.position,
                share.player,
                share.first,
                share.last,
                pdf.SheetSummary(
                    share.summary.game_points,
                    share.summary.won,
                    share.summary.lost,
                    share.summary.others_lost,
                    share.summary.bonus,
                    share.summary.total,
                ),
            )
            for share in shares(
                seats,
                scored,
                table.size,
                tournament.list_system,
                tournament.rule_set,
                tournament.games_per_list(table.size),
            )
        ),
    )


def series_sheets(series: Series) -> list[pdf.SheetData]:
    """Every table's list of a series, in table order, in four queries for the whole
    series: its tables (with the series and tournament), all their seats (with players,
    clubs and substitutes), all their games, all their signatures."""
    tables = list(
        Table.objects.filter(series=series).select_related("series__tournament").order_by("number")
    )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table__series=series)
        .select_related("player__club", "substitute")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__series=series).order_by("table_id", "number"):
        games[game.table_id].append(game)
    signed: dict[int, list[Signature]] = defaultdict(list)
    for signature in Signature.objects.filter(table__series=series):
        signed[signature.table_id].append(signature)
    return [
        sheet_data(table, seats[table.pk], games[table.pk], signed[table.pk]) for table in tables
    ]


def _signed(seat: Seat, signatures: Sequence[Signature]) -> str:
    """Who of ``seat`` signed the list, when and on which device, and beneath how
    (``Signature.Method``): two lines each, the substitute's named."""
    lines = []
    for signature in signatures:
        if signature.position != seat.position:
            continue
        at = time_format(localtime(signature.signed_at), "H:i")
        name = (
            f"{seat.substitute.public_name}: " if signature.substitute and seat.substitute else ""
        )
        device = f" · {signature.device[:20]}" if signature.device else ""
        lines += [f"{name}✓ {at}{device}", str(signature.get_method_display())]
    return "\n".join(lines)


@in_its_language
def series_score_sheets_pdf(series: Series, *, blank: bool = False) -> bytes:
    """All lists of a series in one PDF: blank forms to print before it, or the results."""
    return pdf.score_sheets_pdf(series_sheets(series), blank=blank)


def substitute_notes(seats: QuerySet[Seat]) -> list[str]:
    """One line for each of ``seats`` a substitute took over during the list, as standings
    and result lists print it: "Serie 1, Tisch 2, Platz 3: ab Spiel 10 Emil für Bernd"."""
    taken = (
        seats.filter(substitute__isnull=False)
        .select_related("player", "substitute", "table", "series")
        .order_by("series__number", "table__number", "position")
    )
    return [
        _(
            "Serie %(series)s, Tisch %(table)s, Platz %(seat)s: "
            "ab Spiel %(number)s %(name)s für %(player)s"
        )
        % {
            "series": seat.series.number,
            "table": seat.table.number,
            "seat": seat.position,
            "number": seat.substitute_from,
            "name": seat.substitute.public_name if seat.substitute else "",
            "player": seat.player.public_name,
        }
        for seat in taken
    ]


def public_seats(tournament: Tournament) -> QuerySet[Seat]:
    """The seats of the series the public pages show (``ListResultQuerySet.public``)."""
    return Seat.objects.filter(SeriesQuerySet.shown("series__"), series__tournament=tournament)


def _tournament_line(tournament: Tournament) -> str:
    parts = [tournament.name, date_text(tournament.date), tournament.venue]
    return " · ".join(part for part in parts if part)


def _provisional(
    state: Progress, *, unpublished: bool, until: datetime.datetime | None = None
) -> str:
    """What a result list says at its head while it is not final: the lists still open,
    that the referee has not published every series yet, or until when an objection can
    still be made against a published series (``until``); nothing once final."""
    if state.provisional:
        return state.text()
    if unpublished:
        return _("vorläufig · noch nicht veröffentlicht")
    if until is not None and timezone.now() < until:
        return _("vorläufig — Einspruch möglich bis %(time)s") % {
            "time": time_format(localtime(until), get_format("TIME_FORMAT"))
        }
    return ""


def objections_until(series: QuerySet[Series]) -> datetime.datetime | None:
    """The latest end of an objection window still running among the published
    ``series``; None when none runs."""
    until: datetime.datetime | None = series.filter(
        published_at__isnull=False, objections_until__gt=timezone.now()
    ).aggregate(until=Max("objections_until"))["until"]
    return until


@in_its_language
def series_result_pdf(series: Series) -> bytes:
    """The result list of one series."""
    rows = ListResult.objects.for_series(series).standings()
    title = _("Ergebnisliste Serie %(number)d") % {"number": series.number}
    state = progress_in(series)
    return pdf.standings_pdf(
        title,
        _tournament_line(series.tournament),
        rows,
        provisional=_provisional(
            state,
            unpublished=not series.is_published,
            until=series.objections_until if series.is_published else None,
        ),
        rules=_("Regelwerk: %(rules)s") % {"rules": series.tournament.rules_text},
        notes=substitute_notes(Seat.objects.filter(series=series)),
    )


@in_its_language
def tournament_result_pdf(tournament: Tournament) -> bytes:
    """The result list of a tournament: the series totals summed, ties by the recorded lot."""
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    state = progress_in(tournament)
    sections = _category_sections(results, lambda rows: list(rows.standings(lots_of=tournament)))
    return pdf.standings_pdf(
        _("Ergebnisliste"),
        _tournament_line(tournament),
        results.standings(lots_of=tournament),
        PLAYERS_WITH_LISTS,
        provisional=_provisional(
            state,
            unpublished=results.provisional(),
            until=objections_until(tournament.series.all()),
        ),
        rules=_("Regelwerk: %(rules)s") % {"rules": tournament.rules_text},
        sections=sections,
        notes=[
            *([category_note()] if sections else []),
            *substitute_notes(public_seats(tournament)),
        ],
    )


def category_note() -> str:
    """The small print under the rankings per category."""
    return _(
        "Die Kategorie gilt, wie sie jetzt beim Spieler eingetragen ist; die Plätze sind "
        "innerhalb der Kategorie gezählt."
    )


def _category_sections(
    results: ListResultQuerySet, rank: Callable[[ListResultQuerySet], list[StandingRow]]
) -> list[tuple[str, list[StandingRow]]]:
    """(heading, rows) for each category with players in ``results``, ranked by ``rank``
    over the category's rows alone."""
    return [
        (
            _("Einzelwertung %(category)s") % {"category": Category(category).label},
            rank(results.in_category(category)),
        )
        for category in results.categories()
    ]


@in_its_language
def season_result_pdf(season: Season) -> bytes:
    """The individual season ranking."""
    results = ListResult.objects.for_season(season).public_in(season)
    ranking = AVERAGE if season.ranking == Season.Ranking.AVERAGE else PLAYERS_WITH_LISTS
    sections = _category_sections(results, lambda rows: season_player_standings(season, rows))
    return pdf.standings_pdf(
        _("Einzelwertung"),
        f"{season.name} · {season.ranking_text}",
        season_player_standings(season, results),
        ranking,
        provisional=_provisional(
            progress_in(season),
            unpublished=results.provisional(),
        ),
        sections=sections,
        notes=[category_note()] if sections else [],
    )


@in_its_language
def team_result_pdf(scope: Season | Tournament) -> bytes:
    """The league table of a season, or of one match day."""
    if isinstance(scope, Season):
        results, subtitle = ListResult.objects.for_season(scope), scope.name
    else:
        results, subtitle = ListResult.objects.for_tournament(scope), _tournament_line(scope)
    results = results.public()
    scheme = match_points_scheme(scope)
    return pdf.standings_pdf(
        _("Mannschaftswertung"),
        subtitle,
        team_standings(results, scheme),
        TEAMS,
        provisional=_provisional(
            progress_in(scope),
            unpublished=results.provisional(),
            # A season's pages are cached on its revision alone, without the minute a
            # window ends in: only a match day's table names its window.
            until=None if isinstance(scope, Season) else objections_until(scope.series.all()),
        ),
        rules=match_points_rule(scheme),
    )


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One line of the "where do I sit" list: a player, his club, his table and seat."""

    player: str
    club: str
    table: int
    position: int


def seat_lines(series: Series) -> list[SeatLine]:
    """Every player of the series by surname in German dictionary order
    (``collation.surname_key``: Łukasz beside Lukas, whatever the database's collation)
    with his table and seat: a player looks for his surname."""
    seats = sorted(
        Seat.objects.filter(series=series).select_related("player__club", "table"),
        key=lambda seat: (surname_key(seat.player.name), seat.player_id),
    )
    return [
        SeatLine(
            seat.player.public_name,
            seat.player.club.name if seat.player.club else "",
            seat.table.number,
            seat.position,
        )
        for seat in seats
    ]


@in_its_language
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

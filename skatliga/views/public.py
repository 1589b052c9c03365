"""Public pages, no login: standings at every level, players' and teams' pages, the hall
display, and the printable PDFs.

Standings come from ``ListResult`` grouped queries (``models.ListResultQuerySet.standings``,
``standings.team_standings``); tables are django-tables2 classes that also export CSV.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from skatliga import printing
from skatliga.export import SpreadsheetExport
from skatliga.models import ListResult, Player, Season, Series, Table, Team, Tournament
from skatliga.standings import (
    player_statistics,
    progress,
    season_player_standings,
    series_totals,
    team_standings,
)
from skatliga.tables import AverageStandingTable, PlayerStandingTable, TeamStandingTable
from skatliga.views.sheet import build_sheet

SEASON_ROWS_PER_PAGE = 100
SEASON_TOURNAMENTS_SHOWN = 12
"""The latest match days on a season's page; the tournament list has them all."""
TOURNAMENTS_PER_PAGE = 50
"""A league season has thousands of players: its page shows them a hundred at a time (rendering
every row cost seconds at a thousand teams); the CSV export still has every row."""


def _tables(
    request: HttpRequest,
    results: QuerySet[ListResult],
    lots_of: Tournament | None = None,
    per_page: int | None = None,
    season: Season | None = None,
) -> tuple[PlayerStandingTable, TeamStandingTable | None]:
    paginate: dict[str, int] | bool = {"per_page": per_page} if per_page else False
    if season is not None:
        table_class = (
            AverageStandingTable
            if season.ranking == Season.Ranking.AVERAGE
            else PlayerStandingTable
        )
        players = table_class(season_player_standings(season, results), prefix="p-")
    else:
        players = PlayerStandingTable(results.standings(lots_of=lots_of), prefix="p-")
    RequestConfig(request, paginate=paginate).configure(players)
    team_rows = team_standings(results)
    teams = None
    if team_rows:
        teams = TeamStandingTable(team_rows, prefix="t-")
        RequestConfig(request, paginate=paginate).configure(teams)
    return players, teams


EXPORT_FORMATS = ("csv", "xlsx", "ods")


def _export(request: HttpRequest, players: Any, teams: Any, name: str) -> HttpResponse | None:
    """The standings as a spreadsheet when the page is asked for ``?export=csv|xlsx|ods``
    (``&table=teams``: the teams'): every row, numbers as numbers, text cells neutralised
    alike in every format (``export.SpreadsheetExport``)."""
    kind = request.GET.get("export")
    if kind not in EXPORT_FORMATS:
        return None
    table = players
    if request.GET.get("table") == "teams" and teams is not None:
        table, name = teams, f"{name}-teams"
    return SpreadsheetExport(kind, table).response(f"{slugify(name)}.{kind}")


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slugify(name)}.pdf"'
    return response


def tournaments(request: HttpRequest) -> HttpResponse:
    """Every tournament, newest first, a page at a time; ``?season=slug`` for one season's."""
    listed = Tournament.objects.select_related("season")
    season = None
    if request.GET.get("season"):
        season = get_object_or_404(Season, slug=request.GET["season"])
        listed = listed.filter(season=season)
    page = Paginator(listed, TOURNAMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "public/tournaments.html",
        {"page": page, "season": season, "seasons": Season.objects.all()},
    )


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("season"), slug=slug)


def _series(tournament: Tournament, number: int) -> Series:
    return get_object_or_404(tournament.series, number=number)


def _hidden(tournament: Tournament, series: Series) -> bool:
    """Whether the public may not see the series' lists yet (the tournament's choice)."""
    return tournament.hide_unpublished and not series.is_published


def _shown_series(tournament: Tournament, number: int) -> Series:
    """The series, or 404 while its tournament hides it until publication."""
    series = _series(tournament, number)
    if _hidden(tournament, series):
        raise Http404
    return series


def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's standings: the sum of its series, ranked (rules.md section 6)."""
    tournament = _tournament(slug)
    results = ListResult.objects.for_tournament(tournament).public()
    players, teams = _tables(request, results, lots_of=tournament)
    export = _export(request, players, teams, tournament.slug)
    if export is not None:
        return export
    return render(
        request,
        "public/tournament.html",
        {
            "tournament": tournament,
            "players": players,
            "teams": teams,
            "series_list": tournament.series.prefetch_related("tables"),
            "provisional": results.provisional(),
            "progress": progress(Table.objects.filter(series__tournament=tournament)),
        },
    )


def series(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One series: its standings, its team result, its lists."""
    tournament = _tournament(slug)
    series = _series(tournament, number)
    if _hidden(tournament, series):
        if request.GET.get("export"):
            raise Http404
        return render(
            request,
            "public/series.html",
            {"tournament": tournament, "series": series, "hidden": True},
        )
    players, teams = _tables(request, ListResult.objects.for_series(series))
    export = _export(request, players, teams, f"{tournament.slug}-{series.number}")
    if export is not None:
        return export
    tables = series.tables.prefetch_related(
        Prefetch("results", queryset=ListResult.objects.select_related("player"))
    )
    return render(
        request,
        "public/series.html",
        {
            "tournament": tournament,
            "series": series,
            "players": players,
            "teams": teams,
            "tables": tables,
            "progress": progress(Table.objects.filter(series=series)),
        },
    )


def season(request: HttpRequest, slug: str) -> HttpResponse:
    """A season: the individual ranking and the league table."""
    season = get_object_or_404(Season, slug=slug)
    results = ListResult.objects.for_season(season).public()
    players, teams = _tables(request, results, per_page=SEASON_ROWS_PER_PAGE, season=season)
    export = _export(request, players, teams, season.slug)
    if export is not None:
        return export
    return render(
        request,
        "public/season.html",
        {
            "season": season,
            "players": players,
            "teams": teams,
            "tournaments": season.tournaments.all()[:SEASON_TOURNAMENTS_SHOWN],
            "tournament_count": season.tournaments.count(),
            "provisional": results.provisional(),
        },
    )


def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's history: every list, the series totals over time, and statistics."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    history = list(
        ListResult.objects.filter(player=player)
        .public()
        .select_related("table", "series", "tournament", "season", "team")
        .order_by("-tournament__date", "-series__number")
    )
    points = series_totals(history)
    return render(
        request,
        "public/player.html",
        {
            "player": player,
            "history": history,
            "chart": _chart(points),
            "statistics": player_statistics(player),
            "teams": player.teams.select_related("season"),
        },
    )


def team(request: HttpRequest, pk: int) -> HttpResponse:
    """A team: its players and their totals over the season, and its match days."""
    team = get_object_or_404(Team.objects.select_related("season", "club"), pk=pk)
    results = ListResult.objects.filter(team=team).public()
    players = PlayerStandingTable(results.standings(), prefix="p-")
    RequestConfig(request, paginate=False).configure(players)
    match_days = [
        (
            tournament,
            next(
                (
                    row
                    for row in team_standings(
                        ListResult.objects.for_tournament(tournament).public()
                    )
                    if row.team_id == team.pk
                ),
                None,
            ),
        )
        for tournament in Tournament.objects.filter(results__team=team).distinct()
    ]
    return render(
        request,
        "public/team.html",
        {
            "team": team,
            "players": players,
            "match_days": match_days,
            "provisional": results.provisional(),
        },
    )


def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """The running tournament on a projector: large type, the ranking refreshed in place
    (hall.js) every 30 seconds, or every ``?every=N`` (5 to 600)."""
    tournament = _tournament(slug)
    results = ListResult.objects.for_tournament(tournament).public()
    rows = results.standings(lots_of=tournament)
    try:
        every = min(600, max(5, int(request.GET.get("every", 30))))
    except ValueError:
        every = 30
    return render(
        request,
        "public/hall.html",
        {
            "tournament": tournament,
            "rows": rows,
            "refresh": every,
            "progress": progress(Table.objects.filter(series__tournament=tournament)),
            "provisional": results.provisional(),
        },
    )


def _chart(points: list[tuple[str, int]], width: int = 640, height: int = 220) -> dict[str, Any]:
    """Coordinates of an inline SVG line chart of series totals, drawn by the template."""
    if not points:
        return {}
    left, right, top, bottom = 56, 40, 24, 36
    values = [value for _, value in points]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    step = (width - left - right) / max(len(points) - 1, 1)
    label_every = -(-len(points) // 6)

    def y(value: int) -> float:
        return round(top + (height - top - bottom) * (high - value) / span, 1)

    dots = [
        {
            "x": round(left + i * step, 1),
            "y": y(value),
            "value_y": round(y(value) - 9, 1),
            "label": label if i % label_every == 0 else "",
            # The first value starts right of the y-axis labels, the last ends inside the chart.
            "anchor": "start"
            if i == 0 and len(points) > 1
            else "end"
            if i and i == len(points) - 1
            else "middle",
            "title": label,
            "value": value,
        }
        for i, (label, value) in enumerate(points)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "tick_x": left - 6,
        "bottom": height - bottom + 18,
        "ticks": [{"y": y(v), "value": v} for v in sorted({low, 0, high})],
        "path": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
    }


# --- PDFs -------------------------------------------------------------------------------------


def series_sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """All score sheets of a series; ``?blank=1`` for the forms to print before it."""
    tournament = _tournament(slug)
    blank = request.GET.get("blank") == "1"
    series = _series(tournament, number) if blank else _shown_series(tournament, number)
    name = f"{slug}-{_('serie')}-{number}-{_('blanko') if blank else _('listen')}"
    return _pdf(printing.series_score_sheets_pdf(series, blank=blank), name)


def seats(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Where do I sit: every player of a series in alphabetical order, his table and seat."""
    tournament = _tournament(slug)
    series = _series(tournament, number)
    return render(
        request,
        "public/seats.html",
        {"tournament": tournament, "series": series, "lines": printing.seat_lines(series)},
    )


def seats_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _series(_tournament(slug), number)
    return _pdf(printing.seat_list_pdf(series), f"{slug}-{_('sitzplan')}-{number}")


def series_results_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = _shown_series(_tournament(slug), number)
    return _pdf(printing.series_result_pdf(series), f"{slug}-{_('serie')}-{number}")


def tournament_results_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    return _pdf(printing.tournament_result_pdf(tournament), slug)


def tournament_teams_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    if not ListResult.objects.for_tournament(tournament).filter(team__isnull=False).exists():
        raise Http404(_("Dieses Turnier hat keine Mannschaftswertung."))
    return _pdf(printing.team_result_pdf(tournament), f"{slug}-{_('mannschaften')}")


def season_results_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    return _pdf(printing.season_result_pdf(season), season.slug)


def season_teams_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    if not season.teams.exists():
        raise Http404
    return _pdf(printing.team_result_pdf(season), f"{season.slug}-{_('mannschaften')}")


def table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """One list, read-only: every row with its breakdown and running totals, and the summary."""
    tournament = _tournament(slug)
    series = _shown_series(tournament, number)
    table_obj = get_object_or_404(series.tables, number=table)
    seats = list(table_obj.seats.select_related("player", "player__club").order_by("position"))
    sheet = build_sheet(
        table_obj,
        list(table_obj.games.order_by("number")),
        games_per_list=tournament.games_per_list(table_obj.size),
    )
    names = {seat.position: seat.player.name for seat in seats}
    rows = [
        (
            row,
            names.get(row.game.declarer or 0, "") if row.game else "",
            printing.game_label(row.game, row.scored) if row.game and row.scored else "",
        )
        for row in sheet.rows
    ]
    return render(
        request,
        "public/table.html",
        {
            "tournament": tournament,
            "series": series,
            "table": table_obj,
            "seats": seats,
            "sheet": sheet,
            "rows": rows,
            "summary": list(zip(seats, sheet.summary, strict=True)),
            "is_referee": tournament.is_referee(request.user),
        },
    )

"""Public pages, no login: standings at every level, players' and teams' pages, the hall
display, and the printable PDFs.

Standings come from ``ListResult`` grouped queries (``models.ListResultQuerySet.standings``,
``standings.team_standings``); tables are django-tables2 classes that also export CSV.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from skatliga import printing, statements
from skatliga.export import SpreadsheetExport
from skatliga.models import (
    Category,
    Club,
    ListResult,
    ListResultQuerySet,
    Player,
    Season,
    Seat,
    Series,
    Table,
    Team,
    Tournament,
    match_points_rule,
)
from skatliga.sheet import Sheet, SheetRow, build_sheet, readonly_list_rows
from skatliga.standings import (
    match_points_scheme,
    player_statistics,
    progress_in,
    running_in,
    season_player_standings,
    series_totals,
    team_standings,
)
from skatliga.tables import (
    AverageStandingTable,
    PlayerHistoryTable,
    PlayerStandingTable,
    StandingsData,
    TeamStandingTable,
    reverser,
)
from skatliga.views.caching import cached, latest, render_page

SEASON_ROWS_PER_PAGE = 100
SEASON_TOURNAMENTS_SHOWN = 12
"""The latest match days on a season's page; the tournament list has them all."""
TOURNAMENTS_PER_PAGE = 50
"""A league season has thousands of players: its page shows them a hundred at a time (rendering
every row cost seconds at a thousand teams); the CSV export still has every row."""


def _player_table(
    request: HttpRequest,
    results: ListResultQuerySet,
    *,
    lots_of: Tournament | None = None,
    per_page: int | None = None,
    season: Season | None = None,
    prefix: str = "p-",
    running_players: frozenset[int] = frozenset(),
) -> PlayerStandingTable:
    """The player standing of ``results``: ranked in the season's mode, if given; players
    in ``running_players`` are marked as playing a list in progress."""
    paginate: dict[str, int] | bool = {"per_page": per_page} if per_page else False
    if season is not None and season.ranking != Season.Ranking.SUM:
        table_class = (
            AverageStandingTable
            if season.ranking == Season.Ranking.AVERAGE
            else PlayerStandingTable
        )
        players = table_class(
            season_player_standings(season, results), prefix=prefix, running=running_players
        )
    else:
        standing = results.ranked(lots_of=lots_of)
        page = request.GET.get(f"{prefix}page", "1")
        if per_page and page.isdigit() and int(page) > 0 and f"{prefix}sort" not in request.GET:
            # The page's rows and the number of players in one query; the paginator finds both.
            standing.prefetch((int(page) - 1) * per_page, int(page) * per_page)
        players = PlayerStandingTable(
            StandingsData(standing), prefix=prefix, running=running_players
        )
    RequestConfig(request, paginate=paginate).configure(players)
    return players


def _tables(
    request: HttpRequest,
    results: ListResultQuerySet,
    lots_of: Tournament | None = None,
    per_page: int | None = None,
    season: Season | None = None,
    scheme: str = Season.MatchPoints.PLACES,
    running_players: frozenset[int] = frozenset(),
) -> tuple[PlayerStandingTable, TeamStandingTable | None]:
    players = _player_table(
        request,
        results,
        lots_of=lots_of,
        per_page=per_page,
        season=season,
        running_players=running_players,
    )
    team_rows = team_standings(results, scheme)
    teams = None
    if team_rows:
        paginate: dict[str, int] | bool = {"per_page": per_page} if per_page else False
        teams = TeamStandingTable(team_rows, prefix="t-", scheme=scheme)
        RequestConfig(request, paginate=paginate).configure(teams)
    return players, teams


class _Categories:
    """The player standing of each category: the same ranking (``ranking``: the arguments
    of :func:`_player_table`) over the players of one category, its ranks counted within."""

    def __init__(self, request: HttpRequest, results: ListResultQuerySet, **ranking: Any) -> None:
        self.request, self.results, self.ranking = request, results, ranking
        self.found: list[str] | None = None
        """The categories with players here, where already read (``categories()`` if not)."""

    def table(self, category: str) -> PlayerStandingTable:
        rows = self.results.in_category(category)
        return _player_table(self.request, rows, prefix=f"{category}-", **self.ranking)

    def tables(self) -> list[tuple[str, str, PlayerStandingTable]]:
        """(category, its name, its table) for each category that has players here."""
        return [
            (category, str(Category(category).label), self.table(category))
            for category in (self.found if self.found is not None else self.results.categories())
        ]


EXPORT_FORMATS = ("csv", "xlsx", "ods")


def _export(
    request: HttpRequest,
    players: Any,
    teams: Any,
    name: str,
    categories: _Categories | None = None,
) -> HttpResponse | None:
    """The standings as a spreadsheet when the page is asked for ``?export=csv|xlsx|ods``
    (``&table=teams``: the teams'; ``&category=senioren``: one category's players, where
    the page has ``categories``): every row, numbers as numbers, text cells neutralised
    alike in every format (``export.SpreadsheetExport``)."""
    kind = request.GET.get("export")
    if kind not in EXPORT_FORMATS:
        return None
    table = players
    category = request.GET.get("category")
    if request.GET.get("table") == "teams" and teams is not None:
        table, name = teams, f"{name}-teams"
    elif category:
        if categories is None or category not in Category.values:
            raise Http404
        table, name = categories.table(category), f"{name}-{category}"
    return SpreadsheetExport(kind, table).response(f"{slugify(name)}.{kind}")


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slugify(name)}.pdf"'
    return response


def _revision(slug: str) -> tuple[Any, ...]:
    """(id, revision, revised_at) of the tournament with ``slug``, or 404: all that
    a page served from the cache needs, read with one plain statement (building the ORM's
    query for the whole row cost more than the rest of a cached page)."""
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {q('id')}, {q('revision')}, {q('revised_at')} "
            f"FROM {q(Tournament._meta.db_table)} WHERE {q('slug')} = %s",
            [slug],
        )
        row = cursor.fetchone()
    if row is None:
        raise Http404
    pk, revision, revised_at = row
    return pk, revision, _moment(revised_at)


def _moment(value: datetime.datetime | None) -> datetime.datetime | None:
    """A time read with a plain statement: PostgreSQL gives an aware datetime, SQLite a
    naive one in UTC."""
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.UTC)
    return value


def _fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _in_tournament(
    request: HttpRequest, slug: str, build: Callable[[Tournament], HttpResponse]
) -> HttpResponseBase:
    """A page, CSV or PDF of one tournament (its series and lists too), cached on its
    revision; ``build`` gets the tournament, read only when the page is built."""
    pk, revision, revised_at = _revision(slug)
    return cached(
        request,
        ("tournament", pk, revision),
        lambda: build(_tournament(slug)),
        last_modified=revised_at,
    )


def _in_season(
    request: HttpRequest, slug: str, build: Callable[[Season], HttpResponse]
) -> HttpResponseBase:
    """A page, CSV or PDF of a season, cached on its revision (the season's row read with
    one plain statement: a page built anew needs all of it)."""
    found = statements.rows_where(Season, "slug", slug)
    if not found:
        raise Http404
    season = found[0]
    return cached(
        request,
        ("season", season.pk, season.revision),
        lambda: build(season),
        last_modified=season.revised_at,
    )


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


def tournament(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A tournament's standings: the sum of its series, ranked (rules.md section 6)."""
    return _in_tournament(request, slug, lambda tournament: _tournament_page(request, tournament))


def _tournament_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    scheme = match_points_scheme(tournament)
    lists = running_in(tournament)
    players, teams = _tables(
        request, results, lots_of=tournament, scheme=scheme, running_players=lists.players
    )
    categories = _Categories(request, results, lots_of=tournament)
    export = _export(request, players, teams, tournament.slug, categories)
    if export is not None:
        return export
    provisional, categories.found = results.provisional_and_categories()
    return render_page(
        request,
        "public/tournament.html",
        {
            "tournament": tournament,
            "players": players,
            "teams": teams,
            "categories": categories.tables(),
            "scheme_text": match_points_rule(scheme) if teams else "",
            "series_list": _series_lines(tournament),
            "substitutes": _substitute_notes(tournament, lambda: printing.public_seats(tournament)),
            "provisional": provisional,
            "progress": progress_in(tournament),
            "running": lists.lists,
        },
    )


def series(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    """One series: its standings, its team result, its lists."""
    return _in_tournament(
        request, slug, lambda tournament: _series_page(request, tournament, number)
    )


def _series_page(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = _series(tournament, number)
    if _hidden(tournament, series):
        if request.GET.get("export"):
            raise Http404
        return render(
            request,
            "public/series.html",
            {"tournament": tournament, "series": series, "hidden": True},
        )
    scheme = match_points_scheme(tournament)
    lists = running_in(series)
    players, teams = _tables(
        request,
        ListResult.objects.for_series(series),
        scheme=scheme,
        running_players=lists.players,
    )
    export = _export(request, players, teams, f"{tournament.slug}-{series.number}")
    if export is not None:
        return export
    tables = _table_cards(series)
    return render_page(
        request,
        "public/series.html",
        {
            "tournament": tournament,
            "series": series,
            "players": players,
            "teams": teams,
            "scheme_text": match_points_rule(scheme) if teams else "",
            "tables": tables,
            "substitutes": _substitute_notes(series, lambda: Seat.objects.filter(series=series)),
            "progress": progress_in(series),
            "running": lists.lists,
        },
    )


@dataclass(frozen=True, slots=True)
class _SeriesLine:
    """A series in a tournament's list of series: its number, published or not, its tables."""

    number: int
    is_published: bool
    table_count: int


def _series_lines(tournament: Tournament) -> list[_SeriesLine]:
    """The series of ``tournament`` with their number of tables: one plain statement."""
    q = connection.ops.quote_name
    rows = _fetch(
        f"SELECT se.{q('number')}, se.{q('published_at')}, "
        f"(SELECT COUNT(*) FROM {q(Table._meta.db_table)} t "
        f"WHERE t.{q('series_id')} = se.{q('id')}) "
        f"FROM {q(Series._meta.db_table)} se WHERE se.{q('tournament_id')} = %s "
        f"ORDER BY se.{q('number')}",
        [tournament.pk],
    )
    return [
        _SeriesLine(number, published is not None, tables) for number, published, tables in rows
    ]


def _substitute_notes(scope: Tournament | Series, seats: Callable[[], QuerySet[Seat]]) -> list[str]:
    """``printing.substitute_notes(seats())``, read only where a substitute took a seat in
    ``scope`` (most tournaments have none: one plain statement then)."""
    q = connection.ops.quote_name
    where = (
        f"se.{q('tournament_id')} = %s" if isinstance(scope, Tournament) else f"se.{q('id')} = %s"
    )
    found = _fetch(
        f"SELECT 1 FROM {q(Seat._meta.db_table)} s "
        f"JOIN {q(Series._meta.db_table)} se ON se.{q('id')} = s.{q('series_id')} "
        f"WHERE {where} AND s.{q('substitute_id')} IS NOT NULL LIMIT 1",
        [scope.pk],
    )
    return printing.substitute_notes(seats()) if found else []


@dataclass(frozen=True, slots=True)
class _CardRow:
    """A player's line on a table's card: seat, name, total, and from which game on a
    substitute played (SkWO 4.4), None for the seat's own player."""

    position: int
    player_id: int
    name: str
    total: int
    substitute_from: int | None
    url: str


@dataclass(slots=True)
class _TableCard:
    """A table of a series as its card shows it: number, closed or not, its players' lines."""

    number: int
    is_closed: bool
    url: str
    results: list[_CardRow]


def _table_cards(series: Series) -> list[_TableCard]:
    """The series' tables with their result rows, in seat order (a substitute's row after
    the row of the player who left, whose seat it shares): one plain statement."""
    q = connection.ops.quote_name
    substitute_from = (
        f"(SELECT s.{q('substitute_from')} FROM {q(Seat._meta.db_table)} s "
        f"WHERE s.{q('table_id')} = r.{q('table_id')} "
        f"AND s.{q('substitute_id')} = r.{q('player_id')} LIMIT 1)"
    )
    rows = _fetch(
        f"SELECT t.{q('id')}, t.{q('number')}, t.{q('closed_at')}, r.{q('position')}, "
        f"r.{q('player_id')}, p.{q('name')}, r.{q('total')}, {substitute_from} AS sub "
        f"FROM {q(Table._meta.db_table)} t "
        f"LEFT JOIN {q(ListResult._meta.db_table)} r ON r.{q('table_id')} = t.{q('id')} "
        f"LEFT JOIN {q(Player._meta.db_table)} p ON p.{q('id')} = r.{q('player_id')} "
        f"WHERE t.{q('series_id')} = %s "
        f"ORDER BY t.{q('number')}, t.{q('id')}, r.{q('position')}, sub NULLS FIRST",
        [series.pk],
    )
    slug, number = series.tournament.slug, series.number
    table_url, player_url = reverser("table", 3), reverser("player", 1)
    cards: dict[int, _TableCard] = {}
    for table, table_number, closed_at, position, player, name, total, sub in rows:
        card = cards.get(table)
        if card is None:
            url = table_url(slug, number, table_number)
            card = cards[table] = _TableCard(table_number, closed_at is not None, url, [])
        if player is not None:
            card.results.append(_CardRow(position, player, name, total, sub, player_url(player)))
    return list(cards.values())


@dataclass(frozen=True, slots=True)
class _TournamentLine:
    """A match day in a season's list: what the list shows, and how many the season has."""

    slug: str
    name: str
    date: datetime.date
    venue: str
    count: int
    url: str


def _latest_tournaments(season: Season) -> tuple[list[_TournamentLine], bool]:
    """The season's latest match days (``SEASON_TOURNAMENTS_SHOWN``), newest first, each
    with the number of the season's tournaments, and whether any of them hides its series
    until publication (``ListResultQuerySet.public_in``): one plain statement."""
    q = connection.ops.quote_name
    hides = f"CASE WHEN {q('hide_unpublished')} THEN 1 ELSE 0 END"
    rows = _fetch(
        f"SELECT {q('slug')}, {q('name')}, {q('date')}, {q('venue')}, COUNT(*) OVER (), "
        f"MAX({hides}) OVER () FROM {q(Tournament._meta.db_table)} WHERE {q('season_id')} = %s "
        f"ORDER BY {q('date')} DESC, {q('name')} LIMIT %s",
        [season.pk, SEASON_TOURNAMENTS_SHOWN],
    )
    url = reverser("standings", 1)
    lines = [
        _TournamentLine(
            slug,
            name,
            date,
            venue,
            count,
            url(slug),
        )
        for slug, name, date, venue, count, _hides in rows
    ]
    return lines, bool(rows and rows[0][-1])


def season(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A season: the individual ranking and the league table."""
    return _in_season(request, slug, lambda season: _season_page(request, season))


def _season_page(request: HttpRequest, season: Season) -> HttpResponse:
    shown, hides = _latest_tournaments(season)
    results = ListResult.objects.for_season(season)
    if hides:  # public_in(season), its question answered with the match days
        results = results.public()
    lists = running_in(season)
    players, teams = _tables(
        request,
        results,
        per_page=SEASON_ROWS_PER_PAGE,
        season=season,
        scheme=season.match_points,
        running_players=lists.players,
    )
    categories = _Categories(request, results, per_page=SEASON_ROWS_PER_PAGE, season=season)
    export = _export(request, players, teams, season.slug, categories)
    if export is not None:
        return export
    provisional, categories.found = results.provisional_and_categories()
    return render_page(
        request,
        "public/season.html",
        {
            "season": season,
            "players": players,
            "teams": teams,
            "categories": categories.tables(),
            "tournaments": shown,
            "tournament_count": shown[0].count if shown else 0,
            "provisional": provisional,
            "running": lists.lists,
        },
    )


def player(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A player's history: every list, the series totals over time, and statistics."""
    # What the page shows: the player, the tournaments he played in, his teams' seasons;
    # read with plain statements (a cached page needs nothing else).
    found = _fetch(
        "SELECT p.id, p.name, p.number, p.club_id, c.name FROM skatliga_player p "
        "LEFT JOIN skatliga_club c ON c.id = p.club_id WHERE p.id = %s",
        [pk],
    )
    if not found:
        raise Http404
    played = _fetch(
        "SELECT id, revision, revised_at FROM skatliga_tournament WHERE id IN "
        "(SELECT tournament_id FROM skatliga_listresult WHERE player_id = %s) ORDER BY id",
        [pk],
    )
    teams = _fetch(
        "SELECT t.id, t.season_id, s.revision, t.name, s.name FROM skatliga_team_players m "
        "JOIN skatliga_team t ON t.id = m.team_id JOIN skatliga_season s ON s.id = t.season_id "
        "WHERE m.player_id = %s ORDER BY t.name, t.id",
        [pk],
    )
    key = ("player", *found[0], [(t, revision) for t, revision, _at in played], teams)
    modified = latest(*(_moment(at) for _pk, _revision, at in played))

    def build() -> HttpResponse:
        _pk, name, number, club_id, club = found[0]
        shown = statements.row_of(Player, id=pk, name=name, number=number, club_id=club_id)
        if club_id is not None:
            shown.club = statements.row_of(Club, id=club_id, name=club)
        return _player_page(
            request, shown, [(t, team, season) for t, _s, _r, team, season in teams]
        )

    return cached(request, key, build, last_modified=modified)


def _player_page(
    request: HttpRequest, player: Player, teams: list[tuple[int, str, str]]
) -> HttpResponse:
    """``teams``: (key, name, season's name) of each of his teams."""
    rows = ListResult.objects.for_player(player.pk).history()
    history = PlayerHistoryTable(rows)
    RequestConfig(request, paginate=False).configure(history)
    return render_page(
        request,
        "public/player.html",
        {
            "player": player,
            "history": history,
            "chart": _chart(series_totals(rows)),
            "statistics": player_statistics(player),
            "teams": teams,
        },
    )


def team(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A team: its players and their totals over the season, and its match days."""
    found = _fetch(
        "SELECT t.season_id, s.revision, s.revised_at FROM skatliga_team t "
        "JOIN skatliga_season s ON s.id = t.season_id WHERE t.id = %s",
        [pk],
    )
    if not found:
        raise Http404
    season, season_revision, season_revised = found[0]
    played = _fetch(
        "SELECT id, revision, revised_at FROM skatliga_tournament WHERE id IN "
        "(SELECT tournament_id FROM skatliga_listresult WHERE team_id = %s) ORDER BY id",
        [pk],
    )
    key = ("team", pk, season, season_revision, [(t, revision) for t, revision, _at in played])
    modified = latest(_moment(season_revised), *(_moment(at) for _pk, _revision, at in played))

    def build() -> HttpResponse:
        return _team_page(request, Team.objects.select_related("season", "club").get(pk=pk))

    return cached(request, key, build, last_modified=modified)


def _team_page(request: HttpRequest, team: Team) -> HttpResponse:
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
                        ListResult.objects.for_tournament(tournament).public_in(tournament),
                        team.season.match_points,
                    )
                    if row.team_id == team.pk
                ),
                None,
            ),
        )
        for tournament in Tournament.objects.filter(results__team=team).distinct()
    ]
    return render_page(
        request,
        "public/team.html",
        {
            "team": team,
            "players": players,
            "match_days": match_days,
            "provisional": results.provisional(),
        },
    )


def hall(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The running tournament on a projector: large type, the ranking refreshed in place
    (hall.js) every 30 seconds, or every ``?every=N`` (5 to 600)."""
    return _in_tournament(request, slug, lambda tournament: _hall_page(request, tournament))


def _hall_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    rows = results.standings(lots_of=tournament)
    lists = running_in(tournament)
    try:
        every = min(600, max(5, int(request.GET.get("every", 30))))
    except ValueError:
        every = 30
    return render_page(
        request,
        "public/hall.html",
        {
            "tournament": tournament,
            "rows": rows,
            "refresh": every,
            "progress": progress_in(tournament),
            "provisional": results.provisional(),
            "running": lists.lists,
            "running_players": lists.players,
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


def series_sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    """All score sheets of a series; ``?blank=1`` for the forms to print before it."""
    blank = request.GET.get("blank") == "1"

    def build(tournament: Tournament) -> HttpResponse:
        series = _series(tournament, number) if blank else _shown_series(tournament, number)
        name = f"{slug}-{_('serie')}-{number}-{_('blanko') if blank else _('listen')}"
        return _pdf(printing.series_score_sheets_pdf(series, blank=blank), name)

    return _in_tournament(request, slug, build)


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


def series_results_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    def build(tournament: Tournament) -> HttpResponse:
        series = _shown_series(tournament, number)
        return _pdf(printing.series_result_pdf(series), f"{slug}-{_('serie')}-{number}")

    return _in_tournament(request, slug, build)


def tournament_results_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _in_tournament(
        request, slug, lambda tournament: _pdf(printing.tournament_result_pdf(tournament), slug)
    )


def tournament_teams_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    def build(tournament: Tournament) -> HttpResponse:
        if not ListResult.objects.for_tournament(tournament).filter(team__isnull=False).exists():
            raise Http404(_("Dieses Turnier hat keine Mannschaftswertung."))
        return _pdf(printing.team_result_pdf(tournament), f"{slug}-{_('mannschaften')}")

    return _in_tournament(request, slug, build)


def season_results_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    return _in_season(
        request, slug, lambda season: _pdf(printing.season_result_pdf(season), season.slug)
    )


def season_teams_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    def build(season: Season) -> HttpResponse:
        if not season.teams.exists():
            raise Http404
        return _pdf(printing.team_result_pdf(season), f"{season.slug}-{_('mannschaften')}")

    return _in_season(request, slug, build)


def readonly_rows(sheet: Sheet, seats: Sequence[Seat]) -> list[tuple[SheetRow, str, str]]:
    """Each row of the read-only list with its declarer's name (a substitute's from his
    first game on) and the game's label, empty where nobody declared."""
    by_position = {seat.position: seat for seat in seats}
    return [
        (
            row,
            by_position[row.game.declarer].player_for(row.number).name
            if row.game and row.game.declarer in by_position
            else "",
            printing.game_label(row.game, row.scored) if row.game and row.scored else "",
        )
        for row in sheet.rows
    ]


def table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponseBase:
    """One list, read-only: every row with its breakdown and running totals, and the summary."""
    return _in_tournament(
        request, slug, lambda tournament: _table_page(request, tournament, number, table)
    )


def _table_page(
    request: HttpRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    # The table and its series in one statement; the series is the tournament's.
    table_obj = get_object_or_404(
        Table.objects.select_related("series"),
        series__tournament=tournament,
        series__number=number,
        number=table,
    )
    series = table_obj.series
    series.tournament = tournament
    if _hidden(tournament, series):
        raise Http404
    seats = list(table_obj.seats.select_related("player", "substitute").order_by("position"))
    sheet = build_sheet(
        table_obj,
        list(table_obj.games.order_by("number")),
        games_per_list=tournament.games_per_list(table_obj.size),
        seats=seats,
    )
    rows = readonly_list_rows(readonly_rows(sheet, seats))
    return render_page(
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

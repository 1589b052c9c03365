"""What the public pages share: the standings tables of a scope, their spreadsheet export,
PDF responses, and the cache keyed on a tournament's or season's revision.

Standings come from ``ListResult`` grouped queries (``models.ListResultQuerySet.standings``,
``standings.queries.team_standings``); tables are django-tables2 classes that also export CSV.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django_tables2 import RequestConfig

from skatliga import revisions
from skatliga.export import EXCEL_CSV, Caption, SpreadsheetExport
from skatliga.forms.parsing import whole_number
from skatliga.languages import to_its_language
from skatliga.models import Category, ListResultQuerySet, Season, Series, Tournament
from skatliga.standings.queries import RunningList, season_player_standings, team_standings
from skatliga.standings.rankings import AVERAGE, PLAYERS
from skatliga.standings.tables import StandingTable, team_table
from skatliga.views.caching import cached

EXPORT_FORMATS = ("csv", EXCEL_CSV, "xlsx", "ods")


def player_table(
    request: HttpRequest,
    results: ListResultQuerySet,
    *,
    lots_of: Tournament | None = None,
    per_page: int | None = None,
    season: Season | None = None,
    prefix: str = "p-",
    running_players: frozenset[int] = frozenset(),
) -> StandingTable:
    """The player standing of ``results``: ranked in the season's mode, if given; players
    in ``running_players`` are marked as playing a list in progress."""
    paginate: dict[str, int] | bool = {"per_page": per_page} if per_page else False
    if season is not None and season.ranking != Season.Ranking.SUM:
        ranking = AVERAGE if season.ranking == Season.Ranking.AVERAGE else PLAYERS
        players = StandingTable(
            season_player_standings(season, results),
            ranking,
            prefix=prefix,
            running=running_players,
        )
    else:
        standing = results.ranked(lots_of=lots_of)
        page = whole_number(request.GET.get(f"{prefix}page", "1"), most=10**6)
        if per_page and page and f"{prefix}sort" not in request.GET:
            # The page's rows and the number of players in one query; the paginator finds both.
            standing.prefetch((page - 1) * per_page, page * per_page)
        # Unpaged, every row is read at once (no count asked before the rows).
        rows = standing if per_page else standing.rows()
        players = StandingTable(rows, PLAYERS, prefix=prefix, running=running_players)
    RequestConfig(request, paginate=paginate).configure(players)
    return players


def standings_tables(
    request: HttpRequest,
    results: ListResultQuerySet,
    lots_of: Tournament | None = None,
    per_page: int | None = None,
    season: Season | None = None,
    scheme: str = Season.MatchPoints.PLACES,
    running_players: frozenset[int] = frozenset(),
) -> tuple[StandingTable, StandingTable | None]:
    players = player_table(
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
        teams = team_table(team_rows, scheme, prefix="t-")
        RequestConfig(request, paginate=paginate).configure(teams)
    return players, teams


class Categories:
    """The player standing of each category: the same ranking (``ranking``: the arguments
    of :func:`player_table`) over the players of one category, its ranks counted within."""

    def __init__(self, request: HttpRequest, results: ListResultQuerySet, **ranking: Any) -> None:
        self.request, self.results, self.ranking = request, results, ranking
        self.found: list[str] | None = None
        """The categories with players here, where already read (``categories()`` if not)."""

    def table(self, category: str) -> StandingTable:
        rows = self.results.in_category(category)
        return player_table(self.request, rows, prefix=f"{category}-", **self.ranking)

    def tables(self) -> list[tuple[str, str, StandingTable]]:
        """(category, its name, its table) for each category that has players here."""
        return [
            (category, str(Category(category).label), self.table(category))
            for category in (self.found if self.found is not None else self.results.categories())
        ]


def export(
    request: HttpRequest,
    players: Any,
    teams: Any,
    name: str,
    categories: Categories | None = None,
    *,
    caption: Callable[[], Caption],
    notes: Sequence[str] = (),
) -> HttpResponse | None:
    """The standings as a spreadsheet when the page is asked for
    ``?export=csv|csv-excel|xlsx|ods`` (``&table=teams``: the teams'; ``&category=senioren``:
    one category's players, where the page has ``categories``): every row, numbers as
    numbers, text cells neutralised alike in every format, the sheet titled and marked by
    its ``caption`` (``export.SpreadsheetExport``); under the players, the ``notes`` their
    page shows (the substitutes)."""
    kind = request.GET.get("export")
    if kind not in EXPORT_FORMATS:
        return None
    table, titled, below = players, caption(), notes
    category = request.GET.get("category")
    if request.GET.get("table") == "teams" and teams is not None:
        table, name, below = teams, f"{name}-teams", ()
    elif category:
        if categories is None or category not in Category.values:
            raise Http404
        table, name = categories.table(category), f"{name}-{category}"
        titled = titled.part(str(Category(category).label))
    if kind == EXCEL_CSV:
        name, kind = f"{name}-excel", "csv"
    exported = SpreadsheetExport(request.GET["export"], table, titled, below)
    response: HttpResponse = exported.response(f"{slugify(name)}.{kind}")
    return response


def running_lines(lists: Sequence[RunningList]) -> list[dict[str, str]]:
    """The lists in progress as the standings pages link them: each its link, its
    tournament's name, where it is ("Serie 2 · Tisch 7") and how far ("12 von 48 Spielen"),
    the words translated once for all of them (a running evening has
    a list at every table)."""
    where = gettext("Serie %(series)s · Tisch %(table)s")
    done = gettext("%(games)s von %(expected)s Spielen")
    return [
        {
            "link": reverse("table", args=[shown.slug, shown.series, shown.table]),
            "tournament": shown.tournament,
            "where": where % {"series": shown.series, "table": shown.table},
            "done": done % {"games": shown.games, "expected": shown.expected},
        }
        for shown in lists
    ]


def pdf_response(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{slugify(name)}.pdf"'
    return response


def in_tournament(
    request: HttpRequest, slug: str, build: Callable[[Tournament], HttpResponse]
) -> HttpResponseBase:
    """A page, CSV or PDF of one tournament, cached on its revision (a few seconds behind it
    while games are saved: ``caching.cached``'s ``lag``); ``build`` gets the tournament,
    read only when the page is built."""
    pk, revision, revised_at, language, minutes = (
        revisions.revision_of(Tournament, slug) or _not_found()
    )
    if switch := to_its_language(request, language):
        return switch
    return cached(
        request,
        ("tournament", pk, revision, revisions.objection_minute(revised_at, minutes)),
        lambda: build(tournament_of(slug)),
        last_modified=revised_at,
        lag=True,
    )


def in_list(
    request: HttpRequest,
    slug: str,
    number: int,
    table: int | None,
    build: Callable[[int | None], HttpResponse],
) -> HttpResponseBase:
    """A page of one list (``table``) or, with ``table`` None, of one series, cached on the
    tournament's frame and the list's or series' own revision (``revisions.touch_list``):
    a game saved in another list or series leaves it cached. Either may be a few seconds
    behind (``caching.cached``'s ``lag``): the phones at a running table read its list
    between the device's saves, each a moment after the last (the table's device and the
    referee read their own pages, never behind). ``build`` gets the table's id (None where
    there is no such table, or for a series' page) and reads what it shows, the tournament
    too (a list's page reads it with its table, in one statement)."""
    found = revisions.list_revision_of(slug, number, table) or _not_found()
    pk, frame, revised_at, language, minutes, *series_and_table = found
    series_pk, series_revision, table_pk, table_revision = series_and_table
    if switch := to_its_language(request, language):
        return switch
    window = revisions.objection_minute(revised_at, minutes)
    key: tuple[Any, ...] = ("series", pk, frame, window, series_pk, series_revision)
    if table is not None:
        key = ("list", pk, frame, window, table_pk, table_revision)
    return cached(request, key, lambda: build(table_pk), last_modified=revised_at, lag=True)


def in_season(
    request: HttpRequest, slug: str, build: Callable[[Season], HttpResponse]
) -> HttpResponseBase:
    """A page, CSV or PDF of a season, cached on its revision; ``build`` gets the season,
    read only when the page is built."""
    pk, revision, revised_at, language, _ = revisions.revision_of(Season, slug) or _not_found()
    if switch := to_its_language(request, language):
        return switch
    return cached(
        request,
        ("season", pk, revision),
        lambda: build(Season.objects.get(pk=pk)),
        last_modified=revised_at,
        lag=True,
    )


def moment(value: Any) -> Any:
    """A time as the database gave it, aware (SQLite gives it naive, in UTC)."""
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, datetime.UTC)
    return value


def _not_found() -> Any:
    raise Http404


def tournament_of(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("season"), slug=slug)


def series_of(tournament: Tournament, number: int) -> Series:
    return get_object_or_404(tournament.series, number=number)


def hidden(tournament: Tournament, series: Series) -> bool:
    """Whether the public may not see the series' lists yet (``SeriesQuerySet.shown``)."""
    return tournament.hide_unpublished and not series.is_published


def shown_series(tournament: Tournament, number: int) -> Series:
    """The series, or 404 while its tournament hides it until publication."""
    series = series_of(tournament, number)
    if hidden(tournament, series):
        raise Http404
    return series

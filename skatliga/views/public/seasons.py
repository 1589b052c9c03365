"""A season's public page (the individual ranking, the league table, its latest match days)
and its result PDFs."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Case, Count, Max, Value, When, Window
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.translation import gettext as _

from skatliga import printing
from skatliga.export import Caption
from skatliga.models import ListResult, Season, Tournament
from skatliga.standings.queries import running_in
from skatliga.views.caching import render_page
from skatliga.views.public.common import (
    Categories,
    export,
    in_season,
    pdf_response,
    running_lines,
    standings_tables,
)

SEASON_ROWS_PER_PAGE = 100
"""A league season has thousands of players: its page shows them a hundred at a time (rendering
every row cost seconds at a thousand teams); the CSV export still has every row."""
SEASON_TOURNAMENTS_SHOWN = 12
"""The latest match days on a season's page; the tournament list has them all."""


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
    until publication (``ListResultQuerySet.public_in``): one statement."""
    hides = Case(When(hide_unpublished=True, then=Value(1)), default=Value(0))
    rows = list(
        Tournament.objects.filter(season=season.pk)
        .order_by("-date", "name")
        .annotate(count=Window(Count("pk")), hides=Window(Max(hides)))
        .values_list("slug", "name", "date", "venue", "count", "hides")[:SEASON_TOURNAMENTS_SHOWN]
    )
    lines = [
        _TournamentLine(slug, name, date, venue, count, reverse("standings", args=[slug]))
        for slug, name, date, venue, count, _hides in rows
    ]
    return lines, bool(rows and rows[0][-1])


def season(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A season: the individual ranking and the league table."""
    return in_season(request, slug, lambda season: _season_page(request, season))


def _season_page(request: HttpRequest, season: Season) -> HttpResponse:
    shown, hides = _latest_tournaments(season)
    results = ListResult.objects.for_season(season)
    if hides:  # public_in(season), its question answered with the match days
        results = results.public()
    lists = running_in(season)
    players, teams = standings_tables(
        request,
        results,
        per_page=SEASON_ROWS_PER_PAGE,
        season=season,
        scheme=season.match_points,
        running_players=lists.players,
    )
    categories = Categories(request, results, per_page=SEASON_ROWS_PER_PAGE, season=season)
    spreadsheet = export(
        request,
        players,
        teams,
        season.slug,
        categories,
        caption=lambda: Caption(
            season.name, provisional=bool(lists.lists) or results.provisional()
        ),
    )
    if spreadsheet is not None:
        return spreadsheet
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
            "running_lines": running_lines(lists.lists),
        },
    )


def season_results_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    return in_season(
        request, slug, lambda season: pdf_response(printing.season_result_pdf(season), season.slug)
    )


def season_teams_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    def build(season: Season) -> HttpResponse:
        if not season.teams.exists():
            raise Http404
        return pdf_response(printing.team_result_pdf(season), f"{season.slug}-{_('mannschaften')}")

    return in_season(request, slug, build)

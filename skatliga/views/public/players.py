"""A player's page (his lists, a chart of his series, his statistics) and a team's page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.formats import date_format
from django_tables2 import RequestConfig

from skatliga.entries import MINUS, one_decimal, plain
from skatliga.models import (
    ListResult,
    Player,
    PlayerRating,
    RatingChange,
    Team,
    Tournament,
    public_name,
)
from skatliga.standings.queries import player_statistics, series_totals, team_standings
from skatliga.standings.rankings import PLAYERS
from skatliga.standings.tables import HistoryTable, StandingTable
from skatliga.views.caching import cached, latest, render_page
from skatliga.views.public.common import moment
from skatliga.views.public.league import team_key, team_page


def _revisions(of: str, pk: int) -> list[tuple[Any, ...]]:
    """(id, revision, revised_at) of the tournaments of the result rows of the player or
    team (``of``) ``pk``."""
    rows = list(
        Tournament.objects.filter(
            pk__in=ListResult.objects.filter(**{of: pk}).order_by().values("tournament_id")
        )
        .order_by("pk")
        .values_list("pk", "revision", "revised_at")
    )
    return [(t, revision, moment(at)) for t, revision, at in rows]


def _lists_revisions(pk: int) -> list[tuple[Any, ...]]:
    """(tournament's id, its frame_revision and revised_at, table's id, its revision) of
    each list of the player ``pk``: what his page shows changes with his lists' games (a
    save raises the list's revision, ``revisions.touch_list``) or with anything else of
    their tournaments (which raises the frame), not with a save at another table."""
    rows = list(
        ListResult.objects.filter(player=pk)
        .order_by("table_id")
        .values_list(
            "tournament_id",
            "tournament__frame_revision",
            "tournament__revised_at",
            "table_id",
            "table__revision",
        )
    )
    return [(t, frame, moment(at), table, revision) for t, frame, at, table, revision in rows]


def player(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A player's history: every list, the series totals over time, and statistics."""
    # What the page shows: the player, his lists, his teams and their seasons (a cached
    # page needs nothing else).
    found = list(
        Player.objects.filter(pk=pk).values_list(
            "pk", "name", "number", "club_id", "club__name", "initials_only", "rating_listed"
        )
    )
    if not found:
        raise Http404
    # His rating changes with a recompute too (no list's revision says so): its state is
    # part of the key.
    rated = list(PlayerRating.objects.filter(pk=pk).values_list("rating", "lists", "mu"))
    lists = _lists_revisions(pk)
    teams = list(
        Team.objects.filter(players=pk)
        .order_by("name", "pk")
        .values_list("pk", "name", "season__name")
    )
    _pk, name, _number, _club, club, initials_only, _listed = found[0]
    # A save at another table of his tournaments leaves his page cached; his teams' and
    # their seasons' names are part of the key themselves, not their seasons' revisions
    # (which every save of the season raises).
    key = (
        "player",
        *found[0],
        settings.RATING_LISTED_DEFAULT,
        rated,
        [(t, f, table, r) for t, f, _at, table, r in lists],
        teams,
    )
    modified = latest(*(at for _t, _f, at, _table, _r in lists))

    def build() -> HttpResponse:
        return _player_page(request, pk, public_name(name, initials_only), club or "", [*teams])

    return cached(request, key, build, last_modified=modified, lag=True)


def _player_page(
    request: HttpRequest, pk: int, name: str, club: str, teams: list[tuple[int, str, str]]
) -> HttpResponse:
    """The page of the player ``pk``: ``name`` as the public sees it, his club's name (empty
    for none), and ``teams``: (key, name, season's name) of each of his teams."""
    rows = ListResult.objects.for_player(pk).history()
    history = HistoryTable(rows)
    RequestConfig(request, paginate=False).configure(history)
    return render_page(
        request,
        "public/player.html",
        {
            "name": name,
            "club": club,
            "history": history,
            "chart": chart(series_totals(rows)),
            # His lists are the rows of his history: counted there, not asked again.
            "statistics": player_statistics(pk, lists=len(rows)),
            "teams": teams,
            **rating_context(pk),
        },
    )


def rating_context(pk: int) -> dict[str, Any]:
    """His rating as the public sees it (nothing where he keeps it from the public): the
    rating, the change each tournament made to it (newest first) and its chart."""
    rating = PlayerRating.objects.filter(pk=pk).select_related("player").first()
    if rating is None or not rating.player.rating_shown:
        return {}
    changes = RatingChange.objects.filter(player_id=pk).per_tournament()
    points = [
        (date_format(change.played_on, "SHORT_DATE_FORMAT"), round(change.rating_after, 1))
        for change in changes
    ]
    return {
        "rating": rating,
        "rating_text": one_decimal(rating.rating),
        "rating_changes": [
            {
                "change": change,
                "before": one_decimal(change.rating_before),
                "after": one_decimal(change.rating_after),
                "delta": signed(change.change),
                "rise": change.change >= 0,
            }
            for change in reversed(changes)
        ],
        "rating_chart": chart(points, text=one_decimal),
    }


def signed(value: float) -> str:
    """A change to one decimal with its sign: ``+1,2``, ``−0,4``, ``±0,0``."""
    shown = one_decimal(abs(value))
    if shown == one_decimal(0):
        return f"±{shown}"
    return f"+{shown}" if value > 0 else f"{MINUS}{shown}"


def team(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A team: its players and their totals over the season, and its match days."""
    found = list(
        Team.objects.filter(pk=pk).values_list(
            "season_id", "season__revision", "season__revised_at", "division_id"
        )
    )
    if not found:
        raise Http404
    season, season_revision, season_revised, division = found[0]
    if division is not None:  # a league's team: its division's figures
        league_key, league_modified = team_key(pk, division)
        return cached(
            request,
            ("league-team", pk, league_key),
            lambda: team_page(
                request,
                Team.objects.select_related(
                    "season__league", "club", "captain", "division__level"
                ).get(pk=pk),
            ),
            last_modified=league_modified,
            lag=True,
        )
    season_revised = moment(season_revised)
    played = _revisions("team", pk)
    key = ("team", pk, season, season_revision, [(t, revision) for t, revision, _at in played])
    modified = latest(season_revised, *(at for _pk, _revision, at in played))

    def build() -> HttpResponse:
        return _team_page(request, Team.objects.select_related("season", "club").get(pk=pk))

    return cached(request, key, build, last_modified=modified, lag=True)


def _team_page(request: HttpRequest, team: Team) -> HttpResponse:
    results = ListResult.objects.filter(team=team).public()
    players = StandingTable(results.standings(), PLAYERS, prefix="p-")
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


def chart(
    points: Sequence[tuple[str, float]],
    width: int = 640,
    height: int = 220,
    text: Callable[[Any], str] = plain,
) -> dict[str, Any]:
    """Coordinates of an inline SVG line chart (series totals, a rating's history), drawn
    by the template; ``text`` writes a value. With many points only the labelled ones say
    their value."""
    if not points:
        return {}
    left, right, top, bottom = 56, 40, 24, 36
    values = [value for _, value in points]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    step = (width - left - right) / max(len(points) - 1, 1)
    label_every = -(-len(points) // 6)

    def y(value: float) -> float:
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
            "text": text(value),
            "shown": len(points) <= 12 or i % label_every == 0 or i == len(points) - 1,
        }
        for i, (label, value) in enumerate(points)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "tick_x": left - 6,
        "bottom": height - bottom + 18,
        "ticks": [{"y": y(v), "value": v, "text": text(v)} for v in sorted({low, 0, high})],
        "path": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
    }

"""The league in public: a league's page (its seasons' levels and divisions), a division's
page (its table, its schedule with the results per match day, links to each group's
tournament), the division's table to embed on a club's website, and a team's league page
(its roster, line-ups, results, its players' figures).

Each page is cached (``views.caching.cached``) under what it shows: the division's schedule
(groups, dates, hosts, teams) and the revisions of its groups' tournaments, which every game,
line-up and publication raises (``skatliga.revisions``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from django.views.decorators.clickjacking import xframe_options_exempt
from django_tables2 import RequestConfig

from skatliga.models import (
    Division,
    GroupTeam,
    League,
    LineUpPlayer,
    ListResult,
    MatchGroup,
    RosterEntry,
    Team,
    public_name,
)
from skatliga.standings.league import DivisionTable, GroupTable, division_table
from skatliga.standings.rankings import GROUP, PLAYERS
from skatliga.standings.tables import StandingTable
from skatliga.views.caching import cached, latest, render_page
from skatliga.views.public.common import moment

SHORT = {"match_points": gettext_lazy("Punkte")}
"""The match points' heading where a phone has room for little: "Punkte"."""


def division_key(pk: int) -> tuple[tuple[Any, ...], Any]:
    """What a division's pages show, as a cache key, and when it last changed: the division
    and its teams (withdrawn or not), its schedule (each group's date, host, venue and
    teams) and the revision of each group's tournament.
    Three statements, a row per group and per place."""
    found = list(
        Division.objects.filter(pk=pk).values_list(
            "pk", "name", "published_at", "level__name", "season__name", "season__league__tie_rule"
        )
    )
    if not found:
        raise Http404
    groups = list(
        MatchGroup.objects.filter(match_day__division=pk)
        .order_by("pk")
        .values_list(
            "pk",
            "match_day__date",
            "match_day__central",
            "match_day__venue",
            "date",
            "host_id",
            "venue",
            "tournament_id",
            "tournament__revision",
            "tournament__revised_at",
        )
    )
    places = list(
        GroupTeam.objects.filter(match_day__division=pk)
        .order_by("pk")
        .values_list(
            "group_id",
            "team_id",
            "team__name",
            "team__club__name",
            "team__withdrawal__state",
            "team__withdrawal__annulled",
        )
    )
    modified = latest(*(moment(row[-1]) for row in groups))
    return (found[0], [row[:-1] for row in groups], places), modified


def _group_tables(table: DivisionTable) -> list[dict[str, Any]]:
    """Each match day with its groups, each group's table as the headings and cells of
    ``GROUP``'s metrics (``Metric.cell``), drawn by a plain loop in the template
    (``public/_group_table.html``): a dozen django-tables2 tables a page cost most of its
    build."""
    columns = [(metric, GROUP.css(metric.key)) for metric in GROUP.metrics if metric.shown]
    head = [(SHORT.get(metric.key, metric.name), classes) for metric, classes in columns]
    days = []
    for day in table.match_days:
        groups = []
        for group in day.groups:
            rows = [
                [(classes, metric.cell(record, None)) for metric, classes in columns]
                for record in GROUP.records(group.rows)
            ]
            groups.append({"group": group, "head": head, "rows": rows})
        days.append({"day": day, "groups": groups})
    return days


def _division_context(request: HttpRequest, pk: int, *, groups: bool = True) -> dict[str, Any]:
    division = get_object_or_404(Division.objects.select_related("level", "season__league"), pk=pk)
    table = division_table(division)
    shown = StandingTable(table.rows, table.ranking, prefix="t-", names=SHORT)
    RequestConfig(request, paginate=False).configure(shown)
    league = division.season.league
    return {
        "division": division,
        "league": league,
        "table": table,
        "standing": shown,
        "tie_rule": league.get_tie_rule_display() if league else "",
        "days": _group_tables(table) if groups else [],
    }


def division(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A division: its table, its schedule with the results per match day."""
    key, modified = division_key(pk)

    def build() -> HttpResponse:
        return render_page(request, "public/division.html", _division_context(request, pk))

    return cached(request, ("division", key), build, last_modified=modified, lag=True)


def embed_policy() -> str:
    """The Content-Security-Policy of the embeddable table: the site's own, with the sites
    that may frame it (``settings.EMBED_SITES``; none: only the site itself)."""
    sites = " ".join(settings.EMBED_SITES) or "'self'"
    return settings.CONTENT_SECURITY_POLICY.replace(
        "frame-ancestors 'none'", f"frame-ancestors {sites}"
    )


@xframe_options_exempt
def division_embed(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The division's table alone, for a club's website to frame: the sites allowed are
    ``settings.EMBED_SITES`` (the environment's ``SKATLIGA_EMBED_SITES``)."""
    key, modified = division_key(pk)

    def build() -> HttpResponse:
        context = _division_context(request, pk, groups=False)
        context["standing"].orderable = False
        return render_page(request, "public/division_embed.html", context)

    response = cached(request, ("division-embed", key), build, last_modified=modified, lag=True)
    response["Content-Security-Policy"] = embed_policy()
    return response


def league(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A league: its seasons, newest first, each with its levels and their divisions."""
    found = get_object_or_404(League, slug=slug)
    rows = list(
        Division.objects.filter(season__league=found)
        .order_by("-season__year", "season__name", "level__rank", "name")
        .values_list(
            "pk",
            "name",
            "season__name",
            "season__slug",
            "level__name",
            "level__rank",
            "level__series",
            "published_at",
        )
    )
    counts = dict(
        Team.objects.filter(division__season__league=found)
        .order_by()
        .values_list("division")
        .annotate(n=Count("pk"))
    )
    key = ("league", found.pk, found.name, found.category, rows, sorted(counts.items()))

    def build() -> HttpResponse:
        seasons: dict[tuple[str, str], dict[tuple[int, str], list[dict[str, Any]]]] = {}
        for pk, name, season, season_slug, level, rank, series, published in rows:
            levels = seasons.setdefault((season, season_slug), {})
            levels.setdefault((rank, level), []).append(
                {
                    "pk": pk,
                    "name": name,
                    "series": series,
                    "teams": counts.get(pk, 0),
                    "published": published is not None,
                }
            )
        return render_page(
            request,
            "public/league.html",
            {
                "league": found,
                "seasons": [
                    {
                        "name": name,
                        "slug": season_slug,
                        "levels": [
                            {"name": level, "divisions": divisions}
                            for (_rank, level), divisions in levels.items()
                        ],
                    }
                    for (name, season_slug), levels in seasons.items()
                ],
            },
        )

    return cached(request, key, build, lag=True)


# --- a team of a division -------------------------------------------------------------------


def team_key(team: int, division: int) -> tuple[tuple[Any, ...], Any]:
    """A league team's page's key: its division's (:func:`division_key`) and its roster."""
    key, modified = division_key(division)
    roster = list(
        RosterEntry.objects.filter(team=team)
        .order_by("pk")
        .values_list("player_id", "position", "substitute", "player__name")
    )
    captain = list(Team.objects.filter(pk=team).values_list("captain_id", "name", "club_id"))
    return (key, roster, captain), modified


def team_page(request: HttpRequest, team: Team) -> HttpResponse:
    """A division's team: its roster, its results per match day (with each series' match
    points), its line-ups, and its players' figures over the season."""
    assert team.division_id is not None
    table = division_table(team.division)  # type: ignore[arg-type]
    place = next((row for row in table.rows if row.team_id == team.pk), None)
    results: list[tuple[Any, GroupTable, Any]] = []
    for day in table.match_days:
        for group in day.groups:
            row = next((r for r in group.rows if r.team_id == team.pk), None)
            if row is not None:
                results.append((day, group, row))
    roster = [
        (entry, public_name(entry.player.name, entry.player.initials_only))
        for entry in RosterEntry.objects.filter(team=team)
        .select_related("player")
        .order_by("substitute", "position", "player__name")
    ]
    line_ups: dict[tuple[int, int], list[str]] = defaultdict(list)
    for number, series, name, initials in (
        LineUpPlayer.objects.filter(line_up__team=team)
        .order_by("line_up__group__match_day__number", "line_up__series", "position")
        .values_list(
            "line_up__group__match_day__number",
            "line_up__series",
            "player__name",
            "player__initials_only",
        )
    ):
        line_ups[number, series].append(public_name(name, initials))
    players = StandingTable(
        ListResult.objects.filter(team=team).public().standings(), PLAYERS, prefix="p-"
    )
    RequestConfig(request, paginate=False).configure(players)
    return render_page(
        request,
        "public/league_team.html",
        {
            "team": team,
            "division": team.division,
            "table": table,
            "place": place,
            "results": results,
            "roster": roster,
            "captain": public_name(team.captain.name, team.captain.initials_only)
            if team.captain
            else "",
            "line_ups": [
                {"day": day, "series": series, "players": names}
                for (day, series), names in line_ups.items()
            ],
            "players": players,
        },
    )

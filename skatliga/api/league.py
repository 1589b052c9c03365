"""The API's league: leagues with their levels, divisions with their teams, a division's
table and its schedule with the results per group, as the division's page shows them (the
same read model, ``standings.league``, so that the page, the embeddable table and the API
give the same table)."""

from __future__ import annotations

import datetime
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Schema
from pydantic import create_model

from skatliga.api.schemas import many, row_schema
from skatliga.api.views import ERRORS, LOOKED_UP, PAGE_SIZE, Rows, Text, Whole, api, paged
from skatliga.models import Division, League
from skatliga.standings.league import division_table
from skatliga.standings.rankings import API_DIVISION, API_GROUP


class LevelOut(Schema):
    rank: int = Field(description="1 is the highest.")
    name: str
    series: int = Field(description="Series per match day.")
    players: int = Field(description="Players of a team per series.")


class LeagueOut(Schema):
    slug: str
    name: str
    category: str = Field(description="Only players of this category play; empty for any.")
    tie_rule: str = Field(
        description="What ranks teams level on match points and game points: `shared`, "
        "`head-to-head` or `fewer-against`."
    )
    levels: list[LevelOut]


class DivisionSummaryOut(Schema):
    id: int
    name: str
    level: str
    level_rank: int
    season: str = Field(description="The season's slug.")
    league: str | None = Field(description="The league's slug.")
    published: bool = Field(description="Whether the schedule is published.")


class LeagueDetailOut(LeagueOut):
    divisions: list[DivisionSummaryOut] = Field(description="Newest season first, by level.")


class DivisionTeamOut(Schema):
    id: int
    name: str
    club: str


class DivisionOut(DivisionSummaryOut):
    series: int = Field(description="Series per match day.")
    teams: list[DivisionTeamOut]


DivisionRowOut = row_schema("DivisionRowOut", API_DIVISION, "A team's line in a division's table.")
GroupRowOut = row_schema("GroupRowOut", API_GROUP, "A team's line in its group's match day.")

DivisionTableOut = create_model(
    "DivisionTableOut",
    __base__=Schema,
    provisional=(
        bool,
        Field(description="True while a match day runs or is not fully published."),
    ),
    tie_rule=(str, Field(description="The league's tie rule (see LeagueOut).")),
    items=(many(DivisionRowOut), ...),
)


class GroupFields(Schema):
    number: int
    date: datetime.date
    host: str = Field(description="The hosting team's name; empty on a central match day.")
    venue: str
    address: str
    tournament: str = Field(description="The group's tournament (slug); empty until set up.")
    state: str = Field(description="`planned`, `provisional` or `final`.")


GroupOut = create_model(
    "GroupOut",
    __base__=GroupFields,
    __doc__="A group of a match day: where it meets, its tournament and its teams.",
    teams=(many(GroupRowOut), Field(description="The teams, ranked once played.")),
)


class MatchDayFields(Schema):
    number: int
    date: datetime.date
    central: bool
    venue: str
    state: str = Field(description="`planned`, `provisional` or `final`.")


MatchDayOut = create_model(
    "MatchDayOut",
    __base__=MatchDayFields,
    __doc__="A match day of a division and its groups.",
    groups=(many(GroupOut), ...),
)


def _summary(division: Division) -> dict[str, Any]:
    return {
        "id": division.pk,
        "name": division.name,
        "level": division.level.name,
        "level_rank": division.level.rank,
        "season": division.season.slug,
        "league": division.season.league.slug if division.season.league else None,
        "published": division.published_at is not None,
    }


def _league_json(league: League) -> dict[str, Any]:
    return {
        "slug": league.slug,
        "name": league.name,
        "category": league.category,
        "tie_rule": league.tie_rule,
        "levels": [
            {"rank": lv.rank, "name": lv.name, "series": lv.series, "players": lv.players}
            for lv in league.levels.all()
        ],
    }


def _divisions() -> Any:
    return Division.objects.select_related("level", "season__league")


@api.get("/leagues", response={200: list[LeagueOut], **ERRORS}, tags=["leagues"])
@paged(PAGE_SIZE)
def leagues(request: HttpRequest) -> Any:
    """Every league with its levels."""
    return Rows(League.objects.prefetch_related("levels").order_by("name"), _league_json)


@api.get("/leagues/{slug}", response={200: LeagueDetailOut, **LOOKED_UP}, tags=["leagues"])
def league(request: HttpRequest, slug: Text) -> Any:
    """A league, its levels and every season's divisions."""
    found = get_object_or_404(League.objects.prefetch_related("levels"), slug=slug)
    divisions = _divisions().filter(season__league=found)
    ordered = divisions.order_by("-season__year", "season__name", "level__rank", "name")
    return {**_league_json(found), "divisions": [_summary(d) for d in ordered]}


@api.get("/divisions/{pk}", response={200: DivisionOut, **ERRORS}, tags=["leagues"])
def division(request: HttpRequest, pk: Whole) -> Any:
    """A division and its teams."""
    found = get_object_or_404(_divisions(), pk=pk)
    teams = found.teams.select_related("club").order_by("name")
    return {
        **_summary(found),
        "series": found.level.series,
        "teams": [
            {"id": t.pk, "name": t.name, "club": t.club.name if t.club else ""} for t in teams
        ],
    }


@api.get("/divisions/{pk}/table", response={200: DivisionTableOut, **ERRORS}, tags=["leagues"])
def division_table_view(request: HttpRequest, pk: Whole) -> Any:
    """The division's table as its page and its embeddable table show it: match points for
    and against, then game points, then the league's tie rule; ``provisional`` while a match
    day runs."""
    found = get_object_or_404(_divisions(), pk=pk)
    table = division_table(found)
    league = found.season.league
    return {
        "provisional": table.provisional,
        "tie_rule": league.tie_rule if league else League.TieRule.SHARED,
        "items": API_DIVISION.api(table.rows),
    }


@api.get("/divisions/{pk}/schedule", response={200: many(MatchDayOut), **ERRORS}, tags=["leagues"])
def division_schedule(request: HttpRequest, pk: Whole) -> Any:
    """The division's match days, each group with its host, venue, tournament and its
    teams' figures per series (match points from the teams' summed game points)."""
    found = get_object_or_404(_divisions(), pk=pk)
    return [
        {
            "number": day.number,
            "date": day.date,
            "central": day.central,
            "venue": day.venue,
            "state": day.state,
            "groups": [
                {
                    "number": g.number,
                    "date": g.date,
                    "host": g.host,
                    "venue": g.venue,
                    "address": g.address,
                    "tournament": g.tournament,
                    "state": g.state,
                    "teams": API_GROUP.api(g.rows),
                }
                for g in day.groups
            ],
        }
        for day in division_table(found).match_days
    ]

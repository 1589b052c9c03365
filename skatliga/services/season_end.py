"""A league season's end (docs/rules.md section 11.7): who goes up and who goes down, and the
next season with the teams moved and their rosters carried over.

:func:`proposal` reads each division's final table and applies its level's rule
(``scoring.promotion``); :func:`roll_over` creates the next season from the moves the
league's official confirmed, in one transaction. ``skatliga.tasks.seasons`` runs it in the
background with a progress page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from django.db import transaction

from scoring.promotion import Comparison, Line, Moves, Rule, moves
from skatliga import revisions
from skatliga.models import (
    Division,
    Level,
    ListResult,
    RosterEntry,
    Season,
    Team,
    Withdrawal,
)
from skatliga.services import ServiceError
from skatliga.services.rosters import one_line, unique_slug
from skatliga.standings.queries import TeamRow, team_standings


@dataclass(frozen=True)
class LevelProposal:
    """One level's moves at the season's end, with its divisions' final tables."""

    level: Level
    tables: dict[Division, list[TeamRow]]
    moves: Moves

    def comparison_rows(self, comparison: Comparison) -> list[tuple[TeamRow, bool]]:
        """The compared teams' rows, best first, each with whether the comparison chose it."""
        rows = {row.team_id: row for table in self.tables.values() for row in table}
        return [(rows[line.team], line.team in comparison.chosen) for line in comparison.lines]  # type: ignore[index]


def division_table(division: Division) -> list[TeamRow]:
    """A division's table: its teams ranked by match points, then game points, over all its
    match days' series (``standings.queries.team_standings``); a team without a result yet
    after them, by name; a withdrawn team (a confirmed ``Withdrawal``) last."""
    results = ListResult.objects.filter(tournament__match_group__match_day__division=division)
    rows = team_standings(results, division.season.match_points)
    played = {row.team_id for row in rows}
    for team in division.teams.exclude(pk__in=played).select_related("club").order_by("name"):
        club = team.club.name if team.club else ""
        rows.append(
            TeamRow(len(rows) + 1, team.pk, team.name, club, 0, Fraction(0), Fraction(0), 0)
        )
    withdrawn = set(
        Withdrawal.objects.filter(
            team__division=division, state=Withdrawal.State.CONFIRMED
        ).values_list("team_id", flat=True)
    )
    if withdrawn:
        ordered = [r for r in rows if r.team_id not in withdrawn] + [
            r for r in rows if r.team_id in withdrawn
        ]
        rows = [replace(row, rank=place) for place, row in enumerate(ordered, start=1)]
    return rows


def proposal(
    season: Season, table: Callable[[Division], list[TeamRow]] = division_table
) -> list[LevelProposal]:
    """Each level's moves: up only where a level above exists, down only where one below
    does."""
    divisions = list(
        Division.objects.filter(season=season)
        .select_related("level", "season")
        .order_by("level__rank", "name")
    )
    ranks = sorted({division.level.rank for division in divisions})
    by_level: dict[Level, list[Division]] = defaultdict(list)
    for division in divisions:
        by_level[division.level].append(division)
    result = []
    for level, members in sorted(by_level.items(), key=lambda item: item[0].rank):
        tables = {division: table(division) for division in members}
        rule = Rule(
            up=level.promoted if level.rank > ranks[0] else 0,
            up_compared=level.promoted_compared if level.rank > ranks[0] else 0,
            down=level.relegated if level.rank < ranks[-1] else 0,
            down_compared=level.relegated_compared if level.rank < ranks[-1] else 0,
        )
        lines: dict[Hashable, list[Line]] = {
            division: [
                Line(row.team_id, place, row.match_points, row.game_points)
                for place, row in enumerate(rows, start=1)
            ]
            for division, rows in tables.items()
        }
        result.append(LevelProposal(level, tables, moves(lines, rule)))
    return result


@dataclass
class RollOver:
    season: Season
    teams: int
    players: int
    dropped: list[str]
    """Players left off a carried roster: their club is no longer their team's."""


@transaction.atomic
def roll_over(
    season: Season,
    *,
    name: str,
    year: int,
    up: Collection[int],
    down: Collection[int],
    progress: Callable[[int, int], None] | None = None,
) -> RollOver:
    """The next season of ``season``'s league: its settings, its divisions (same level, same
    name), every team of a division in it again — those in ``up`` (team ids) one level higher,
    those in ``down`` one lower, each into the division there with the fewest teams so far
    (the official moves a team between divisions afterwards) — with their rosters and
    captains, and the same officials."""
    if season.league_id is None:
        raise ServiceError("season_without_league")
    name = one_line(name)
    if not name:
        raise ServiceError("season_name_missing", "name")
    if year <= season.year:
        raise ServiceError("season_year_not_later", "year")
    if set(up) & set(down):
        raise ServiceError("team_up_and_down")
    old_divisions = list(
        Division.objects.filter(season=season).select_related("level").prefetch_related("officials")
    )
    levels = sorted({d.level for d in old_divisions}, key=lambda level: level.rank)
    above = {lower: higher for higher, lower in zip(levels, levels[1:], strict=False)}
    below = {higher: lower for higher, lower in zip(levels, levels[1:], strict=False)}
    new = Season.objects.create(
        name=name,
        slug=unique_slug(Season, name, "saison"),
        year=year,
        league_id=season.league_id,
        ranking=season.ranking,
        ranking_series=season.ranking_series,
        match_points=season.match_points,
        language=season.language,
        rules=season.rules,
        rule_options=season.rule_options,
        scoring=season.scoring,
    )
    divisions: dict[Level, list[Division]] = defaultdict(list)
    for old in old_divisions:
        division = Division.objects.create(season=new, level=old.level, name=old.name)
        division.officials.set(old.officials.all())
        divisions[old.level].append(division)
    size: dict[int, int] = defaultdict(int)
    teams = list(
        Team.objects.filter(season=season, division__isnull=False)
        .select_related("division__level")
        .order_by("division__level__rank", "division__name", "name")
    )
    target: dict[int, Division] = {}
    moving = []
    for team in teams:
        assert team.division is not None
        level = team.division.level
        if team.pk in up and level in above:
            moving.append((team, above[level]))
        elif team.pk in down and level in below:
            moving.append((team, below[level]))
        else:
            [same] = [d for d in divisions[level] if d.name == team.division.name]
            target[team.pk] = same
            size[same.pk] += 1
    for team, level in moving:
        fewest = min(divisions[level], key=lambda d: (size[d.pk], d.name))
        target[team.pk] = fewest
        size[fewest.pk] += 1
    rosters: dict[int, list[RosterEntry]] = defaultdict(list)
    for entry in (
        RosterEntry.objects.filter(team__in=teams)
        .select_related("player")
        .order_by("team", "position", "pk")
    ):
        rosters[entry.team_id].append(entry)
    carried = 0
    dropped: list[str] = []
    for done, team in enumerate(teams, start=1):
        copy = Team.objects.create(
            season=new, division=target[team.pk], name=team.name, club_id=team.club_id
        )
        kept = []
        for entry in rosters[team.pk]:
            if team.club_id is not None and entry.player.club_id != team.club_id:
                dropped.append(entry.player.name)
                continue
            kept.append(entry)
        RosterEntry.objects.bulk_create(
            RosterEntry(
                team=copy,
                player_id=entry.player_id,
                position=position,
                substitute=entry.substitute,
            )
            for position, entry in enumerate(kept, start=1)
        )
        carried += len(kept)
        if team.captain_id in {entry.player_id for entry in kept}:
            copy.captain_id = team.captain_id
            copy.save(update_fields=["captain"])
        if progress is not None:
            progress(done, len(teams))
    revisions.touch_seasons([new.pk])
    return RollOver(new, len(teams), carried, dropped)


def moved_teams(proposals: Sequence[LevelProposal]) -> tuple[set[int], set[int]]:
    """The team ids a proposal moves up and down, as :func:`roll_over` takes them."""
    up = {int(team) for p in proposals for team in p.moves.up}  # type: ignore[call-overload]
    down = {int(team) for p in proposals for team in p.moves.down}  # type: ignore[call-overload]
    return up, down

"""A division's schedule: generate it from the pairing table (``scoring.schedule``), adjust it,
publish it (docs/rules.md section 11.2). Each use case in a transaction, the division's row
locked first; a published schedule changes only through these functions too, and each change
raises the season's revision."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from itertools import combinations

from django.db import transaction
from django.utils import timezone

from scoring import schedule
from skatliga import revisions
from skatliga.models import Division, GroupTeam, MatchDay, MatchGroup, Team
from skatliga.services import ServiceError, update_tournament
from skatliga.services.leagues import lock_division


def _division_teams(division: Division) -> list[Team]:
    return list(division.teams.order_by("name", "pk"))


def _started(division: Division) -> bool:
    return MatchGroup.objects.filter(
        match_day__division=division, tournament__series__isnull=False
    ).exists()


@transaction.atomic
def generate_schedule(
    division: Division,
    dates: Sequence[datetime.date],
    *,
    central: Sequence[int] = (),
    venue: str = "",
    address: str = "",
    seed: int = 0,
) -> list[MatchDay]:
    """The division's match days on ``dates``, its teams grouped by the pairing table, hosts
    shared; the match days numbered ``central`` (1-based) put every group at ``venue``.
    Replaces a schedule not yet played; the teams are numbered in the order of their names."""
    division = lock_division(division)
    if not dates:
        raise ServiceError("schedule_needs_dates", "dates")
    if _started(division):
        raise ServiceError("schedule_started")
    teams = _division_teams(division)
    if len(teams) < 3:
        raise ServiceError("schedule_too_few_teams", count=len(teams))
    central_index = {n - 1 for n in central if 1 <= n <= len(dates)}
    plan = schedule.generate(len(teams), len(dates), central=central_index, seed=seed)
    MatchDay.objects.filter(division=division).delete()
    days = []
    for index, (date, groups, hosts) in enumerate(
        zip(sorted(dates), plan.days, plan.hosts, strict=True)
    ):
        is_central = index in central_index
        day = MatchDay.objects.create(
            division=division,
            number=index + 1,
            date=date,
            central=is_central,
            venue=venue if is_central else "",
            address=address if is_central else "",
        )
        for number, (members, host) in enumerate(zip(groups, hosts, strict=True), start=1):
            group = MatchGroup.objects.create(
                match_day=day,
                number=number,
                date=date,
                host=teams[host] if host is not None else None,
                venue=day.venue,
                address=day.address,
            )
            GroupTeam.objects.bulk_create(
                GroupTeam(group=group, match_day=day, team=teams[t]) for t in members
            )
        days.append(day)
    division.published_at = None
    division.save(update_fields=["published_at"])
    revisions.touch_seasons([division.season_id])
    return days


@transaction.atomic
def swap_teams(day: MatchDay, first: Team, second: Team) -> MatchDay:
    """Swap two teams of different groups of ``day``; a host that leaves its group leaves the
    host's place to the team that comes."""
    lock_division(day.division)
    places = {
        p.team_id: p
        for p in GroupTeam.objects.select_for_update()
        .filter(match_day=day, team__in=[first.pk, second.pk])
        .select_related("group")
    }
    if len(places) != 2:
        raise ServiceError("team_not_in_match_day")
    a, b = places[first.pk], places[second.pk]
    if a.group_id == b.group_id:
        raise ServiceError("teams_in_same_group")
    if a.group.tournament_id or b.group.tournament_id:
        raise ServiceError("group_set_up")
    GroupTeam.objects.filter(pk__in=[a.pk, b.pk]).delete()
    GroupTeam.objects.bulk_create(
        [
            GroupTeam(group_id=b.group_id, match_day=day, team=first),
            GroupTeam(group_id=a.group_id, match_day=day, team=second),
        ]
    )
    for group, leaving, coming in ((a.group, first, second), (b.group, second, first)):
        if group.host_id == leaving.pk:
            group.host = coming
            group.save(update_fields=["host"])
    revisions.touch_seasons([day.division.season_id])
    return day


@transaction.atomic
def change_group(
    group: MatchGroup,
    *,
    date: datetime.date,
    host: Team | None,
    venue: str,
    address: str,
    starts_at: datetime.time | None = None,
) -> MatchGroup:
    """A group's date, start, host (one of its teams) and venue."""
    lock_division(group.match_day.division)
    group = MatchGroup.objects.select_for_update().get(pk=group.pk)
    if host is not None and not group.places.filter(team=host).exists():
        raise ServiceError("host_not_in_group", "host")
    group.date, group.host, group.starts_at = date, host, starts_at
    group.venue, group.address = " ".join(venue.split()), " ".join(address.split())
    group.save(update_fields=["date", "host", "starts_at", "venue", "address"])
    if group.tournament_id:
        assert group.tournament is not None
        update_tournament(
            group.tournament,
            date=date,
            starts_at=starts_at,
            venue=group.venue,
            address=group.address,
        )
    revisions.touch_seasons([group.match_day.division.season_id])
    return group


@transaction.atomic
def move_match_day(day: MatchDay, date: datetime.date) -> MatchDay:
    """Move a match day and every group still on its old date to ``date``."""
    lock_division(day.division)
    day = MatchDay.objects.select_for_update().get(pk=day.pk)
    MatchGroup.objects.filter(match_day=day, date=day.date).update(date=date)
    day.date = date
    day.save(update_fields=["date"])
    revisions.touch_seasons([day.division.season_id])
    return day


@transaction.atomic
def publish_schedule(division: Division) -> Division:
    """Publish the division's schedule: its teams' and its calendar show it."""
    division = lock_division(division)
    if not division.match_days.exists():
        raise ServiceError("schedule_empty")
    division.published_at = timezone.now()
    division.save(update_fields=["published_at"])
    revisions.touch_seasons([division.season_id])
    return division


def meeting_matrix(division: Division) -> tuple[list[Team], list[list[int]]]:
    """The division's teams and how often each pair meets in its schedule (a symmetric
    matrix, 0 on the diagonal): what the schedule editor shows."""
    teams = _division_teams(division)
    index = {team.pk: n for n, team in enumerate(teams)}
    groups: dict[int, list[int]] = {}
    for group, team in GroupTeam.objects.filter(match_day__division=division).values_list(
        "group_id", "team_id"
    ):
        groups.setdefault(group, []).append(index[team])
    matrix = [[0] * len(teams) for _ in teams]
    for members in groups.values():
        for a, b in combinations(members, 2):
            matrix[a][b] += 1
            matrix[b][a] += 1
    return teams, matrix

"""Use cases of a league's structure, each in a transaction, raising ``ServiceError`` codes:
leagues, levels, divisions and their officials, a division's teams with their rosters and
captains, and players' transfers (docs/rules.md section 11.1).

Locks: the division's row first (``lock_division``), then its teams, then the season's
revision (``revisions.touch_seasons``), as the tournaments' services lock theirs.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from skatliga import revisions
from skatliga.models import (
    Club,
    Division,
    League,
    Level,
    Player,
    RosterEntry,
    Season,
    Team,
    Transfer,
)
from skatliga.services import ServiceError, User, acting_user
from skatliga.services.eligibility import check_player, roster_day
from skatliga.services.rosters import one_line, unique_slug


@transaction.atomic
def create_league(name: str, *, category: str = "", user: User = None) -> League:
    """A new league; its creator runs it."""
    name = one_line(name)
    if not name:
        raise ServiceError("league_name_missing", "name")
    if League.objects.filter(name__iexact=name).exists():
        raise ServiceError("league_name_taken", "name")
    league = League.objects.create(
        name=name, slug=unique_slug(League, name, "liga"), category=category
    )
    if (author := acting_user(user)) is not None:
        league.officials.add(author)
    return league


@transaction.atomic
def add_level(
    league: League,
    name: str,
    *,
    series: int = 3,
    players: int = 4,
    players_least: int = 3,
    substitutes: int = 2,
) -> Level:
    """A level below the league's lowest so far."""
    name = one_line(name)
    if not name:
        raise ServiceError("level_name_missing", "name")
    if series not in (2, 3, 4):
        raise ServiceError("level_series_invalid", "series")
    if not 1 <= players_least <= players <= 8:
        raise ServiceError("level_players_invalid", "players")
    league = League.objects.select_for_update().get(pk=league.pk)
    rank = (league.levels.order_by("-rank").values_list("rank", flat=True).first() or 0) + 1
    return Level.objects.create(
        league=league,
        name=name,
        rank=rank,
        series=series,
        players=players,
        players_least=players_least,
        substitutes=substitutes,
    )


@transaction.atomic
def create_division(season: Season, level: Level, name: str) -> Division:
    """A division of ``level`` in ``season`` (a season of the level's league)."""
    name = one_line(name)
    if not name:
        raise ServiceError("division_name_missing", "name")
    if season.league_id != level.league_id:
        raise ServiceError("level_not_in_league", "level")
    if Division.objects.filter(season=season, level=level, name__iexact=name).exists():
        raise ServiceError("division_name_taken", "name")
    return Division.objects.create(season=season, level=level, name=name)


def lock_division(division: Division) -> Division:
    """The division's row locked, with its season, level and league: the first lock of every
    use case that changes the division."""
    return (
        Division.objects.select_for_update(of=("self",))
        .select_related("season__league", "level")
        .get(pk=division.pk)
    )


@transaction.atomic
def add_official(division: Division, username: str) -> object:
    """Make the active user named ``username`` an official of ``division``."""
    division = lock_division(division)
    users = get_user_model().objects.filter(is_active=True)
    found = users.filter(**{get_user_model().USERNAME_FIELD: username.strip()}).first()
    if found is None:
        raise ServiceError("user_unknown", "username", username=username.strip())
    division.officials.add(found)
    return found


@transaction.atomic
def add_team(division: Division, name: str, club: Club) -> Team:
    """A new team of ``club`` in ``division``."""
    division = lock_division(division)
    name = one_line(name)
    if not name:
        raise ServiceError("team_name_missing", "name")
    if Team.objects.filter(season=division.season, name__iexact=name).exists():
        raise ServiceError("team_name_taken", "name")
    team = Team.objects.create(season=division.season, division=division, name=name, club=club)
    revisions.touch_seasons([division.season_id])
    return team


@transaction.atomic
def set_roster(
    team: Team,
    regulars: Sequence[Player],
    substitutes: Sequence[Player] = (),
    *,
    captain: Player | None = None,
    today: datetime.date | None = None,
) -> list[RosterEntry]:
    """The roster of a division's team: ``regulars`` in positions 1, 2, …, then the
    ``substitutes``; ``captain`` (one of them, or None). Every player new to the roster is
    checked (docs/rules.md section 11.4) on today within the season's year; the first
    refusal raises and nothing changes."""
    if team.division_id is None:
        raise ServiceError("team_without_division")
    lock_division(team.division)  # type: ignore[arg-type]
    team = (
        Team.objects.select_for_update(of=("self",))
        .select_related("season__league", "division__level", "club")
        .get(pk=team.pk)
    )
    chosen = [*regulars, *substitutes]
    if len({p.pk for p in chosen}) != len(chosen):
        raise ServiceError("player_twice_on_roster", "players")
    if captain is not None and captain.pk not in {p.pk for p in chosen}:
        raise ServiceError("captain_not_on_roster", "captain", player=captain.name)
    known = set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True))
    day = roster_day(team, today or timezone.localdate())
    for player in chosen:
        if player.pk not in known:
            check_player(team, player, day=day)
    RosterEntry.objects.filter(team=team).delete()
    entries = RosterEntry.objects.bulk_create(
        RosterEntry(
            team=team, player=player, position=position, substitute=position > len(regulars)
        )
        for position, player in enumerate(chosen, start=1)
    )
    team.captain = captain
    team.save(update_fields=["captain"])
    revisions.touch_seasons([team.season_id])
    return entries


@transaction.atomic
def record_transfer(
    player: Player, club: Club, on: datetime.date, *, user: User = None
) -> Transfer:
    """``player`` moves to ``club`` on ``on``: the transfer is recorded, and his club is the
    club of his latest transfer."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if Transfer.objects.filter(player=player, on=on).exists():
        raise ServiceError("transfer_same_day", "on")
    before = (
        Transfer.objects.filter(player=player, on__lt=on)
        .order_by("-on")
        .values_list("club_id", flat=True)
        .first()
    )
    transfer = Transfer.objects.create(
        player=player,
        from_club_id=before if before is not None else player.club_id,
        club=club,
        on=on,
        recorded_by=acting_user(user),
    )
    latest = Transfer.objects.filter(player=player).order_by("-on").first()
    assert latest is not None
    if player.club_id != latest.club_id:
        player.club_id = latest.club_id
        player.save(update_fields=["club"])
    return transfer

"""A group's match day: its tournament, the teams' line-ups per series, and the captains' team
links (docs/rules.md sections 11.3 to 11.5). Each use case in a transaction, raising
``ServiceError`` codes; the tournament's row is locked first, as every tournament service does.

The match day is a tournament made by ``services.create_tournament`` and run with everything a
tournament has (table links, signatures, calls, corrections); its series are drawn by
``services.draw_tables``, which seats the line-ups (``services.seating.league_tables``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from skatliga import revisions
from skatliga.models import (
    LineUp,
    LineUpPlayer,
    MatchGroup,
    Player,
    Registration,
    RosterEntry,
    Team,
    TeamLink,
)
from skatliga.services import ServiceError, User, acting_user, create_tournament
from skatliga.services.common import lock_tournament
from skatliga.services.eligibility import check_player
from skatliga.services.fines import is_barred
from skatliga.services.links import by_code, is_token, issue, revoke


def _group(group: MatchGroup) -> MatchGroup:
    return MatchGroup.objects.select_related(
        "match_day__division__season__league", "match_day__division__level", "tournament"
    ).get(pk=group.pk)


@transaction.atomic
def set_up_group(group: MatchGroup, *, user: User = None) -> MatchGroup:
    """The group's tournament, in the division's season as its match day, at the group's
    venue and date; team-mates kept apart. The division's officials referee it
    (``Tournament.objects.refereed_by``); ``user`` is its first referee too."""
    group = MatchGroup.objects.select_for_update().get(pk=group.pk)
    group = _group(group)
    if group.tournament_id is not None:
        raise ServiceError("group_set_up")
    day = group.match_day
    division = day.division
    tournament = create_tournament(
        user=None,
        name=_("%(division)s · %(day)s. Spieltag · Gruppe %(group)s")
        % {"division": division, "day": day.number, "group": group.number},
        date=group.date,
        starts_at=group.starts_at,
        venue=group.venue,
        address=group.address,
        season=division.season,
        match_day=day.number,
        keep_teammates_apart=True,
    )
    if (author := acting_user(user)) is not None:
        tournament.referees.add(author)
    group.tournament = tournament
    group.save(update_fields=["tournament"])
    return group


@transaction.atomic
def set_line_up(
    group: MatchGroup,
    team: Team,
    series: int,
    players: Sequence[Player],
    *,
    user: User = None,
    via: str = LineUp.Via.REFEREE,
) -> LineUp:
    """Who plays for ``team`` in series ``series`` of the group's match day, in order.

    Refused, with the rule's code (docs/rules.md section 11.4), for a group not set up, a
    team not in it, a series the level does not play or already drawn, too few or too many
    players, a player twice, a player not on the roster, more substitutes than the level
    allows, or a player the eligibility rules refuse on the group's date. The players are
    registered for the tournament with their team; nothing changes on a refusal."""
    group = _group(group)
    if group.tournament is None:
        raise ServiceError("group_not_set_up")
    tournament = lock_tournament(pk=group.tournament.pk)
    level = group.match_day.division.level
    if not group.places.filter(team=team).exists():
        raise ServiceError("team_not_in_group", team=team.name)
    team = Team.objects.select_related("season__league", "division__level", "club").get(pk=team.pk)
    if is_barred(team):
        raise ServiceError("team_barred", team=team.name)
    if not 1 <= series <= level.series:
        raise ServiceError("series_out_of_range", "series", series=series, most=level.series)
    if tournament.series.filter(number=series).exists():
        raise ServiceError("line_up_series_drawn", "series", series=series)
    if len({p.pk for p in players}) != len(players):
        raise ServiceError("player_twice_in_line_up", "players")
    if len(players) < level.players_least:
        raise ServiceError("line_up_too_few", "players", least=level.players_least)
    if len(players) > level.players:
        raise ServiceError("line_up_too_many", "players", most=level.players)
    roster = {
        entry.player_id: entry
        for entry in RosterEntry.objects.filter(team=team, player__in=players)
    }
    for player in players:
        if player.pk not in roster:
            raise ServiceError("player_not_on_roster", "players", player=player.name)
    substitutes = sum(1 for p in players if roster[p.pk].substitute)
    if substitutes > level.substitutes:
        raise ServiceError("line_up_too_many_substitutes", "players", most=level.substitutes)
    for player in players:
        check_player(team, player, day=group.date)
    line_up, _created = LineUp.objects.update_or_create(
        group=group,
        team=team,
        series=series,
        defaults={"set_by": acting_user(user), "via": via},
    )
    LineUpPlayer.objects.filter(line_up=line_up).delete()
    LineUpPlayer.objects.bulk_create(
        LineUpPlayer(line_up=line_up, player=p, position=n, substitute=roster[p.pk].substitute)
        for n, p in enumerate(players, start=1)
    )
    for player in players:
        registration, created = Registration.objects.get_or_create(
            tournament=tournament, player=player, defaults={"team": team}
        )
        if not created and registration.team_id != team.pk:
            raise ServiceError("player_in_other_team", "players", player=player.name, team="")
    revisions.touch(tournament)
    return line_up


def line_up_of(group: MatchGroup, team: Team, series: int) -> list[Player]:
    """The players of a line-up in order (empty when none is set)."""
    return [
        entry.player
        for entry in LineUpPlayer.objects.filter(
            line_up__group=group, line_up__team=team, line_up__series=series
        )
        .select_related("player")
        .order_by("position")
    ]


# --- the captain's team link -----------------------------------------------------------------


@transaction.atomic
def renew_team_link(team: Team, *, user: User = None) -> TeamLink:
    """Revoke the team's link, if it has one, and issue a new token and code."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    revoke(TeamLink.objects.filter(team=team))
    return issue(TeamLink, user, team=team)


def team_link(team: Team, *, user: User = None) -> TeamLink:
    """The team's active link, issued now where it has none."""
    found = TeamLink.objects.filter(team=team, revoked_at__isnull=True).first()
    return found or renew_team_link(team, user=user)


def team_link_for_token(token: str) -> TeamLink | None:
    """The unrevoked team link with this token, with its team and division."""
    if not is_token(token):
        return None
    return (
        TeamLink.objects.select_related(
            "team__division__level", "team__division__season", "team__club"
        )
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def team_link_for_code(text: str) -> TeamLink | None:
    return by_code(TeamLink.objects.all(), text)

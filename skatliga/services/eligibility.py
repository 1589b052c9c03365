"""Who may play for a team (docs/rules.md section 11.4): checked whenever a roster or a line-up
changes, each refusal a ``ServiceError`` whose code names the rule (its words in
``messages.py``).

- one team per season and level (``player_in_other_team``);
- one club per calendar year (``player_other_club_this_year``), over the seasons of leagues
  (a club's own season of match days does not count);
- his club on the day, by his transfers (``player_not_in_club``);
- the league's category (``player_category_not_allowed``).
"""

from __future__ import annotations

import datetime

from django.db.models import Q

from skatliga.models import Club, LineUpPlayer, Player, RosterEntry, Team, club_on
from skatliga.services import ServiceError


def club_of(player: Player, day: datetime.date) -> int | None:
    """The club (id) ``player`` belongs to on ``day``, by his transfers."""
    moves = list(player.transfers.order_by("on").values_list("on", "from_club_id", "club_id"))
    return club_on(player.club_id, moves, day)


def roster_day(team: Team, today: datetime.date) -> datetime.date:
    """The day a roster change is checked on: today, within the season's calendar year."""
    year = team.season.year
    return min(max(today, datetime.date(year, 1, 1)), datetime.date(year, 12, 31))


def check_player(team: Team, player: Player, *, day: datetime.date) -> None:
    """Refuse ``player`` for ``team`` (a team of a division) on ``day`` by the first rule he
    breaks; nothing if he may play."""
    season = team.season
    division = team.division
    league = season.league
    if league is not None and league.category and player.category != league.category:
        raise ServiceError(
            "player_category_not_allowed",
            "players",
            player=player.name,
            category=league.get_category_display(),
        )
    if division is not None:
        other = (
            Team.objects.filter(
                season=season, division__level=division.level_id, roster__player=player
            )
            .exclude(pk=team.pk)
            .first()
        )
        if other is not None:
            raise ServiceError(
                "player_in_other_team", "players", player=player.name, team=other.name
            )
    if team.club_id is None:
        return
    year = season.year
    played_for = (
        Team.objects.filter(season__year=year, season__league__isnull=False, club__isnull=False)
        .exclude(club=team.club_id)
        .filter(
            Q(roster__player=player)
            | Q(
                pk__in=LineUpPlayer.objects.filter(
                    player=player, line_up__group__date__year=year
                ).values("line_up__team")
            )
        )
        .select_related("club")
        .first()
    )
    if played_for is not None:
        assert played_for.club is not None
        raise ServiceError(
            "player_other_club_this_year",
            "players",
            player=player.name,
            club=played_for.club.name,
            year=year,
        )
    if club_of(player, day) != team.club_id:
        raise ServiceError(
            "player_not_in_club",
            "players",
            player=player.name,
            club=Club.objects.get(pk=team.club_id).name,
            day=day.isoformat(),
        )


def on_roster(team: Team, player: Player) -> RosterEntry | None:
    return RosterEntry.objects.filter(team=team, player=player).first()

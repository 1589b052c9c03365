"""A group's match day played to its end, the figures worked out by hand (two series at four
4-tables, each table playing four games of which one counts):

Series 1: at every table team A's player wins a grand with 1 (2 × 24 = 48, + 50 = 98):
  A 4 × 98 = 392, B, C, D 0 → A 3:0, B, C, D share places 2–4: 1:2 each.
Series 2: at every table team B's player loses hearts with 1 at 50 card points (2 × 10 = 20,
  lost: −40 − 50 = −90, and 30 to each of the three others):
  B 4 × −90 = −360, A, C, D 4 × 30 = 120 → A, C, D share places 1–3: 2:1 each, B 0:3.
Totals: A 512 Spielpunkte, 5:1 · C 120, 3:3 · D 120, 3:3 · B −360, 1:5.
Lost games: series 2 one a table, 4 × 0.50 € = 2.00 € lost-game fees.
"""

from __future__ import annotations

from typing import Any

from scoring import Declaration, GameType, Outcome, dealer_seat
from skatliga import services
from skatliga.models import MatchGroup, Registration, Table, Tournament
from skatliga.services import matchdays

GRAND = Declaration(GameType.GRAND, 18, 1)
HEARTS = Declaration(GameType.HEARTS, 18, 1)


def play_group(group: MatchGroup) -> list[Any]:
    """Set up ``group`` (two series), line up four players a team, play and close every
    list as the module says; the teams in order of their names are A, B, C, D."""
    if group.tournament is None:
        group = matchdays.set_up_group(group)
    Tournament.objects.filter(pk=group.tournament.pk).update(rounds_per_series=1)
    teams = list(group.teams.order_by("name"))
    for series, (team_index, declaration, outcome) in enumerate(
        [(0, GRAND, Outcome(70, 6)), (1, HEARTS, Outcome(50, 4))], start=1
    ):
        for team in teams:
            players = [e.player for e in team.roster.order_by("position")][:4]
            matchdays.set_line_up(group, team, series, players)
        services.draw_tables(group.tournament, despite_open_lists=True, seed=series)
        team_of = dict(
            Registration.objects.filter(tournament=group.tournament).values_list(
                "player_id", "team_id"
            )
        )
        for table in Table.objects.filter(
            series__tournament=group.tournament, series__number=series
        ):
            seats = list(table.seats.order_by("position"))
            declarer = next(
                s.position for s in seats if team_of[s.player_id] == teams[team_index].pk
            )
            own = next(n for n in range(1, 5) if dealer_seat(n, table.size) != declarer - 1)
            for number in range(1, table.size + 1):
                entry = (
                    services.GameEntry(declarer, declaration, outcome)
                    if number == own
                    else services.GameEntry()
                )
                services.record_game(table, number, entry)
            services.close_table(table)
    return teams

"""The demo's team league (``manage.py seed_demo``): a league of two levels and three
divisions (16, 12 and 9 teams), each with five match days from the pairing table, three of
them played: every group's tournament with one player of each team at every table, the
teams' line-ups, full lists of random legal games.

The lists are short (``ROUNDS`` rounds, 12 games at a table of four, where a league series
has 48) so that the demo is made in seconds; everything else is as a real match day has it.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Any

from skatliga.archive import load_archive
from skatliga.management.commands import seed_demo
from skatliga.models import (
    Club,
    Division,
    League,
    LineUp,
    LineUpPlayer,
    MatchGroup,
    Player,
    RosterEntry,
    Season,
    Team,
    Tournament,
)
from skatliga.services import fixtures, leagues

LEAGUE = ("Landesverband Sachsen", "lv-sachsen")
SEASON = ("Sachsenliga 2026", "sachsenliga-2026", 2026)
LEVELS = [("Oberliga", 3, [("Staffel Ost", 16)]), ("Landesliga", 2, [("Nord", 12), ("Süd", 9)])]
"""Each level: its name, its series per match day, its divisions with their teams."""
DATES = [
    datetime.date(2026, 3, 21),
    datetime.date(2026, 4, 18),
    datetime.date(2026, 5, 16),
    datetime.date(2026, 6, 20),
    datetime.date(2026, 9, 12),
]
PLAYED = 3
"""Match days played: the first three."""
ROUNDS = 3
TOWNS = [
    "Bautzen",
    "Chemnitz",
    "Dresden",
    "Freiberg",
    "Görlitz",
    "Hoyerswerda",
    "Kamenz",
    "Leipzig",
    "Meißen",
    "Pirna",
    "Plauen",
    "Riesa",
    "Torgau",
    "Zittau",
    "Zwickau",
    "Döbeln",
    "Grimma",
    "Oschatz",
    "Annaberg",
    "Löbau",
]
FIRST = [
    "Anna",
    "Bernd",
    "Christa",
    "Dieter",
    "Elke",
    "Frank",
    "Gisela",
    "Heinz",
    "Ines",
    "Jörg",
    "Karin",
    "Lutz",
    "Marta",
    "Norbert",
    "Olaf",
    "Petra",
    "Rainer",
    "Sigrid",
    "Torsten",
    "Ursula",
    "Volker",
    "Waltraud",
    "Zbigniew",
    "Šárka",
]
LAST = [
    "Albrecht",
    "Bauer",
    "Dietrich",
    "Engel",
    "Franke",
    "Graf",
    "Hahn",
    "Jung",
    "Kern",
    "Lorenz",
    "Mayer",
    "Nagel",
    "Otto",
    "Pfeiffer",
    "Ritter",
    "Seidel",
    "Thiele",
    "Ullrich",
    "Voigt",
    "Winkler",
    "Kowalczyk",
    "Novák",
]
INITIALS_EVERY = 29
"""Every so many players asked to be shown by their initials."""


def create_league(rng: random.Random) -> list[Tournament]:
    """The demo league, its divisions' schedules and the played match days' tournaments."""
    league = leagues.create_league(LEAGUE[0])
    League.objects.filter(pk=league.pk).update(slug=LEAGUE[1])
    name, slug, year = SEASON
    season = Season.objects.create(name=name, slug=slug, year=year, league=league)
    people = _People(rng)
    tournaments: list[Tournament] = []
    team_count = 0
    for level_name, series, divisions in LEVELS:
        level = leagues.add_level(league, level_name, series=series)
        for division_name, teams in divisions:
            division = leagues.create_division(season, level, division_name)
            for _ in range(teams):
                _add_team(division, people, team_count)
                team_count += 1
            fixtures.generate_schedule(
                division,
                DATES,
                central=[len(DATES)],
                venue=f"Stadthalle {TOWNS[team_count % len(TOWNS)]}",
            )
            fixtures.publish_schedule(division)
            tournaments += _play(rng, division, people, series)
    return tournaments


class _People:
    """The league's players: unique names, federation numbers, an archive id each."""

    def __init__(self, rng: random.Random) -> None:
        names = [f"{first} {last}" for first in FIRST for last in LAST]
        rng.shuffle(names)
        self.names = iter(names)
        self.count = 0
        self.document: dict[int, dict[str, str]] = {}
        """Per player's key: what an archive document says of him."""

    def new(self, club: Club) -> Player:
        self.count += 1
        player = Player.objects.create(
            name=next(self.names),
            club=club,
            number=f"L-{self.count:04d}",
            initials_only=self.count % INITIALS_EVERY == 0,
        )
        self.document[player.pk] = {
            "id": f"p{player.pk}",
            "name": player.name,
            "club": club.name,
            "number": player.number,
        }
        return player


def _add_team(division: Division, people: _People, index: int) -> Team:
    """Team ``index`` of the league: of the club of its town, a roster of four regulars and
    a substitute, its first player captain."""
    town = TOWNS[index % len(TOWNS)]
    club = Club.objects.get_or_create(name=f"Skatclub {town}")[0]
    name = f"{club.name} {'I' * (index // len(TOWNS) + 1)}"
    team = leagues.add_team(division, name, club)
    roster = [people.new(club) for _ in range(5)]
    # New players of the team's own club, each on one roster: eligible by construction, so
    # written at once rather than through ``leagues.set_roster``, which checks each player
    # and touches the season's pages (a quarter of a second per team).
    RosterEntry.objects.bulk_create(
        RosterEntry(team=team, player=p, position=k + 1, substitute=k == 4)
        for k, p in enumerate(roster)
    )
    Team.objects.filter(pk=team.pk).update(captain=roster[0])
    return team


def seating(line_ups: Sequence[Sequence[int]], series: int) -> list[list[int]]:
    """One series' tables of a group: every table one player of each team (three or four
    teams), or with five teams five tables of four, each without one team; the players
    rotated by the series so that few meet twice.

    >>> seating([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], 0)[0]
    [1, 5, 9, 13]
    >>> [len(t) for t in seating([[1, 2, 3, 4]] * 5, 1)]
    [4, 4, 4, 4, 4]
    """
    teams = len(line_ups)
    count = teams if teams == 5 else len(line_ups[0])
    tables: list[list[int]] = [[] for _ in range(count)]
    for j, players in enumerate(line_ups):
        at = [t for t in range(count) if teams != 5 or t != j]
        for k, table in enumerate(at):
            tables[table].append(players[(k + series * j) % len(players)])
    return tables


def _play(rng: random.Random, division: Division, people: _People, series: int) -> list[Tournament]:
    """The division's first ``PLAYED`` match days: each group's tournament from an archive
    document, its line-ups (the regulars; on the third match day each team's substitute
    plays its last series for its fourth player)."""
    played = []
    groups = (
        MatchGroup.objects.filter(match_day__division=division, match_day__number__lte=PLAYED)
        .select_related("match_day", "host")
        .prefetch_related("teams__roster")
        .order_by("match_day__number", "number")
    )
    for group in groups:
        teams = list(group.teams.order_by("name"))
        orders: dict[int, list[list[int]]] = {}
        for team in teams:
            roster = sorted(team.roster.all(), key=lambda e: (e.substitute, e.position or 0))
            regulars = [e.player_id for e in roster if not e.substitute]
            substitute = next(e.player_id for e in roster if e.substitute)
            orders[team.pk] = [
                [*regulars[:3], substitute]
                if group.match_day.number == PLAYED and number == series - 1
                else regulars
                for number in range(series)
            ]
        tables = [
            seating([orders[t.pk][number] for t in teams], number) for number in range(series)
        ]
        day = group.match_day
        document = _document(
            rng,
            people,
            name=f"{division.level.name} {division.name} – {day.number}. Spieltag, "
            f"Gruppe {group.number}",
            date=group.date,
            venue=group.venue or (f"Vereinsheim {group.host.club}" if group.host else ""),
            series=tables,
        )
        team_of = {f"p{p}": t for t in teams for order in orders[t.pk] for p in order}
        tournament = load_archive(
            document, season=division.season, match_day=day.number, teams=team_of
        )
        Tournament.objects.filter(pk=tournament.pk).update(keep_teammates_apart=True)
        MatchGroup.objects.filter(pk=group.pk).update(tournament=tournament)
        _line_ups(group, teams, orders)
        played.append(tournament)
    return played


def _line_ups(group: MatchGroup, teams: list[Team], orders: dict[int, list[list[int]]]) -> None:
    """Each team's line-up per series, as its captain set it."""
    substitutes = {e.player_id for t in teams for e in t.roster.all() if e.substitute}
    line_ups = LineUp.objects.bulk_create(
        LineUp(group=group, team=t, series=n, via=LineUp.Via.CAPTAIN)
        for t in teams
        for n in range(1, len(orders[t.pk]) + 1)
    )
    LineUpPlayer.objects.bulk_create(
        LineUpPlayer(line_up=line_up, player_id=p, position=k, substitute=p in substitutes)
        for line_up in line_ups
        for k, p in enumerate(orders[line_up.team_id][line_up.series - 1], start=1)
    )


def _document(
    rng: random.Random,
    people: _People,
    *,
    name: str,
    date: datetime.date,
    venue: str,
    series: Sequence[Sequence[Sequence[int]]],
) -> dict[str, Any]:
    """An archive document of the group's match day, every list full of random games."""
    seated = sorted({p for tables in series for table in tables for p in table})
    ids = [[[f"p{p}" for p in table] for table in tables] for tables in series]
    document = seed_demo.archive_document(
        rng,
        name=name,
        date=date,
        venue=venue,
        players=[people.document[p] for p in seated],
        series=ids,
        rounds=ROUNDS,
    )
    return document

"""A league season of a given size, built through the archive import.

    DATABASE_URL=sqlite:////tmp/league.sqlite3 python bench/league.py --size small

(a scratch database: it is migrated and the season added; bench/run.py makes a fresh one)

The league: teams of four players, five match days of three series. On each match day the
teams are drawn into groups of four; each group plays one tournament (16 players, four
4-tables, one player of each team at each table, 48 games per list). Every tournament is a
``skatliga-archive/1`` document of random legal games (``bench.games``) loaded with
:func:`skatliga.archive.load_archive`, so games, seats, lists and result rows are written
exactly as an import writes them. The season, its clubs, teams and players (the league's
roster, matched by membership number on import) are created first.

Everything is drawn from one seeded generator: the same seed and size give the same season.
"""

from __future__ import annotations

import datetime
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.games import archive_game, random_row  # noqa: E402

TEAM_SIZE = 4
GROUP_SIZE = 4
"""Teams per match-day group: one tournament of 16 players per group and match day."""
MATCH_DAYS = 5
SERIES = 3
ROUNDS = 12
TABLE_SIZE = 4
GAMES_PER_LIST = ROUNDS * TABLE_SIZE
FIRST_DAY = datetime.date(2026, 9, 5)

FIRST_NAMES = (
    "Anna", "Bernd", "Clara", "Dieter", "Elke", "Frank", "Gisela", "Hans", "Ingrid", "Jürgen",
    "Karin", "Lothar", "Monika", "Norbert", "Ottilie", "Peter", "Renate", "Stefan", "Tanja",
    "Uwe", "Vera", "Walter", "Zofia", "Łukasz", "Mehmet", "Chloé", "Björn", "Dragan",
)  # fmt: skip
LAST_NAMES = (
    "Schmidt", "Müller", "Weber", "Fischer", "Becker", "Hoffmann", "Schäfer", "Koch", "Richter",
    "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hartmann",
    "Lange", "Nowak", "Kowalczyk", "Jähnig", "Öztürk", "Dvořák", "Łęcki", "Straße",
)  # fmt: skip
TOWNS = (
    "Altenburg", "Bautzen", "Chemnitz", "Dresden", "Eisenach", "Freiberg", "Görlitz", "Halle",
    "Jena", "Kamenz", "Leipzig", "Meißen", "Nordhausen", "Oschatz", "Plauen", "Riesa", "Suhl",
    "Torgau", "Weimar", "Zwickau",
)  # fmt: skip


@dataclass(frozen=True)
class LeagueSize:
    """How many teams; everything else (match days, series, table size) is fixed."""

    name: str
    teams: int

    @property
    def groups(self) -> int:
        return self.teams // GROUP_SIZE

    @property
    def tournaments(self) -> int:
        return self.groups * MATCH_DAYS

    @property
    def games_per_tournament(self) -> int:
        players = GROUP_SIZE * TEAM_SIZE
        return SERIES * (players // TABLE_SIZE) * GAMES_PER_LIST

    @property
    def games(self) -> int:
        return self.tournaments * self.games_per_tournament

    @property
    def players(self) -> int:
        return self.teams * TEAM_SIZE


SIZES = {
    size.name: size
    for size in (
        LeagueSize("small", 16),  # 20 tournaments, 11,520 games
        LeagueSize("medium", 140),  # 175 tournaments, 100,800 games
        LeagueSize("large", 1000),  # 1,250 tournaments, 720,000 games
    )
}


@dataclass(frozen=True)
class RosterPlayer:
    """A player of the league: his id in the archive documents is his membership number."""

    number: str
    name: str
    club: str


@dataclass
class RosterTeam:
    name: str
    club: str
    players: list[RosterPlayer]
    pk: int = 0


@dataclass
class BuildReport:
    """What building a season took: games, tournaments, seconds in total and inside the import."""

    games: int = 0
    tournaments: int = 0
    seconds: float = 0.0
    import_seconds: float = 0.0
    per_tournament: list[float] = field(default_factory=list)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def import_games_per_s(self) -> float:
        return self.games / self.import_seconds if self.import_seconds else 0.0


def roster(rng: random.Random, teams: int) -> list[RosterTeam]:
    """``teams`` teams of four, each from its own club, with unique membership numbers."""
    result = []
    for index in range(teams):
        town = TOWNS[index % len(TOWNS)]
        club = f"SC {town} {index // len(TOWNS) + 1}"
        players = [
            RosterPlayer(
                number=f"L{index * TEAM_SIZE + seat + 1:06d}",
                name=f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
                club=club,
            )
            for seat in range(TEAM_SIZE)
        ]
        result.append(RosterTeam(f"{town} {index + 1}", club, players))
    return result


def groups(rng: random.Random, teams: Sequence[RosterTeam]) -> list[list[RosterTeam]]:
    """One match day's draw: the teams shuffled into groups of four."""
    order = list(teams)
    rng.shuffle(order)
    return [order[start : start + GROUP_SIZE] for start in range(0, len(order), GROUP_SIZE)]


def seating(rng: random.Random, group: Sequence[RosterTeam], series: int) -> list[list[str]]:
    """The tables of one series: table t gets player (t + series * j) mod 4 of team j.

    Every player sits at exactly one table, every table has one player of each team, and
    the tables change from series to series; seat order is drawn.
    """
    tables = []
    for table in range(TABLE_SIZE):
        seats = [
            team.players[(table + series * j) % TEAM_SIZE].number for j, team in enumerate(group)
        ]
        rng.shuffle(seats)
        tables.append(seats)
    return tables


def list_games(
    rng: random.Random, seats: Sequence[str], count: int = GAMES_PER_LIST
) -> list[dict[str, Any]]:
    """The first ``count`` rows of a list of random legal games, in the archive's game shape
    (all of them by default)."""
    games = []
    for number in range(1, count + 1):
        row = random_row(rng, number, len(seats))
        if row is None:
            games.append({"passed": True})
        else:
            seat, declaration, outcome = row
            games.append(archive_game(declaration, outcome, seats[seat]))
    return games


def match_day_document(
    rng: random.Random, match_day: int, group_number: int, group: Sequence[RosterTeam]
) -> dict[str, Any]:
    """The ``skatliga-archive/1`` document of one group's tournament on one match day."""
    date = FIRST_DAY + datetime.timedelta(weeks=4 * (match_day - 1))
    return {
        "format": "skatliga-archive/1",
        "tournament": {
            "name": f"{match_day}. Spieltag, Gruppe {group_number}",
            "date": date.isoformat(),
            "venue": f"Vereinsheim {group[0].club}",
            "rules": "isko",
            "scoring": "seeger-fabian",
            "rounds_per_series": ROUNDS,
        },
        "players": [
            {"id": p.number, "name": p.name, "club": p.club, "number": p.number}
            for team in group
            for p in team.players
        ],
        "series": [
            {
                "number": series,
                "tables": [
                    {"number": number, "seats": seats, "games": list_games(rng, seats)}
                    for number, seats in enumerate(seating(rng, group, series - 1), start=1)
                ],
            }
            for series in range(1, SERIES + 1)
        ],
    }


def documents(
    size: LeagueSize, teams: Sequence[RosterTeam], rng: random.Random
) -> Iterator[tuple[int, list[RosterTeam], dict[str, Any]]]:
    """(match day, group, document) for every tournament of the season, in order."""
    for match_day in range(1, MATCH_DAYS + 1):
        for number, group in enumerate(groups(rng, teams), start=1):
            yield match_day, group, match_day_document(rng, match_day, number, group)


class Progress:
    """Games so far, games per second and the time left, on one stderr line."""

    def __init__(self, total: int, out: TextIO = sys.stderr, every: float | None = None) -> None:
        self.total = total
        self.out = out
        self.live = out.isatty()
        self.every = every if every is not None else (1.0 if self.live else 15.0)
        self.start = time.perf_counter()
        self.shown = self.start

    def update(self, done: int, *, final: bool = False) -> None:
        now = time.perf_counter()
        if not final and now - self.shown < self.every:
            return
        self.shown = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed else 0.0
        left = (self.total - done) / rate if rate else 0.0
        line = (
            f"\r  {done:>9,} / {self.total:,} games  {rate:>8,.0f} games/s  "
            f"{'done in' if final else 'ETA'} {elapsed if final else left:>6.0f} s"
        )
        if not self.live:
            line = line.lstrip("\r") + "\n"
        elif final:
            line += "\n"
        self.out.write(line)
        self.out.flush()


def create_roster(season: Any, teams: Sequence[RosterTeam]) -> None:
    """The league's clubs, players and teams, before the first match day."""
    from skatliga.models import Club, Player, Team

    clubs = {
        club.name: club.pk
        for club in Club.objects.bulk_create(Club(name=name) for name in {t.club for t in teams})
    }
    players = Player.objects.bulk_create(
        Player(name=p.name, club_id=clubs[p.club], number=p.number)
        for team in teams
        for p in team.players
    )
    by_number = {player.number: player.pk for player in players}
    rows = Team.objects.bulk_create(
        Team(season=season, name=team.name, club_id=clubs[team.club]) for team in teams
    )
    members = []
    for team, row in zip(teams, rows, strict=True):
        team.pk = row.pk
        members += [
            Team.players.through(team_id=row.pk, player_id=by_number[p.number])
            for p in team.players
        ]
    Team.players.through.objects.bulk_create(members)


@dataclass
class League:
    """A season built: the Season row, the roster it was drawn from, and what it took."""

    season: Any
    teams: list[RosterTeam]
    report: BuildReport


def build_league(
    size: LeagueSize,
    *,
    seed: int = 1,
    slug: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> League:
    """Create the season and import every match day's tournaments."""
    from skatliga.archive import load_archive
    from skatliga.models import Season, Team

    rng = random.Random(f"skatliga-league-{seed}-{size.name}")
    teams = roster(rng, size.teams)
    season = Season.objects.create(
        name=f"Bench-Liga {size.name} 2026/27", slug=slug or f"bench-{size.name}", year=2026
    )
    create_roster(season, teams)
    team_rows = {row.pk: row for row in Team.objects.filter(season=season)}
    report = BuildReport()
    start = time.perf_counter()
    for match_day, group, document in documents(size, teams, rng):
        members = {p.number: team_rows[team.pk] for team in group for p in team.players}
        began = time.perf_counter()
        load_archive(document, season=season, match_day=match_day, teams=members)
        took = time.perf_counter() - began
        report.import_seconds += took
        report.per_tournament.append(took)
        report.tournaments += 1
        report.games += size.games_per_tournament
        if on_progress is not None:
            on_progress(report.games)
    report.seconds = time.perf_counter() - start
    return League(season, teams, report)


def main() -> None:
    import argparse
    import os

    import django

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=SIZES, default="small")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        sys.exit("set DATABASE_URL to a scratch database (bench/run.py does this for you)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatliga.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    root = Path(__file__).resolve().parent.parent
    if Path(str(connection.settings_dict["NAME"])).resolve() == (root / "db.sqlite3").resolve():
        sys.exit("refusing to add a benchmark season to the development database db.sqlite3")

    call_command("migrate", verbosity=0)
    size = SIZES[args.size]
    progress = Progress(size.games)
    built = build_league(size, seed=args.seed, on_progress=progress.update)
    report = built.report
    progress.update(report.games, final=True)
    print(
        f"{built.season.slug}: {report.tournaments} tournaments, {report.games:,} games, "
        f"{report.seconds:.1f} s ({report.games_per_s:,.0f} games/s; "
        f"import alone {report.import_games_per_s:,.0f} games/s)"
    )


if __name__ == "__main__":
    main()

import datetime
import random
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

import scoring
from bench.games import random_row
from skatliga import services
from skatliga.archive import FORMAT, load_archive
from skatliga.models import Club, Game, Player, Season, Team, Tournament

SEASON = ("Verbandsliga 2026", "verbandsliga-2026", 2026)
ROUNDS = 12
SERIES = 3

CLUBS = {
    "SC Altenburg": [
        ["Anna Schmidt", "Günter Krüger", "Jürgen Weiß", "Heike Böhm"],
        ["Sören Schäfer", "Ingrid Lange", "Karl-Heinz Vogt", "Monika Hähnel"],
    ],
    "Skatfreunde Leipzig": [
        ["Thomas Müller", "Sabine Köhler", "Uwe Zimmermann", "Petra Schulze"],
        ["Frank Hoffmann", "Birgit Wagner", "Matthias Groß", "Dörte Fuchs"],
    ],
    "Grand Hand Dresden": [["Steffen Richter", "Kerstin Neumann", "Ralf Günther", "Jörg Lehmann"]],
    "Kreuz Bube Chemnitz": [
        ["Andreas Meier", "Christel Schröder", "Lutz Krause", "Bärbel Schubert"]
    ],
    "Skatclub Görlitz": [
        ["Łukasz Nowak", "Małgorzata Wójcik", "Detlef Pohl", "Grzegorz Dąbrowski"]
    ],
    "Skatverein Zittau": [["Tomáš Čermák", "Jiří Dvořák", "Zdeněk Horák", "Renate Müller"]],
}
"""The league's clubs and their teams of four."""

HOME_CLUB = "Skatfreunde Leipzig"
MEMBERS = ["Wolfgang Becker", "Ute Hartmann", "Bernd Łukasz", "Helga Kühn", "Dieter Schwarz"]
"""Members of the home club who play its club championship but not in the league."""

MATCH_DAYS = [datetime.date(2026, 2, 14), datetime.date(2026, 4, 18), datetime.date(2026, 6, 13)]
GROUPS = [
    [[0, 1, 2, 3], [4, 5, 6, 7]],
    [[0, 1, 4, 5], [2, 3, 6, 7]],
    [[0, 2, 4, 6], [1, 3, 5, 7]],
]
"""Per match day, the two groups of four teams (indices into the teams) that meet."""
CLUB_CHAMPIONSHIP = (f"Vereinsmeisterschaft {HOME_CLUB} 2026", datetime.date(2026, 3, 7), 2)


class Command(BaseCommand):
    help = (
        "Create a deterministic demo league: the season Verbandsliga 2026 with 8 teams of four "
        "from 6 clubs, 3 match days in two groups of four teams (3 series each, every list "
        "full), a club championship outside the season, and a team league of two levels and "
        "three divisions (16, 12 and 9 teams) with five match days, three played. Does nothing "
        "if the demo season exists already."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        name, slug, year = SEASON
        if Season.objects.filter(slug=slug).exists():
            self.stdout.write(
                _("Die Demo-Saison %(name)s gibt es schon; nichts angelegt.") % {"name": name}
            )
            return
        from skatliga.management.demo_league import create_league

        with transaction.atomic():
            tournaments = create_demo(random.Random(seed))
            tournaments += create_league(random.Random(seed))
        self.stdout.write(
            _("Demo-Liga angelegt: %(name)s, %(clubs)d Vereine, %(teams)d Mannschaften.")
            % {"name": name, "clubs": len(CLUBS), "teams": sum(len(t) for t in CLUBS.values())}
        )
        for tournament in tournaments:
            games = Game.objects.filter(table__series__tournament=tournament).count()
            self.stdout.write(
                _("  %(name)s (%(slug)s): %(games)d Spiele")
                % {"name": tournament.name, "slug": tournament.slug, "games": games}
            )


class _League:
    """The demo's people: every player once, with an id and a federation number."""

    def __init__(self) -> None:
        self.players: dict[str, dict[str, str]] = {}

    def add(self, name: str, club: str) -> str:
        player_id = f"p{len(self.players) + 1}"
        club_number = list(CLUBS).index(club) + 1
        members = sum(1 for p in self.players.values() if p["club"] == club)
        self.players[player_id] = {
            "id": player_id,
            "name": name,
            "club": club,
            "number": f"D-{club_number:02d}{members + 1:02d}",
        }
        return player_id


def create_demo(rng: random.Random) -> list[Tournament]:
    """Create the demo league and the club championship; the tournaments created."""
    name, slug, year = SEASON
    season = Season.objects.create(name=name, slug=slug, year=year)
    league = _League()
    teams: list[tuple[Team, list[str]]] = []
    for club_name, club_teams in CLUBS.items():
        club = Club.objects.get_or_create(name=club_name)[0]
        for index, names in enumerate(club_teams, start=1):
            team_name = f"{club_name} {'I' * index}" if len(club_teams) > 1 else club_name
            team = Team.objects.create(season=season, name=team_name, club=club)
            teams.append((team, [league.add(player, club_name) for player in names]))
    members = [league.add(member, HOME_CLUB) for member in MEMBERS]

    tournaments = []
    for match_day, (date, groups) in enumerate(zip(MATCH_DAYS, GROUPS, strict=True), start=1):
        for group_name, group in zip("AB", groups, strict=True):
            playing = [teams[i] for i in group]
            host = playing[0][0].club
            document = _document(
                rng,
                league,
                name=f"{name} – {match_day}. Spieltag, Gruppe {group_name}",
                date=date,
                venue=f"Vereinsheim {host}",
                series=[_apart(rng, [ids for _, ids in playing]) for _ in range(SERIES)],
            )
            tournament = load_archive(
                document,
                season=season,
                match_day=match_day,
                teams={player: team for team, ids in playing for player in ids},
            )
            Tournament.objects.filter(pk=tournament.pk).update(keep_teammates_apart=True)
            tournaments.append(tournament)

    for team, ids in teams:
        numbers = [league.players[p]["number"] for p in ids]
        team.players.set(Player.objects.filter(number__in=numbers))

    title, date, series_count = CLUB_CHAMPIONSHIP
    home = [p for team, ids in teams if team.club and team.club.name == HOME_CLUB for p in ids]
    entrants = home + members
    document = _document(
        rng,
        league,
        name=title,
        date=date,
        venue=f"Vereinsheim {HOME_CLUB}",
        series=[_drawn(rng, entrants) for _ in range(series_count)],
    )
    tournaments.append(load_archive(document))
    return tournaments


def _apart(rng: random.Random, teams: Sequence[Sequence[str]]) -> list[list[str]]:
    """Tables of one series with one player of each team at each table."""
    shuffled = [rng.sample(list(team), len(team)) for team in teams]
    tables = [[team[t] for team in shuffled] for t in range(len(teams[0]))]
    for table in tables:
        rng.shuffle(table)
    return tables


def _drawn(rng: random.Random, players: Sequence[str]) -> list[list[str]]:
    """Tables of one series drawn by lot: as many 4-tables as possible, the rest 3-tables."""
    players = rng.sample(list(players), len(players))
    tables, start = [], 0
    for size in services.table_sizes(len(players)):
        tables.append(players[start : start + size])
        start += size
    return tables


def _document(
    rng: random.Random,
    league: _League,
    *,
    name: str,
    date: datetime.date,
    venue: str,
    series: Sequence[Sequence[Sequence[str]]],
) -> dict[str, Any]:
    """An archive document with every list full of random legal games."""
    seated = sorted({p for tables in series for table in tables for p in table}, key=_number)
    return archive_document(
        rng,
        name=name,
        date=date,
        venue=venue,
        players=[league.players[p] for p in seated],
        series=series,
        rounds=ROUNDS,
    )


def archive_document(
    rng: random.Random,
    *,
    name: str,
    date: datetime.date,
    venue: str,
    players: Sequence[dict[str, str]],
    series: Sequence[Sequence[Sequence[str]]],
    rounds: int,
) -> dict[str, Any]:
    """An archive document of ``players`` (their archive records) seated at the tables of
    each series (by their ids), every list ``rounds`` rounds of random legal games."""
    return {
        "format": FORMAT,
        "tournament": {
            "name": name,
            "date": date.isoformat(),
            "venue": venue,
            "rounds_per_series": rounds,
        },
        "players": list(players),
        "series": [
            {
                "number": number,
                "tables": [
                    {"number": t, "seats": list(seats), "games": _games(rng, seats, rounds)}
                    for t, seats in enumerate(tables, start=1)
                ],
            }
            for number, tables in enumerate(series, start=1)
        ],
    }


def _number(player_id: str) -> int:
    return int(player_id[1:])


def _games(rng: random.Random, seats: Sequence[str], rounds: int) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    for number in range(1, rounds * len(seats) + 1):
        row = random_row(rng, number, len(seats))
        if row is None:
            games.append({"passed": True})
        else:
            seat, declaration, outcome = row
            games.append({"declarer": seats[seat], **scoring.game_to_json(declaration, outcome)})
    return games

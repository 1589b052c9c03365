"""Small builders for the web tests: players, tournaments, tables and entered games.

table = make_table(size=3, rounds=1)
play(table, entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7), entry())
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Sequence
from typing import Any

import scoring
from skatliga import services
from skatliga.models import Game, Player, Registration, Seat, Series, Table, Tournament

_counter = itertools.count(1)


def make_player(name: str | None = None, **fields: Any) -> Player:
    """A new player (a unique name unless given); ``fields`` e.g. club, number."""
    return Player.objects.create(name=name or f"Spieler {next(_counter)}", **fields)


def make_tournament(
    *,
    players: int | Sequence[Player] = 0,
    size: int | None = None,
    rounds: int = 12,
    **fields: Any,
) -> Tournament:
    """A tournament with ``players`` registered (a number of new players, or the given ones).

    With ``size``, series 1 seats them in registration order at tables of that size.
    ``fields`` are the tournament's, e.g. rules="pre1999", scoring="classic".
    """
    n = next(_counter)
    fields = {"name": f"Testturnier {n}", "date": datetime.date(2026, 11, 21), **fields}
    fields.setdefault("slug", f"testturnier-{n}")
    tournament = Tournament.objects.create(rounds_per_series=rounds, **fields)
    if isinstance(players, int):
        players = [make_player() for _ in range(players)]
    for player in players:
        Registration.objects.create(tournament=tournament, player=player)
    if size is not None:
        if len(players) % size:
            raise ValueError(f"{len(players)} players do not fill tables of {size}")
        for start in range(0, len(players), size):
            make_table(tournament, players=players[start : start + size])
    return tournament


def make_table(
    tournament: Tournament | None = None,
    *,
    size: int | None = None,
    series: int = 1,
    number: int | None = None,
    players: Sequence[Player] | None = None,
    **tournament_fields: Any,
) -> Table:
    """A table of series ``series`` with its seats, its players registered.

    A new tournament (``tournament_fields``, e.g. rounds=1) unless given; new players unless
    given; ``size`` defaults to the number of players, else 4; ``number`` to the next free.
    """
    if tournament is None:
        tournament = make_tournament(**tournament_fields)
    if players is None:
        players = [make_player() for _ in range(size or 4)]
    series_row = Series.objects.get_or_create(tournament=tournament, number=series)[0]
    if number is None:
        number = series_row.tables.count() + 1
    table = Table.objects.create(series=series_row, number=number, size=len(players))
    for position, player in enumerate(players, start=1):
        Registration.objects.get_or_create(tournament=tournament, player=player)
        Seat.objects.create(table=table, series=series_row, position=position, player=player)
    services.recompute_results(table)
    return table


def entry(
    declarer: int | None = None,
    game: str | None = None,
    bid: int | None = 18,
    matadors: int | None = None,
    *,
    card_points: int | None = None,
    tricks: int | None = None,
    won: bool | None = None,
    schneider: bool | None = None,
    schwarz: bool | None = None,
    **flags: bool,
) -> services.GameEntry:
    """A row as entered: ``entry()`` is passed in; else declarer seat (1-based), game, bid, ...

    ``flags`` are the declaration's booleans (hand, schneider_announced, ouvert, ...).
    """
    if game is None:
        return services.GameEntry()
    return services.GameEntry(
        declarer=declarer,
        declaration=scoring.Declaration(scoring.GameType(game), bid, matadors, **flags),
        outcome=scoring.Outcome(card_points, tricks, won, schneider, schwarz),
    )


def play(table: Table, *entries: services.GameEntry, user: Any = None) -> list[Game]:
    """Record ``entries`` as the next games of the list."""
    first = table.games.count() + 1
    return [
        services.record_game(table, number, row, user=user)
        for number, row in enumerate(entries, start=first)
    ]


def shown_rows(table: Any) -> list[Any]:
    """The standing's rows a page's table shows (each record's row)."""
    return [record["row"] for record in table.data.data]


def make_division(
    teams: int = 8, *, clubs: int = 2, players: int = 5, series: int = 3, year: int = 2026
) -> Any:
    """A league with one level (``series`` series a match day), a season of ``year`` and one
    division of ``teams`` teams from ``clubs`` clubs, each with ``players`` on its roster
    (four regulars, the rest substitutes) and its first player as captain."""
    from skatliga.models import Club, League, Season
    from skatliga.services import leagues

    n = next(_counter)
    league = League.objects.create(name=f"Liga {n}", slug=f"liga-{n}")
    level = leagues.add_level(league, "Oberliga", series=series)
    season = Season.objects.create(
        name=f"Liga {n} {year}", slug=f"liga-{n}-{year}", year=year, league=league
    )
    division = leagues.create_division(season, level, "Nord")
    club_rows = [Club.objects.create(name=f"Verein {n}-{c}") for c in range(clubs)]
    for t in range(teams):
        club = club_rows[t % clubs]
        team = leagues.add_team(division, f"{club.name} {t + 1}", club)
        roster = [make_player(f"Spieler {n}-{t + 1}-{p + 1}", club=club) for p in range(players)]
        leagues.set_roster(team, roster[:4], roster[4:], captain=roster[0])
    return division


def play_match_day(group: Any, order: Sequence[Any]) -> None:
    """``group``'s match day played through (set up, each team's first four every series,
    the draw, every list closed): at every table the player of ``order[0]`` wins a grand with
    two (122 points), of ``order[1]`` a clubs game with one (74), of ``order[2]`` a diamonds
    game with one (68), every other game is passed in; so the teams finish each series in
    ``order``."""
    from skatliga.services import matchdays

    group = matchdays.set_up_group(group)
    games = [
        ("grand", dict(bid=18, matadors=2, card_points=61)),
        ("clubs", dict(bid=18, matadors=1, card_points=61)),
        ("diamonds", dict(bid=18, matadors=1, card_points=61)),
    ]
    for number in range(1, group.match_day.division.level.series + 1):
        for team in group.teams.all():
            first = [e.player for e in team.roster.order_by("position")][:4]
            matchdays.set_line_up(group, team, number, first)
        series = services.draw_tables(group.tournament, despite_open_lists=True, seed=number)
        team_of = dict(
            Registration.objects.filter(tournament=group.tournament).values_list(
                "player_id", "team_id"
            )
        )
        for table in series.tables.all():
            seat_of = {team_of[s.player_id]: s.position for s in table.seats.all()}
            wanted = [
                (seat_of[team.pk], game, fields)
                for team, (game, fields) in zip(order, games, strict=False)
                if team.pk in seat_of
            ]
            size = table.size
            total = group.tournament.games_per_list(size)
            # each game where its declarer is not the dealer (who sits out at a table of four)
            numbers = next(
                p
                for p in itertools.permutations(range(1, total + 1), len(wanted))
                if all(
                    seat - 1 != scoring.dealer_seat(n, size)
                    for n, (seat, _g, _f) in zip(p, wanted, strict=True)
                )
            )
            rows = [entry() for _ in range(total)]
            for n, (seat, game, fields) in zip(numbers, wanted, strict=True):
                rows[n - 1] = entry(seat, game, **fields)
            play(table, *rows)
            services.close_table(table)


def make_two_levels() -> Any:
    """A season of two levels: an Oberliga of one division (``make_division``'s, 8 teams) and
    a Landesliga of two divisions of four ("Ost", "West"; teams "Ost 1" … "West 4" of one
    club, four players each, the second captain). The Oberliga sends two down; the Landesliga
    one up from each division, and one more: the better second by the comparison."""
    from skatliga.models import Club
    from skatliga.services import leagues

    top = make_division(8)
    season = top.season
    top.level.relegated = 2
    top.level.save()
    lower = leagues.add_level(season.league, "Landesliga", series=2)
    lower.promoted, lower.promoted_compared = 1, 1
    lower.save()
    club = Club.objects.create(name=f"Verein Süd {season.pk}")
    for name in ("Ost", "West"):
        division = leagues.create_division(season, lower, name)
        for t in range(4):
            team = leagues.add_team(division, f"{name} {t + 1}", club)
            roster = [make_player(f"{name}-{t + 1}-{p}", club=club) for p in range(4)]
            leagues.set_roster(team, roster, captain=roster[1])
    return season


def score_series(group: Any, number: int, sums: dict[Any, int], *, publish: bool = True) -> None:
    """Series ``number`` of a set-up league group played to these team sums: the line-ups of
    the teams' first four rostered players, drawn, and each team's players' totals set (as
    game points, no bonus) so that they add up to its sum (the first player takes what the
    others' 100 each leave); the lists closed and the series published unless ``publish``
    is False."""
    from django.utils import timezone

    from skatliga.models import ListResult
    from skatliga.services import matchdays

    for team in sums:
        players = [entry.player for entry in team.roster.order_by("position")][:4]
        matchdays.set_line_up(group, team, number, players)
    series = services.draw_tables(group.tournament, despite_open_lists=True, seed=number)
    for table in series.tables.all():
        services.recompute_results(table)
    for team, total in sums.items():
        rows = list(ListResult.objects.filter(series=series, team=team).order_by("player__name"))
        for index, row in enumerate(rows):
            row.total = total - 100 * (len(rows) - 1) if index == 0 else 100
            row.game_points, row.bonus = row.total, 0
            row.save(update_fields=["total", "game_points", "bonus"])
    if publish:
        series.tables.update(closed_at=timezone.now())
        services.publishing.publish_series(series)

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

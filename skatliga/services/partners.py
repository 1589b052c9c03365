"""Table partners: who sat together before, and a seating that avoids repeating them.

A seating is a list of tables, each a list of player ids. Its cost is three counts
compared in order: team-mates at one table (when they are kept apart), pairs the referee
keeps apart ("forbidden pairs": family, one household), then pairs of players who shared a
table in an earlier series ("repeat pairs"). :func:`arrange` improves a
seating by swapping players between tables (greedy descent, then a fixed number of random
kicks from the best seating found, each followed by a descent): deterministic for a given
random generator, and fast enough for hundreds of players.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import combinations

Pair = tuple[int, int]

KICKS = 150
"""Random kicks after the first descent, unless a seating without conflicts turns up first."""


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def pairs_of(tables: Iterable[Sequence[int]]) -> set[Pair]:
    """Every pair of players sharing one of ``tables``.

    >>> sorted(pairs_of([[3, 1, 2], [4, 5]]))
    [(1, 2), (1, 3), (2, 3), (4, 5)]
    """
    return {pair(a, b) for table in tables for a, b in combinations(table, 2)}


def repeat_pairs(tables: Iterable[Sequence[int]], met: set[Pair]) -> list[Pair]:
    """The pairs of ``tables`` who are in ``met`` (shared a table before), sorted.

    >>> repeat_pairs([[1, 2, 3], [4, 5, 6]], {(1, 2), (2, 5), (5, 6)})
    [(1, 2), (5, 6)]
    """
    return sorted(pairs_of(tables) & met)


def team_pairs(tables: Iterable[Sequence[int]], teams: Mapping[int, int | None]) -> int:
    """How many pairs of team-mates share a table."""
    return sum(
        1 for a, b in pairs_of(tables) if teams.get(a) is not None and teams.get(a) == teams.get(b)
    )


def mates_of(players: Iterable[int], teams: Mapping[int, int | None]) -> set[Pair]:
    """Every pair of ``players`` in one team.

    >>> sorted(mates_of([1, 2, 3, 4], {1: 7, 2: 8, 3: 7, 4: None}))
    [(1, 3)]
    """
    by_team: dict[int, list[int]] = {}
    for p in players:
        team = teams.get(p)
        if team is not None:
            by_team.setdefault(team, []).append(p)
    return {pair(a, b) for mates in by_team.values() for a, b in combinations(mates, 2)}


class _Search:
    """Swaps between tables that lower the cost: a team-mate pair weighs more than every
    forbidden pair together, a forbidden pair more than every repeat pair together, so the
    three counts are compared in order."""

    def __init__(
        self,
        tables: list[list[int]],
        met: set[Pair],
        teams: Mapping[int, int | None],
        rng: random.Random,
        forbidden: AbstractSet[Pair] = frozenset(),
    ) -> None:
        players = [p for table in tables for p in table]
        self.weights: dict[int, dict[int, int]] = {p: {} for p in players}
        heavy = len(players) ** 2 + 1
        apart = {(a, b) for a, b in forbidden if a in self.weights and b in self.weights}
        levels = ((met, 1), (apart, heavy), (mates_of(players, teams), heavy * (len(apart) + 1)))
        for pairs, weight in levels:
            for a, b in pairs:
                if a in self.weights and b in self.weights:
                    self.weights[a][b] = self.weights[b][a] = weight + self.weights[a].get(b, 0)
        self.rng = rng
        self.tables = [list(table) for table in tables]
        self.where = {p: index for index, table in enumerate(self.tables) for p in table}

    def weight(self, player: int, table: int, without: int | None = None) -> int:
        """What ``player`` costs at ``table`` (leaving out ``without``)."""
        weights = self.weights[player]
        return sum(
            weights.get(other, 0)
            for other in self.tables[table]
            if other != player and other != without
        )

    def cost(self) -> int:
        return sum(self.weight(p, t) for p, t in self.where.items()) // 2

    def swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        self.tables[ta][self.tables[ta].index(a)] = b
        self.tables[tb][self.tables[tb].index(b)] = a
        self.where[a], self.where[b] = tb, ta

    def descend(self) -> None:
        """Make the best swap for each player in conflict until no swap lowers the cost."""
        players = list(self.where)
        improved = True
        while improved:
            improved = False
            conflicted = [p for p in players if self.weight(p, self.where[p])]
            self.rng.shuffle(conflicted)
            for a in conflicted:
                ta = self.where[a]
                here = self.weight(a, ta)
                if not here:
                    continue
                best, partner = 0, None
                for b in players:
                    tb = self.where[b]
                    if tb == ta:
                        continue
                    delta = (
                        self.weight(a, tb, b) - here + self.weight(b, ta, a) - self.weight(b, tb)
                    )
                    if delta < best:
                        best, partner = delta, b
                if partner is not None:
                    self.swap(a, partner)
                    improved = True

    def kick(self) -> None:
        """Swap two players in conflict with random players at other tables."""
        conflicted = [p for p in self.where if self.weight(p, self.where[p])]
        for a in self.rng.sample(conflicted, min(2, len(conflicted))):
            b = self.rng.choice([p for p in self.where if self.where[p] != self.where[a]])
            self.swap(a, b)

    def restore(self, tables: list[list[int]]) -> None:
        self.tables = [list(table) for table in tables]
        self.where = {p: index for index, table in enumerate(self.tables) for p in table}


def arrange(
    tables: Sequence[Sequence[int]],
    *,
    met: set[Pair],
    teams: Mapping[int, int | None],
    rng: random.Random,
    kicks: int = KICKS,
    forbidden: AbstractSet[Pair] = frozenset(),
) -> list[list[int]]:
    """``tables`` (same sizes) with as few team-mate pairs, then ``forbidden`` pairs, then
    repeat pairs, as the search finds; never worse than the seating it starts from.
    ``teams`` maps a player to his team where team-mates are to be kept apart (an empty
    mapping: they are not)."""
    if len(tables) < 2:
        return [list(table) for table in tables]
    search = _Search([list(table) for table in tables], met, teams, rng, forbidden)
    if search.cost() == 0:
        return search.tables
    search.descend()
    best, best_cost = [list(t) for t in search.tables], search.cost()
    for _ in range(kicks):
        if best_cost == 0:
            break
        search.restore(best)
        search.kick()
        search.descend()
        cost = search.cost()
        if cost <= best_cost:
            best, best_cost = [list(t) for t in search.tables], cost
    return best


def separate(
    tables: Sequence[Sequence[int]],
    *,
    forbidden: AbstractSet[Pair],
    teams: Mapping[int, int | None],
) -> list[list[int]]:
    """``tables`` with each ``forbidden`` pair at one table split where a swap can: the
    later of the two changes places with the nearest player in seat order (the next table's
    first, the previous table's last, ...) whose swap lowers the count of team-mate pairs,
    then of forbidden pairs. A seeded draw stays as close to its order as it can.

    >>> separate([[1, 2, 3], [4, 5, 6]], forbidden={(2, 3)}, teams={})
    [[1, 2, 4], [3, 5, 6]]
    """
    seated = [list(table) for table in tables]
    mates = mates_of([p for table in seated for p in table], teams)

    def cost() -> tuple[int, int]:
        together = pairs_of(seated)
        return len(together & mates), len(together & forbidden)

    def swap(x: int, y: int) -> None:
        for table in seated:
            table[:] = [y if p == x else x if p == y else p for p in table]

    def split_one() -> bool:
        order = [p for table in seated for p in table]
        table_of = {p: index for index, table in enumerate(seated) for p in table}
        before = cost()
        for a, b in sorted(pairs_of(seated) & forbidden):
            at = max(order.index(a), order.index(b))
            x = order[at]
            for y in sorted(order, key=lambda p: (abs(order.index(p) - at), order.index(p))):
                if table_of[y] == table_of[x]:
                    continue
                swap(x, y)
                if cost() < before:
                    return True
                swap(x, y)
        return False

    while pairs_of(seated) & forbidden and split_one():
        pass
    return seated


# --- a league match day: one player of each team at every table ------------------------------

# GF(4) = {0, 1, a, a+1} as 0, 1, 2, 3: addition is XOR, multiplication by this table.
_GF4_TIMES = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def team_tables(line_ups: Sequence[Sequence[int]], series: int) -> list[list[int]] | None:
    """The tables of series ``series`` (0-based) of a group whose teams send ``line_ups``
    (each team's players in line-up order), by the pattern of docs/rules.md section 11.5:
    with up to four teams, position p of team t sits at table p + s·t over GF(4); with five,
    the positions of team t are the points q ≠ t of GF(5) and q sits at table q + s·t, which
    leaves table t(1 + s) without team t. Two players of different teams share a table in at
    most one of four series. None where the pattern does not fit (a team of more than four, more
    than five teams, or a table left with fewer than three).

    >>> team_tables([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], 1)
    [[1, 6, 11, 16], [2, 5, 12, 15], [3, 8, 9, 14], [4, 7, 10, 13]]
    """
    teams = len(line_ups)
    if any(len(players) > 4 for players in line_ups) or not 2 <= teams <= 5 or series > 3:
        return None
    count = 4 if teams <= 4 else 5
    tables: list[list[int]] = [[] for _ in range(count)]
    for t, players in enumerate(line_ups):
        for p, player in enumerate(players):
            if count == 4:
                where = p ^ _GF4_TIMES[series][t]
            else:
                where = ((p + 1 if p >= t else p) + series * t) % 5
            tables[where].append(player)
    tables = [table for table in tables if table]
    if any(len(table) < 3 or len(table) > 4 for table in tables):
        return None
    return tables


def deal_teams(line_ups: Sequence[Sequence[int]], tables: int) -> list[list[int]]:
    """The players dealt round the ``tables`` team by team, the largest team first: a team
    of at most ``tables`` players never has two at one table, and the tables' sizes differ
    by at most one.

    >>> deal_teams([[1, 2, 3], [4, 5, 6, 7], [8, 9, 10], [11, 12, 13]], 4)
    [[4, 1, 9, 13], [5, 2, 10], [6, 3, 11], [7, 8, 12]]
    """
    order = [p for players in sorted(line_ups, key=len, reverse=True) for p in players]
    dealt: list[list[int]] = [[] for _ in range(tables)]
    for index, player in enumerate(order):
        dealt[index % tables].append(player)
    return dealt

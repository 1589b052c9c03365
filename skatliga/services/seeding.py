"""The seeded draw ("Setzliste", docs/rating.md section 9): the order a seeded draw seats
the players in (the tournament's standing so far, or the players' ratings on its day) and the
two ways to seat them: in order, the top tables together as in a final
(:func:`seat_in_order`), or the strongest spread over the tables (:func:`spread`); team-mates
apart where the tournament says so, and always at a league group's match day
(:func:`seeded_league_tables`). ``services.seating.draw_tables`` calls them."""

from __future__ import annotations

import random
from collections import Counter, defaultdict, deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from skatliga.models import ListResult, PlayerRating, Registration, Tournament
from skatliga.rating.model import newcomer
from skatliga.services.common import ServiceError
from skatliga.services.partners import separate

T = TypeVar("T")


class Seatable(Protocol):
    """What a seating in order reads of a player to seat: a registration, or a player of a
    league group's line-up (:class:`_Seeded`)."""

    @property
    def player_id(self) -> int: ...

    @property
    def team_id(self) -> int | None: ...


S = TypeVar("S", bound=Seatable)


SEEDED_BY = {
    "standings": "standings",
    "standings_spread": "standings",
    "rating": "rating",
    "rating_spread": "rating",
}
"""What each seeded method orders the players by."""


def seeding_order(
    method: str, tournament: Tournament, registrations: Sequence[Registration], rng: random.Random
) -> list[Registration]:
    """``registrations`` in the order a seeded ``method`` seats them, strongest first."""
    if SEEDED_BY[method] == "rating":
        return rating_order(tournament, registrations, rng)
    return _standings_order(tournament, registrations, rng)


def rating_order(
    tournament: Tournament, registrations: Sequence[Registration], rng: random.Random
) -> list[Registration]:
    """The registrations by their players' ratings on the tournament's day, highest first
    (``PlayerRating.rating_on``: the uncertainty grown with the days since his last list); a
    player without a rating counts as a newcomer (``newcomer().rating()``, 0); players level
    on rating in an order drawn by lot. A rating kept from the public counts all the same."""
    found = {
        rating.player_id: rating.rating_on(tournament.date)
        for rating in PlayerRating.objects.filter(
            player_id__in=[r.player_id for r in registrations]
        )
    }
    start = newcomer().rating()
    order = list(registrations)
    rng.shuffle(order)
    return sorted(order, key=lambda r: -found.get(r.player_id, start))


def spread(order: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """A "Setzliste" spread over tables of ``sizes``: the first of ``order`` at table 1, the
    second at table 2, …, and back again (snake order), so that every table gets one of the
    strongest, one of the next, and so on, and the tables come out as even as they can. A
    3-table has no fourth seat: the last round goes round the 4-tables only.

    >>> spread([1, 2, 3, 4, 5, 6, 7, 8], [4, 4])
    [[1, 4, 5, 8], [2, 3, 6, 7]]
    >>> spread(list(range(1, 11)), [4, 3, 3])
    [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]
    """
    tables: list[list[T]] = [[] for _ in sizes]
    rest = iter(order)
    for seat in range(max(sizes, default=0)):
        open_tables = [index for index, size in enumerate(sizes) if size > seat]
        if seat % 2:
            open_tables.reverse()
        for index in open_tables:
            tables[index].append(next(rest))
    return tables


def seeded_league_tables(
    order: Sequence[int], teams: Mapping[int, int], *, spread_out: bool
) -> list[list[int]]:
    """A league group's tables seeded in ``order`` (player ids, strongest first), no table
    with two players of one team (``teams``: player → team): as many tables as the largest
    line-up has players or four seats allow, the larger first, filled in order
    (:func:`seat_in_order`) or spread (:func:`spread`, then the nearest swaps that part
    team-mates, :func:`~skatliga.services.partners.separate`; where those cannot, in order).
    ServiceError ``players_cannot_be_seated`` when tables of three or four cannot keep the
    teams apart."""
    total = len(order)
    count = max(Counter(teams[p] for p in order).most_common(1)[0][1], -(-total // 4))
    sizes = [total // count + (1 if index < total % count else 0) for index in range(count)]
    if not all(3 <= size <= 4 for size in sizes):
        raise ServiceError("players_cannot_be_seated", "players", players=total)

    def apart(tables: Sequence[Sequence[int]]) -> bool:
        return all(len({teams[p] for p in table}) == len(table) for table in tables)

    if spread_out:
        tables = separate(spread(order, sizes), forbidden=set(), teams=teams)
        if apart(tables):
            return tables
    seats = [_Seeded(p, teams[p]) for p in order]
    return [[seat.player_id for seat in table] for table in seat_in_order(seats, sizes, apart=True)]


@dataclass(frozen=True, slots=True)
class _Seeded:
    """A player as :func:`seat_in_order` reads a registration: his id and his team."""

    player_id: int
    team_id: int | None


def _standings_order(
    tournament: Tournament, registrations: Sequence[Registration], rng: random.Random
) -> list[Registration]:
    """The registrations in the order of the standings, those without results last by lot."""
    unranked = {r.player_id: r for r in registrations}
    rows = ListResult.objects.for_tournament(tournament).standings(lots_of=tournament)
    ranked = [unranked.pop(row.player_id) for row in rows if row.player_id in unranked]
    rest = list(unranked.values())
    rng.shuffle(rest)
    return ranked + rest


def _split(order: Sequence[S], sizes: Sequence[int]) -> list[list[S]]:
    tables: list[list[S]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def teams_apart(group: Sequence[Seatable]) -> bool:
    teams = [r.team_id for r in group if r.team_id is not None]
    return len(teams) == len(set(teams))


def seat_in_order(order: Sequence[S], sizes: Sequence[int], *, apart: bool) -> list[list[S]]:
    """Tables of ``sizes`` filled in ``order``: table 1 takes the first players, and so on.

    With ``apart``, each seat in turn takes the first player of ``order`` not seated yet
    whose team has nobody at that table and after whom the others can still be seated with
    team-mates apart: a player moves down only as far as a team-mate forces him, and the
    next ones move up by as much. ServiceError ``teammates_cannot_be_separated`` when no
    seating keeps team-mates apart.
    """
    if not apart:
        return _split(order, sizes)
    tables: list[list[S]] = [[] for _ in sizes]
    rest = list(order)
    if not _can_seat_apart(rest, tables, sizes):
        raise ServiceError("teammates_cannot_be_separated")
    for table, size in zip(tables, sizes, strict=True):
        while len(table) < size:
            teams = {r.team_id for r in table if r.team_id is not None}
            for index, candidate in enumerate(rest):
                if candidate.team_id in teams:
                    continue
                table.append(candidate)
                others = rest[:index] + rest[index + 1 :]
                if _can_seat_apart(others, tables, sizes):
                    rest = others
                    break
                table.pop()
            else:  # pragma: no cover - a seating exists, so some candidate keeps one open
                raise ServiceError("teammates_cannot_be_separated")
    return tables


def _can_seat_apart(
    rest: Sequence[Seatable], tables: Sequence[Sequence[Seatable]], sizes: Sequence[int]
) -> bool:
    """Whether ``rest`` fits the free seats of ``tables`` with no two team-mates at a table.

    Seating them in order is tried first; otherwise a flow from each team (as many as it
    has players left) to the tables without one of it (one each, as many as seats are free)
    decides. Players without a team take whatever seats remain.
    """
    free = [size - len(table) for table, size in zip(tables, sizes, strict=True)]
    filled = _split(rest, free)
    if all(teams_apart([*table, *more]) for table, more in zip(tables, filled, strict=True)):
        return True
    needed = Counter(r.team_id for r in rest if r.team_id is not None)
    edges: dict[Hashable, dict[Hashable, int]] = {"source": {}}
    for team, count in needed.items():
        edges["source"][("team", team)] = count
        edges[("team", team)] = {
            ("table", index): 1
            for index, table in enumerate(tables)
            if free[index] and team not in {r.team_id for r in table}
        }
    for index, seats in enumerate(free):
        edges[("table", index)] = {"sink": seats}
    return _max_flow(edges, "source", "sink") == sum(needed.values())


def _max_flow(edges: Mapping[Hashable, Mapping[Hashable, int]], source: str, sink: str) -> int:
    """The maximum flow through ``edges`` (node → node → capacity), by shortest paths."""
    residual: dict[Hashable, dict[Hashable, int]] = defaultdict(dict)
    for node, targets in edges.items():
        for target, capacity in targets.items():
            residual[node][target] = residual[node].get(target, 0) + capacity
            residual[target].setdefault(node, 0)
    flow = 0
    while True:
        parent: dict[Hashable, Hashable] = {source: source}
        queue: deque[Hashable] = deque([source])
        while queue and sink not in parent:
            node = queue.popleft()
            for target, capacity in residual[node].items():
                if capacity > 0 and target not in parent:
                    parent[target] = node
                    queue.append(target)
        if sink not in parent:
            return flow
        path: list[tuple[Hashable, Hashable]] = []
        node = sink
        while node != source:
            path.append((parent[node], node))
            node = parent[node]
        push = min(residual[a][b] for a, b in path)
        for a, b in path:
            residual[a][b] -= push
            residual[b][a] += push
        flow += push

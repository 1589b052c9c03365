"""A division's pairing table ("Zahlensystem"): which teams meet in which group on which match
day, and who hosts each group (docs/rules.md section 11.2).

Pure and deterministic: standard library only, no Django, integers only; the same arguments
give the same schedule. Teams are numbered 0 … n−1 (the official's order of the division's
teams); a schedule is a tuple of match days, each a tuple of groups, each a sorted tuple of
teams.

- Groups are of four teams; where the count does not divide by four, one group of five
  (n = 4k + 1), two of three (4k + 2) or one of three (4k + 3): :func:`group_sizes`.
- Pairs of teams meet as evenly as the numbers allow. 16 teams in groups of four on up to
  five match days: the 16 points and the five parallel classes of lines of the affine plane
  of order 4, so that every pair meets exactly once in five days (:func:`affine_plane`).
  4p teams (p a prime of at least 5: 20, 28, 44 …) on up to p days: a transversal design,
  no pair meets twice (:func:`transversal`). Any other count: a local search that spreads the
  meetings (:func:`spread_meetings`); what it reaches for 8, 9, 12 and 20 teams is stated in
  docs/rules.md section 11.2 and checked by the tests.
- Hosts: on each match day that is not central one team of each group hosts it; every team
  hosts ⌊S/n⌋ or ⌈S/n⌉ times, S the groups of those days (:func:`assign_hosts`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

Group = tuple[int, ...]
Day = tuple[Group, ...]
Pair = tuple[int, int]

KICKS = 300
"""Random kicks of the local search after its first descent (:func:`spread_meetings`)."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """The match days' groups and each group's host (None on a central match day)."""

    teams: int
    days: tuple[Day, ...]
    hosts: tuple[tuple[int | None, ...], ...]

    def meetings(self) -> Counter[Pair]:
        """How often each pair of teams meets (pairs that never meet are absent)."""
        return meetings(self.days)

    def spread(self) -> tuple[int, int]:
        """The fewest and the most meetings of any two teams (pairs never met count 0)."""
        return spread(self.teams, self.days)

    def hosted(self) -> Counter[int]:
        """How often each team hosts."""
        return Counter(host for day in self.hosts for host in day if host is not None)


def group_sizes(teams: int) -> list[int]:
    """The sizes of one match day's groups: fours, and one five, two threes or one three
    where ``teams`` does not divide by four.

    >>> group_sizes(16), group_sizes(9), group_sizes(10), group_sizes(11), group_sizes(5)
    ([4, 4, 4, 4], [4, 5], [4, 3, 3], [4, 4, 3], [5])
    >>> group_sizes(6), group_sizes(3)
    ([3, 3], [3])
    """
    if teams < 3:
        raise ValueError("a division needs at least three teams")
    fours, rest = divmod(teams, 4)
    extra = {0: [], 1: [5], 2: [3, 3], 3: [3]}[rest]
    fours -= {0: 0, 1: 1, 2: 1, 3: 0}[rest]
    return [4] * fours + extra


def meetings(days: Iterable[Iterable[Sequence[int]]]) -> Counter[Pair]:
    """How often each pair of teams shares a group.

    >>> sorted(meetings([[(0, 1, 2)], [(0, 1), (2, 3)]]).items())
    [((0, 1), 2), ((0, 2), 1), ((1, 2), 1), ((2, 3), 1)]
    """
    found: Counter[Pair] = Counter()
    for day in days:
        for group in day:
            found.update(tuple(sorted(pair)) for pair in combinations(group, 2))  # type: ignore[misc]
    return found


def spread(teams: int, days: Iterable[Iterable[Sequence[int]]]) -> tuple[int, int]:
    """The fewest and the most meetings of any two of ``teams`` teams."""
    met = meetings(days)
    counts = [met[(a, b)] for a, b in combinations(range(teams), 2)]
    return min(counts), max(counts)


# --- GF(4) and the affine plane of order 4 ---------------------------------------------------

# GF(4) = {0, 1, a, a+1} as 0, 1, 2, 3: addition is XOR, multiplication by this table.
_GF4_TIMES = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def affine_plane(days: int = 5) -> tuple[Day, ...]:
    """16 teams on up to five match days, every pair meeting at most once and, on five days,
    exactly once: team 4x + y is the point (x, y) of the plane over GF(4); match day m < 4
    groups the lines y = m·x + b (b = 0 … 3), the fifth the lines x = c.

    >>> plane = affine_plane()
    >>> spread(16, plane)
    (1, 1)
    >>> plane[4][0]
    (0, 1, 2, 3)
    """
    if not 1 <= days <= 5:
        raise ValueError("the affine plane of order 4 has five parallel classes")
    result = []
    for m in range(days):
        if m < 4:
            groups = [
                tuple(sorted(4 * x + (_GF4_TIMES[m][x] ^ b) for x in range(4))) for b in range(4)
            ]
        else:
            groups = [tuple(4 * c + y for y in range(4)) for c in range(4)]
        result.append(tuple(sorted(groups)))
    return tuple(result)


def is_prime(n: int) -> bool:
    """Whether ``n`` is a prime.

    >>> [p for p in range(12) if is_prime(p)]
    [2, 3, 5, 7, 11]
    """
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def transversal(p: int, days: int) -> tuple[Day, ...]:
    """4p teams (p a prime of at least 5) on up to p match days, no pair meeting twice: team
    4x + j is the point x of column j (x in GF(p), j = 0 … 3); match day d groups, for each
    c, the points c + d·j of the four columns. Two teams of different columns meet on
    exactly one day of the p, teams of one column never.

    >>> spread(20, transversal(5, 5))
    (0, 1)
    """
    if not (is_prime(p) and p >= 5 and 1 <= days <= p):
        raise ValueError("a transversal design of four columns needs a prime of at least 5")
    return tuple(
        tuple(sorted(tuple(sorted(4 * ((c + d * j) % p) + j for j in range(4))) for c in range(p)))
        for d in range(days)
    )


# --- any other count: a local search -----------------------------------------------------------


def spread_meetings(teams: int, days: int, *, seed: int = 0) -> tuple[Day, ...]:
    """Groups of :func:`group_sizes` on ``days`` match days, the meetings spread by an
    iterated local search: it lowers the sum over all pairs of the square of their meetings
    (for a fixed number of meetings in all, the least when they are most even) by swapping
    two teams of different groups on one day while a swap lowers it, then kicks the best
    schedule found (a few random swaps) and descends again, :data:`KICKS` times, keeping the
    best by (most − fewest meetings, Σ c²). Deterministic for a ``seed``."""
    sizes = group_sizes(teams)
    rng = random.Random(seed)
    count = [[0] * teams for _ in range(teams)]

    def add(group: Sequence[int], delta: int) -> None:
        for a, b in combinations(group, 2):
            count[a][b] += delta
            count[b][a] += delta

    def joins(team: int, group: Sequence[int], without: int) -> int:
        """The growth of Σ c² when ``team`` joins ``group`` (``without`` left out)."""
        return sum(2 * count[team][other] + 1 for other in group if other not in (team, without))

    def swap(day: list[list[int]], gi: int, gj: int, a: int, b: int) -> None:
        first, second = day[gi], day[gj]
        add(first, -1)
        add(second, -1)
        first[first.index(a)], second[second.index(b)] = b, a
        add(first, 1)
        add(second, 1)

    def descend(plan: list[list[list[int]]]) -> None:
        improved = True
        while improved:
            improved = False
            for day in plan:
                for gi, gj in combinations(range(len(day)), 2):
                    for a in list(day[gi]):
                        for b in list(day[gj]):
                            if a not in day[gi] or b not in day[gj]:
                                continue
                            # What a and b add where they are (their own meeting counted).
                            here = (
                                joins(a, day[gi], -1)
                                + joins(b, day[gj], -1)
                                - 2 * (len(day[gi]) + len(day[gj]) - 2)
                            )
                            there = joins(a, day[gj], b) + joins(b, day[gi], a)
                            if there < here:
                                swap(day, gi, gj, a, b)
                                improved = True

    def score() -> tuple[int, int]:
        values = [count[a][b] for a, b in combinations(range(teams), 2)]
        return max(values) - min(values), sum(v * v for v in values)

    plan: list[list[list[int]]] = []
    for _ in range(days):
        order = list(range(teams))
        rng.shuffle(order)
        day, start = [], 0
        for size in sizes:
            day.append(order[start : start + size])
            start += size
        plan.append(day)
        for group in day:
            add(group, 1)
    descend(plan)
    best, best_score = [[list(g) for g in day] for day in plan], score()
    for _ in range(KICKS if len(sizes) > 1 else 0):
        if best_score[0] <= 1:  # as even as meetings can be: Σ c² is then the least too
            break
        for _ in range(2):
            day = rng.choice(plan)
            gi, gj = rng.sample(range(len(day)), 2)
            swap(day, gi, gj, rng.choice(day[gi]), rng.choice(day[gj]))
        descend(plan)
        now = score()
        if now <= best_score:
            best, best_score = [[list(g) for g in day] for day in plan], now
        else:
            for day in plan:
                for group in day:
                    add(group, -1)
            plan = [[list(g) for g in day] for day in best]
            for day in plan:
                for group in day:
                    add(group, 1)
    return tuple(tuple(sorted(tuple(sorted(g)) for g in day)) for day in best)


def pairing(teams: int, days: int, *, seed: int = 0) -> tuple[Day, ...]:
    """The match days' groups for ``teams`` teams: a design where one fits, else the search."""
    if teams == 16 and days <= 5:
        return affine_plane(days)
    if teams % 4 == 0 and is_prime(teams // 4) and teams // 4 >= 5 and days <= teams // 4:
        return transversal(teams // 4, days)
    return spread_meetings(teams, days, seed=seed)


# --- hosts ---------------------------------------------------------------------------------------


def assign_hosts(
    teams: int, days: Sequence[Day], central: Collection[int] = ()
) -> tuple[tuple[int | None, ...], ...]:
    """One host per group on the days not in ``central`` (indices), None on those: every
    team hosts ⌊S/n⌋ or ⌈S/n⌉ times (S the groups to host, n the teams).

    A flow from the teams to the groups they play in: first ⌊S/n⌋ for each team, then up to
    ⌈S/n⌉, by augmenting paths; an augmenting path never takes a group from a team without
    giving it another, so the first round's counts stay.

    >>> hosts = assign_hosts(16, affine_plane(5), central={4})
    >>> sorted(Counter(h for day in hosts for h in day if h is not None).values()) == [1] * 16
    True
    """
    slots = [(d, g) for d in range(len(days)) if d not in central for g in range(len(days[d]))]
    members = {(d, g): days[d][g] for d, g in slots}
    holder: dict[tuple[int, int], int] = {}
    held: Counter[int] = Counter()

    def augment(team: int, limit: int, seen: set[tuple[int, int]]) -> bool:
        for slot in slots:
            if team not in members[slot] or slot in seen:
                continue
            seen.add(slot)
            other = holder.get(slot)
            if other is None or augment(other, limit, seen):
                if other is not None:
                    held[other] -= 1
                holder[slot] = team
                held[team] += 1
                return True
        return False

    least, most = divmod(len(slots), teams)
    most = least + (1 if most else 0)
    for limit in (least, most):
        for team in range(teams):
            while held[team] < limit and len(holder) < len(slots):
                if not augment(team, limit, set()):
                    break
    # A slot no flow reached (cannot happen while every team plays every day) keeps its
    # lowest team as host.
    return tuple(
        tuple(
            None if d in central else holder.get((d, g), days[d][g][0]) for g in range(len(days[d]))
        )
        for d in range(len(days))
    )


def generate(
    teams: int, days: int = 5, *, central: Collection[int] = (), seed: int = 0
) -> Schedule:
    """The schedule of a division of ``teams`` teams on ``days`` match days, those in
    ``central`` (0-based) at one venue.

    >>> s = generate(16, 5, central={4})
    >>> s.spread(), sorted(set(s.hosted().values()))
    ((1, 1), [1])
    """
    if days < 1:
        raise ValueError("a schedule needs a match day")
    grouped = pairing(teams, days, seed=seed)
    return Schedule(teams=teams, days=grouped, hosts=assign_hosts(teams, grouped, central))

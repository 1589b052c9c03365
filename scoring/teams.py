"""Match points between teams ("Wertungspunkte" of a league table, docs/rules.md section
11.3): per series the teams of a group are ranked by their game points, the sum of their
players' series totals; of n teams the best gets n−1 : 0, the next n−2 : 1, … the last
0 : n−1 (with four teams 3:0, 2:1, 1:2, 0:3). Teams level on game points share their places'
points evenly. Exact: halves are fractions, never floats."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import TypeVar

Team = TypeVar("Team", bound=Hashable)


def series_match_points(points: Mapping[Team, int]) -> dict[Team, tuple[Fraction, Fraction]]:
    """Each team's match points for and against in one series, from its game points.

    A team in places p … q (from 0; more than one place when level with others) gets
    (2(n−1) − p − q) / 2 for, and n − 1 minus that against.

    >>> mp = series_match_points({"A": 3000, "B": 2500, "C": 2500, "D": 1000})
    >>> {team: f"{won}:{lost}" for team, (won, lost) in mp.items()}
    {'A': '3:0', 'B': '3/2:3/2', 'C': '3/2:3/2', 'D': '0:3'}
    """
    ordered = sorted(points.values(), reverse=True)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for place, value in enumerate(ordered):
        first.setdefault(value, place)
        last[value] = place
    most = len(points) - 1
    result = {}
    for team, value in points.items():
        won = Fraction(2 * most - first[value] - last[value], 2)
        result[team] = (won, most - won)
    return result

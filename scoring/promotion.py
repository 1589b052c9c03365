"""Promotion and relegation at a season's end (docs/rules.md section 11.7).

A level says how many teams of each of its divisions go up and down directly, and how many
more are chosen by comparing the teams on the next place across all its divisions: at one
reform the places 10–16 of each division went down together with the four weakest
ninth-placed teams of ten divisions. Teams on the same place are compared by match points,
then game points; where equal teams straddle the cut, the comparison says so and the league
official decides (nothing here draws lots).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Line:
    """One team's line of its division's final table, ``place`` counted from 1."""

    team: Hashable
    place: int
    match_points: Fraction
    game_points: int


@dataclass(frozen=True)
class Rule:
    """How many teams of each division go up and down directly (``up``, ``down``), and how
    many more are chosen from the next place across the divisions (``up_compared`` of the
    best on place ``up`` + 1, ``down_compared`` of the weakest on the place just above the
    direct relegation)."""

    up: int = 0
    down: int = 0
    up_compared: int = 0
    down_compared: int = 0


@dataclass(frozen=True)
class Comparison:
    """Same-place teams of all divisions, best first, and those the comparison chose."""

    place_from_top: bool
    lines: tuple[Line, ...]
    chosen: frozenset[Hashable]
    tied_at_cut: bool
    """Teams equal on match points and game points fall on both sides of the cut."""


@dataclass(frozen=True)
class Moves:
    up: tuple[Hashable, ...] = ()
    down: tuple[Hashable, ...] = ()
    comparisons: tuple[Comparison, ...] = field(default=())


def _strength(line: Line) -> tuple[Fraction, int]:
    return (line.match_points, line.game_points)


def _compare(lines: list[Line], how_many: int, *, best: bool) -> Comparison:
    ordered = sorted(lines, key=_strength, reverse=True)
    chosen = ordered[:how_many] if best else ordered[len(ordered) - how_many :]
    rest = ordered[how_many:] if best else ordered[: len(ordered) - how_many]
    tied = bool(chosen and rest) and (
        _strength(chosen[-1]) == _strength(rest[0])
        if best
        else _strength(chosen[0]) == _strength(rest[-1])
    )
    return Comparison(best, tuple(ordered), frozenset(line.team for line in chosen), tied)


def moves(tables: Mapping[Hashable, Sequence[Line]], rule: Rule) -> Moves:
    """Who goes up and who goes down, from each division's final table (lines in any order).

    >>> a = [Line("A1", 1, Fraction(40), 9000), Line("A2", 2, Fraction(30), 8000),
    ...      Line("A3", 3, Fraction(20), 7000), Line("A4", 4, Fraction(10), 6000)]
    >>> b = [Line("B1", 1, Fraction(41), 9100), Line("B2", 2, Fraction(31), 7000),
    ...      Line("B3", 3, Fraction(20), 6500), Line("B4", 4, Fraction(9), 5000)]
    >>> m = moves({"A": a, "B": b}, Rule(up=1, down=1, down_compared=1))
    >>> m.up, m.down
    (('A1', 'B1'), ('A4', 'B4', 'B3'))
    """
    up: list[Hashable] = []
    down: list[Hashable] = []
    next_up: list[Line] = []
    next_down: list[Line] = []
    for lines in tables.values():
        ordered = sorted(lines, key=lambda line: line.place)
        size = len(ordered)
        going_up = min(rule.up, size)
        going_down = min(rule.down, size - going_up)
        up.extend(line.team for line in ordered[:going_up])
        down.extend(line.team for line in ordered[size - going_down :])
        if rule.up_compared and going_up < size - going_down:
            next_up.append(ordered[going_up])
        if rule.down_compared and size - going_down - 1 > going_up:
            next_down.append(ordered[size - going_down - 1])
    comparisons = []
    if next_up:
        comparison = _compare(next_up, min(rule.up_compared, len(next_up)), best=True)
        up.extend(line.team for line in comparison.lines if line.team in comparison.chosen)
        comparisons.append(comparison)
    if next_down:
        comparison = _compare(next_down, min(rule.down_compared, len(next_down)), best=False)
        down.extend(
            line.team for line in reversed(comparison.lines) if line.team in comparison.chosen
        )
        comparisons.append(comparison)
    return Moves(tuple(up), tuple(down), tuple(comparisons))

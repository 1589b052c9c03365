"""Ramsch: the game played when all pass, where the rule set has it (docs/rules.md section 8)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.game import Problem

DURCHMARSCH = 120
"""Credited to a player who took every trick."""

# The 32 cards' values, highest first: the most points n cards can hold is the sum of the first n.
_CARD_VALUES = (11,) * 4 + (10,) * 4 + (4,) * 4 + (3,) * 4 + (2,) * 4 + (0,) * 12
_MOST_POINTS = tuple(sum(_CARD_VALUES[:n]) for n in range(33))


def ramsch_points_possible(card_points: int, tricks: int) -> bool:
    """Whether a Ramsch player with ``tricks`` tricks can hold ``card_points``.

    He holds 3 × tricks cards, and the skat's two with the last trick if he took it: no
    trick, no points; the other players' tricks may hold the skat just as well.

    >>> ramsch_points_possible(0, 0), ramsch_points_possible(2, 0)
    (True, False)
    >>> ramsch_points_possible(54, 1), ramsch_points_possible(55, 1)
    (True, False)
    >>> ramsch_points_possible(66, 9), ramsch_points_possible(65, 9)
    (True, False)
    """
    if tricks == 0:
        return card_points == 0
    most = _MOST_POINTS[3 * tricks + 2]
    least = 120 - _MOST_POINTS[3 * (10 - tricks) + 2] if tricks < 10 else 120
    return least <= card_points <= most


@dataclass(frozen=True, slots=True)
class Ramsch:
    """Each active player's card points and tricks, in seat order from forehand."""

    card_points: tuple[int, ...]
    tricks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RamschScore:
    """A scored Ramsch: ``points`` per active player (from forehand) on a classic list.

    ``charged`` marks the players charged ``charge`` (the most card points, doubled by a
    Jungfrau); ``durchmarsch`` the player credited 120, or None.
    """

    points: tuple[int, ...]
    charged: tuple[bool, ...]
    charge: int
    jungfrau: bool
    durchmarsch: int | None


def check_ramsch(ramsch: Ramsch) -> list[Problem]:
    """Problems of a Ramsch entry: three players, points adding up to 120 and tricks to 10.

    >>> check_ramsch(Ramsch((60, 40, 20), (5, 3, 2)))
    []
    >>> check_ramsch(Ramsch((60, 40, 19), (5, 3, 2)))
    [Problem(code='ramsch_card_points_sum', field='card_points', warning=False)]
    """
    problems = []
    if len(ramsch.card_points) != 3:
        problems.append(Problem("ramsch_players", "card_points"))
    if len(ramsch.tricks) != 3:
        problems.append(Problem("ramsch_players", "tricks"))
    if problems:
        return problems
    if any(not 0 <= p <= 120 for p in ramsch.card_points):
        problems.append(Problem("card_points_out_of_range", "card_points"))
    elif sum(ramsch.card_points) != 120:
        problems.append(Problem("ramsch_card_points_sum", "card_points"))
    if any(not 0 <= t <= 10 for t in ramsch.tricks):
        problems.append(Problem("tricks_out_of_range", "tricks"))
    elif sum(ramsch.tricks) != 10:
        problems.append(Problem("ramsch_tricks_sum", "tricks"))
    if not problems:
        for points, tricks in zip(ramsch.card_points, ramsch.tricks, strict=True):
            if not ramsch_points_possible(points, tricks):
                problems.append(Problem("card_points_contradict_tricks", "card_points"))
                break
    return problems


def score_ramsch(ramsch: Ramsch) -> RamschScore:
    """Score a valid Ramsch (raises ValueError otherwise).

    The player with the most card points is charged that many (players level on the most
    all are); a player who took no trick doubles the charge (Jungfrau); a player who took
    every trick is credited 120 (Durchmarsch).

    >>> score_ramsch(Ramsch((30, 62, 28), (3, 5, 2))).points
    (0, -62, 0)
    >>> score_ramsch(Ramsch((0, 70, 50), (0, 6, 4))).points
    (0, -140, 0)
    >>> score_ramsch(Ramsch((50, 50, 20), (4, 4, 2))).points
    (-50, -50, 0)
    >>> score_ramsch(Ramsch((0, 120, 0), (0, 10, 0))).points
    (0, 120, 0)
    """
    problems = check_ramsch(ramsch)
    if problems:
        raise ValueError(", ".join(p.code for p in problems))
    if 10 in ramsch.tricks:
        winner = ramsch.tricks.index(10)
        points = tuple(DURCHMARSCH if i == winner else 0 for i in range(3))
        return RamschScore(points, (False,) * 3, 0, False, winner)
    most = max(ramsch.card_points)
    jungfrau = 0 in ramsch.tricks
    charge = most * (2 if jungfrau else 1)
    charged = tuple(p == most for p in ramsch.card_points)
    points = tuple(-charge if c else 0 for c in charged)
    return RamschScore(points, charged, charge, jungfrau, None)

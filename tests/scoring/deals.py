"""What a deal can give the declarer, worked out from the 32 cards alone (docs/rules.md 10.2).

Independent of the engine: instead of a subset sum card by card, this counts how many cards of
each value the declarer holds. Of each of the five counting ranks there are four cards (aces 11,
tens 10, kings 4, queens 3, jacks 2) and twelve blank cards (nines, eights, sevens).
"""

from functools import cache
from itertools import product

COUNTING_RANKS = (11, 10, 4, 3, 2)
BLANKS = 12


@cache
def declarer_points(tricks: int) -> frozenset[int]:
    """The card points of a declarer with ``tricks`` tricks: 3 x tricks cards and the skat."""
    cards = 3 * tricks + 2
    points = set()
    for counts in product(range(5), repeat=len(COUNTING_RANKS)):
        if 0 <= cards - sum(counts) <= BLANKS:
            points.add(sum(n * value for n, value in zip(counts, COUNTING_RANKS, strict=True)))
    return frozenset(points)


def possible_pairs() -> set[tuple[int, int]]:
    """Every (card points, tricks) a deal can give the declarer."""
    return {(points, tricks) for tricks in range(11) for points in declarer_points(tricks)}

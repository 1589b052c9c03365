"""The legal bid values (Reizwerte): every value a game can have."""

from __future__ import annotations

from functools import cache

from scoring.rules import ISKO, SUIT_BASE, RuleSet

# Highest multiplier: 11 matadors + game + hand, schneider, announced, schwarz, announced, ouvert.
_MOST_SUIT_LEVEL = 18
_MOST_GRAND_LEVEL = 11


@cache
def bid_values(rules: RuleSet = ISKO) -> tuple[int, ...]:
    """All legal bids under ``rules``, ascending: 18, 20, 22, 23, 24, 27, …

    >>> bid_values()[:10]
    (18, 20, 22, 23, 24, 27, 30, 33, 35, 36)
    >>> bid_values()[-3:]
    (216, 240, 264)
    """
    values = {
        base * level for base in SUIT_BASE.values() for level in range(2, _MOST_SUIT_LEVEL + 1)
    }
    values |= {rules.grand_base * level for level in range(2, _MOST_GRAND_LEVEL + 1)}
    values |= {value for _, _, value in rules.null_values}
    if rules.revolution is not None:
        values.add(rules.revolution)
    return tuple(sorted(values))


_BID_SETS: dict[str, frozenset[int]] = {}


def is_legal_bid(bid: int, rules: RuleSet = ISKO) -> bool:
    """Whether ``bid`` is a value a bid can take.

    >>> is_legal_bid(18), is_legal_bid(19), is_legal_bid(264), is_legal_bid(265)
    (True, False, True, False)
    """
    legal = _BID_SETS.get(rules.name)
    if legal is None:
        legal = _BID_SETS[rules.name] = frozenset(bid_values(rules))
    return bid in legal

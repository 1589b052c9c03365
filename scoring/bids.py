"""The legal bid values (Reizwerte): exactly the values the rule set's games can have."""

from __future__ import annotations

from functools import cache

from scoring.rules import ISKO, SUIT_BASE, GameType, RuleSet

# Levels above the matadors: game, hand, schneider, announced, schwarz, announced, ouvert.
_EXTRA_LEVELS = 7


@cache
def bid_values(rules: RuleSet = ISKO) -> tuple[int, ...]:
    """All legal bids under ``rules``, ascending: 18, 20, 22, 23, 24, 27, …

    >>> bid_values()[:10]
    (18, 20, 22, 23, 24, 27, 30, 33, 35, 36)
    >>> bid_values()[-3:]
    (216, 240, 264)
    >>> from scoring.rules import RULE_SETS
    >>> bid_values(RULE_SETS["dsu"])[-3:]
    (180, 200, 220)
    """
    values = {
        base * level
        for game, base in [*SUIT_BASE.items(), (GameType.GRAND, rules.grand_base)]
        for level in range(2, rules.most_matadors(game) + _EXTRA_LEVELS + 1)
    }
    values |= {value for _, _, value in rules.null_games()}
    if rules.revolution is not None:
        values.add(rules.revolution)
    return tuple(sorted(values))


@cache
def _bid_set(rules: RuleSet) -> frozenset[int]:
    return frozenset(bid_values(rules))


def is_legal_bid(bid: int, rules: RuleSet = ISKO) -> bool:
    """Whether ``bid`` is a value a bid can take.

    >>> is_legal_bid(18), is_legal_bid(19), is_legal_bid(264), is_legal_bid(265)
    (True, False, True, False)
    """
    return bid in _bid_set(rules)

"""Closed sets and the named rule sets of rules.md section 8.

Rules are data: each named rule set is a frozen :class:`RuleSet`; code branches on its
fields only where a variant really behaves differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class GameType(StrEnum):
    """The game the declarer announces; the values are the archive's strings.

    >>> GameType("grand").is_trump_game
    True
    >>> GameType.NULL.is_trump_game
    False
    """

    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    GRAND = "grand"
    NULL = "null"
    REVOLUTION = "revolution"

    @property
    def is_trump_game(self) -> bool:
        """True for suit and grand games, the games with matadors and levels."""
        return self not in (GameType.NULL, GameType.REVOLUTION)


SUIT_BASE: Mapping[GameType, int] = MappingProxyType(
    {GameType.DIAMONDS: 9, GameType.HEARTS: 10, GameType.SPADES: 11, GameType.CLUBS: 12}
)
"""Base values (Grundwerte) of the suit games; grand's depends on the rule set."""


class ListSystem(StrEnum):
    """How a list turns game values into points (rules.md sections 4, 5 and 8).

    >>> ListSystem("zero-sum") is ListSystem.ZERO_SUM
    True
    """

    SEEGER_FABIAN = "seeger-fabian"
    CLASSIC = "classic"
    ZERO_SUM = "zero-sum"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One named set of scoring rules.

    >>> ISKO.base(GameType.GRAND), RULE_SETS["grand20"].base(GameType.GRAND)
    (24, 20)
    >>> ISKO.null_value(hand=True, ouvert=True)
    59
    """

    name: str
    grand_base: int = 24
    null_values: tuple[tuple[bool, bool, int], ...] = (
        (False, False, 23),
        (True, False, 35),
        (False, True, 46),
        (True, True, 59),
    )
    """(hand, ouvert, value) for every null game the rule set knows."""
    kontra: bool = False
    """Kontra and Re allowed, doubling the game value each."""
    lost_hand_factor: int = 2
    """A lost hand game costs this many times its value (1 before 1999)."""
    ouvert_needs_hand: bool = True
    ouvert_implies_announcements: bool = True
    schneider_at: int = 90
    """Declarer's card points that make the opponents schneider."""
    opponents_paid: bool = False
    """A lost game credits each opponent instead of charging the declarer (Dutch seed)."""
    overbid_charges_bid: bool = False
    """An overbid game is charged the bid itself (Dutch seed)."""
    revolution: int | None = None
    """Value of the Revolution null game, where the rule set has it."""

    def base(self, game: GameType) -> int:
        """Base value of a suit or grand game."""
        return self.grand_base if game is GameType.GRAND else SUIT_BASE[game]

    def null_value(self, *, hand: bool, ouvert: bool) -> int | None:
        """Value of a null game, or None where the rule set has no such game."""
        for h, o, value in self.null_values:
            if h == hand and o == ouvert:
                return value
        return None


ISKO = RuleSet("isko")
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        rules.name: rules
        for rules in (
            ISKO,
            RuleSet("isko-kontra", kontra=True),
            RuleSet("pre1999", lost_hand_factor=1),
            RuleSet("grand20", grand_base=20),
            RuleSet(
                "dsu",
                grand_base=20,
                null_values=((False, False, 23), (False, True, 46), (True, True, 69)),
                ouvert_needs_hand=False,
                ouvert_implies_announcements=False,
                schneider_at=91,
            ),
            RuleSet("nl", opponents_paid=True, overbid_charges_bid=True, revolution=92),
        )
    }
)
"""The named rule sets, by name; ``isko`` is the default."""


def get_rules(name: str) -> RuleSet:
    """The rule set called ``name``; raises KeyError for an unknown name.

    >>> get_rules("pre1999").lost_hand_factor
    1
    """
    return RULE_SETS[name]

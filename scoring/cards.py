"""Cards, and the matadors (Spitzen) counted from the declarer's cards and the skat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.rules import ISKO, GameType, MatadorCount, RuleSet

SUITS = "CSHD"
"""Clubs, spades, hearts, diamonds, in trump order of the jacks."""
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
_SUIT_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♡": "H", "♢": "D", "♧": "C", "♤": "S"}
_SUIT_OF_GAME = {
    GameType.CLUBS: "C",
    GameType.SPADES: "S",
    GameType.HEARTS: "H",
    GameType.DIAMONDS: "D",
}
# Trumps below the jacks in a suit game, highest first.
_SUIT_TRUMP_RANKS = ("A", "10", "K", "Q", "9", "8", "7")


class CardError(ValueError):
    """A card or a set of cards that cannot be; ``code`` says why."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the 32-card pack: ``suit`` in "CSHD", ``rank`` in :data:`RANKS`."""

    suit: str
    rank: str

    def __str__(self) -> str:
        return self.suit + self.rank


def parse_card(text: str) -> Card:
    """Read a card such as "CJ", "♠A", "h10", "HT" or "d7".

    >>> parse_card("♣j"), parse_card("ht")
    (Card(suit='C', rank='J'), Card(suit='H', rank='10'))
    """
    s = text.strip().upper()
    suit = _SUIT_SYMBOLS.get(s[:1], s[:1])
    rank = {"T": "10", "B": "J"}.get(s[1:], s[1:])
    if suit not in SUITS or rank not in RANKS:
        raise CardError("card_unknown", text)
    return Card(suit, rank)


def matadors_from_cards(
    hand: Iterable[str | Card],
    skat: Iterable[str | Card],
    game: GameType,
    rules: RuleSet = ISKO,
) -> int:
    """Signed matadors: the unbroken run of top trumps held (+N) or missing (-N).

    Counted over the declarer's ten cards and the two skat cards (ISkO 2.4); under
    ``matadors: jacks`` (dsu, se) only the four jacks count.

    >>> hand = ["CJ", "SJ", "DJ", "HA", "H10", "HK", "S7", "S8", "D9", "DA"]
    >>> matadors_from_cards(hand, ["C7", "C8"], GameType.HEARTS)
    2
    >>> matadors_from_cards(["HJ"] + hand[2:] + ["C9"], ["C7", "C8"], GameType.GRAND)
    -2
    >>> from scoring.rules import RULE_SETS
    >>> four_jacks = ["CJ", "SJ", "HJ", "DJ", "CA", "C10", "CK", "S7", "S8", "D9"]
    >>> matadors_from_cards(four_jacks, ["H7", "H8"], GameType.CLUBS)
    7
    >>> matadors_from_cards(four_jacks, ["H7", "H8"], GameType.CLUBS, RULE_SETS["dsu"])
    4
    """
    if not game.is_trump_game:
        raise CardError("game_has_no_matadors", str(game))
    hand_cards = [c if isinstance(c, Card) else parse_card(c) for c in hand]
    skat_cards = [c if isinstance(c, Card) else parse_card(c) for c in skat]
    if len(hand_cards) != 10:
        raise CardError("hand_size", str(len(hand_cards)))
    if len(skat_cards) != 2:
        raise CardError("skat_size", str(len(skat_cards)))
    held = set(hand_cards) | set(skat_cards)
    if len(held) != 12:
        raise CardError("card_duplicate")
    trumps = [Card(suit, "J") for suit in SUITS]
    if game is not GameType.GRAND and rules.matadors is MatadorCount.TRUMPS:
        suit = _SUIT_OF_GAME[game]
        trumps += [Card(suit, rank) for rank in _SUIT_TRUMP_RANKS]
    with_top = trumps[0] in held
    run = 0
    for card in trumps:
        if (card in held) != with_top:
            break
        run += 1
    return run if with_top else -run

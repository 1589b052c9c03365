"""Closed sets, rule options and the named presets of docs/rules.md section 8.

Rules are data: a :class:`RuleSet` is a frozen set of options; the seeds' systems are
named presets of them (``isko`` plus a few changed options). A tournament picks a preset
and may change single options (house rules); the archive stores the preset's name and the
options that differ from it (:func:`rules_to_json`, :func:`rules_from_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any


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
    """How a list turns game values into points (docs/rules.md sections 4, 5 and 8).

    >>> ListSystem("zero-sum") is ListSystem.ZERO_SUM
    True
    """

    SEEGER_FABIAN = "seeger-fabian"
    CLASSIC = "classic"
    ZERO_SUM = "zero-sum"


class Doublings(StrEnum):
    """Which doublings the defenders and the declarer may announce, each ×2."""

    NONE = "none"
    KONTRA_RE = "kontra-re"
    SUPRA = "kontra-re-supra-resupra"


DOUBLINGS = ("kontra", "re", "supra", "resupra")
"""The doubling announcements in the order they must come; each doubles the value."""


class MatadorCount(StrEnum):
    """What counts as matadors: the ISkO run of trumps, or the four jacks only."""

    TRUMPS = "trumps"
    JACKS = "jacks"


class OuvertRule(StrEnum):
    """Open play: ISkO (hand, announces schneider and schwarz) or one more level."""

    ISKO = "isko"
    OPEN_PLUS_ONE = "open-plus-one"


class LostGame(StrEnum):
    """How a lost game is charged in the classic list (docs/rules.md section 8)."""

    DOUBLE = "double"
    SINGLE_HAND = "single-hand"
    ADD_LEVEL = "add-level"
    OPPONENTS_CREDITED = "opponents-credited"


class OverbidRule(StrEnum):
    """What an overbid game is charged: the next multiple of its base, or the bid."""

    NEXT_MULTIPLE = "next-multiple"
    BID = "bid"


class FourthPlayer(StrEnum):
    """Who sits out at a 4-table: the dealer, or the previous dealer sharing the dealer's score."""

    DEALER_SITS_OUT = "dealer-sits-out"
    SHARES_DEALER = "shares-dealer"


NullValues = tuple[int | None, int | None, int | None, int | None]
"""Values of null, null hand, null ouvert and null ouvert hand; None where there is no such game."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One set of scoring rules: a preset's name and every option (docs/rules.md section 8).

    >>> ISKO.base(GameType.GRAND), RULE_SETS["dsu"].base(GameType.GRAND)
    (24, 20)
    >>> ISKO.null_value(hand=True, ouvert=True)
    59
    >>> RULE_SETS["se"].doubling_names
    ('kontra', 're')
    """

    preset: str = "isko"
    grand_base: int = 24
    matadors: MatadorCount = MatadorCount.TRUMPS
    null_values: NullValues = (23, 35, 46, 59)
    doublings: Doublings = Doublings.NONE
    ouvert: OuvertRule = OuvertRule.ISKO
    schneider_at: int = 90
    """Declarer's card points that make the opponents schneider."""
    lost_game: LostGame = LostGame.DOUBLE
    overbid: OverbidRule = OverbidRule.NEXT_MULTIPLE
    revolution: int | None = None
    """Value of the Revolution null game, where the rule set has it."""
    fourth_player: FourthPlayer = FourthPlayer.DEALER_SITS_OUT
    ramsch: bool = False
    """When all pass, Ramsch is played instead of a passed-in game."""

    @property
    def name(self) -> str:
        """The preset's name (house options are in :meth:`changes`)."""
        return self.preset

    def base(self, game: GameType) -> int:
        """Base value of a suit or grand game."""
        return self.grand_base if game is GameType.GRAND else SUIT_BASE[game]

    def null_value(self, *, hand: bool, ouvert: bool) -> int | None:
        """Value of a null game, or None where the rule set has no such game."""
        return self.null_values[hand + 2 * ouvert]

    def null_games(self) -> tuple[tuple[bool, bool, int], ...]:
        """(hand, ouvert, value) of every null game the rule set has."""
        return tuple(
            (bool(i & 1), bool(i & 2), value)
            for i, value in enumerate(self.null_values)
            if value is not None
        )

    def most_matadors(self, game: GameType) -> int:
        """The most matadors a game can be played with or without."""
        if self.matadors is MatadorCount.JACKS or game is GameType.GRAND:
            return 4
        return 11

    @property
    def doubling_names(self) -> tuple[str, ...]:
        """The doublings this rule set allows, in order: () or kontra, re (, supra, resupra)."""
        return DOUBLINGS[
            : {Doublings.NONE: 0, Doublings.KONTRA_RE: 2, Doublings.SUPRA: 4}[self.doublings]
        ]

    @property
    def kontra(self) -> bool:
        """Whether Kontra (and so the doubling column) exists under this rule set."""
        return self.doublings is not Doublings.NONE

    @property
    def ouvert_needs_hand(self) -> bool:
        return self.ouvert is OuvertRule.ISKO

    def changes(self) -> dict[str, Any]:
        """The options that differ from the preset, as archive JSON values.

        >>> replace(RULE_SETS["se"], lost_game=LostGame.ADD_LEVEL, ramsch=True).changes()
        {'lost_game': 'add-level', 'ramsch': True}
        """
        preset = RULE_SETS[self.preset]
        return {
            name: option_to_json(name, getattr(self, name))
            for name in OPTIONS
            if getattr(self, name) != getattr(preset, name)
        }


OPTIONS = tuple(f.name for f in fields(RuleSet) if f.name != "preset")
"""The option names, in the order of docs/rules.md section 8."""

PRESET_CHANGES: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "isko": {},
        "isko-kontra": {"doublings": Doublings.KONTRA_RE},
        "pre1999": {"lost_game": LostGame.SINGLE_HAND},
        "grand20": {"grand_base": 20},
        "dsu": {
            "grand_base": 20,
            "matadors": MatadorCount.JACKS,
            "null_values": (23, None, 46, 69),
            "ouvert": OuvertRule.OPEN_PLUS_ONE,
            "schneider_at": 91,
        },
        "se": {"doublings": Doublings.KONTRA_RE, "matadors": MatadorCount.JACKS},
        "nl": {
            "lost_game": LostGame.OPPONENTS_CREDITED,
            "overbid": OverbidRule.BID,
            "revolution": 92,
            "fourth_player": FourthPlayer.SHARES_DEALER,
        },
    }
)
"""Each preset as the options it changes from ``isko`` (docs/rules.md section 8)."""

ISKO = RuleSet()
RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {name: replace(ISKO, preset=name, **changes) for name, changes in PRESET_CHANGES.items()}
)
"""The presets, by name; ``isko`` is the default."""
PRESETS = tuple(RULE_SETS)


def get_rules(name: str) -> RuleSet:
    """The preset called ``name``; raises KeyError for an unknown name.

    >>> get_rules("pre1999").lost_game
    <LostGame.SINGLE_HAND: 'single-hand'>
    """
    return RULE_SETS[name]


class RulesError(ValueError):
    """A rules value that is not a preset or a valid options object: ``code`` and ``field``."""

    def __init__(self, code: str, field: str | None = None) -> None:
        super().__init__(f"{code} ({field})" if field else code)
        self.code = code
        self.field = field


_ENUMS: Mapping[str, type[StrEnum]] = MappingProxyType(
    {
        "matadors": MatadorCount,
        "doublings": Doublings,
        "ouvert": OuvertRule,
        "lost_game": LostGame,
        "overbid": OverbidRule,
        "fourth_player": FourthPlayer,
    }
)
OPTION_CHOICES: Mapping[str, tuple[Any, ...]] = MappingProxyType(
    {
        **{name: tuple(enum) for name, enum in _ENUMS.items()},
        "grand_base": (24, 20),
        "schneider_at": (90, 91),
        "revolution": (None, 92),
        "ramsch": (False, True),
    }
)
"""The values each option can take, the ISkO's first (``null_values`` is free-form)."""


def null_values_to_text(values: NullValues) -> str:
    """``23/35/46/59``: null, hand, ouvert, ouvert hand; ``-`` where the game does not exist.

    >>> null_values_to_text((23, None, 46, 69))
    '23/-/46/69'
    """
    return "/".join("-" if v is None else str(v) for v in values)


def null_values_from_text(text: str) -> NullValues:
    """Read :func:`null_values_to_text`'s form; raises ValueError when it is not that.

    >>> null_values_from_text("23/29/46/59")
    (23, 29, 46, 59)
    """
    parts = text.split("/")
    if len(parts) != 4:
        raise ValueError(text)
    values = tuple(None if p.strip() == "-" else int(p) for p in parts)
    if values[0] is None or any(v is not None and not 1 <= v <= 999 for v in values):
        raise ValueError(text)
    return values  # type: ignore[return-value]


def option_to_json(name: str, value: Any) -> Any:
    """An option's value as the archive writes it."""
    if name == "null_values":
        return null_values_to_text(value)
    if isinstance(value, StrEnum):
        return str(value)
    return value


def option_from_json(name: str, value: Any) -> Any:
    """An option's value from the archive; raises :class:`RulesError` when it is not allowed.

    >>> option_from_json("lost_game", "add-level")
    <LostGame.ADD_LEVEL: 'add-level'>
    >>> option_from_json("grand_base", 21)
    Traceback (most recent call last):
    scoring.rules.RulesError: option_value_invalid (grand_base)
    """
    if name not in OPTIONS:
        raise RulesError("unknown_option", name)
    if name == "null_values":
        if not isinstance(value, str):
            raise RulesError("option_value_invalid", name)
        try:
            return null_values_from_text(value)
        except ValueError:
            raise RulesError("option_value_invalid", name) from None
    choices = OPTION_CHOICES[name]
    for choice in choices:
        # bool is an int: compare types too, so that 1 is not True.
        if (
            choice == value
            and type(choice) is type(value)
            or (isinstance(choice, StrEnum) and choice.value == value)
        ):
            return choice
    raise RulesError("option_value_invalid", name)


def rules_from_json(value: Any) -> RuleSet:
    """A rule set from the archive: a preset's name or ``{"preset": …, option: value, …}``.

    >>> rules_from_json("se").doublings
    <Doublings.KONTRA_RE: 'kontra-re'>
    >>> rules_from_json({"preset": "se", "lost_game": "add-level"}).lost_game
    <LostGame.ADD_LEVEL: 'add-level'>
    >>> rules_from_json({"preset": "xx"})
    Traceback (most recent call last):
    scoring.rules.RulesError: unknown_rules (preset)
    """
    if isinstance(value, str):
        if value not in RULE_SETS:
            raise RulesError("unknown_rules", None)
        return RULE_SETS[value]
    if not isinstance(value, dict):
        raise RulesError("wrong_type", None)
    preset = value.get("preset", "isko")
    if not isinstance(preset, str) or preset not in RULE_SETS:
        raise RulesError("unknown_rules", "preset")
    changes = {
        name: option_from_json(name, option) for name, option in value.items() if name != "preset"
    }
    return replace(RULE_SETS[preset], **changes)


def rules_to_json(rules: RuleSet) -> str | dict[str, Any]:
    """The archive's form: the plain preset name where no option differs from it.

    >>> rules_to_json(RULE_SETS["nl"])
    'nl'
    >>> rules_to_json(replace(RULE_SETS["nl"], null_values=(23, 29, 46, 59)))
    {'preset': 'nl', 'null_values': '23/29/46/59'}
    """
    changes = rules.changes()
    return {"preset": rules.preset, **changes} if changes else rules.preset

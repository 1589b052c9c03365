"""The archive's game shape (``skatliga-archive/1``): JSON objects to and from the engine's types.

Used by the command line and by the site's archive import and export, so that a game reads
the same everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.game import Declaration, Outcome
from scoring.ramsch import Ramsch
from scoring.rules import DOUBLINGS, GameType

FLAGS = ("hand", "schneider_announced", "schwarz_announced", "ouvert", *DOUBLINGS)
"""The declaration's booleans, in archive order."""
GAME_KEYS = frozenset(
    ("passed", "declarer", "game", "bid", "matadors", "card_points", "tricks", "ramsch")
    + FLAGS
    + ("won", "schneider", "schwarz")
)
RAMSCH_KEYS = frozenset(("card_points", "tricks"))
"""Every key a game object may have."""
_GAME_TYPES = {game.value: game for game in GameType}


class ShapeError(ValueError):
    """A game object that does not have the archive's shape: ``code`` and the ``field``."""

    def __init__(self, code: str, field: str | None = None) -> None:
        super().__init__(f"{code} ({field})" if field else code)
        self.code = code
        self.field = field


def _int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ShapeError("wrong_type", key)
    return value


def _bool(data: Mapping[str, Any], key: str) -> bool | None:
    value = data.get(key)
    if value is not None and not isinstance(value, bool):
        raise ShapeError("wrong_type", key)
    return value


def _ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key)
    if value is None:
        raise ShapeError("required", f"ramsch.{key}")
    if not isinstance(value, list) or any(
        not isinstance(v, int) or isinstance(v, bool) for v in value
    ):
        raise ShapeError("wrong_type", f"ramsch.{key}")
    return tuple(value)


def parse_game(
    data: object, extra_keys: frozenset[str] = frozenset()
) -> tuple[Declaration, Outcome] | Ramsch | None:
    """A declared game as (declaration, outcome), a :class:`Ramsch`, or None for
    ``{"passed": true}``.

    Checks the shape only (keys, types, required values); the rules are ``check_game``'s.
    ``declarer`` is left to the caller.

    >>> parse_game({"passed": True}) is None
    True
    >>> d, o = parse_game({"game": "null", "hand": True, "bid": 35, "tricks": 0})
    >>> d.game, d.hand, o.tricks
    (<GameType.NULL: 'null'>, True, 0)
    >>> parse_game({"ramsch": {"card_points": [30, 60, 30], "tricks": [3, 5, 2]}})
    Ramsch(card_points=(30, 60, 30), tricks=(3, 5, 2))
    >>> parse_game({"game": "null", "bid": "35"})
    Traceback (most recent call last):
    scoring.shape.ShapeError: wrong_type (bid)
    """
    if not isinstance(data, dict):
        raise ShapeError("not_an_object")
    for key in data:
        if key not in GAME_KEYS and key not in extra_keys:
            raise ShapeError("unknown_key", key)
    declarer = data.get("declarer")
    if declarer is not None and not isinstance(declarer, str):
        raise ShapeError("wrong_type", "declarer")
    if _bool(data, "passed"):
        for key in data:
            if key in GAME_KEYS and key not in ("passed", "declarer"):
                raise ShapeError("unknown_key", key)
        return None
    if "ramsch" in data:
        ramsch = data["ramsch"]
        for key in data:
            if key in GAME_KEYS and key != "ramsch":
                raise ShapeError("unknown_key", key)
        if not isinstance(ramsch, dict):
            raise ShapeError("wrong_type", "ramsch")
        for key in ramsch:
            if key not in RAMSCH_KEYS:
                raise ShapeError("unknown_key", f"ramsch.{key}")
        return Ramsch(_ints(ramsch, "card_points"), _ints(ramsch, "tricks"))
    game_name = data.get("game")
    if game_name is None:
        raise ShapeError("required", "game")
    if not isinstance(game_name, str):
        raise ShapeError("wrong_type", "game")
    game = _GAME_TYPES.get(game_name)
    if game is None:
        raise ShapeError("unknown_game", "game")
    bid = _int(data, "bid")
    # Only the flags the object has: the others are False, the declaration's default.
    flags = {key: bool(_bool(data, key)) for key in FLAGS if key in data}
    declaration = Declaration(game=game, bid=bid, matadors=_int(data, "matadors"), **flags)
    outcome = Outcome(
        card_points=_int(data, "card_points"),
        tricks=_int(data, "tricks"),
        won=_bool(data, "won"),
        schneider=_bool(data, "schneider"),
        schwarz=_bool(data, "schwarz"),
    )
    return declaration, outcome


def game_to_json(
    declaration: Declaration | Ramsch | None, outcome: Outcome | None = None
) -> dict[str, Any]:
    """The archive's object for a game: defaults left out; None is a passed-in game.

    >>> game_to_json(Declaration(GameType.GRAND, bid=20, matadors=2), Outcome(won=True))
    {'game': 'grand', 'bid': 20, 'matadors': 2, 'won': True}
    >>> game_to_json(None, None)
    {'passed': True}
    """
    if declaration is None:
        return {"passed": True}
    if isinstance(declaration, Ramsch):
        points, tricks = declaration.card_points, declaration.tricks
        return {"ramsch": {"card_points": list(points), "tricks": list(tricks)}}
    data: dict[str, Any] = {"game": str(declaration.game)}
    if declaration.bid is not None:
        data["bid"] = declaration.bid
    if declaration.matadors is not None:
        data["matadors"] = declaration.matadors
    for flag in FLAGS:
        if getattr(declaration, flag):
            data[flag] = True
    if outcome is not None:
        for key in ("card_points", "tricks", "won", "schneider", "schwarz"):
            value = getattr(outcome, key)
            if value is not None:
                data[key] = value
    return data

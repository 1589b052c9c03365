"""The referee's one-line notation of a game (docs/guide.md, "Kurzeingabe"): the declarer's
seat, the game's letter, the matadors, the flags and the declarer's card points, as in
``2 k 1 h 61``. The parser turns it into the row's form fields; the form and the live
preview read it through :func:`parse_notation`, the browser only shows what comes back.

Grammar (spaces between parts are optional where a letter separates them)::

    notation  = "0" | "p" | seat game [matadors] { flag | points | outcome }
    seat      = a seat's number, 1 to the table's size
    game      = the game select's letters: k/c Kreuz, p/s Pik, h Herz, d Karo, g Grand,
                n Null (r Revolution where the rules play it)
    matadors  = a signed number right after a trump game's letter: 2 = mit 2, -3 = ohne 3
    flag      = h Hand, o Ouvert, s Schneider angesagt, w/z Schwarz angesagt,
                k/c Kontra (again: Re), r Re, b<bid> überreizt with that bid, t<tricks> Stiche
    points    = the declarer's card points (Augen), 0 to 120
    outcome   = + won, - lost (a null game, or a game without its card points)
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

import scoring
from skatliga.forms import coded_error
from skatliga.forms.parsing import GAME_KEYS

FIELDS = (
    *("declarer", "game", "matadors", "hand", "announced", "ouvert", "doubling", "bid"),
    *("card_points", "tricks", "won", "level", "cards"),
)
"""The row's fields a notation sets (those it does not name are cleared)."""

CHECKBOXES = ("hand", "ouvert")

_TOKEN = re.compile(r"\s*(?:(?P<number>[+\-−]?[0-9]+)|(?P<sign>[+\-−])|(?P<letter>[^\W\d_]))")
_GAMES = {
    key: scoring.GameType(game)
    for game, keys in GAME_KEYS.items()
    for key in keys.split()
    if key.isalpha()
}
_PASSED = ("0", "p", "e")
_ANNOUNCED = {"s": "schneider", "w": "schwarz", "z": "schwarz"}


def tokens(text: str) -> list[str]:
    """The parts of a notation: signed numbers, lone signs, single letters.

    >>> tokens("2k1 h61"), tokens("3 g -2 +")
    (['2', 'k', '1', 'h', '61'], ['3', 'g', '-2', '+'])
    """
    found: list[str] = []
    position = 0
    text = text.strip().lower()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise wrong(text[position:].strip())
        found.append(match.group().strip().replace("−", "-"))
        position = match.end()
    return found


def _number(part: str) -> bool:
    """Whether ``part`` is a whole number in ASCII digits ("²" is a digit to ``isdigit``).

    >>> _number("61"), _number("²"), _number("-2")
    (True, False, False)
    """
    return part.isascii() and part.isdigit()


def wrong(part: str) -> ValidationError:
    return coded_error("notation_invalid", part=part)


def parse_notation(text: str, *, size: int, rules: scoring.RuleSet) -> dict[str, str | bool]:
    """The form fields of a row written as a notation; ValidationError
    ``notation_invalid`` naming the first part that is not understood.

    >>> rules = scoring.ISKO
    >>> row = parse_notation("2 k 1 h 61", size=4, rules=rules)
    >>> row["declarer"], row["game"], row["matadors"], row["hand"], row["card_points"]
    ('2', 'clubs', '1', True, '61')
    >>> row = parse_notation("3n o+", size=4, rules=rules)
    >>> row["game"], row["ouvert"], row["won"]
    ('null', True, 'won')
    >>> parse_notation("p", size=4, rules=rules)["declarer"]
    '0'
    """
    fields: dict[str, str | bool] = {name: "" for name in FIELDS}
    fields.update(dict.fromkeys(CHECKBOXES, False))
    parts = tokens(text)
    if len(parts) == 1 and parts[0] in _PASSED:
        fields["declarer"] = "0"
        return fields
    if not parts or not _number(parts[0]) or not 1 <= int(parts[0]) <= size:
        raise wrong(parts[0] if parts else text)
    fields["declarer"] = parts[0]
    game = _GAMES.get(parts[1]) if len(parts) > 1 else None
    if game is None or (game == scoring.GameType.REVOLUTION and rules.revolution is None):
        raise wrong(parts[1] if len(parts) > 1 else parts[0])
    fields["game"] = game.value
    rest = parts[2:]
    if game.is_trump_game and rest and re.fullmatch(r"[+-]?[0-9]+", rest[0]):
        fields["matadors"] = rest.pop(0)
    doublings = list(rules.doubling_names) if rules.kontra else []
    while rest:
        part = rest.pop(0)
        if part in ("h", "o"):
            field = "hand" if part == "h" else "ouvert"
            if fields[field]:
                raise wrong(part)
            fields[field] = True
        elif part in _ANNOUNCED and not fields["announced"]:
            fields["announced"] = _ANNOUNCED[part]
        elif part in ("k", "c", "r") and doublings:
            fields["doubling"] = doublings.pop(0)
        elif part in ("b", "t") and rest and _number(rest[0]):
            field = "bid" if part == "b" else "tricks"
            if fields[field]:
                raise wrong(part)
            fields[field] = rest.pop(0)
        elif _number(part) and not fields["card_points"]:
            fields["card_points"] = part
        elif part in ("+", "-") and not fields["won"]:
            fields["won"] = "won" if part == "+" else "lost"
        else:
            raise wrong(part)
    return fields

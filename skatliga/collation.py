"""Sorting names the way a German reader expects (DIN 5007, variant 1, "dictionary order").

Case does not count, umlauts sort as their base letter (ä as a, ß as ss), accents and
strokes of other languages' letters are ignored (Č as C, Ł as L), and an empty text (no club)
sorts after every name instead of before it.
"""

from __future__ import annotations

import unicodedata

_SPECIAL = str.maketrans({"ß": "ss", "ẞ": "ss", "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d"})


def german_key(text: str) -> tuple[int, str, str]:
    """A sort key for ``text``: names in German dictionary order, empty ones last.

    >>> sorted(["SV Altenburg", "Skatfreunde Köln", "", "skatclub Ödeme", "Äpfel"], key=german_key)
    ['Äpfel', 'skatclub Ödeme', 'Skatfreunde Köln', 'SV Altenburg', '']
    >>> sorted(["Łukasz", "Lutz", "Čapek", "Zander", "Bär", "Bart"], key=german_key)
    ['Bär', 'Bart', 'Čapek', 'Łukasz', 'Lutz', 'Zander']
    """
    stripped = text.strip()
    if not stripped or stripped in {"—", "-"}:
        return (1, "", "")
    folded = unicodedata.normalize("NFKD", stripped.translate(_SPECIAL).casefold())
    base = "".join(char for char in folded if not unicodedata.combining(char))
    return (0, base, stripped)


def surname_key(name: str) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """A sort key for a player's ``name`` by surname, then given name: the last word of
    "Anna Schmidt", the part before the comma of "Schmidt, Anna"; a single word as it is.

    >>> names = ["Anna Schmidt", "Bernd Łukasz", "Zofia", "Krüger, Dieter", "Ülrike Uhl"]
    >>> sorted(names, key=surname_key)
    ['Krüger, Dieter', 'Bernd Łukasz', 'Anna Schmidt', 'Ülrike Uhl', 'Zofia']
    """
    stripped = name.strip()
    if "," in stripped:
        surname, _comma, given = stripped.partition(",")
    else:
        given, _space, surname = stripped.rpartition(" ")
    return german_key(surname), german_key(given)

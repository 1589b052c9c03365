"""How a list shows a game's entry, and how pages and PDFs write every figure: the one place
every page, preview and printout asks (one minus sign, halves, averages, ratings).

docs/rules.md section 4: a won game is entered with +value, a lost one with −2 × value (hand games
included), a passed-in game with 0. Shown this way, the column of entries adds up to the sum
of the players' Spielpunkte under it.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils import formats

import scoring

MINUS = "\u2212"
"""The one minus sign of every figure a page or a PDF shows (a hyphen breaks lines and reads
as a dash); CSV files and spreadsheets keep numbers machine-readable, with hyphen-minus."""


def plain(number: int) -> str:
    """A whole number as every page and PDF shows it, with a typographic minus: ``1332``,
    ``−32``.

    >>> plain(1332), plain(-32), plain(0)
    ('1332', '−32', '0')
    """
    return f"{MINUS}{-number}" if number < 0 else str(number)


def one_decimal(value: float) -> str:
    """A rating as shown: to one decimal in the active language, rounded half to even, with a
    typographic minus (Django's ``number_format`` would cut the other decimals off).

    >>> from django.utils import translation
    >>> with translation.override("de"):
    ...     one_decimal(-1.26), one_decimal(12.04), one_decimal(-0.04)
    ('−1,3', '12,0', '0,0')
    """
    shown = formats.number_format(round(value, 1) + 0.0, 1)
    if shown.startswith("-"):
        rest = shown[1:]
        return rest if rest.strip("0,.") == "" else f"{MINUS}{rest}"
    return shown


def half_points(value: Fraction) -> str:
    """Match points as printed: whole numbers, or with a half.

    >>> half_points(Fraction(5, 2)), half_points(Fraction(3)), half_points(Fraction(1, 2))
    ('2½', '3', '½')
    """
    whole, rest = divmod(value.numerator, value.denominator)  # halves and wholes alone
    if not rest:
        return str(int(whole))
    return f"{int(whole)}½" if whole else "½"


def average_text(value: Fraction | None) -> str:
    """An average to two decimals in the active language (``24,50``), rounded half up.

    >>> from django.utils import translation
    >>> with translation.override("de"):
    ...     average_text(Fraction(49, 2)), average_text(Fraction(-37, 3))
    ('24,50', '−12,33')
    """
    if value is None:
        return ""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    shown = formats.number_format(exact.quantize(Decimal("0.01"), ROUND_HALF_UP), 2)
    return f"{MINUS}{shown[1:]}" if shown.startswith("-") else shown


def signed(number: int) -> str:
    """A number with its sign, as written on a list: ``+48``, ``−96``, ``0``.

    >>> signed(48), signed(-96), signed(0)
    ('+48', '−96', '0')
    """
    if number > 0:
        return f"+{number}"
    return f"{MINUS}{-number}" if number < 0 else "0"


def list_entry(scored: scoring.Entry) -> int:
    """The number a list carries for a game; passed in (``None``) is 0. A Ramsch has no
    declarer: its entry is the sum of what it gives the players (−charge for each player
    charged, or +120 for a Durchmarsch)."""
    if isinstance(scored, scoring.RamschScore):
        return sum(scored.points)
    return scored.list_score if scored is not None else 0


def list_entry_text(scored: scoring.Entry) -> str:
    """:func:`list_entry` as written on a list: ``+96``, ``−118``, ``0``."""
    return signed(list_entry(scored))

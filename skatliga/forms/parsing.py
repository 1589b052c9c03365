"""What a referee types into a row of a list: whole numbers, matadors, cards, and the keys
that pick an option of a select."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import BadRequest
from django.http import QueryDict
from django_stubs_ext import StrPromise

from skatliga.forms import coded_error

# Keys that pick an option, as typed in the select (entry.js); digits are the base values.
GAME_KEYS = {
    "clubs": "k c 12",
    "spades": "p s 11",
    "hearts": "h 10",
    "diamonds": "d 9",
    "grand": "g 24",
    "null": "n 23",
    "revolution": "r 92",
}
CHOICE_KEYS = {
    "announced": {"": "0 -", "schneider": "s 1", "schwarz": "w 2"},
    "level": {"": "0 -", "schneider": "s 1", "schwarz": "w 2"},
    "won": {"": "0", "won": "+ g w", "lost": "- v l"},
    "doubling": {"": "0 -", "kontra": "k 1", "re": "r 2", "supra": "s 3", "resupra": "u 4"},
}

# With or without, in the site's five languages: mit/with, med (da, sv), met (nl); ohne/without,
# uden (da), utan (sv), zonder (nl), and their first letters.
_MATADORS = re.compile(
    r"^(?:(?P<with>\+|mit|med|met|m|with|w)"
    r"|(?P<without>-|−|ohne|uden|utan|zonder|o|u|z|without))?\s*(?P<count>\d{1,2})$",
    re.IGNORECASE,
)


def parse_int(text: str) -> int | None:
    """A whole number as typed, or None for nothing; ValidationError ``not_a_number``."""
    text = text.strip().replace("−", "-")
    if not text:
        return None
    if not re.fullmatch(r"[+-]?\d{1,4}", text):
        raise coded_error("not_a_number")
    return int(text)


def whole_number(text: object, most: int = 2**63 - 1) -> int | None:
    """A whole number of at most ``most`` as a query parameter or form field gives it, in
    ASCII digits; None for anything else: nothing, signs, superscripts ("²" is a digit to
    ``str.isdigit`` but not to ``int``), NUL, more than a database integer holds.

    >>> whole_number("12"), whole_number("²"), whole_number(str(10**20)), whole_number(None)
    (12, None, None, None)
    """
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,19}", text.strip()):
        return None
    number = int(text)
    return number if number <= most else None


def query_text(data: QueryDict, name: str, longest: int = 200) -> str:
    """A text parameter (a search, a slug); a NUL, which PostgreSQL refuses, or more than
    ``longest`` characters is a 400 Bad Request."""
    text = data.get(name) or ""
    if "\x00" in text or len(text) > longest:
        raise BadRequest(name)
    return text


class IdConverter:
    """A path's whole number (``<id:pk>``) that a database integer holds: a longer one is a
    plain 404, not an overflow in the query."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = whole_number(value)
        if number is None:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)


def parse_matadors(text: str) -> int | None:
    """Signed matadors as typed: "2", "+2", "m2" (with), "-3", "o3" (without); Danish and
    Swedish "u3", "uden 3", "utan 3", Dutch "z3", "zonder 3", "met 2".

    >>> parse_matadors("o3"), parse_matadors("2"), parse_matadors(" −1 "), parse_matadors("")
    (-3, 2, -1, None)
    >>> parse_matadors("u3"), parse_matadors("utan 2"), parse_matadors("Z4"), parse_matadors("met2")
    (-3, -2, -4, 2)
    """
    text = text.strip()
    if not text:
        return None
    found = _MATADORS.match(text)
    if found is None:
        raise coded_error("not_a_number")
    count = int(found["count"])
    return -count if found["without"] else count


def split_cards(text: str) -> list[str]:
    return [card for card in re.split(r"[\s,;|/]+", text.strip()) if card]


class KeyedSelect(forms.Select):
    """A select whose options carry ``data-keys`` (typed shortcuts) and may be disabled."""

    def __init__(
        self,
        keys: dict[str, str] | None = None,
        disabled: Iterable[str] = (),
        attrs: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(attrs)
        self.keys = keys or {}
        self.disabled = set(disabled)

    def create_option(
        self,
        name: str,
        value: Any,
        label: int | str,
        selected: bool,
        index: int,
        subindex: int | None = None,
        attrs: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        keys = self.keys.get(str(value))
        if keys:
            option["attrs"]["data-keys"] = keys
        if str(value) in self.disabled:
            option["attrs"]["disabled"] = True
        return option


def short_text(label: StrPromise, max_length: int, **attrs: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=max_length,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", **attrs}),
    )

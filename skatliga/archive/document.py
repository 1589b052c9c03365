"""The archive document ``skatliga-archive/1``: its keys and limits, what is read of it, the
problems it can have, and the checks of single values that collect them with their paths."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import scoring
from skatliga.messages import message
from skatliga.models import ListSystem, RuleSetName
from skatliga.services import GameEntry

FORMAT = "skatliga-archive/1"
DEFAULT_RULES = RuleSetName.ISKO.value
DEFAULT_SCORING = ListSystem.SEEGER_FABIAN.value
DEFAULT_ROUNDS = 12
MOST_ROUNDS = 30
MOST_NUMBER = 32767
"""Series and table numbers are stored as small integers."""
COMPUTED = "computed"
"""Derived numbers an export adds per game and per list; import ignores them."""

DOCUMENT_KEYS = ("format", "tournament", "players", "series")
TOURNAMENT_KEYS = (
    "name",
    "date",
    "starts_at",
    "venue",
    "address",
    "rules",
    "scoring",
    "rounds_per_series",
    "objection_minutes",
)
PLAYER_KEYS = ("id", "name", "club", "number")
SERIES_KEYS = ("number", "objections_until", "tables")
TABLE_KEYS = ("number", "seats", "substitutes", "games", "calls", "objections", COMPUTED)
SUBSTITUTE_KEYS = ("seat", "player", "from_game")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
TIME = re.compile(r"\d{2}:\d{2}")
BATCH = 5000


@dataclass(frozen=True, slots=True)
class ArchiveProblem:
    """One problem of a document: where (``path``), what (``code``), and ``params``."""

    path: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The problem in the active language, with the offending value where there is one."""
        text = message(self.code, **self.params)
        if "value" in self.params:
            text += " (" + json.dumps(self.params["value"], ensure_ascii=False) + ")"
        return text

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ArchiveError(Exception):
    """A document that cannot be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[ArchiveProblem]) -> None:
        super().__init__("; ".join(str(p) for p in problems[:3]))
        self.problems = tuple(problems)


GAME_EXTRA_KEYS = frozenset((COMPUTED,))


@dataclass
class ReadPlayer:
    id: str
    name: str
    club: str
    number: str
    path: str
    existing: int | None = None
    """The primary key of the database's player this one is, if known already."""


@dataclass
class ReadTable:
    number: int
    seats: list[str]
    games: list[tuple[GameEntry, scoring.Entry]]
    substitutes: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Seat position → (player id, first game) of each substitute (SkWO 4.4)."""
    calls: list[Any] = field(default_factory=list)
    """The table's calls to the referee (``archive.calls.ReadCall``)."""
    objections: list[Any] = field(default_factory=list)
    """Its seats' objections (``archive.calls.ReadObjection``)."""


@dataclass
class ReadSeries:
    number: int
    tables: list[ReadTable]
    objections_until: datetime.datetime | None = None


@dataclass
class Document:
    name: str
    date: datetime.date
    venue: str
    rules: scoring.RuleSet
    scoring: str
    rounds: int
    players: list[ReadPlayer]
    series: list[ReadSeries]
    starts_at: datetime.time | None = None
    address: str = ""
    objection_minutes: int = 0


def path_of(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def chunks(items: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def value_of(data: object, key: str | None) -> dict[str, Any]:
    """``{"value": ...}``: the offending value, for the message, where there is one."""
    if isinstance(data, dict) and key is not None and data.get(key) is not None:
        return {"value": data[key]}
    return {}


class Checks:
    """The checks of single values: each reports its own problems and returns None where the
    value is bad."""

    def __init__(self) -> None:
        self.problems: list[ArchiveProblem] = []

    def add(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(ArchiveProblem(path, code, params))

    def object(
        self, value: object, path: str, keys: Sequence[str], required: Sequence[str] = ()
    ) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(path, "not_an_object")
            return None
        for key in value:
            if key not in keys:
                self.add(path_of(path, str(key)), "unknown_key")
        for key in required:
            if value.get(key) is None:
                self.add(path_of(path, key), "required")
        return value

    def list(self, data: Mapping[str, Any], key: str, path: str) -> list[Any] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            self.add(path_of(path, key), "not_a_list")
            return None
        return value

    def text(
        self,
        data: Mapping[str, Any],
        key: str,
        path: str,
        most: int,
        *,
        clean: bool = True,
        required: bool = False,
    ) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        path = path_of(path, key)
        if not isinstance(value, str):
            self.add(path, "wrong_type", value=value)
            return None
        if "\x00" in value:
            self.add(path, "invalid_characters")
            return None
        if clean:
            value = " ".join(value.split())
        if required and not value:
            self.add(path, "empty")
            return None
        if len(value) > most:
            self.add(path, "too_long", most=most)
            return None
        return value

    def integer(
        self, data: Mapping[str, Any], key: str, path: str, low: int, high: int, code: str
    ) -> int | None:
        value = data.get(key)
        if value is None:
            return None
        path = path_of(path, key)
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "wrong_type", value=value)
            return None
        if not low <= value <= high:
            self.add(path, code, value=value)
            return None
        return value

    def numbered(
        self, data: Mapping[str, Any], path: str, numbers: set[int], kind: str
    ) -> int | None:
        """The ``number`` of a series or table (``kind``), 1 to ``MOST_NUMBER``, and not one
        of ``numbers`` already read (it is added to them)."""
        number = self.integer(data, "number", path, 1, MOST_NUMBER, f"{kind}_number_invalid")
        if number is not None:
            if number in numbers:
                self.add(path_of(path, "number"), f"{kind}_number_taken", value=number)
            numbers.add(number)
        return number

    def choice(
        self, data: Mapping[str, Any], key: str, path: str, choices: Sequence[str], code: str
    ) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.add(path_of(path, key), "wrong_type", value=value)
            return None
        if value not in choices:
            self.add(path_of(path, key), code, value=value)
            return None
        return value

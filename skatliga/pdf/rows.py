"""The plain row objects a score sheet is printed from: no database, no layout."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

LEVELS = (
    "game",
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
)
"""The level columns, in the order of the paper list (the engine's step names)."""


@dataclass(frozen=True, slots=True)
class SheetPlayer:
    name: str
    club: str = ""
    substitute: str = ""
    """Who took the seat over during the list (SkWO 4.4), from game ``substitute_from``."""
    substitute_from: int | None = None


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of a list. Seats are 1-based; a row without ``game`` is not played yet.

    ``levels`` names the levels that counted (``LEVELS``); ``value`` is the list entry
    (``printing.list_entry``: won +value, lost −2 × value); ``totals`` are the players' game
    points after this row.
    """

    number: int
    dealer: int
    sitting_out: tuple[int, ...] = ()
    declarer: int | None = None
    game: str = ""
    matadors: str = ""
    levels: frozenset[str] = frozenset()
    value: int | None = None
    totals: tuple[int, ...] = ()
    doubling: str = ""
    """The highest doubling announced, abbreviated (K, Re, Su, Rs), where there was one."""


@dataclass(frozen=True, slots=True)
class SheetSummary:
    """One player's summary rows: total = game points + bonus."""

    game_points: int
    won: int
    lost: int
    others_lost: int
    bonus: int
    total: int


@dataclass(frozen=True, slots=True)
class SheetShare:
    """One player's part of a seat a substitute took over: games ``first`` to ``last``."""

    position: int
    player: str
    first: int
    last: int
    summary: SheetSummary


@dataclass(frozen=True, slots=True)
class SheetData:
    """Everything one printed list shows, as plain values.

    ``rows`` holds one row per game of the series, played or not. ``won_bonus`` and
    ``others_bonus`` are the Seeger-Fabian points per game won (and lost) and per game the
    others lost; None where the list system gives no bonus. A ``provisional`` list is not
    closed yet.
    """

    tournament: str
    date: datetime.date | None
    venue: str
    series: int
    table: int
    rules: str
    system: str
    players: tuple[SheetPlayer, ...]
    rows: tuple[SheetRow, ...]
    summary: tuple[SheetSummary, ...] = ()
    won_bonus: int | None = None
    others_bonus: int | None = None
    provisional: bool = False
    doublings: bool = False
    """The rule set has Kontra: the sheet has a column for the doublings."""
    link: str = ""  # the table link, printed as a QR code on the referee's blank forms
    code: str = ""  # its short code
    shares: tuple[SheetShare, ...] = ()
    """Where a substitute took a seat over: the player who left and the substitute."""
    signed: tuple[str, ...] = ()
    """Per seat, who signed the list at the table, when and on which device (a line each)."""

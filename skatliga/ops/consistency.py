"""Do the stored result rows still follow from the games? After a crash, a killed worker or
a restore, every list's rows must equal a fresh recomputation by the engine.

The recomputation uses the same service functions that write the rows
(``services.games.list_rows`` and ``table_results``).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Prefetch

from skatliga.models import RESULT_FIGURES, Game, ListResult, Seat, Table
from skatliga.services.games import list_rows
from skatliga.services.results import Sitting, table_results

Row = tuple[int, int, tuple[int, ...]]
"""A result row as compared: player id, position, then the figures of RESULT_FIGURES."""


def _rows(results: list[ListResult]) -> list[Row]:
    return sorted(
        (r.player_id, r.position, tuple(getattr(r, name) for name in RESULT_FIGURES))
        for r in results
    )


def expected_rows(table: Table) -> list[Row]:
    """The result rows the engine makes of the table's games now (none without games)."""
    games = sorted(table.games.all(), key=lambda game: game.number)
    if not games:
        return []
    tournament = table.series.tournament
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    scored = list_rows(games, table.size, tournament.rule_set)
    return _rows(table_results(table, scored, [Sitting.of(seat) for seat in seats]))


def stored_rows(table: Table) -> list[Row]:
    """The result rows stored for the table; all-zero rows of a list without games count as
    none."""
    rows = _rows(list(table.results.all()))
    if all(not any(figures) for _, _, figures in rows) and not table.games.all():
        return []
    return rows


def inconsistent_tables() -> Iterator[Table]:
    """Every table whose stored result rows differ from the recomputation."""
    tables = Table.objects.select_related("series__tournament").prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("number")),
        Prefetch("seats", queryset=Seat.objects.order_by("position")),
        "results",
    )
    for table in tables.iterator(chunk_size=200):
        if stored_rows(table) != expected_rows(table):
            yield table

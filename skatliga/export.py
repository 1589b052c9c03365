"""Exports for spreadsheets (CSV now, other formats later): what a cell may not start with.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab
or a carriage return) as a formula: a player named ``=HYPERLINK(…)`` would become a link in
the file of whoever downloads the standings. :func:`spreadsheet_cell` neutralises such text
with a leading apostrophe (OWASP's "CSV injection" advice); numbers stay numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django_tables2.export import TableExport
from tablib import Dataset

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def spreadsheet_cell(value: Any) -> Any:
    """``value`` safe to put in a spreadsheet cell: formula-like text gets a leading ``'``.

    >>> spreadsheet_cell("=HYPERLINK(\\"http://x\\")"), spreadsheet_cell("@SUM(A1)")
    ('\\'=HYPERLINK("http://x")', "'@SUM(A1)")
    >>> [spreadsheet_cell(value) for value in (-32, "-32", "+4", "Anna", "-Anna")]
    [-32, '-32', '+4', 'Anna', "'-Anna"]
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_START):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return "'" + value


def spreadsheet_row(values: Iterable[Any]) -> list[Any]:
    """Every cell of a row through :func:`spreadsheet_cell`."""
    return [spreadsheet_cell(value) for value in values]


class SpreadsheetExport(TableExport):  # type: ignore[misc]  # django-tables2 has no types
    """django-tables2's export, every cell (headings too) through :func:`spreadsheet_cell`."""

    def table_to_dataset(
        self, table: Any, exclude_columns: Any, dataset_kwargs: dict[str, Any] | None = None
    ) -> Dataset:
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = Dataset(title=dataset.title)
        safe.headers = spreadsheet_row(dataset.headers or [])
        for row in dataset:
            safe.append(spreadsheet_row(row))
        return safe

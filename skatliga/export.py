"""Exports for spreadsheets (CSV, CSV for a German Excel, XLSX, ODS): what a sheet is called
and carries (:class:`Caption`), and what a cell may not start with.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab
or a carriage return) as a formula: a player named ``=HYPERLINK(…)`` would become a link in
the file of whoever downloads the standings. :func:`spreadsheet_cell` neutralises such text
with a leading apostrophe (OWASP's "CSV injection" advice); numbers stay numbers.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import openpyxl
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django_tables2.export import TableExport
from tablib import Dataset

EXCEL_CSV = "csv-excel"
"""The CSV a German Excel opens by a double click: a byte order mark, semicolons, decimal
commas. The plain ``csv`` (UTF-8, commas, decimal points) is for programs."""

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
    """django-tables2's export, every cell (headings too) through :func:`spreadsheet_cell`,
    the sheet titled by its :class:`Caption`, the ``notes`` the page shows under the table
    (the substitutes) a line each under the rows, after an empty one; an XLSX carries the
    caption's line as its document title and printed header."""

    FORMATS = {**TableExport.FORMATS, EXCEL_CSV: TableExport.FORMATS["csv"]}

    def __init__(
        self, export_format: str, table: Any, caption: Caption, notes: Sequence[str] = ()
    ) -> None:
        self.caption = caption
        self.notes = notes
        super().__init__(export_format, table, dataset_kwargs={"title": caption.sheet_title()})

    @classmethod
    def is_valid_format(cls, export_format: str | None) -> bool:
        return export_format in cls.FORMATS

    def export(self) -> Any:
        if self.format == EXCEL_CSV:
            return excel_csv(self.dataset)
        data = self.dataset.export(self.format)
        if self.format != TableExport.XLSX:
            return data
        book = openpyxl.load_workbook(io.BytesIO(data))
        book.properties.title = self.caption.line()
        book.active.oddHeader.center.text = self.caption.line()
        book.active.freeze_panes = "A2"
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    def table_to_dataset(
        self, table: Any, exclude_columns: Any, dataset_kwargs: dict[str, Any] | None = None
    ) -> Dataset:
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        safe = Dataset(title=dataset.title)
        safe.headers = spreadsheet_row(dataset.headers or [])
        for row in dataset:
            safe.append(spreadsheet_row(row))
        width = len(safe.headers)
        for line in ["", *self.notes] if self.notes else []:
            safe.append(spreadsheet_row([line, *[""] * (width - 1)]))
        return safe


def excel_csv(dataset: Dataset) -> str:
    """``dataset`` as :data:`EXCEL_CSV`: byte order mark, semicolons, decimal commas."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";")
    writer.writerow(dataset.headers or [])
    for row in dataset:
        writer.writerow([str(v).replace(".", ",") if isinstance(v, float) else v for v in row])
    return out.getvalue()


@dataclass(frozen=True)
class Caption:
    """What a sheet shows: its scope (the sheet's title), the season, the date, and whether
    the standing is provisional (a list open or a series not yet published)."""

    scope: str
    season: str = ""
    date: datetime.date | None = None
    provisional: bool = False

    def sheet_title(self) -> str:
        """At most 31 characters (Excel's limit), the provisional mark always kept."""
        mark = f" – {_('vorläufig')}" if self.provisional else ""
        scope = re.sub(r"[\\/*?:\[\]]", "-", self.scope)
        return scope[: 31 - len(mark)].rstrip() + mark

    def line(self) -> str:
        """ "Spieltag 1 · Liga 2026 · 21.11.2026 · vorläufig"."""
        season = self.season if self.season != self.scope else ""
        day = date_format(self.date, "SHORT_DATE_FORMAT") if self.date else ""
        parts = (self.scope, season, day, _("vorläufig") if self.provisional else "")
        return " · ".join(part for part in parts if part)

    def part(self, name: str) -> Caption:
        """The caption of one part of the scope (a category)."""
        return Caption(f"{self.scope} · {name}", self.season, self.date, self.provisional)

"""Result lists: series, tournament and season standings of players, and team tables.

The rows are the standings' own row objects (anything with the attributes the columns
read), so the HTML table, the CSV and the PDF print the same rows. Every page repeats the
title, the column headings and "Seite X von Y".
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Paragraph

from skatliga.pdf.base import (
    BOLD,
    FONT,
    MARGIN,
    PAGE,
    build,
    date_text,
    frame_width,
    mm,
    register_fonts,
    shorten,
    width,
    wrap_lines,
)
from skatliga.standings.metrics import Record
from skatliga.standings.rankings import PLAYERS, Ranking

SIZE = 8
HEADING = 14 * mm
RULES_LINE = 6 * mm
"""Room for the rule set under the subtitle of a tournament's or series' result list."""
RULE = colors.Color(0.6, 0.6, 0.6)
STRIPE = colors.Color(0.95, 0.95, 0.95)
HEAD_BG = colors.Color(0.88, 0.88, 0.88)
MUTED = colors.Color(0.35, 0.35, 0.35)
PADDING = 3

_SECTION = ParagraphStyle(
    "list-section", fontName=BOLD, fontSize=11, leading=14, spaceBefore=8 * mm, spaceAfter=2 * mm
)
_NOTE = ParagraphStyle(
    "list-note", fontName=FONT, fontSize=7, leading=9, textColor=MUTED, spaceBefore=3
)


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its heading, the cell text of a row, its share of the page width."""

    label: str
    text: Callable[[Any], str]
    width: float
    align: str = "RIGHT"
    bold: bool = False


HEAD_SIZE, HEAD_LEADING = 7, 8.2
LEADING = SIZE * 1.15
TOP_PAD, BOTTOM_PAD = 2.2, 2.8
MOST_LINES = 3
"""A text too long for its cell wraps to at most this many lines (the last one shortened)."""


@lru_cache(maxsize=16384)
def _width(text: str, font: str) -> float:
    return width(text, SIZE, font)


def columns_of(ranking: Ranking, records: Sequence[Record], **names: str) -> list[Column]:
    """The printed columns of ``ranking`` for ``records`` (``names`` heads some otherwise):
    each shown metric's heading, text and alignment; the names and the figures the ranking
    marks in bold. A figure's column is as wide as its widest cell or the longest word of
    its heading needs; the names share the rest by their ``Metric.share``, so that a new
    column takes its room from them. Where the figures would leave the names less than a
    quarter of the width, every column gets its share of the whole."""
    register_fonts()
    shown = [found for found in ranking.metrics if found.shown]
    labels = [names.get(found.key) or str(found.printed or found.name) for found in shown]
    bold = [found.key in ranking.marked or found.bold for found in shown]
    whole = frame_width()
    needs: list[float | None] = []
    for found, label, strong in zip(shown, labels, bold, strict=True):
        if not found.number:
            needs.append(None)
            continue
        font = BOLD if strong else FONT
        widest = max((_width(found.text(record), font) for record in records), default=0.0)
        heading = max((width(word, HEAD_SIZE, BOLD) for word in label.split()), default=0.0)
        needs.append(max(widest, heading) + 2 * PADDING + 1)
    names_share = sum(found.share for found, need in zip(shown, needs, strict=True) if need is None)
    room = whole - sum(need for need in needs if need is not None)
    if names_share and room >= whole / 4:
        widths = [
            need / whole if need is not None else room * found.share / names_share / whole
            for found, need in zip(shown, needs, strict=True)
        ]
    else:
        shares = sum(found.share for found in shown)
        widths = [found.share / shares for found in shown]
    return [
        Column(label, found.text, share, "RIGHT" if found.number else "LEFT", bold=strong)
        for found, label, share, strong in zip(shown, labels, widths, bold, strict=True)
    ]


class ListTable(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
    """A result list's rows under the column headings, split across pages.

    Each row's height is known before layout (its longest cell in lines), so splitting at a
    page's end is a search in the rows' running heights, and a page draws only its own rows,
    all its text in one text object: a season's thousands of rows cost per page what a
    match day's few do. Every part repeats the headings; the last one closes with a rule.
    """

    def __init__(
        self,
        columns: Sequence[Column],
        rows: list[list[list[str]]],
        ends: list[float],
        *,
        first: int = 0,
        stop: int | None = None,
    ) -> None:
        super().__init__()
        self.columns = columns
        self.rows, self.ends = rows, ends
        """Each row's cells as lines; ``ends[i]``: the height of rows 0..i-1."""
        self.first, self.stop = first, len(rows) if stop is None else stop
        total = frame_width()
        self.widths = [column.width * total for column in columns]
        self.heads = [
            simpleSplit(column.label, BOLD, HEAD_SIZE, room - 2 * PADDING) or [""]
            for column, room in zip(columns, self.widths, strict=True)
        ]
        self.head_height = max(map(len, self.heads)) * HEAD_LEADING + TOP_PAD + BOTTOM_PAD

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        self.height = self.head_height + self.ends[self.stop] - self.ends[self.first]
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        # The last row that fits: ends[stop] - ends[first] <= room.
        room = available_height - self.head_height + self.ends[self.first]
        stop = bisect.bisect_right(self.ends, room, self.first + 1, self.stop + 1) - 1
        if stop <= self.first:
            return []
        if stop >= self.stop:
            return [self]
        return [
            ListTable(self.columns, self.rows, self.ends, first=self.first, stop=stop),
            ListTable(self.columns, self.rows, self.ends, first=stop, stop=self.stop),
        ]

    def draw(self) -> None:
        canvas, columns, widths = self.canv, self.columns, self.widths
        lefts = [sum(widths[:index]) for index in range(len(widths))]
        top = self.height
        canvas.saveState()
        canvas.setFillColor(HEAD_BG)
        canvas.rect(0, top - self.head_height, self.width, self.head_height, stroke=0, fill=1)
        canvas.setFillColor(STRIPE)
        y = top - self.head_height
        for index in range(self.first, self.stop):
            height = self.ends[index + 1] - self.ends[index]
            y -= height
            if index % 2:
                canvas.rect(0, y, self.width, height, stroke=0, fill=1)
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(0.9)
        rules = [top, top - self.head_height]
        if self.stop == len(self.rows):
            rules.append(0)
        for y in rules:
            canvas.line(0, y, self.width, y)
        text = canvas.beginText()
        text.setFillColor(colors.black)
        font = ""

        def cell(
            lines: list[str],
            column: int,
            bottom: float,
            height: float,
            size: float,
            leading: float,
            face: str,
            valign: str,
        ) -> None:
            nonlocal font
            if face + str(size) != font:
                text.setFont(face, size, leading)
                font = face + str(size)
            if valign == "BOTTOM":
                y = bottom + BOTTOM_PAD + (len(lines) - 1) * leading + size * 0.2
            else:
                y = bottom + (BOTTOM_PAD + height - TOP_PAD + len(lines) * leading) / 2 - size
            align, left, room = columns[column].align, lefts[column], widths[column]
            for line in lines:
                if align == "LEFT":
                    x = left + PADDING
                else:
                    used = width(line, size, face) if size != SIZE else _width(line, face)
                    slack = room - 2 * PADDING - used
                    x = left + PADDING + (slack if align == "RIGHT" else slack / 2)
                text.setTextOrigin(x, y)
                text.textLine(line)  # ends the line: a text reader takes each cell apart
                y -= leading

        bottom = top - self.head_height
        for column, lines in enumerate(self.heads):
            cell(lines, column, bottom, self.head_height, HEAD_SIZE, HEAD_LEADING, BOLD, "BOTTOM")
        for index in range(self.first, self.stop):
            height = self.ends[index + 1] - self.ends[index]
            bottom -= height
            for column, lines in enumerate(self.rows[index]):
                face = BOLD if columns[column].bold else FONT
                cell(lines, column, bottom, height, SIZE, LEADING, face, "MIDDLE")
        canvas.drawText(text)
        canvas.restoreState()


def _table(columns: Sequence[Column], rows: Sequence[Any]) -> ListTable:
    """The rows' cells as lines (a text too wide for its cell wrapped) and their heights."""
    rooms = [column.width * frame_width() - 2 * PADDING for column in columns]
    fonts = [BOLD if column.bold else FONT for column in columns]
    cells: list[list[list[str]]] = []
    ends = [0.0]
    one_line = LEADING + TOP_PAD + BOTTOM_PAD
    for row in rows:
        line = []
        tallest = 1
        for column, room, font in zip(columns, rooms, fonts, strict=True):
            text = column.text(row)
            if _width(text, font) <= room:
                line.append([text])
            else:
                wrapped = wrap_lines(text, room, SIZE, font, MOST_LINES)
                tallest = max(tallest, len(wrapped))
                line.append(wrapped)
        cells.append(line)
        ends.append(ends[-1] + one_line + (tallest - 1) * LEADING)
    return ListTable(columns, cells, ends)


def result_list_pdf(
    title: str,
    subtitle: str,
    columns: Sequence[Column],
    rows: Sequence[Any],
    *,
    footer: str | None = None,
    as_of: datetime.date | None = None,
    provisional: str = "",
    rules: str = "",
    sections: Sequence[tuple[str, Sequence[Any]]] = (),
    notes: Sequence[str] = (),
) -> bytes:
    """A result list: ``title`` and ``subtitle`` on every page, then ``rows`` in ``columns``,
    then ``sections`` as (heading, rows) in the same columns (e.g. a ranking per category),
    then ``notes`` in small print, a line each (e.g. the substitutes during a list).

    The heading says which day the list shows the standings of (``as_of``, default today);
    ``provisional`` (e.g. "vorläufig · Stand … · 3 von 4 Listen abgeschlossen") marks a list
    of a running tournament on every page; ``rules`` (the rule set with its house options,
    in words) is a small line under the subtitle.
    """
    register_fonts()
    rule_lines = len(simpleSplit(rules, FONT, 6.5, PAGE[0] - 2 * MARGIN)[:2]) if rules else 0
    heading_height = HEADING + RULES_LINE * rule_lines / 2
    stand = _("Stand: %(date)s") % {"date": date_text(as_of or timezone.localdate())}

    def heading(canvas: Canvas, doc: BaseDocTemplate) -> None:
        top = PAGE[1] - MARGIN
        canvas.saveState()
        line = PAGE[0] - 2 * MARGIN
        gap = 6 * mm
        canvas.setFont(BOLD, 14)
        room = line - width(stand, 8) - gap
        canvas.drawString(MARGIN, top - 14, shorten(title, room, 14, BOLD))
        canvas.setFont(FONT, 9)
        canvas.setFillColor(MUTED)
        room = line - (width(provisional, 8, BOLD) + gap if provisional else 0)
        canvas.drawString(MARGIN, top - 27, shorten(subtitle, room, 9))
        canvas.setFont(FONT, 8)
        canvas.drawRightString(PAGE[0] - MARGIN, top - 14, stand)
        if provisional:
            canvas.setFont(BOLD, 8)
            canvas.setFillColor(colors.black)
            canvas.drawRightString(PAGE[0] - MARGIN, top - 27, provisional)
        if rules:
            canvas.setFont(FONT, 6.5)
            canvas.setFillColor(MUTED)
            for index, text in enumerate(simpleSplit(rules, FONT, 6.5, line)[:2]):
                canvas.drawString(MARGIN, top - 36 - 7.5 * index, text)
        rule_y = top - heading_height + 3 * mm
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(MARGIN, rule_y, PAGE[0] - MARGIN, rule_y)
        canvas.restoreState()

    story: list[Any] = [_table(columns, rows)]
    for heading_text, section_rows in sections:
        story += [Paragraph(escape(heading_text), _SECTION), _table(columns, section_rows)]
    story += [Paragraph(escape(note), _NOTE) for note in notes]
    return build(
        story,
        title=title,
        footer=footer if footer is not None else f"{title} · {subtitle}",
        top=MARGIN + heading_height,
        on_page=heading,
    )


def standings_pdf(
    title: str,
    subtitle: str,
    rows: Sequence[Any],
    ranking: Ranking = PLAYERS,
    *,
    as_of: datetime.date | None = None,
    provisional: str = "",
    rules: str = "",
    sections: Sequence[tuple[str, Sequence[Any]]] = (),
    notes: Sequence[str] = (),
    names: Mapping[str, str] | None = None,
) -> bytes:
    """A standing (``rows``: a standing's rows, e.g. ``models.StandingRow``) printed in the
    columns of ``ranking`` (``rankings.Ranking``; ``names`` heads some otherwise);
    ``sections`` more standings in the same columns (per category)."""
    records = ranking.records(rows)
    parts = [(heading, ranking.records(part)) for heading, part in sections]
    every = [*records, *(record for _, part in parts for record in part)]
    return result_list_pdf(
        title,
        subtitle,
        columns_of(ranking, every, **(names or {})),
        records,
        as_of=as_of,
        provisional=provisional,
        rules=rules,
        sections=parts,
        notes=notes,
    )

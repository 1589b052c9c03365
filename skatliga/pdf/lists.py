"""Result lists: series, tournament and season standings of players, and team tables.

The rows are the standings' own row objects (anything with the attributes the columns
read), so the HTML table, the CSV and the PDF print the same rows. Every page repeats the
title, the column headings and "Seite X von Y".
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Protocol
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
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
    plain,
    points,
    register_fonts,
    shorten,
    width,
    wrap_lines,
)

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


class PlayerLine(Protocol):
    """A player's line in a standing, read only (``skatliga.models.StandingRow`` is one)."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def club(self) -> str: ...
    @property
    def lists(self) -> int: ...
    @property
    def game_points(self) -> int: ...
    @property
    def won(self) -> int: ...
    @property
    def lost(self) -> int: ...
    @property
    def others_lost(self) -> int: ...
    @property
    def bonus(self) -> int: ...
    @property
    def total(self) -> int: ...


class TeamLine(Protocol):
    """A team's line in a league table, read only (``standings.queries.TeamRow`` is one)."""

    @property
    def rank(self) -> int: ...
    @property
    def team(self) -> str: ...
    @property
    def club(self) -> str: ...
    @property
    def series(self) -> int: ...
    @property
    def match_points(self) -> Fraction: ...
    @property
    def match_points_against(self) -> Fraction: ...
    @property
    def game_points(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its heading, the cell text of a row, its share of the page width."""

    label: str
    text: Callable[[Any], str]
    width: float
    align: str = "RIGHT"
    bold: bool = False


def _rank(row: Any) -> str:
    return f"{row.rank}."


def _number(name: str) -> Callable[[Any], str]:
    return lambda row: plain(getattr(row, name))


def _text(name: str) -> Callable[[Any], str]:
    return lambda row: str(getattr(row, name) or "")


def _player(row: Any) -> str:
    """The player's name, marked where he withdrew from the tournament."""
    if getattr(row, "withdrawn", False):
        return f"{row.player} ({_('zurückgezogen')})"
    return str(row.player)


def _match_points(row: Any) -> str:
    against = getattr(row, "match_points_against", None)
    if against is None:
        return points(row.match_points)
    return f"{points(row.match_points)} : {points(against)}"


def player_columns(*, lists: bool = False) -> list[Column]:
    """The columns of a player standing; ``lists`` adds the number of series played."""
    name, club = (0.2, 0.135) if lists else (0.22, 0.18)
    columns = [
        Column(pgettext("rank", "Platz"), _rank, 0.055),
        Column(_("Spieler"), _player, name, "LEFT", bold=True),
        Column(_("Verein"), _text("club"), club, "LEFT"),
    ]
    if lists:
        columns.append(Column(_("Serien"), _number("lists"), 0.065))
    columns += [
        Column(_("Spiele"), _number("games"), 0.05),
        Column(_("Spielpunkte"), _number("game_points"), 0.105),
        Column(_("gew."), _number("won"), 0.05),
        Column(_("verl."), _number("lost"), 0.05),
        Column(_("andere verl."), _number("others_lost"), 0.07),
        Column(_("Wertungspunkte"), _number("bonus"), 0.145),
        Column(_("Gesamt"), _number("total"), 0.075, bold=True),
    ]
    return columns


def team_columns() -> list[Column]:
    """The columns of a league table: match points (for : against), then Spielpunkte."""
    return [
        Column(pgettext("rank", "Platz"), _rank, 0.06),
        Column(_("Mannschaft"), _text("team"), 0.32, "LEFT", bold=True),
        Column(_("Verein"), _text("club"), 0.28, "LEFT"),
        Column(_("Serien"), _number("series"), 0.08),
        Column(_("Punkte"), _match_points, 0.12, bold=True),
        Column(_("Spielpunkte"), _number("game_points"), 0.14),
    ]


HEAD_SIZE, HEAD_LEADING = 7, 8.2
LEADING = SIZE * 1.15
TOP_PAD, BOTTOM_PAD = 2.2, 2.8
MOST_LINES = 3
"""A text too long for its cell wraps to at most this many lines (the last one shortened)."""


@lru_cache(maxsize=16384)
def _width(text: str, font: str) -> float:
    return width(text, SIZE, font)


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
    rows: Sequence[PlayerLine],
    *,
    lists: bool = False,
    as_of: datetime.date | None = None,
    provisional: str = "",
    rules: str = "",
    sections: Sequence[tuple[str, Sequence[PlayerLine]]] = (),
    notes: Sequence[str] = (),
) -> bytes:
    """A player standing (series, tournament or season); ``lists`` shows series played;
    ``sections`` more standings in the same columns (per category)."""
    return result_list_pdf(
        title,
        subtitle,
        player_columns(lists=lists),
        rows,
        as_of=as_of,
        provisional=provisional,
        rules=rules,
        sections=sections,
        notes=notes,
    )


def team_standings_pdf(
    title: str,
    subtitle: str,
    rows: Sequence[TeamLine],
    *,
    as_of: datetime.date | None = None,
    provisional: str = "",
    scheme: str = "",
) -> bytes:
    """A league table of teams; ``scheme`` says in words how the match points are given."""
    return result_list_pdf(
        title, subtitle, team_columns(), rows, as_of=as_of, provisional=provisional, rules=scheme
    )

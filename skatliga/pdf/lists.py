"""Result lists: series, tournament and season standings of players, and team tables.

The rows are the standings' own row objects (anything with the attributes the columns
read), so the HTML table, the CSV and the PDF print the same rows. Every page repeats the
title, the column headings and "Seite X von Y".
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, LongTable, Paragraph

from skatliga.pdf.base import (
    BOLD,
    FONT,
    MARGIN,
    PAGE,
    build,
    date_text,
    frame_width,
    plain,
    points,
    register_fonts,
    shorten,
    width,
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

_HEAD = ParagraphStyle("list-head", fontName=BOLD, fontSize=7, leading=8.2)
_CELL = ParagraphStyle("list-cell", fontName=FONT, fontSize=SIZE, leading=SIZE * 1.15)
_ALIGN = {"LEFT": 0, "CENTER": 1, "RIGHT": 2}


class PlayerLine(Protocol):
    """A player's line in a standing (``skatliga.models.StandingRow`` is one)."""

    rank: int
    player: str
    club: str
    lists: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    bonus: int
    total: int


class TeamLine(Protocol):
    """A team's line in a league table (``skatliga.standings.TeamRow`` is one)."""

    rank: int
    team: str
    club: str
    series: int
    match_points: Fraction
    match_points_against: Fraction
    game_points: int


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


def _match_points(row: Any) -> str:
    against = getattr(row, "match_points_against", None)
    if against is None:
        return points(row.match_points)
    return f"{points(row.match_points)} : {points(against)}"


def player_columns(*, lists: bool = False) -> list[Column]:
    """The columns of a player standing; ``lists`` adds the number of series played."""
    name, club = (0.22, 0.165) if lists else (0.245, 0.205)
    columns = [
        Column(pgettext("rank", "Platz"), _rank, 0.055),
        Column(_("Spieler"), _text("player"), name, "LEFT", bold=True),
        Column(_("Verein"), _text("club"), club, "LEFT"),
    ]
    if lists:
        columns.append(Column(_("Serien"), _number("lists"), 0.065))
    columns += [
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


def _fits(text: str, room: float, font: str) -> bool:
    return width(text, SIZE, font) <= room


def _table(columns: Sequence[Column], rows: Sequence[Any]) -> LongTable:
    total = frame_width()
    widths = [column.width * total for column in columns]
    data: list[list[object]] = [
        [
            Paragraph(
                escape(column.label),
                ParagraphStyle(f"head-{column.align}", _HEAD, alignment=_ALIGN[column.align]),
            )
            for column in columns
        ]
    ]
    style: list[tuple[object, ...]] = [
        ("FONT", (0, 0), (-1, -1), FONT, SIZE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.8),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("LINEABOVE", (0, 0), (-1, 0), 0.9, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, colors.black),
        ("LINEBELOW", (0, -1), (-1, -1), 0.9, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, STRIPE]),
    ]
    for index, column in enumerate(columns):
        style.append(("ALIGN", (index, 0), (index, -1), column.align))
        if column.bold:
            style.append(("FONT", (index, 1), (index, -1), BOLD, SIZE))
    for row in rows:
        cells: list[object] = []
        for column, room in zip(columns, widths, strict=True):
            text = column.text(row)
            font = BOLD if column.bold else FONT
            if _fits(text, room - 2 * PADDING, font):
                cells.append(text)
            else:
                markup = f"<b>{escape(text)}</b>" if column.bold else escape(text)
                cells.append(Paragraph(markup, _CELL))
        data.append(cells)
    return LongTable(data, colWidths=widths, repeatRows=1, style=style)


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
) -> bytes:
    """A result list: ``title`` and ``subtitle`` on every page, then ``rows`` in ``columns``.

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

    return build(
        [_table(columns, rows)],
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
) -> bytes:
    """A player standing (series, tournament or season); ``lists`` shows series played."""
    return result_list_pdf(
        title,
        subtitle,
        player_columns(lists=lists),
        rows,
        as_of=as_of,
        provisional=provisional,
        rules=rules,
    )


def team_standings_pdf(
    title: str,
    subtitle: str,
    rows: Sequence[TeamLine],
    *,
    as_of: datetime.date | None = None,
    provisional: str = "",
) -> bytes:
    """A league table of teams."""
    return result_list_pdf(
        title, subtitle, team_columns(), rows, as_of=as_of, provisional=provisional
    )

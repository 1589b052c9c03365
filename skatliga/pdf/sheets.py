"""Score sheets (Spielliste): one table's list on one A4 page, blank or completed.

The layout follows the paper list clubs know: a header with tournament, date, series and
table; one row per game with the game, the matadors, the level columns, the value and the
players' running totals; the dealer marked "G" in his column (shaded where he sits out at a
4-table), the declarer's new total in bold; the summary rows and a signature box per player.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import Flowable, PageBreak, Table
from reportlab.platypus.tables import CellStyle

from skatliga.entries import signed
from skatliga.pdf import qr
from skatliga.pdf.base import (
    BOLD,
    BOTTOM,
    FONT,
    MARGIN,
    PAGE,
    build,
    date_text,
    plain,
    register_fonts,
    shorten,
    width,
    wrap_lines,
)
from skatliga.pdf.rows import LEVELS, SheetData, SheetPlayer

TICK = "\u2713"

# --- layout ----------------------------------------------------------------------------------

BODY = 7.5
SMALL = 6.5
HEADER_HEIGHT = 20 * mm
HEAD_ROW = 15 * mm
SUMMARY_ROW = 4.4 * mm
SIGNATURE_ROW = 11 * mm
LEGEND_HEIGHT = 5 * mm
MIN_ROW, MAX_ROW = 3.6 * mm, 5.6 * mm
TOP = MARGIN - 2 * mm

NR, GAME, MATADORS, FIRST_LEVEL = 0, 1, 2, 3
LEVEL_WIDTH = 5.2 * mm
DOUBLING_WIDTH = 6 * mm


def _fixed(doublings: bool) -> tuple[float, ...]:
    """Widths of the columns before the players': Nr., game, matadors, the levels, the
    doubling column where the rule set has Kontra (rules.md section 8), the value."""
    doubling = (DOUBLING_WIDTH,) if doublings else ()
    return (6.5 * mm, 21 * mm, 8.5 * mm) + (LEVEL_WIDTH,) * len(LEVELS) + doubling + (12 * mm,)


def _value_column(doublings: bool) -> int:
    return FIRST_LEVEL + len(LEVELS) + doublings


MARK_WIDTH = 5 * mm

GRID = colors.Color(0.55, 0.55, 0.55)
HEAD_BG = colors.Color(0.9, 0.9, 0.9)
OUT_BG = colors.Color(0.82, 0.82, 0.82)
DECLARER_BG = colors.Color(0.86, 0.91, 0.97)
MUTED = colors.Color(0.35, 0.35, 0.35)

NAME_SIZE = 8


class Vertical(Flowable):
    """A column heading set upwards, for the narrow level columns (smaller if it is long)."""

    def __init__(self, text: str, size: float = SMALL, length: float = HEAD_ROW - 5) -> None:
        super().__init__()
        self.text = text
        self.size = min(size, size * length / max(width(text, size, BOLD), 1))

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.size * 1.1, width(self.text, self.size, BOLD)

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.translate(self.size * 0.85, 0)
        canvas.rotate(90)
        canvas.setFont(BOLD, self.size)
        canvas.drawString(0, 0, self.text)
        canvas.restoreState()


class PlayerHeading(Flowable):
    """A player's name and club above his column: smaller type before wrapping a name."""

    def __init__(self, player: SheetPlayer) -> None:
        super().__init__()
        self.player = player

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        self.size = NAME_SIZE
        while self.size > SMALL and width(self.player.name, self.size, BOLD) > available_width:
            self.size -= 0.5
        self.names = wrap_lines(self.player.name, available_width, self.size, BOLD, 3)
        self.clubs = wrap_lines(
            self.player.club, available_width, SMALL, FONT, 1 if self.player.substitute else 2
        )
        self.club_lines = len(self.clubs)
        if self.player.substitute:
            # The substitute who took the seat over (SkWO 4.4), under the club.
            line = _("ab Spiel %(number)s: %(name)s") % {
                "number": self.player.substitute_from,
                "name": self.player.substitute,
            }
            self.clubs += wrap_lines(line, available_width, SMALL, BOLD, 2)
        self.height = len(self.names) * self.size * 1.15 + len(self.clubs) * SMALL * 1.15
        return available_width, self.height

    def draw(self) -> None:
        canvas, middle = self.canv, self.width / 2
        y = self.height - self.size
        canvas.setFont(BOLD, self.size)
        for line in self.names:
            canvas.drawCentredString(middle, y, line)
            y -= self.size * 1.15
        y += self.size * 1.15 - SMALL * 1.2
        canvas.setFont(FONT, SMALL)
        for index, line in enumerate(self.clubs):
            if index == self.club_lines:
                canvas.setFont(BOLD, SMALL)
            canvas.drawCentredString(middle, y, line)
            y -= SMALL * 1.15


class SheetHeader(Flowable):
    """Tournament, date and venue on the left; series and table in boxes on the right."""

    def __init__(self, sheet: SheetData, blank: bool) -> None:
        super().__init__()
        self.sheet, self.blank = sheet, blank

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, HEADER_HEIGHT

    def draw(self) -> None:
        canvas, sheet = self.canv, self.sheet
        top = HEADER_HEIGHT
        canvas.setFillColor(MUTED)
        canvas.setFont(BOLD, 8)
        if self.blank:
            kind = _("Spielliste · Vordruck")
        elif sheet.provisional:
            kind = _("Spielliste · vorläufig")
        else:
            kind = _("Spielliste")
        canvas.drawString(0, top - 8, kind)
        canvas.setFillColor(colors.black)
        box, gap = 24 * mm, 2 * mm
        room = self.width - 2 * (box + gap) - 4 * mm
        if sheet.link:
            # The table link's QR code and short code, left of the series and table boxes.
            side = top - 2
            x = self.width - 2 * box - gap - 2 * gap - side
            renderPDF.draw(qr.drawing(sheet.link, side), canvas, x, 0)
            canvas.setFont(FONT, 6.5)
            canvas.setFillColor(MUTED)
            canvas.drawRightString(x - 1 * mm, top - 14, _("Tisch-Code"))
            canvas.setFillColor(colors.black)
            canvas.setFont(BOLD, 9)
            canvas.drawRightString(x - 1 * mm, top - 25, sheet.code)
            room -= side + width(sheet.code, 9, BOLD) + 4 * mm
        name, size = sheet.tournament, 14.0
        while size > 9 and width(name, size, BOLD) > room:
            size -= 0.5
        canvas.setFont(BOLD, size)
        canvas.drawString(0, top - 8 - size - 2, shorten(name, room, size, BOLD))
        canvas.setFont(FONT, 8.5)
        details = " · ".join(d for d in (date_text(sheet.date), sheet.venue) if d)
        canvas.drawString(0, top - 8 - size - 14, shorten(details, room, 8.5))
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(MUTED)
        rules = [
            _("Regelwerk: %(rules)s") % {"rules": sheet.rules},
            _("Listenwertung: %(system)s") % {"system": sheet.system},
            _("%(size)der-Tisch") % {"size": len(sheet.players)},
        ]
        line, size = " · ".join(rules), 7.5
        # House rules can make the line long: smaller type, then two lines, beside the boxes.
        while size > 5.5 and width(line, size, FONT) > room:
            size -= 0.5
        lines = simpleSplit(line, FONT, size, room)
        canvas.setFont(FONT, size)
        for index, text in enumerate(lines[:2]):
            canvas.drawString(0, 4 + (len(lines[:2]) - 1 - index) * (size + 1), text)
        canvas.setFillColor(colors.black)
        for index, (label, number) in enumerate(
            ((_("Serie"), sheet.series), (_("Tisch"), sheet.table))
        ):
            x = self.width - (2 - index) * box - (1 - index) * gap
            canvas.setLineWidth(0.8)
            canvas.rect(x, 2, box, top - 2 * mm - 2)
            canvas.setFont(FONT, 7)
            canvas.drawCentredString(x + box / 2, top - 2 * mm - 9, label)
            canvas.setFont(BOLD, 20)
            canvas.drawCentredString(x + box / 2, 4 * mm, str(number))


class TextLine(Flowable):
    """One line of small text, drawn directly (no paragraph layout needed)."""

    def __init__(self, text: str, size: float = SMALL) -> None:
        super().__init__()
        self.text, self.size = text, size

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, LEGEND_HEIGHT

    def draw(self) -> None:
        self.canv.setFont(FONT, self.size)
        self.canv.setFillColor(MUTED)
        text = shorten(self.text, self.width, self.size)
        self.canv.drawString(0, LEGEND_HEIGHT - self.size - 3, text)


def _cell_style(
    name: str,
    *,
    font: str = FONT,
    size: float = BODY,
    align: str = "CENTER",
    color: colors.Color = colors.black,
    valign: str = "MIDDLE",
    top: float = 0,
    bottom: float = 1.2,
) -> CellStyle:
    style = CellStyle(name)
    style.fontname, style.fontsize, style.leading = font, size, size * 1.2
    style.alignment, style.valign, style.color = align, valign, color
    style.leftPadding = style.rightPadding = 1.5
    style.topPadding, style.bottomPadding = top, bottom
    return style


# Shared cell styles: the table takes them ready-made instead of from per-cell commands.
HEAD = _cell_style("head", font=BOLD, size=SMALL, valign="BOTTOM", bottom=2)
NUMBER = _cell_style("number", color=MUTED)
LABEL = _cell_style("label", align="LEFT")
CENTRE = _cell_style("centre")
RIGHT = _cell_style("right", align="RIGHT")
MARK = _cell_style("mark", size=SMALL, color=MUTED)
DECLARER = _cell_style("declarer", font=BOLD, align="RIGHT")
SUM_LABEL = _cell_style("sum-label", size=SMALL, align="RIGHT")
COUNT = _cell_style("count", size=SMALL, align="RIGHT", color=MUTED)
TOTAL = _cell_style("total", font=BOLD, align="RIGHT")
SIGN_LABEL = _cell_style("sign-label", size=SMALL, align="RIGHT", valign="TOP", top=2)


@lru_cache(maxsize=16)
def _label_style(size: float) -> CellStyle:
    """The game column in a smaller size, for the rare label that is too long."""
    return _cell_style(f"label-{size}", align="LEFT", size=size)


class SheetTable(Table):
    """A table that sets its text cells in one text object, grouped by font and colour.

    Most cells of a list are empty or a few characters; drawing each through its own text
    object, switching fonts and colours from cell to cell, would cost more than the rest of
    the page together.
    """

    def draw(self) -> None:
        self._runs: dict[tuple[str, float, object], list[tuple[float, float, str]]] = {}
        super().draw()
        text = self.canv.beginText()
        for (font, size, color), cells in self._runs.items():
            text.setFont(font, size)
            text.setFillColor(color)
            for x, y, value in cells:
                text.setTextOrigin(x, y)
                text._textOut(value)
        self.canv.drawText(text)

    # Every sheet of a series has the same spans, column widths and row heights; reportlab
    # works the spanned ranges and their rectangles out cell by cell for each table, which
    # cost a fifth of a page's drawing. They are worked out once per shape and shared (the
    # drawing only reads them; each table gets its own copies of the mappings).

    def _calcSpanRanges(self) -> None:
        key = (self._ncols, self._nrows, tuple(map(tuple, self._spanCmds)))
        cached = _SPAN_RANGES.get(key)
        if cached is None:
            super()._calcSpanRanges()
            _forget_if_full(_SPAN_RANGES)
            cached = _SPAN_RANGES[key] = (
                self._spanRanges,
                self._colSpanCells,
                self._rowSpanCells,
            )
        ranges, columns, rows = cached
        self._spanRanges, self._colSpanCells, self._rowSpanCells = (
            dict(ranges),
            list(columns),
            list(rows),
        )

    def _calcSpanRects(self) -> None:
        if getattr(self, "_spanRects", None):
            super()._calcSpanRects()
            return
        shape = (
            self._ncols,
            self._nrows,
            tuple(map(tuple, self._spanCmds)),
            tuple(self._colpositions),
            tuple(self._rowpositions),
        )
        cached = _SPAN_RECTS.get(shape)
        if cached is None:
            super()._calcSpanRects()
            _forget_if_full(_SPAN_RECTS)
            cached = _SPAN_RECTS[shape] = (self._spanRects, self._vBlocks, self._hBlocks)
        rects, vertical, horizontal = cached
        self._spanRects = dict(rects)
        self._vBlocks = {x: list(blocks) for x, blocks in vertical.items()}
        self._hBlocks = {y: list(blocks) for y, blocks in horizontal.items()}
        self._hmax_spanRects = getattr(self, "_hmax", None)

    def _drawCell(
        self,
        cellval: object,
        cellstyle: CellStyle,
        pos: tuple[float, float],
        size: tuple[float, float],
    ) -> None:
        if type(cellval) is not str:
            super()._drawCell(cellval, cellstyle, pos, size)
            return
        if not cellval:
            return
        style = cellstyle
        x, y = pos
        cell_width, cell_height = size
        if style.valign == "MIDDLE":
            y += (style.bottomPadding + cell_height - style.topPadding + style.leading) / 2
        elif style.valign == "TOP":
            y += cell_height - style.topPadding
        else:
            y += style.bottomPadding + style.leading
        if style.alignment == "LEFT":
            x += style.leftPadding
        else:
            room = cell_width - style.leftPadding - style.rightPadding
            slack = room - _width(cellval, style.fontname, style.fontsize)
            x += style.leftPadding + (slack if style.alignment == "RIGHT" else slack / 2)
        key = style.fontname, style.fontsize, style.color
        self._runs.setdefault(key, []).append((x, y - style.fontsize, cellval))


_SPAN_RANGES: dict[tuple[object, ...], tuple[dict, list, list]] = {}
_SPAN_RECTS: dict[tuple[object, ...], tuple[dict, dict, dict]] = {}


def _forget_if_full(cache: dict) -> None:
    """Keep the span caches small: a few shapes (3-, 4- and 5-tables) are all there are."""
    if len(cache) >= 32:
        cache.clear()


@lru_cache(maxsize=8192)
def _width(text: str, font: str, size: float) -> float:
    return width(text, size, font)


def _column_widths(players: int, doublings: bool) -> list[float]:
    total = PAGE[0] - 2 * MARGIN
    fixed = _fixed(doublings)
    per_player = (total - sum(fixed)) / players
    return [*fixed, *(MARK_WIDTH, per_player - MARK_WIDTH) * players]


def _row_height(games: int, notes: int = 0) -> float:
    """The height of a game's row: what the page leaves, with room for ``notes`` lines of
    substitutes under the legend."""
    frame = PAGE[1] - TOP - BOTTOM
    rest = HEADER_HEIGHT + HEAD_ROW + 5 * SUMMARY_ROW + SIGNATURE_ROW + LEGEND_HEIGHT + 2 * mm
    rest += notes * LEGEND_HEIGHT
    return max(MIN_ROW, min(MAX_ROW, (frame - rest) / max(games, 1)))


@lru_cache(maxsize=32)
def _shape(
    players: int, games: int, doublings: bool
) -> tuple[tuple[tuple[CellStyle, ...], ...], tuple]:
    """The cell styles and the lines of every sheet with this many players and rows."""
    value_column = _value_column(doublings)
    first_player = value_column + 1
    head = (HEAD,) * (first_player + 2 * players)
    levels = (CENTRE,) * (len(LEVELS) + doublings)
    game = (NUMBER, LABEL, CENTRE) + levels + (RIGHT,) + (MARK, RIGHT) * players
    summary = (SUM_LABEL,) * first_player + (COUNT, RIGHT) * players
    total = (TOTAL,) * (first_player + 2 * players)
    signature = (SIGN_LABEL,) * (first_player + 2 * players)
    cells = (head,) + (game,) * games + (summary,) * 4 + (total, signature)

    first_summary, total_row = games + 1, games + 5
    last = first_player + 2 * players - 1
    commands: list[tuple[object, ...]] = [
        ("INNERGRID", (0, 0), (-1, -1), 0.25, GRID),
        ("BOX", (0, 0), (-1, -1), 0.9, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, colors.black),
        ("LINEBEFORE", (FIRST_LEVEL, 0), (FIRST_LEVEL, games), 0.6, colors.black),
        ("LINEBEFORE", (value_column, 0), (value_column, games), 0.6, colors.black),
        ("LINEABOVE", (0, first_summary), (-1, first_summary), 0.9, colors.black),
        ("LINEABOVE", (0, total_row), (-1, total_row), 0.9, colors.black),
        ("BACKGROUND", (0, total_row), (-1, total_row), HEAD_BG),
        ("LINEABOVE", (0, total_row + 1), (-1, total_row + 1), 0.9, colors.black),
    ]
    # The Spielpunkte row keeps the Wert column free for the sum of the entries above it.
    commands.append(("SPAN", (0, first_summary), (value_column - 1, first_summary)))
    commands += [
        ("SPAN", (0, row), (value_column, row)) for row in range(first_summary + 1, total_row + 2)
    ]
    for seat in range(players):
        mark = first_player + 2 * seat
        commands += [
            ("SPAN", (mark, 0), (mark + 1, 0)),
            ("SPAN", (mark, total_row), (mark + 1, total_row)),
            ("SPAN", (mark, total_row + 1), (mark + 1, total_row + 1)),
            ("LINEBEFORE", (mark, 0), (mark, -1), 0.9, colors.black),
        ]
    # A stronger line after each round of deals.
    commands += [
        ("LINEBELOW", (0, row), (last, row), 0.6, colors.black)
        for row in range(players, games, players)
    ]
    return cells, tuple(commands)


def _heading(sheet: SheetData) -> list[object]:
    labels = (
        _("Spiel"),
        _("Hand"),
        _("Schneider"),
        _("angesagt"),
        _("Schwarz"),
        _("angesagt"),
        _("offen"),
    )
    cells: list[object] = [_("Nr."), _("Spielart"), Vertical(_("Spitzen"))]
    cells += [Vertical(label) for label in labels]
    if sheet.doublings:
        cells.append(Vertical(_("Kontra")))
    cells.append(_("Wert"))
    for player in sheet.players:
        cells += [PlayerHeading(player), ""]
    return cells


def _sheet_table(sheet: SheetData, blank: bool) -> Table:
    players = len(sheet.players)
    games = len(sheet.rows)
    value_column = _value_column(sheet.doublings)
    first_player = value_column + 1
    widths = _column_widths(players, sheet.doublings)
    shape, lines = _shape(players, games, sheet.doublings)
    styles = list(shape)
    commands = list(lines)
    dealer_mark = pgettext("dealer", "G")
    game_room = widths[GAME] - 3
    data: list[list[object]] = [_heading(sheet)]
    previous = (0,) * players
    empty = [""] * (value_column - NR)
    for index, row in enumerate(sheet.rows, start=1):
        played = not blank and bool(row.game)
        cells: list[object] = [str(row.number)]
        if played:
            cells += [row.game, row.matadors]
            cells += [TICK if level in row.levels else "" for level in LEVELS]
            if sheet.doublings:
                cells.append(row.doubling)
            cells.append("" if row.value is None else signed(row.value))
        else:
            cells += empty
        totals = row.totals if played and row.totals else None
        for seat in range(1, players + 1):
            cells.append(dealer_mark if seat == row.dealer else "")
            changed = totals is not None and (
                seat == row.declarer or totals[seat - 1] != previous[seat - 1]
            )
            cells.append(plain(totals[seat - 1]) if changed and totals else "")
        data.append(cells)
        if totals is not None:
            previous = totals
        for seat in row.sitting_out:
            column = first_player + 2 * (seat - 1)
            commands.append(("BACKGROUND", (column, index), (column + 1, index), OUT_BG))
        if not played:
            continue
        own: list[CellStyle] | None = None
        if row.declarer is not None:
            column = first_player + 2 * (row.declarer - 1) + 1
            commands.append(("BACKGROUND", (column, index), (column, index), DECLARER_BG))
            styles[index] = own = list(styles[index])
            own[column] = DECLARER
        label_width = _width(row.game, FONT, BODY)
        if label_width > game_room:
            styles[index] = own = list(own or styles[index])
            own[GAME] = _label_style(round(max(5.0, BODY * game_room / label_width), 1))
    data += _summary(sheet, blank)
    # A substitute's first game starts under a strong line in his seat's columns.
    for seat, player in enumerate(sheet.players):
        if player.substitute_from and not blank and player.substitute_from <= games:
            column = first_player + 2 * seat
            commands.append(
                (
                    "LINEABOVE",
                    (column, player.substitute_from),
                    (column + 1, player.substitute_from),
                    1.6,
                    colors.black,
                )
            )
    row_height = _row_height(games, 0 if blank else len(sheet.shares) // 2)
    heights = [HEAD_ROW] + [row_height] * games + [SUMMARY_ROW] * 5 + [SIGNATURE_ROW]
    return SheetTable(
        data,
        colWidths=widths,
        rowHeights=heights,
        style=commands,
        repeatRows=1,
        cellStyles=styles,
        normalizedData=1,
    )


def _summary(sheet: SheetData, blank: bool) -> list[list[object]]:
    players = len(sheet.players)
    value_column = _value_column(sheet.doublings)
    pad = [""] * value_column
    bonus, others = sheet.won_bonus, sheet.others_bonus
    won_label, lost_label = _("gewonnene Spiele"), _("verlorene Spiele")
    others_label = _("verlorene Spiele der Mitspieler")
    if bonus is not None and others is not None:
        won_label = f"{signed(bonus)} × {won_label}"
        lost_label = f"{signed(-bonus)} × {lost_label}"
        others_label = f"{signed(others)} × {others_label}"
    rows: list[list[object]] = [
        [_("Spielpunkte"), *pad],
        [won_label, *pad],
        [lost_label, *pad],
        [others_label, *pad],
        [_("Gesamt"), *pad],
        [_("Unterschriften"), *pad],
    ]
    summary = () if blank else sheet.summary
    if summary:
        rows[0][value_column] = signed(sum(row.value or 0 for row in sheet.rows))
    for seat in range(players):
        s = summary[seat] if seat < len(summary) else None
        if s is None:
            cells = [("", "")] * 5
        else:
            cells = [
                ("", plain(s.game_points)),
                (str(s.won), signed(bonus * s.won) if bonus and others else ""),
                (str(s.lost), signed(-bonus * s.lost) if bonus and others else ""),
                (str(s.others_lost), signed(others * s.others_lost) if bonus and others else ""),
                (plain(s.total), ""),
            ]
        for row, pair in zip(rows, cells, strict=False):
            row += pair
        rows[5] += ["", ""]
    return rows


def _legend(sheet: SheetData) -> str:
    dealer = pgettext("dealer", "G")
    sits_out = any(row.sitting_out for row in sheet.rows)
    parts = [
        (_("%(mark)s = Geber; grau: sitzt aus") if sits_out else _("%(mark)s = Geber"))
        % {"mark": dealer},
        _("%(tick)s = Stufe zählt") % {"tick": TICK},
        _("fett = Alleinspieler (neuer Stand)"),
        _("Wert: Spielwert, verloren doppelt mit Minus"),
    ]
    return " · ".join(parts)


def _share_lines(sheet: SheetData) -> list[str]:
    """One line per seat a substitute took over: who had which games, and his figures."""
    lines = []
    for leaver, substitute in zip(sheet.shares[::2], sheet.shares[1::2], strict=True):
        parts = [
            _("%(name)s Spiele %(first)s–%(last)s: %(points)s Spielpunkte, Gesamt %(total)s")
            % {
                "name": share.player,
                "first": share.first,
                "last": share.last,
                "points": plain(share.summary.game_points),
                "total": plain(share.summary.total),
            }
            for share in (leaver, substitute)
        ]
        lines.append(
            _("Platz %(seat)s, Ersatzspieler: %(parts)s")
            % {"seat": leaver.position, "parts": " · ".join(parts)}
        )
    return lines


def score_sheets_pdf(sheets: Sequence[SheetData], blank: bool = False) -> bytes:
    """All ``sheets`` in one PDF, one list per page: blank forms or the completed lists."""
    register_fonts()
    flowables: list[Flowable] = [] if sheets else [TextLine(_("Keine Listen"))]
    for index, sheet in enumerate(sheets):
        if index:
            flowables.append(PageBreak())
        # A list with no game yet is a form to fill in: empty boxes, not "vorläufig" zeros.
        form = blank or not any(row.game for row in sheet.rows)
        flowables += [SheetHeader(sheet, form), _sheet_table(sheet, form)]
        flowables.append(TextLine(_legend(sheet)))
        if not form:
            flowables += [TextLine(line, BODY) for line in _share_lines(sheet)]
    first = sheets[0] if sheets else None
    title = _("Spielliste")
    footer = title
    if first is not None:
        footer = _("%(tournament)s · Serie %(series)d") % {
            "tournament": first.tournament,
            "series": first.series,
        }
        title = f"{title} – {footer}"
    return build(flowables, title=title, footer=footer, top=TOP)

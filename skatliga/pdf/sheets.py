"""Score sheets (Spielliste): one table's list on one A4 page, blank or completed.

The layout follows the paper list clubs know: a header with tournament, date, series and
table; one row per game with the game, the matadors, the level columns, the value and the
players' running totals; the dealer marked "G" in his column (shaded where he sits out at a
4-table), the declarer's new total in bold; the summary rows and a signature box per player.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.platypus import Flowable, PageBreak, Table
from reportlab.platypus.tables import CellStyle

from skatliga.entries import signed
from skatliga.pdf.base import (
    BOLD,
    BOTTOM,
    FONT,
    MARGIN,
    PAGE,
    build,
    frame_width,
    mm,
    plain,
    register_fonts,
    width,
)
from skatliga.pdf.rows import LEVELS, SheetData
from skatliga.pdf.sheet_parts import (
    BODY,
    DECLARER_BG,
    FIRST_LEVEL,
    GAME,
    GRID,
    HEAD_BG,
    HEAD_ROW,
    HEADER_HEIGHT,
    LEADING,
    LEGEND_HEIGHT,
    MARK_WIDTH,
    MAX_ROW,
    MIN_ROW,
    MUTED,
    NR,
    OUT_BG,
    SIGNATURE_ROW,
    SMALL,
    SUMMARY_ROW,
    TOP,
    Lines,
    PlayerHeading,
    SheetHeader,
    TextLine,
    Vertical,
    fixed_widths,
    line_count,
    signature_height,
    signature_lines,
    value_index,
)

TICK = "\u2713"


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
SIGNATURE = _cell_style("signature", size=SMALL, align="CENTER", valign="TOP", top=2)


@lru_cache(maxsize=16)
def _label_style(size: float) -> CellStyle:
    """The game column in a smaller size, for the rare label that is too long."""
    return _cell_style(f"label-{size}", align="LEFT", size=size)


Cell = tuple[int, int]
"""A cell of a reportlab table: column and row."""
Span = tuple[int, int, int, int] | None
"""The cells a cell spans (first column and row, last column and row); None: spanned over."""
Rect = tuple[float, float, float, float] | None
"""Where a cell is drawn (x, y, width, height); None: spanned over."""
Blocks = dict[float, list[tuple[float, float]]]
"""Where spanned cells interrupt the grid lines: a line's position, the stretches it skips."""


class SheetTable(Table):  # type: ignore[misc]  # reportlab has no types: Table is Any
    """A table that sets its text cells in one text object, grouped by font and colour.

    Most cells of a list are empty or a few characters; drawing each through its own text
    object, switching fonts and colours from cell to cell, would cost more than the rest of
    the page together.
    """

    _spanRanges: dict[Cell, Span]
    _colSpanCells: list[Cell]
    _rowSpanCells: list[Cell]
    _spanRects: dict[Cell, Rect]
    _vBlocks: Blocks
    _hBlocks: Blocks

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
        room = cell_width - style.leftPadding - style.rightPadding
        if style is SIGNATURE:
            self._signature(cellval, (x, y), room, cell_height)
            return
        # A line each (the signature box: who signed, when, how), one leading apart; a later
        # line wider than the cell in a smaller size, down to two thirds.
        for number, line in enumerate(cellval.split("\n")):
            points = style.fontsize
            width = _width(line, style.fontname, points)
            if number and width > room:
                points = max(points * 2 / 3, points * room / width)
                width = _width(line, style.fontname, points)
            left = x
            if style.alignment == "LEFT":
                left += style.leftPadding
            else:
                slack = room - width
                left += style.leftPadding + (slack if style.alignment == "RIGHT" else slack / 2)
            top = y - style.fontsize - number * style.leading
            key = style.fontname, points, style.color
            self._runs.setdefault(key, []).append((left, top, line))

    def _signature(
        self, text: str, top_left: tuple[float, float], room: float, height: float
    ) -> None:
        """A signature box: its lines broken to the box's width, smaller where they are
        many, each centred in the box."""
        x, y = top_left
        size, lines = signature_lines(
            text, room, height - SIGNATURE.topPadding - SIGNATURE.bottomPadding
        )
        for number, line in enumerate(lines, start=1):
            left = x + SIGNATURE.leftPadding + (room - _width(line, FONT, size)) / 2
            self._runs.setdefault((FONT, size, SIGNATURE.color), []).append(
                (left, y - number * size * LEADING + size * (LEADING - 1), line)
            )


_SPAN_RANGES: dict[tuple[object, ...], tuple[dict[Cell, Span], list[Cell], list[Cell]]] = {}
_SPAN_RECTS: dict[tuple[object, ...], tuple[dict[Cell, Rect], Blocks, Blocks]] = {}


def _forget_if_full(cache: dict[tuple[object, ...], Any]) -> None:
    """Keep the span caches small: a few shapes (3-, 4- and 5-tables) are all there are."""
    if len(cache) >= 32:
        cache.clear()


@lru_cache(maxsize=8192)
def _width(text: str, font: str, size: float) -> float:
    return width(text, size, font)


def _column_widths(players: int, doublings: bool) -> list[float]:
    total = PAGE[0] - 2 * MARGIN
    fixed = fixed_widths(doublings)
    per_player = (total - sum(fixed)) / players
    return [*fixed, *(MARK_WIDTH, per_player - MARK_WIDTH) * players]


def _row_height(games: int, notes: int = 0, signatures: float = SIGNATURE_ROW) -> float:
    """The height of a game's row: what the page leaves, with room for ``notes`` lines of
    substitutes under the legend and a signature row ``signatures`` high."""
    frame = PAGE[1] - TOP - BOTTOM
    rest = HEADER_HEIGHT + HEAD_ROW + 5 * SUMMARY_ROW + signatures + LEGEND_HEIGHT + 2 * mm
    rest += notes * BODY * LEADING + 3 * bool(notes)
    return max(MIN_ROW, min(MAX_ROW, (frame - rest) / max(games, 1)))


@lru_cache(maxsize=32)
def _shape(
    players: int, games: int, doublings: bool
) -> tuple[tuple[tuple[CellStyle, ...], ...], tuple[tuple[object, ...], ...]]:
    """The cell styles and the lines of every sheet with this many players and rows."""
    value_column = value_index(doublings)
    first_player = value_column + 1
    head = (HEAD,) * (first_player + 2 * players)
    levels = (CENTRE,) * (len(LEVELS) + doublings)
    game = (NUMBER, LABEL, CENTRE) + levels + (RIGHT,) + (MARK, RIGHT) * players
    summary = (SUM_LABEL,) * first_player + (COUNT, RIGHT) * players
    total = (TOTAL,) * (first_player + 2 * players)
    signature = (SIGN_LABEL,) * first_player + (SIGNATURE,) * (2 * players)
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
        pgettext("ouvert", "offen"),
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
    value_column = value_index(sheet.doublings)
    first_player = value_column + 1
    widths = _column_widths(players, sheet.doublings)
    shape, lines = _shape(players, games, sheet.doublings)
    styles: list[Sequence[CellStyle]] = list(shape)
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
    signatures = SIGNATURE_ROW
    notes = 0
    if not blank:
        signatures = signature_height(sheet.signed, widths[-2] + widths[-1] - 3)
        notes = sum(line_count(line, frame_width(), BODY) for line in _share_lines(sheet))
    row_height = _row_height(games, notes, signatures)
    heights = [HEAD_ROW] + [row_height] * games + [SUMMARY_ROW] * 5 + [signatures]
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
    value_column = value_index(sheet.doublings)
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
        rows[5] += [sheet.signed[seat] if seat < len(sheet.signed) and not blank else "", ""]
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
            flowables += [Lines(line, BODY) for line in _share_lines(sheet)]
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

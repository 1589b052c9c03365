"""The score sheet's measures and colours, and the pieces above and beside its table: the
sheet's header (tournament, series, table, the table link's QR code), the level columns'
upright headings, the players' names and the legend's lines (``skatliga.pdf.sheets``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import Flowable

from skatliga.pdf import qr
from skatliga.pdf.base import BOLD, FONT, MARGIN, date_text, mm, shorten, width, wrap_lines
from skatliga.pdf.rows import LEVELS, SheetData, SheetPlayer

# --- layout ----------------------------------------------------------------------------------

BODY = 7.5
SMALL = 6.5
HEADER_HEIGHT = 20 * mm
HEAD_ROW = 15 * mm
SUMMARY_ROW = 4.4 * mm
SIGNATURE_ROW = 11 * mm
SIGNATURE_MIN = 4.5
SIGNATURE_PADDING = 4
LEADING = 1.2
LEGEND_HEIGHT = 5 * mm
MIN_ROW, MAX_ROW = 3.6 * mm, 5.6 * mm
TOP = MARGIN - 2 * mm

NR, GAME, MATADORS, FIRST_LEVEL = 0, 1, 2, 3
LEVEL_WIDTH = 5.2 * mm
DOUBLING_WIDTH = 6 * mm


def fixed_widths(doublings: bool) -> tuple[float, ...]:
    """Widths of the columns before the players': Nr., game, matadors, the levels, the
    doubling column where the rule set has Kontra (docs/rules.md section 8), the value."""
    doubling = (DOUBLING_WIDTH,) if doublings else ()
    return (6.5 * mm, 21 * mm, 8.5 * mm) + (LEVEL_WIDTH,) * len(LEVELS) + doubling + (12 * mm,)


def value_index(doublings: bool) -> int:
    return FIRST_LEVEL + len(LEVELS) + doublings


MARK_WIDTH = 5 * mm

GRID = colors.Color(0.55, 0.55, 0.55)
HEAD_BG = colors.Color(0.9, 0.9, 0.9)
OUT_BG = colors.Color(0.82, 0.82, 0.82)
DECLARER_BG = colors.Color(0.86, 0.91, 0.97)
MUTED = colors.Color(0.35, 0.35, 0.35)

NAME_SIZE = 8.0


class Vertical(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
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


class PlayerHeading(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
    """A player's name and club above his column: smaller type before wrapping a name."""

    def __init__(self, player: SheetPlayer) -> None:
        super().__init__()
        self.player = player

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        self.size = NAME_SIZE
        while self.size > SMALL and width(self.player.name, self.size, BOLD) > available_width:
            self.size -= 0.5
        # With a substitute's line under the club, the name keeps two lines: all of it
        # stays within the heading's row.
        most = 2 if self.player.substitute else 3
        self.names = wrap_lines(self.player.name, available_width, self.size, BOLD, most)
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


class SheetHeader(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
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


def signature_lines(text: str, room: float, height: float) -> tuple[float, list[str]]:
    """A signature box's lines (who signed, when, on which device, how), broken at spaces
    to ``room`` points wide, in the largest size from ``SMALL`` down to ``SIGNATURE_MIN``
    at which they fit ``height``; never cut."""
    size = SMALL
    while True:
        lines = [
            wrapped
            for line in text.split("\n")
            for wrapped in wrap_lines(line, room, size, FONT, 99)
        ]
        if size <= SIGNATURE_MIN or len(lines) * size * LEADING <= height:
            return size, lines
        size -= 0.25


def signature_height(signed: tuple[str, ...], room: float) -> float:
    """The signature row's height: ``SIGNATURE_ROW``, or more where a box holds more lines
    (a substitute's and the replaced player's signatures) than fit it in the smallest size."""
    most = max((len(signature_lines(text, room, 0)[1]) for text in signed if text), default=0)
    return max(SIGNATURE_ROW, most * SIGNATURE_MIN * LEADING + SIGNATURE_PADDING)


class Lines(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
    """Small text broken into as many lines as it needs: nothing of it is cut."""

    def __init__(self, text: str, size: float = SMALL) -> None:
        super().__init__()
        self.text, self.size = text, size

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        self.lines = wrap_lines(self.text, available_width, self.size, FONT, 99)
        self.height = len(self.lines) * self.size * LEADING + 3
        return available_width, self.height

    def draw(self) -> None:
        self.canv.setFont(FONT, self.size)
        self.canv.setFillColor(MUTED)
        for number, line in enumerate(self.lines, start=1):
            self.canv.drawString(0, self.height - number * self.size * LEADING, line)


def line_count(text: str, room: float, size: float) -> int:
    """How many lines ``Lines`` breaks ``text`` into."""
    return len(wrap_lines(text, room, size, FONT, 99))


class TextLine(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
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

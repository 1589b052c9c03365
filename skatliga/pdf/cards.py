"""Table cards (Tischkarten): one card per table with the QR code of its link, its short code
and the players by seat, each beside the QR code of his personal link ("Mein Abend"), two
cards to an A4 page to cut apart. Plain values in, bytes out."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.platypus import Flowable

from skatliga.pdf import qr
from skatliga.pdf.base import BOLD, FONT, build, date_text, mm, shorten

CARD_HEIGHT = 128 * mm
QR_SIZE = 62 * mm
SEAT_ROW = 20 * mm
"""The height of a seat's line with its personal QR code; less where five seats must fit."""
MUTED = colors.HexColor("#555555")
CODE_ROOM = 16 * mm  # a seat code beside the player's name


@dataclass(frozen=True, slots=True)
class TableCard:
    """What one table card prints; ``players`` are the names by seat (seat 1 first) and
    ``sign_codes`` their seat codes where the tournament asks for them (else empty)."""

    tournament: str
    date: datetime.date | None
    series: int
    table: int
    players: tuple[str, ...]
    url: str
    code: str
    code_url: str  # where to type the code, e.g. "skat.example.org/t/"
    personal: tuple[str, ...] = ()
    """Each seat's personal link (seat 1 first), or none."""
    sign_codes: tuple[str, ...] = ()


class CardFlowable(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
    def __init__(self, card: TableCard) -> None:
        super().__init__()
        self.card = card

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, CARD_HEIGHT

    def draw(self) -> None:
        canvas, card = self.canv, self.card
        top, pad = CARD_HEIGHT - 6 * mm, 8 * mm
        canvas.setDash(3, 3)
        canvas.setStrokeColor(MUTED)
        canvas.rect(0, 2 * mm, self.width, CARD_HEIGHT - 4 * mm)
        canvas.setDash()
        canvas.setStrokeColor(colors.black)
        text_room = self.width - QR_SIZE - 3 * pad
        canvas.setFillColor(MUTED)
        canvas.setFont(FONT, 9)
        details = " · ".join(d for d in (card.tournament, date_text(card.date)) if d)
        canvas.drawString(pad, top - 6 * mm, shorten(details, text_room, 9))
        canvas.setFillColor(colors.black)
        canvas.setFont(BOLD, 34)
        canvas.drawString(pad, top - 20 * mm, _("Tisch %(number)s") % {"number": card.table})
        canvas.setFont(FONT, 14)
        canvas.drawString(pad, top - 28 * mm, _("Serie %(number)s") % {"number": card.series})
        code_room = CODE_ROOM if card.sign_codes else 0
        if card.sign_codes:
            canvas.setFont(FONT, 8)
            canvas.setFillColor(MUTED)
            heading = top - (31 if card.personal else 35) * mm
            canvas.drawRightString(pad + text_room, heading, _("Sitzcode"))
            canvas.setFillColor(colors.black)
        if card.personal:
            self.draw_personal(pad, top - 33 * mm, text_room - code_room)
        else:
            y = top - 40 * mm
            for seat, name in enumerate(card.players, start=1):
                canvas.setFont(BOLD, 13)
                canvas.drawString(pad, y, f"{seat}")
                canvas.setFont(FONT, 13)
                canvas.drawString(
                    pad + 8 * mm, y, shorten(name, text_room - 8 * mm - code_room, 13)
                )
                if seat <= len(card.sign_codes):
                    canvas.setFont(BOLD, 13)
                    canvas.drawRightString(pad + text_room, y, card.sign_codes[seat - 1])
                y -= 8 * mm
        x = self.width - QR_SIZE - pad
        renderPDF.draw(qr.drawing(card.url, QR_SIZE), canvas, x, top - QR_SIZE - 4 * mm)
        canvas.setFont(FONT, 9)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString(
            x + QR_SIZE / 2, top - QR_SIZE - 9 * mm, _("Scannen oder Code eingeben:")
        )
        canvas.setFillColor(colors.black)
        canvas.setFont(BOLD, 22)
        canvas.drawCentredString(x + QR_SIZE / 2, top - QR_SIZE - 18 * mm, card.code)
        canvas.setFont(FONT, 8)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString(x + QR_SIZE / 2, top - QR_SIZE - 24 * mm, card.code_url)

    def draw_personal(self, x: float, top: float, room: float) -> None:
        """Each seat's line under ``top``: the personal QR code, the seat and the name."""
        canvas, card = self.canv, self.card
        row = min(SEAT_ROW, (top - 4 * mm) / max(1, len(card.players)))
        size = row - 2 * mm
        text_x = x + size + 3 * mm
        for seat, (name, url) in enumerate(zip(card.players, card.personal, strict=True), 1):
            y = top - seat * row
            if url:
                renderPDF.draw(qr.drawing(url, size), canvas, x, y + 1 * mm)
            canvas.setFillColor(colors.black)
            canvas.setFont(BOLD, 13)
            canvas.drawString(text_x, y + row / 2, f"{seat}")
            canvas.setFont(FONT, 13)
            canvas.drawString(
                text_x + 7 * mm, y + row / 2, shorten(name, room - size - 10 * mm, 13)
            )
            canvas.setFont(FONT, 8)
            canvas.setFillColor(MUTED)
            canvas.drawString(text_x + 7 * mm, y + row / 2 - 4 * mm, _("Mein Abend: nur für Sie"))
            if seat <= len(card.sign_codes):
                canvas.setFillColor(colors.black)
                canvas.setFont(BOLD, 13)
                canvas.drawRightString(x + room + CODE_ROOM, y + row / 2, card.sign_codes[seat - 1])


def table_cards_pdf(cards: Sequence[TableCard], *, title: str) -> bytes:
    """One card per table, two to a page."""
    flowables: list[Flowable] = [CardFlowable(card) for card in cards]
    return build(flowables, title=title, footer=title)


SLIP_HEIGHT = 24 * mm
SLIP_QR = 21 * mm


@dataclass(frozen=True, slots=True)
class SeatSlip:
    """One line of the seating list with personal links: a player, his table and seat, and
    the QR code of his personal link; cut apart, a slip to hand him."""

    player: str
    club: str
    table: int
    position: int
    url: str


class SlipFlowable(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
    def __init__(self, slip: SeatSlip, series: int) -> None:
        super().__init__()
        self.slip, self.series = slip, series

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, SLIP_HEIGHT

    def draw(self) -> None:
        canvas, slip = self.canv, self.slip
        canvas.setDash(3, 3)
        canvas.setStrokeColor(MUTED)
        canvas.line(0, 0, self.width, 0)
        canvas.setDash()
        renderPDF.draw(qr.drawing(slip.url, SLIP_QR), canvas, 0, (SLIP_HEIGHT - SLIP_QR) / 2)
        x = SLIP_QR + 4 * mm
        where = _("Serie %(series)s · Tisch %(table)s · Platz %(position)s") % {
            "series": self.series,
            "table": slip.table,
            "position": slip.position,
        }
        room = self.width - x - 60 * mm
        canvas.setFillColor(colors.black)
        canvas.setFont(BOLD, 13)
        canvas.drawString(x, SLIP_HEIGHT - 9 * mm, shorten(slip.player, room, 13, BOLD))
        canvas.setFont(FONT, 9)
        canvas.setFillColor(MUTED)
        canvas.drawString(x, SLIP_HEIGHT - 14 * mm, shorten(slip.club, room, 9))
        canvas.drawString(x, SLIP_HEIGHT - 19 * mm, _("Mein Abend: nur für Sie"))
        canvas.setFillColor(colors.black)
        canvas.setFont(BOLD, 16)
        canvas.drawRightString(self.width, SLIP_HEIGHT - 10 * mm, where)


class Heading(Flowable):  # type: ignore[misc]  # reportlab has no types: Flowable is Any
    def __init__(self, title: str, line: str) -> None:
        super().__init__()
        self.title, self.line = title, line

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, 16 * mm

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFont(BOLD, 15)
        canvas.drawString(0, 10 * mm, shorten(self.title, self.width, 15, BOLD))
        canvas.setFont(FONT, 9)
        canvas.setFillColor(MUTED)
        canvas.drawString(0, 5 * mm, shorten(self.line, self.width, 9))


def seat_slips_pdf(
    slips: Sequence[SeatSlip], *, series: int, heading: str, line: str, title: str
) -> bytes:
    """The seating list in slips to cut apart, each with its player's personal QR code,
    under ``heading`` and ``line`` (the tournament, its date)."""
    flowables: list[Flowable] = [Heading(heading, line)]
    flowables += [SlipFlowable(slip, series) for slip in slips]
    return build(flowables, title=title, footer=title)

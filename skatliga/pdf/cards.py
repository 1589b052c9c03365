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


@dataclass(frozen=True, slots=True)
class TableCard:
    """What one table card prints; ``players`` are the names by seat (seat 1 first)."""

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
        if card.personal:
            self.draw_personal(pad, top - 33 * mm, text_room)
        else:
            y = top - 40 * mm
            for seat, name in enumerate(card.players, start=1):
                canvas.setFont(BOLD, 13)
                canvas.drawString(pad, y, f"{seat}")
                canvas.setFont(FONT, 13)
                canvas.drawString(pad + 8 * mm, y, shorten(name, text_room - 8 * mm, 13))
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


def table_cards_pdf(cards: Sequence[TableCard], *, title: str) -> bytes:
    """One card per table, two to a page."""
    flowables: list[Flowable] = [CardFlowable(card) for card in cards]
    return build(flowables, title=title, footer=title)

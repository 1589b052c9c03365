"""Table cards (Tischkarten): one card per table with the QR code of its link, its short code
and the players by seat, two cards to an A4 page to cut apart. Plain values in, bytes out."""

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
        y = top - 40 * mm
        code_room = CODE_ROOM if card.sign_codes else 0
        if card.sign_codes:
            canvas.setFont(FONT, 8)
            canvas.setFillColor(MUTED)
            canvas.drawRightString(pad + text_room, y + 5 * mm, _("Sitzcode"))
            canvas.setFillColor(colors.black)
        for seat, name in enumerate(card.players, start=1):
            canvas.setFont(BOLD, 13)
            canvas.drawString(pad, y, f"{seat}")
            canvas.setFont(FONT, 13)
            canvas.drawString(pad + 8 * mm, y, shorten(name, text_room - 8 * mm - code_room, 13))
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


def table_cards_pdf(cards: Sequence[TableCard], *, title: str) -> bytes:
    """One card per table, two to a page."""
    flowables: list[Flowable] = [CardFlowable(card) for card in cards]
    return build(flowables, title=title, footer=title)

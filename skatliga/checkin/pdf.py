"""The check-in poster: one A4 page with the tournament, a big QR code of the check-in link
and the link written out. Plain values in, bytes out."""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.graphics import renderPDF
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from skatliga.pdf.base import BOLD, FONT, date_text, register_fonts, shorten, wrap_lines
from skatliga.pdf.qr import drawing as qr_drawing

QR_SIZE = 150 * mm
MARGIN = 18 * mm


@dataclass(frozen=True, slots=True)
class Poster:
    tournament: str
    date: datetime.date | None
    venue: str
    url: str


def poster_pdf(poster: Poster) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    width, height = A4
    room = width - 2 * MARGIN
    canvas = Canvas(buffer, pagesize=A4)
    canvas.setTitle(_("Check-in: %(tournament)s") % {"tournament": poster.tournament})
    canvas.setAuthor("skatliga")
    canvas.setCreator("skatliga")
    y = height - MARGIN - 14 * mm
    canvas.setFont(BOLD, 40)
    canvas.drawCentredString(width / 2, y, _("Check-in"))
    y -= 14 * mm
    for line in wrap_lines(poster.tournament, room, 24, BOLD, 2):
        canvas.setFont(BOLD, 24)
        canvas.drawCentredString(width / 2, y, line)
        y -= 10 * mm
    details = " · ".join(d for d in (date_text(poster.date), poster.venue) if d)
    canvas.setFont(FONT, 16)
    canvas.drawCentredString(width / 2, y, shorten(details, room, 16))
    y -= 6 * mm + QR_SIZE
    renderPDF.draw(qr_drawing(poster.url, QR_SIZE), canvas, (width - QR_SIZE) / 2, y)
    y -= 10 * mm
    canvas.setFont(FONT, 16)
    canvas.drawCentredString(width / 2, y, _("Mit dem Handy scannen, Namen suchen, einchecken."))
    y -= 10 * mm
    canvas.setFont(BOLD, 13)
    canvas.drawCentredString(width / 2, y, shorten(poster.url, room, 13, BOLD))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()

"""What every printed page shares: the bundled font, number formats, page furniture.

The font is DejaVu Sans, bundled in ``skatliga/fonts`` and embedded in every PDF, so that
every name prints (the standard PDF fonts cannot draw Ł or Č). Page numbers ("Seite X von
Y") are drawn when the document is saved, once the number of pages is known.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib import units
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from skatliga.entries import MINUS, plain

__all__ = ["MINUS", "plain"]

FONTS = Path(__file__).resolve().parent.parent / "fonts"
FONT = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
mm: float = units.mm
"""A millimetre in points (reportlab's, typed: reportlab has no types)."""
PAGE: tuple[float, float] = A4
MARGIN = 12 * mm
FOOTER_Y = 7 * mm
FOOTER_SIZE = 7
BOTTOM = FOOTER_Y + 6 * mm

# Compressed streams without the ASCII85 layer on top: smaller files, faster saving.
rl_config.useA85 = 0


def register_fonts() -> None:
    """Register DejaVu Sans and its bold face with reportlab (once per process)."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def width(text: str, size: float, font: str = FONT) -> float:
    measured: float = pdfmetrics.stringWidth(text, font, size)
    return measured


def points(number: Fraction | int) -> str:
    """Match points: whole numbers plain, halves as ``½``, other fractions as decimals.

    >>> points(Fraction(3)), points(Fraction(3, 2)), points(Fraction(1, 2))
    ('3', '1½', '½')
    """
    number = Fraction(number)
    if number.denominator == 1:
        return plain(int(number))
    if number.denominator == 2:
        whole = int(number)
        return f"{whole or ''}½" if number > 0 else f"{MINUS}{-whole or ''}½"
    return formats.number_format(float(number), 2)


def date_text(date: datetime.date | None) -> str:
    """A date in the active language's format (``21. November 2026``)."""
    return formats.date_format(date, "DATE_FORMAT") if date else ""


ELLIPSIS = "\u2026"


def shorten(text: str, room: float, size: float, font: str = FONT) -> str:
    """``text`` cut to fit ``room`` points wide, with "…" where it was cut.

    >>> register_fonts()
    >>> shorten("Anna Schmidt", 1000, 8), shorten("W" * 120, 40, 8)
    ('Anna Schmidt', 'WWWW…')
    """
    if width(text, size, font) <= room:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if width(text[:middle] + ELLIPSIS, size, font) <= room:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def wrap_lines(text: str, room: float, size: float, font: str, most: int) -> list[str]:
    """``text`` in at most ``most`` lines of ``room`` points: broken at spaces where it can,
    after the hyphen of a word too long for a line (a double name), inside a word only when a
    part of it is still too long, and the last line shortened with "…".

    >>> register_fonts()
    >>> wrap_lines("W" * 30, 40, 8, FONT, 2)
    ['WWWW', 'WWWW…']
    >>> wrap_lines("Friederike-Charlotte von Hohenstein", 60, 8, FONT, 3)
    ['Friederike-', 'Charlotte von', 'Hohenstein']
    """
    lines: list[str] = []
    for word in text.split():
        pieces = [word]
        if width(word, size, font) > room:
            pieces = re.findall(r"-*[^-]+-*|-+", word)
        for index, piece in enumerate(pieces):
            glue = "" if index else " "
            candidate = f"{lines[-1]}{glue}{piece}" if lines else piece
            if lines and width(candidate, size, font) <= room:
                lines[-1] = candidate
                continue
            while width(piece, size, font) > room and len(piece) > 1:
                cut = len(shorten(piece, room, size, font)) - 1
                cut = max(cut, 1)
                lines.append(piece[:cut])
                piece = piece[cut:]
            lines.append(piece)
    if len(lines) > most:
        lines = lines[: most - 1] + [shorten(" ".join(lines[most - 1 :]), room, size, font)]
    return lines


def page_label(page: int, pages: int) -> str:
    return _("Seite %(page)d von %(pages)d") % {"page": page, "pages": pages}


def numbered_canvas(footer: Callable[[Canvas, int, int], None]) -> type[Canvas]:
    """A canvas class that holds its pages back until saving, then draws ``footer`` on each
    with the page number and the number of pages (the "NumberedCanvas" recipe)."""

    class NumberedCanvas(Canvas):  # type: ignore[misc]  # reportlab has no types: Canvas is Any
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            pages = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                footer(self, number, pages)
                super().showPage()
            super().save()

    return NumberedCanvas


def standard_footer(left: str) -> Callable[[Canvas, int, int], None]:
    """A thin rule, ``left`` on the left and "Seite X von Y" on the right."""

    def draw(canvas: Canvas, page: int, pages: int) -> None:
        right_edge = PAGE[0] - MARGIN
        canvas.saveState()
        canvas.setLineWidth(0.4)
        canvas.line(MARGIN, FOOTER_Y + 3.2 * mm, right_edge, FOOTER_Y + 3.2 * mm)
        canvas.setFont(FONT, FOOTER_SIZE)
        label = page_label(page, pages)
        room = right_edge - MARGIN - width(label, FOOTER_SIZE) - 6 * mm
        canvas.drawString(MARGIN, FOOTER_Y, shorten(left, room, FOOTER_SIZE))
        canvas.drawRightString(right_edge, FOOTER_Y, label)
        canvas.restoreState()

    return draw


def build(
    flowables: Sequence[Flowable],
    *,
    title: str,
    footer: str,
    top: float = MARGIN,
    on_page: Callable[[Canvas, BaseDocTemplate], None] | None = None,
) -> bytes:
    """Lay ``flowables`` out on A4 pages and return the PDF."""
    register_fonts()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=top,
        bottomMargin=BOTTOM,
        title=title,
        author="skatliga",
        creator="skatliga",
    )
    frame = Frame(
        doc.leftMargin,
        doc.bottomMargin,
        doc.width,
        doc.height,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="body",
    )
    kwargs = {"onPage": on_page} if on_page else {}
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], **kwargs)])
    doc.build(list(flowables), canvasmaker=numbered_canvas(standard_footer(footer)))
    return buffer.getvalue()


def frame_width() -> float:
    return PAGE[0] - 2 * MARGIN

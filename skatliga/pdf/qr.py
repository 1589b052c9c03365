"""QR codes for table links, from reportlab's own QR widget: a widget for PDFs, SVG for pages."""

from __future__ import annotations

from django.utils.html import escape
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing

BORDER = 4  # the quiet zone, in modules, that scanners need


def widget(url: str) -> QrCodeWidget:
    return QrCodeWidget(url, barLevel="M", barBorder=BORDER)


def drawing(url: str, size: float) -> Drawing:
    """A square drawing of ``size`` points with the QR code of ``url``, for a PDF."""
    code = widget(url)
    code.barWidth = code.barHeight = size
    result = Drawing(size, size)
    result.add(code)
    return result


def svg(url: str, label: str) -> str:
    """The QR code of ``url`` as one SVG path (one unit per module), with ``label`` as its
    accessible name."""
    code = widget(url)
    code.qr.make()
    modules = code.qr.modules
    count = len(modules)
    side = count + 2 * BORDER
    path = "".join(
        f"M{column + BORDER},{row + BORDER}h1v1h-1z"
        for row, cells in enumerate(modules)
        for column, dark in enumerate(cells)
        if dark
    )
    return (
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'role="img" aria-label="{escape(label)}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{side}" fill="#fff"/>'
        f'<path d="{path}" fill="#000"/></svg>'
    )

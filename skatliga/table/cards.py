"""What the referee's series page shows of each table's link: URL, code and QR code."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from skatliga.models import Series
from skatliga.table import qr, services


def link_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("table:entry", args=[token]))


def link_cards(request: HttpRequest, series: Series) -> dict[int, dict[str, Any]]:
    """Each table's link by table id (tables that never had one get one now)."""
    services.ensure_links(series, user=request.user)
    cards = {}
    for table_id, link in services.active_links(series).items():
        url = link_url(request, link.token)
        cards[table_id] = {
            "url": url,
            "code": services.format_code(link.code),
            "qr": qr.svg(url, _("QR-Code des Tischlinks")),
        }
    return cards

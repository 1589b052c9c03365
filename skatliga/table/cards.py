"""What the referee's series page shows of each table's link: URL, code and QR code."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import Prefetch
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from skatliga import printing
from skatliga.models import Seat, Series, Table
from skatliga.pdf import SheetData, qr
from skatliga.pdf.cards import TableCard
from skatliga.sheet import sign_code
from skatliga.table import services


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


def table_cards(request: HttpRequest, series: Series) -> list[TableCard]:
    """The printed card of every table of ``series`` that has a link, in table order."""
    services.ensure_links(series, user=request.user)
    links = services.active_links(series)
    code_url = request.build_absolute_uri(reverse("table:code")).split("://", 1)[-1]
    tables = (
        Table.objects.filter(series=series, pk__in=links)
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("player")))
        .order_by("number")
    )
    tournament = series.tournament
    return [
        TableCard(
            tournament=tournament.name,
            date=tournament.date,
            series=series.number,
            table=table.number,
            players=tuple(str(seat.player) for seat in _seats(table)),
            sign_codes=(
                tuple(sign_code(seat) for seat in _seats(table)) if tournament.seat_codes else ()
            ),
            url=link_url(request, links[table.pk].token),
            code=services.format_code(links[table.pk].code),
            code_url=code_url,
        )
        for table in tables
    ]


def _seats(table: Table) -> list[Seat]:
    return sorted(table.seats.all(), key=lambda seat: seat.position)


def blank_sheets(request: HttpRequest, series: Series) -> list[SheetData]:
    """The blank score sheets of ``series``, each with its table's link and code."""
    services.ensure_links(series, user=request.user)
    links = services.active_links(series)
    by_number = {link.table.number: link for link in links.values()}
    sheets = []
    for sheet in printing.series_sheets(series):
        link = by_number.get(sheet.table)
        if link is not None:
            sheet = replace(
                sheet, link=link_url(request, link.token), code=services.format_code(link.code)
            )
        sheets.append(sheet)
    return sheets

"""What the referee's series page shows of each table's link: URL, code and QR code."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import Prefetch
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from skatliga import printing
from skatliga.collation import surname_key
from skatliga.models import Seat, Series, Table
from skatliga.pdf import SheetData, qr
from skatliga.pdf.cards import SeatSlip, TableCard
from skatliga.services import table_links as services
from skatliga.services.personal import personal_tokens
from skatliga.sheet import sign_code


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
    registrations = {
        r.player_id: r for r in tournament.registrations.filter(player__seats__series=series)
    }
    tokens = personal_tokens(registrations.values())

    def personal(seat: Seat) -> str:
        registration = registrations.get(seat.player_id)
        if registration is None:
            return ""
        token = tokens[registration.pk]
        return request.build_absolute_uri(reverse("personal:page", args=[token]))

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
            personal=tuple(personal(seat) for seat in _seats(table)),
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


def seat_slips(request: HttpRequest, series: Series) -> list[SeatSlip]:
    """Every player of ``series`` as the seating list orders them (by surname), with his
    table, seat and personal link."""
    seats = sorted(
        Seat.objects.filter(series=series).select_related("player__club", "table"),
        key=lambda seat: (surname_key(seat.player.name), seat.player_id),
    )
    registrations = {
        r.player_id: r for r in series.tournament.registrations.filter(player__seats__series=series)
    }
    tokens = personal_tokens(registrations.values())
    return [
        SeatSlip(
            player=seat.player.name,
            club=seat.player.club.name if seat.player.club else "",
            table=seat.table.number,
            position=seat.position,
            url=request.build_absolute_uri(
                reverse("personal:page", args=[tokens[registrations[seat.player_id].pk]])
            ),
        )
        for seat in seats
        if seat.player_id in registrations
    ]

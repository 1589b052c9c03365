"""Signing a complete list at the table: each seated player taps their own name, sees the
list with their total first and confirms it (``services.sign_list``)."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from skatliga import services
from skatliga.entries import plain
from skatliga.messages import message
from skatliga.models import Seat
from skatliga.sheet import build_sheet, signatures, signatures_cleared
from skatliga.table.views import device_name, open_link, private

DEVICE_KEY = "table_device_key"


@private
def sign(request: HttpRequest, token: str) -> HttpResponse:
    """The players' names to tap, each with whether they signed."""
    link = open_link(request, token)
    table = link.table
    status = signatures(table)
    return render(
        request,
        "table/sign.html",
        {
            "at_table": True,
            "table": table,
            "token": link.token,
            "signatures": status,
            "cleared": signatures_cleared(table, status),
            "entry_url": reverse("table:entry", args=[link.token]),
        },
    )


@private
@require_http_methods(["GET", "POST"])
def sign_seat(
    request: HttpRequest, token: str, position: int, substitute: bool = False
) -> HttpResponse:
    """One player's confirmation (or, with ``substitute``, the confirmation of the substitute
    who took the seat over): the list with their own total first; POST signs it."""
    link = open_link(request, token)
    table = link.table
    seat = table.seats.select_related("player", "substitute").filter(position=position).first()
    if seat is None or (substitute and seat.substitute is None):
        raise Http404
    person = seat.substitute if substitute else seat.player
    error = None
    if request.method == "POST":
        try:
            state = int(request.POST.get("state", ""))
        except ValueError:
            state = -1
        try:
            services.sign_list(
                table,
                position,
                state=state,
                device=device_name(request, link),
                substitute=substitute,
                code=request.POST.get("code", ""),
                tries_from=device_key(request),
            )
        except services.ServiceError as failure:
            error = {"code": failure.code, "message": message(failure.code, **failure.params)}
        else:
            messages.success(
                request,
                _("%(player)s hat die Liste unterschrieben.") % {"player": person},
            )
            return redirect("table:sign", token=link.token)
    tournament = table.series.tournament
    games = list(table.games.order_by("number"))
    seats = list(table.seats.select_related("player", "substitute").order_by("position"))
    sheet = build_sheet(
        table, games, games_per_list=tournament.games_per_list(table.size), seats=seats
    )
    status = signatures(table, len(games), seats)
    # A seat's total, or where a substitute took it over each person's own.
    own = {(share.position, share.player): share.summary.total for share in sheet.shares}
    seat_totals = [column.total for column in sheet.summary]
    totals = [
        (
            item,
            plain(
                own.get((item.seat.position, str(item.person)), seat_totals[item.seat.position - 1])
            ),
        )
        for item in status.seats
    ]
    me = (position, substitute)
    totals.sort(key=lambda pair: (pair[0].seat.position, pair[0].substitute) != me)
    return render(
        request,
        "table/sign_seat.html",
        {
            "at_table": True,
            "table": table,
            "seat": seat,
            "person": person,
            "substitute": substitute,
            "totals": totals,
            "rows": [
                {
                    "number": row.number,
                    "declarer": _sitter(seats, row.game.declarer, row.number),
                    "game": (
                        _("eingepasst")
                        if row.game.passed
                        else row.breakdown
                        if row.game.ramsch is not None
                        else row.game.get_game_display()
                    ),
                    "entry": row.entry,
                }
                for row in sheet.rows
                if row.game is not None
            ],
            "state": services.list_state(table),
            "seat_codes": tournament.seat_codes,
            "signatures": status,
            "signed": any(
                item.signature is not None
                for item in status.seats
                if (item.seat.position, item.substitute) == me
            ),
            "action_error": error,
            "token": link.token,
            "entry_url": reverse("table:entry", args=[link.token]),
        },
        status=409 if error else 200,
    )


def device_key(request: HttpRequest) -> str:
    """This browser's own key, kept in its session: wrong seat codes are counted per seat
    and device (``services.sign_list``), so a device that guessed never stops another."""
    key = request.session.get(DEVICE_KEY)
    if not isinstance(key, str):
        key = request.session[DEVICE_KEY] = secrets.token_urlsafe(12)
    return key


def _sitter(seats: list[Seat], position: int | None, number: int) -> str:
    """Who sat in seat ``position`` in game ``number``: its player, or from his first game on
    the substitute who took it over."""
    for seat in seats:
        if seat.position == position:
            start = seat.substitute_from
            late = seat.substitute is not None and start is not None and number >= start
            return str(seat.substitute if late else seat.player)
    return ""

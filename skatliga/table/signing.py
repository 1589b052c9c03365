"""Signing a complete list at the table: each seated player taps their own name, sees the
list with their total first and confirms it (``services.sign_list``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from skatliga import services
from skatliga.messages import message
from skatliga.sheet import build_sheet, signatures
from skatliga.table.views import device_name, open_link, private


@private
def sign(request: HttpRequest, token: str) -> HttpResponse:
    """The players' names to tap, each with whether they signed."""
    link = open_link(request, token)
    table = link.table
    return render(
        request,
        "table/sign.html",
        {
            "at_table": True,
            "table": table,
            "token": link.token,
            "signatures": signatures(table),
            "entry_url": reverse("table:entry", args=[link.token]),
        },
    )


@private
@require_http_methods(["GET", "POST"])
def sign_seat(request: HttpRequest, token: str, position: int) -> HttpResponse:
    """One player's confirmation: the list with their total first; POST signs it."""
    link = open_link(request, token)
    table = link.table
    seat = table.seats.select_related("player").filter(position=position).first()
    if seat is None:
        raise Http404
    error = None
    if request.method == "POST":
        try:
            state = int(request.POST.get("state", ""))
        except ValueError:
            state = -1
        try:
            services.sign_list(table, position, state=state, device=device_name(request, link))
        except services.ServiceError as failure:
            error = {"code": failure.code, "message": message(failure.code, **failure.params)}
        else:
            messages.success(
                request,
                _("%(player)s hat die Liste unterschrieben.") % {"player": seat.player},
            )
            return redirect("table:sign", token=link.token)
    tournament = table.series.tournament
    games = list(table.games.order_by("number"))
    sheet = build_sheet(table, games, games_per_list=tournament.games_per_list(table.size))
    status = signatures(table, len(games))
    seats = [item.seat for item in status.seats]
    names = {s.position: str(s.player) for s in seats}
    totals = [(s, column.total) for s, column in zip(seats, sheet.summary, strict=True)]
    totals.sort(key=lambda item: item[0].position != position)
    return render(
        request,
        "table/sign_seat.html",
        {
            "at_table": True,
            "table": table,
            "seat": seat,
            "totals": totals,
            "rows": [
                {
                    "number": row.number,
                    "declarer": names.get(row.game.declarer or 0, ""),
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
            "signatures": status,
            "signed": any(item.signature is not None for item in status.seats if item.seat == seat),
            "action_error": error,
            "token": link.token,
            "entry_url": reverse("table:entry", args=[link.token]),
        },
        status=409 if error else 200,
    )

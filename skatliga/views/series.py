"""The referee's page of one series: its tables' status, publishing and withdrawing the
series, swapping seats."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatliga import services
from skatliga.forms import coded_error
from skatliga.forms.entry import ReopenForm
from skatliga.forms.players import SwapForm
from skatliga.models import (
    Game,
    Seat,
    Series,
    Tournament,
)
from skatliga.table.cards import link_cards
from skatliga.views.dashboard import POLL_SECONDS, series_status, status_etag
from skatliga.views.referee import action_error, referee_required


def render_series(
    request: HttpRequest,
    tournament: Tournament,
    series: Series,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    seats: dict[int, list[Any]] = {}
    chosen = Seat.objects.filter(series=series).select_related("player", "substitute")
    for seat in chosen.order_by("position"):
        seats.setdefault(seat.table_id, []).append(seat)
    started = Game.objects.filter(table__series=series).exists()
    links = link_cards(request, series)
    context = {
        "tournament": tournament,
        "series": series,
        "tables": [
            {
                "table": status.table,
                "status": status.shown,
                "seats": seats.get(status.table.pk, []),
                "link": links.get(status.table.pk),
            }
            for status in series_status(series)
        ],
        "status_url": reverse("referee:series-status", args=[tournament.slug, series.number]),
        "status_etag": status_etag(tournament, series),
        "poll_seconds": POLL_SECONDS,
        "started": started,
        "repeat_pairs": services.series_repeat_pairs(series),
        "swap_form": context.pop("swap_form", None) or SwapForm(series=series),
        "withdraw_form": context.pop("withdraw_form", None) or ReopenForm(),
        **context,
    }
    return render(request, "referee/series.html", context, status=status)


@referee_required
@require_GET
def series_detail(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    return render_series(request, tournament, get_object_or_404(tournament.series, number=series))


@referee_required
@require_POST
def series_publish(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    try:
        services.publish_series(series_obj, user=request.user)
    except services.ServiceError as error:
        return render_series(
            request, tournament, series_obj, action_error=action_error(error, "publish"), status=409
        )
    messages.success(request, _("Serie %(number)d veröffentlicht.") % {"number": series_obj.number})
    return redirect("referee:series", slug=tournament.slug, series=series_obj.number)


@referee_required
@require_POST
def series_withdraw(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.withdraw_publication(
                series_obj, user=request.user, reason=form.cleaned_data["reason"]
            )
        except services.ServiceError as error:
            if error.field == "reason":
                form.add_error("reason", coded_error(error.code))
            else:
                return render_series(
                    request,
                    tournament,
                    series_obj,
                    withdraw_form=form,
                    action_error=action_error(error, "withdraw"),
                    status=409,
                )
        else:
            messages.success(
                request,
                _("Veröffentlichung von Serie %(number)d zurückgezogen.")
                % {"number": series_obj.number},
            )
            return redirect("referee:series", slug=tournament.slug, series=series_obj.number)
    return render_series(request, tournament, series_obj, withdraw_form=form, status=400)


@referee_required
@require_POST
def seats_swap(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    form = SwapForm(request.POST, series=series_obj)
    if not form.is_valid():
        return render_series(request, tournament, series_obj, swap_form=form)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    try:
        services.swap_seats(series_obj, first, second, user=request.user)
    except services.ServiceError as error:
        return render_series(
            request,
            tournament,
            series_obj,
            swap_form=form,
            action_error=action_error(error, "swap"),
        )
    messages.success(
        request,
        _("%(first)s und %(second)s getauscht.") % {"first": first.player, "second": second.player},
    )
    return redirect("referee:series", slug=tournament.slug, series=series_obj.number)

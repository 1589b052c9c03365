"""The table asks the referee: calling the referee to the table ("Schiedsrichter rufen")
and objecting to a game of its list (Einspruch), and seeing the answers. The page asks
``help.json`` every few seconds whether anything changed (``poll.js``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatliga import services
from skatliga.messages import message
from skatliga.models import Objection, RefereeCall, Table, TableLink
from skatliga.services.calls import REASON_LENGTH
from skatliga.table.views import device_name, open_link, private

POLL_SECONDS = 5
"""How often the table's device asks whether the referee answered."""


class ObjectionForm(forms.Form):
    number = forms.TypedChoiceField(label=gettext_lazy("Spiel"), coerce=int)
    seat = forms.TypedChoiceField(label=gettext_lazy("Wer erhebt Einspruch?"), coerce=int)
    reason = forms.CharField(
        label=gettext_lazy("Grund"),
        max_length=REASON_LENGTH,
        help_text=gettext_lazy("Kurz: was ist an diesem Spiel falsch?"),
    )

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        numbers = table.games.order_by("-number").values_list("number", flat=True)
        number = self.fields["number"]
        assert isinstance(number, forms.TypedChoiceField)
        number.choices = [(n, _("Spiel %(number)s") % {"number": n}) for n in numbers]
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = [
            (s.position, f"{s.position}. {s.player}")
            for s in table.seats.select_related("player").order_by("position")
        ]
        seat.widget = forms.RadioSelect(choices=seat.choices)


def status(table: Table) -> dict[str, Any]:
    """What the table sees of its asks: its last call and its objections with the answers."""
    return {
        "call": RefereeCall.objects.filter(table=table).order_by("-created_at", "-id").first(),
        "objections": list(
            Objection.objects.filter(game__table=table)
            .select_related("game", "seat__player")
            .order_by("-created_at", "-id")
        ),
    }


def etag(link: TableLink) -> str:
    tournament = link.table.series.tournament
    return f'"help-{link.table_id}-{tournament.revision}-{get_language()}"'


@private
@require_GET
def help_page(request: HttpRequest, token: str) -> HttpResponse:
    link = open_link(request, token)
    if not device_name(request, link):
        return redirect("table:device", token=link.token)
    return render_help(request, link)


def render_help(
    request: HttpRequest, link: TableLink, form: ObjectionForm | None = None, status_code: int = 200
) -> HttpResponse:
    table = link.table
    return render(
        request,
        "table/help.html",
        {
            "at_table": True,
            "table": table,
            "token": link.token,
            "reasons": RefereeCall.Reason.choices,
            "objections_open": table.series.objections_open(timezone.now()),
            "form": form or ObjectionForm(table=table),
            "entry_url": reverse("table:entry", args=[link.token]),
            "status_url": reverse("table:help-status", args=[link.token]),
            "status_etag": etag(link),
            "poll_seconds": POLL_SECONDS,
            **status(table),
        },
        status=status_code,
    )


@private
@require_GET
def help_status(request: HttpRequest, token: str) -> HttpResponse:
    """The page's answers block again, or 304 while nothing changed."""
    link = open_link(request, token)
    tag = etag(link)
    if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        html = render_to_string("table/_help_status.html", status(link.table), request=request)
        response = JsonResponse({"html": html})
    response["ETag"] = tag
    return response


@private
@require_POST
def call(request: HttpRequest, token: str) -> HttpResponse:
    link = open_link(request, token)
    try:
        services.call_referee(
            link.table, request.POST.get("reason", ""), device=device_name(request, link)
        )
    except services.ServiceError as error:
        messages.error(request, message(error.code, **error.params))
    return redirect("table:help", token=link.token)


@private
@require_POST
def objection(request: HttpRequest, token: str) -> HttpResponse:
    link = open_link(request, token)
    table = link.table
    form = ObjectionForm(request.POST, table=table)
    if not form.is_valid():
        return render_help(request, link, form, 400)
    game = table.games.get(number=form.cleaned_data["number"])
    seat = table.seats.get(position=form.cleaned_data["seat"])
    try:
        services.file_objection(
            game, seat, form.cleaned_data["reason"], device=device_name(request, link)
        )
    except services.ServiceError as error:
        form.add_error(
            error.field if error.field in form.fields else None,
            forms.ValidationError(message(error.code, **error.params), code=error.code),
        )
        return render_help(request, link, form, 409)
    messages.success(
        request, _("Einspruch zu Spiel %(number)s eingelegt.") % {"number": game.number}
    )
    return redirect("table:help", token=link.token)

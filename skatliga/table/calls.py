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
from skatliga.models import RefereeCall, Table, TableLink
from skatliga.services.calls import REASON_LENGTH
from skatliga.sheet import build_sheet
from skatliga.table.answers import status
from skatliga.table.views import device_name, open_link, private
from skatliga.words import game_label, list_words

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
        number = self.fields["number"]
        assert isinstance(number, forms.TypedChoiceField)
        number.choices = game_choices(table)
        if number.choices:
            self.initial.setdefault("number", number.choices[-1][0])
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = [
            (s.position, f"{s.position}. {s.player}")
            for s in table.seats.select_related("player").order_by("position")
        ]
        seat.widget = forms.RadioSelect(choices=seat.choices)


def game_choices(table: Table) -> list[tuple[int, str]]:
    """The list's games in playing order, each as the list has it: its number, declarer,
    game and value ("Spiel 3: Bernd Łukasz · Grand · +96"), a passed-in game as such."""
    tournament = table.series.tournament
    seats = {seat.position: seat for seat in services.list_seats(table)}
    games = services.list_games(table)
    sheet = build_sheet(table, games, games_per_list=tournament.games_per_list(table.size))
    words = list_words(get_language())
    choices = []
    for row in sheet.rows:
        if row.game is None:
            continue
        what = game_label(row.game, row.scored, words=words)
        seat = seats.get(row.game.declarer or 0)
        if seat is not None:
            what = f"{seat.player_for(row.number)} · {what} · {row.entry}"
        choices.append(
            (row.number, _("Spiel %(number)s: %(game)s") % {"number": row.number, "game": what})
        )
    return choices


def etag(link: TableLink, recent: bool = False) -> str:
    """The answers' ETag: the tournament's revision rises with every call, acknowledgement
    and decision; the list's page (``recent``) counts the minutes too, so that an answer
    drops out of it after ``answers.RECENT``."""
    tournament = link.table.series.tournament
    minute = f"-{int(timezone.now().timestamp() // 60)}" if recent else ""
    return f'"help-{link.table_id}-{tournament.revision}-{get_language()}{minute}"'


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
    """The page's answers block again, or 304 while nothing changed; ``?recent=1``: the
    list page's (what waits, and the answers of the last half hour)."""
    link = open_link(request, token)
    recent = request.GET.get("recent") == "1"
    tag = etag(link, recent)
    if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        answers = status(link.table, recent=recent)
        html = render_to_string("table/_help_status.html", answers, request=request)
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

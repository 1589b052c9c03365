"""The table's pages: the list behind a table link, its preview, the device name and the
short code. Entry goes through the same page and services as the referee's
(``skatliga.list_page``); the referee's side of the links is ``skatliga.views.links``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.helpers import get_client_ip_address
from django import forms
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from scoring import GameType
from skatliga.languages import to_its_language
from skatliga.list_page import editing_number, preview_row, render_list, save_row
from skatliga.models import Table, TableLink, Tournament
from skatliga.models.limits import hit
from skatliga.models.links import Link
from skatliga.services import table_links as services
from skatliga.table import answers

View = Callable[..., HttpResponse]

# Wrong tokens and wrong codes per hour: per client address (a guesser) and in all (many
# guessers). Only wrong ones are counted and refused: a valid link or code always opens, so a
# guesser or a stale tablet sharing the hall's address never locks the hall's tables out.
WRONG_TOKENS_PER_HOUR = 30
ALL_WRONG_TOKENS_PER_HOUR = 1000
WRONG_CODES_PER_HOUR = 20
ALL_WRONG_CODES_PER_HOUR = 200
DEVICE_SESSION_KEY = "table_devices"


class TooManyRequests(Exception):
    def __init__(self, seconds: int) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class InItsLanguage(Exception):
    """The table's page, asked for at its German address, lives in the tournament's
    language: ``response`` leads there."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__(response)
        self.response = response


def wrong(request: HttpRequest, space: str, per_address: int, in_all: int) -> None:
    """Count a wrong token or code; too many from this client address (as the login throttle
    finds it, ``settings.AXES_CLIENT_IP_CALLABLE``) or in all raise TooManyRequests."""
    mine, mine_left = hit(f"table-{space}:{get_client_ip_address(request)}", 3600)
    every, every_left = hit(f"table-{space}", 3600)
    if mine > per_address:
        raise TooManyRequests(mine_left)
    if every > in_all:
        raise TooManyRequests(every_left)


def too_many(request: HttpRequest, seconds: int) -> HttpResponse:
    response = render(request, "table/limited.html", {"at_table": True}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def private(view: View) -> View:
    """A table page: rate-limited, its URL (the token) kept out of other sites' Referer
    headers and out of caches."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except TooManyRequests as limited:
            response = too_many(request, limited.seconds)
        except InItsLanguage as elsewhere:
            response = elsewhere.response
        # Same-origin: no Referer to other sites; "no-referrer" would make the browser send
        # "Origin: null" with the form's POST, which Django's CSRF check refuses.
        response["Referrer-Policy"] = "same-origin"
        response["Cache-Control"] = "private, no-store"
        return response

    return wrapper


def open_link(request: HttpRequest, token: str) -> TableLink:
    """The link behind ``token``; a wrong or revoked token is a plain 404, or TooManyRequests
    after too many wrong ones. A page asked for without a language (the printed link, the
    short code) opens in the tournament's (InItsLanguage), unless the device chose one."""
    link = services.link_for_token(token)
    if link is None:
        wrong(request, "tokens", WRONG_TOKENS_PER_HOUR, ALL_WRONG_TOKENS_PER_HOUR)
        raise Http404
    if request.method in ("GET", "HEAD") and (
        switch := to_its_language(request, link.table.series.tournament.language)
    ):
        raise InItsLanguage(switch)
    return link


def device_name(request: HttpRequest, link: TableLink) -> str:
    return str(request.session.get(DEVICE_SESSION_KEY, {}).get(str(link.pk), ""))


def page(request: HttpRequest, link: TableLink) -> dict[str, Any]:
    """The context that turns the referee's list page into the table's."""
    rules = link.table.series.tournament.rule_set
    return {
        "at_table": True,
        "token": link.token,
        "entry_url": reverse("table:entry", args=[link.token]),
        "preview_url": reverse("table:preview", args=[link.token]),
        "device_url": reverse("table:device", args=[link.token]),
        "device_name": device_name(request, link),
        # The table's asks to the referee, waiting or answered lately (``answers``): read
        # when the page shows them, not for a save answered without a page.
        "answers": SimpleLazyObject(lambda: answers.status(link.table, recent=True)),
        "answers_url": reverse("table:help-status", args=[link.token]) + "?recent=1",
        # The tap grid's "with/without 1..n" buttons: the rule set's limit per trump game.
        "most_matadors": json.dumps(
            {game.value: rules.most_matadors(game) for game in GameType if game.is_trump_game}
        ),
    }


@private
def entry(request: HttpRequest, token: str) -> HttpResponse:
    """The list behind the link: the referee's entry page, laid out for touch."""
    link = open_link(request, token)
    table = link.table
    tournament = table.series.tournament
    context = page(request, link)
    if not context["device_name"]:
        return redirect(context["device_url"])
    if request.method != "POST":
        return render_list(request, tournament, table, editing=editing_number(request), **context)
    if table.is_closed:
        return closed(request, tournament, table, context)
    response = save_row(request, tournament, table, device=context["device_name"], **context)
    if (
        response.status_code == 200
        and not isinstance(response, JsonResponse)  # saved: the page's script updates it
        and Table.objects.filter(pk=table.pk, closed_at__isnull=False).exists()
    ):
        # The referee closed the list while the row was being typed.
        return closed(request, tournament, Table.objects.get(pk=table.pk), context)
    return response


def closed(
    request: HttpRequest, tournament: Tournament, table: Table, context: dict[str, Any]
) -> HttpResponse:
    error = {
        "action": "save",
        "code": "list_closed",
        "message": _(
            "Die Liste ist abgeschlossen: nicht gespeichert. Änderungen nimmt jetzt nur "
            "noch die Turnierleitung vor."
        ),
    }
    return render_list(request, tournament, table, action_error=error, status=409, **context)


@private
@require_POST
def preview(request: HttpRequest, token: str) -> HttpResponse:
    link = open_link(request, token)
    return preview_row(request, link.table.series.tournament, link.table)


class DeviceForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name dieses Geräts"),
        max_length=60,
        help_text=gettext_lazy("Steht im Verlauf der Liste bei jeder Eingabe von hier."),
    )


@private
def device(request: HttpRequest, token: str) -> HttpResponse:
    """Name the device before the first entry; the name goes into the list's history."""
    link = open_link(request, token)
    if request.method == "POST":
        form = DeviceForm(request.POST)
        if form.is_valid():
            names = dict(request.session.get(DEVICE_SESSION_KEY, {}))
            names[str(link.pk)] = form.cleaned_data["name"].strip()
            request.session[DEVICE_SESSION_KEY] = names
            return redirect("table:entry", token=link.token)
    else:
        suggestion = device_name(request, link) or _("Tisch %(number)s") % {
            "number": link.table.number
        }
        form = DeviceForm(initial={"name": suggestion})
    return render(
        request,
        "table/device.html",
        {"form": form, "table": link.table, "at_table": True},
    )


def token_for_code(
    request: HttpRequest, form: forms.Form, lookup: Callable[[str], Link | None], space: str
) -> str | None:
    """The token of the link whose short code the valid ``form`` names (``lookup`` finds it:
    a table's, a team's), or None after counting a wrong code against the limits."""
    link = lookup(form.cleaned_data["code"])
    if link is not None:
        return link.token
    wrong(request, space, WRONG_CODES_PER_HOUR, ALL_WRONG_CODES_PER_HOUR)
    return None


class CodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Tisch-Code"), max_length=20)


@private
def code(request: HttpRequest) -> HttpResponse:
    """Type the short code from the table card instead of scanning its QR code."""
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token = token_for_code(request, form, services.link_for_code, "codes")
        if token is not None:
            return redirect("table:entry", token=token)
        form.add_error(
            "code",
            forms.ValidationError(
                _("Diesen Code gibt es nicht (oder nicht mehr). Bitte die Tischkarte prüfen."),
                code="table_code_unknown",
            ),
        )
    return render(request, "table/code.html", {"form": form, "at_table": True})


# The files the service worker keeps on the device; its cache is named after their contents,
# so a changed file replaces the device's copy.
OFFLINE_FILES = (
    "skatliga/base.css",
    "skatliga/referee.css",
    "skatliga/sheet.css",
    "skatliga/entry.css",
    "skatliga/entry.js",
    "skatliga/table-grid.js",
    "skatliga/table-queue.js",
    "skatliga/poll.js",
    "skatliga/table-help.js",
    "skatliga/table.css",
    "skatliga/favicon.svg",
)


def offline_version() -> str:
    digest = hashlib.sha256()
    for name in OFFLINE_FILES:
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The table page's service worker, served under /t/ so that its scope covers every
    table link (the static files' /static/ would not)."""
    response = render(
        request,
        "table/sw.js",
        {
            "version": offline_version(),
            "files": json.dumps([static(name) for name in OFFLINE_FILES]),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("table:code")
    return response

"""The table's pages: the list behind a table link, its preview, the device name and the
short code; and the referee's renew and revoke. Entry goes through the same views and
services as the referee's page (``skatliga.views.lists``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from skatliga import pdf
from skatliga.models import Table, TableLink, Tournament
from skatliga.table import cards, services
from skatliga.table.pdf import table_cards_pdf
from skatliga.views.lists import editing_number, preview_row, render_list, save_row
from skatliga.views.referee import referee_required

View = Callable[..., HttpResponse]

# Requests per address and minute on the table pages, and wrong codes per address and hour.
REQUESTS_PER_MINUTE = 120
WRONG_CODES_PER_HOUR = 20
DEVICE_SESSION_KEY = "table_devices"


def client_address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR", ""))


def over_limit(key: str, limit: int, seconds: int) -> bool:
    """Count one more hit on ``key`` in a window of ``seconds``; true once past ``limit``."""
    cache.add(key, 0, seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        count = 1
    return count > limit


def too_many(request: HttpRequest) -> HttpResponse:
    response = render(request, "table/limited.html", status=429)
    response["Retry-After"] = "60"
    return response


def private(view: View) -> View:
    """Rate-limit a table page per address, and keep its URL (the token) out of Referer
    headers and caches."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        key = f"table-rate:{client_address(request)}"
        if over_limit(key, REQUESTS_PER_MINUTE, 60):
            response = too_many(request)
        else:
            response = view(request, *args, **kwargs)
        # Same-origin: no Referer to other sites; "no-referrer" would make the browser send
        # "Origin: null" with the form's POST, which Django's CSRF check refuses.
        response["Referrer-Policy"] = "same-origin"
        response["Cache-Control"] = "private, no-store"
        return response

    return wrapper


def open_link(token: str) -> TableLink:
    """The link behind ``token``; a wrong or revoked token is a plain 404."""
    link = services.link_for_token(token)
    if link is None:
        raise Http404
    return link


def device_name(request: HttpRequest, link: TableLink) -> str:
    return str(request.session.get(DEVICE_SESSION_KEY, {}).get(str(link.pk), ""))


def page(request: HttpRequest, link: TableLink) -> dict[str, Any]:
    """The context that turns the referee's list page into the table's."""
    return {
        "at_table": True,
        "entry_url": reverse("table:entry", args=[link.token]),
        "preview_url": reverse("table:preview", args=[link.token]),
        "device_url": reverse("table:device", args=[link.token]),
        "device_name": device_name(request, link),
    }


@private
def entry(request: HttpRequest, token: str) -> HttpResponse:
    """The list behind the link: the referee's entry page, laid out for touch."""
    link = open_link(token)
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
    link = open_link(token)
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
    link = open_link(token)
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


class CodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Tisch-Code"), max_length=20)


@private
def code(request: HttpRequest) -> HttpResponse:
    """Type the short code from the table card instead of scanning its QR code."""
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        key = f"table-codes:{client_address(request)}"
        if cache.get(key, 0) >= WRONG_CODES_PER_HOUR:
            return too_many(request)
        link = services.link_for_code(form.cleaned_data["code"])
        if link is not None:
            return redirect("table:entry", token=link.token)
        over_limit(key, WRONG_CODES_PER_HOUR, 3600)
        form.add_error(
            "code",
            forms.ValidationError(
                _("Diesen Code gibt es nicht (oder nicht mehr). Bitte die Tischkarte prüfen."),
                code="table_code_unknown",
            ),
        )
    return render(request, "table/code.html", {"form": form, "at_table": True})


# --- the referee's side ----------------------------------------------------------------------


def series_url(table: Table) -> str:
    return reverse("referee:series", args=[table.series.tournament.slug, table.series.number])


@referee_required
@require_POST
def link_renew(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    table_obj = get_object_or_404(
        Table, series__tournament=tournament, series__number=series, number=table
    )
    link = services.renew_link(table_obj, user=request.user)
    messages.success(
        request,
        _("Tisch %(number)s hat einen neuen Link, Code %(code)s; der alte gilt nicht mehr.")
        % {"number": table_obj.number, "code": services.format_code(link.code)},
    )
    return redirect(series_url(table_obj))


@referee_required
@require_POST
def link_revoke(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    table_obj = get_object_or_404(
        Table, series__tournament=tournament, series__number=series, number=table
    )
    services.revoke_link(table_obj, user=request.user)
    messages.success(
        request, _("Der Link von Tisch %(number)s ist gesperrt.") % {"number": table_obj.number}
    )
    return redirect(series_url(table_obj))


@referee_required
def cards_pdf(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """Tischkarten (PDF): one card per table with its QR code, code and players."""
    series_obj = get_object_or_404(tournament.series, number=series)
    title = _("Tischkarten – %(tournament)s · Serie %(series)s") % {
        "tournament": tournament.name,
        "series": series_obj.number,
    }
    content = table_cards_pdf(cards.table_cards(request, series_obj), title=title)
    return private_pdf(
        content, f"{tournament.slug}-{_('serie')}-{series_obj.number}-{_('tischkarten')}"
    )


@referee_required
def blank_sheets_pdf(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """The blank score sheets with each table's QR code (the public blank forms have none)."""
    series_obj = get_object_or_404(tournament.series, number=series)
    content = pdf.score_sheets_pdf(cards.blank_sheets(request, series_obj), blank=True)
    return private_pdf(content, f"{tournament.slug}-{_('serie')}-{series_obj.number}-{_('blanko')}")


def private_pdf(content: bytes, name: str) -> HttpResponse:
    """A PDF that carries table links: shown inline, never stored by a cache."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response

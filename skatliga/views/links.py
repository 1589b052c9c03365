"""The referee's side of the table links: renew or revoke a table's link, print the table
cards and the blank score sheets with each table's QR code."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from skatliga import pdf
from skatliga.models import Table, Tournament
from skatliga.pdf.base import date_text
from skatliga.pdf.cards import seat_slips_pdf, table_cards_pdf
from skatliga.services import table_links as services
from skatliga.table import cards
from skatliga.views.referee import referee_required


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
    with translation.override(tournament.language):
        title = _("Tischkarten – %(tournament)s · Serie %(series)s") % {
            "tournament": tournament.name,
            "series": series_obj.number,
        }
        content = table_cards_pdf(cards.table_cards(request, series_obj), title=title)
    return private_pdf(
        content, f"{tournament.slug}-{_('serie')}-{series_obj.number}-{_('tischkarten')}"
    )


@referee_required
def seat_slips(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """The seating list with each player's personal QR code, in slips to cut apart and hand
    out (the public seating list carries no personal link)."""
    series_obj = get_object_or_404(tournament.series, number=series)
    with translation.override(tournament.language):
        title = _("Sitzplan mit persönlichen Links – %(tournament)s · Serie %(series)s") % {
            "tournament": tournament.name,
            "series": series_obj.number,
        }
        content = seat_slips_pdf(
            cards.seat_slips(request, series_obj),
            series=series_obj.number,
            heading=_("Sitzplan Serie %(number)d") % {"number": series_obj.number},
            line=" · ".join(d for d in (tournament.name, date_text(tournament.date)) if d),
            title=title,
        )
    return private_pdf(
        content, f"{tournament.slug}-{_('serie')}-{series_obj.number}-{_('sitzplan')}"
    )


@referee_required
def blank_sheets_pdf(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    """The blank score sheets with each table's QR code (the public blank forms have none)."""
    series_obj = get_object_or_404(tournament.series, number=series)
    with translation.override(tournament.language):
        content = pdf.score_sheets_pdf(cards.blank_sheets(request, series_obj), blank=True)
    return private_pdf(content, f"{tournament.slug}-{_('serie')}-{series_obj.number}-{_('blanko')}")


def private_pdf(content: bytes, name: str) -> HttpResponse:
    """A PDF that carries table links: shown inline, never stored by a cache."""
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response

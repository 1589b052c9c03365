"""The referee's check-in desk: the claims phones made behind the poster's link, confirmed
or refused with one tap; the arrivals, live, with entry fees and late arrivals marked; the
poster's link and its PDF."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatliga.checkin import pdf
from skatliga.forms.parsing import whole_number
from skatliga.messages import message
from skatliga.models import Arrival, CheckInClaim, CheckInLink, Registration, Tournament
from skatliga.pdf import qr
from skatliga.services import ServiceError
from skatliga.services import checkin as services
from skatliga.views.referee import referee_required

POLL_SECONDS = 3


def checkin_url(request: HttpRequest, link: CheckInLink) -> str:
    return request.build_absolute_uri(reverse("checkin:page", args=[link.token]))


def _desk(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    rows = services.desk_rows(tournament)
    here = [row for row in rows if row.arrival]
    number = whole_number(request.GET.get("nr"))
    claims = services.open_claims(tournament, number)
    return {
        "tournament": tournament,
        "rows": rows,
        "here": len(here),
        "paid": sum(1 for row in here if row.arrival and row.arrival.paid),
        "fees": Arrival.Fee.choices,
        "claims": claims.rows,
        "waiting": claims.waiting,
        "number": number,
        "drawn": tournament.series.exists(),
        "at": time_format(timezone.localtime(), "H:i:s"),
    }


@referee_required
@require_GET
def desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    link = services.checkin_link(tournament)
    url = checkin_url(request, link)
    context = {
        **_desk(request, tournament),
        "url": url,
        "qr": qr.svg(url, _("QR-Code des Check-ins")),
        "etag": services.desk_stamp(tournament),
        "every": POLL_SECONDS,
    }
    return render(request, "checkin/desk.html", context)


@referee_required
@require_GET
def desk_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk's poll: 304 until a claim, an arrival or a mark changes, else the lists
    anew. Either way it says the time it answered ("aktualisiert 19:42")."""
    etag = services.desk_stamp(tournament)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = _desk(request, tournament)
        response = JsonResponse(
            {
                "here": context["here"],
                "paid": context["paid"],
                "waiting": context["waiting"],
                "html": render_to_string("checkin/_desk_lists.html", context, request=request),
            }
        )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _back(tournament: Tournament, anchor: str = "") -> HttpResponse:
    return redirect(reverse("referee:checkin", args=[tournament.slug]) + anchor)


@referee_required
@require_POST
def desk_mark(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=pk, tournament=tournament)
    late = request.POST.get("late")
    try:
        services.mark(
            registration,
            fee=request.POST.get("fee"),
            late=None if late is None else late == "1",
            user=request.user,
        )
    except ServiceError as error:
        return HttpResponse(message(error.code), status=400, content_type="text/plain")
    return _back(tournament, f"#r{pk}")


@referee_required
@require_POST
def desk_confirm(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The claim's player stands at the desk: check him in; his phone gets his link."""
    get_object_or_404(CheckInClaim, pk=pk, tournament=tournament)
    try:
        arrival = services.confirm_claim(tournament, pk, user=request.user)
    except ServiceError as error:
        messages.error(request, message(error.code, **error.params))
        return _back(tournament)
    return _back(tournament, f"#r{arrival.registration_id}")


@referee_required
@require_POST
def desk_refuse(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Nobody of the claim stands at the desk: nobody is checked in."""
    get_object_or_404(CheckInClaim, pk=pk, tournament=tournament)
    try:
        services.refuse_claim(tournament, pk, user=request.user)
    except ServiceError as error:
        messages.error(request, message(error.code, **error.params))
    return _back(tournament)


@referee_required
@require_POST
def desk_renew(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    services.checkin_link(tournament, renew=True)
    return _back(tournament)


@referee_required
@require_GET
def poster(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    url = checkin_url(request, services.checkin_link(tournament))
    data = pdf.poster_pdf(
        pdf.Poster(
            tournament=tournament.name, date=tournament.date, venue=tournament.venue, url=url
        )
    )
    response = HttpResponse(data, content_type="application/pdf")
    name = slugify(f"{tournament.slug} check-in")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response

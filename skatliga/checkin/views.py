"""Check-in pages: the player's, on his own phone behind the poster's link (no account), and
the referee's desk, which sees arrivals live and marks entry fees and late arrivals."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatliga.checkin import pdf, services
from skatliga.languages import to_its_language
from skatliga.messages import message
from skatliga.models import Arrival, CheckInLink, Player, Registration, Tournament
from skatliga.models.limits import hit
from skatliga.money.services import purse_of
from skatliga.pdf import qr
from skatliga.services import ServiceError
from skatliga.services.personal import personal_token
from skatliga.views.auth import client_address
from skatliga.views.referee import referee_required

View = Callable[..., HttpResponse]

WRONG_TOKENS_PER_HOUR = 30
"""Wrong check-in tokens per address and hour; a valid token always opens (a whole hall may
share the venue's address)."""
POLL_SECONDS = 3


def limited(request: HttpRequest) -> HttpResponse:
    code = "checkin_too_many_requests"
    context = {"code": code, "message": message(code)}
    response = render(request, "checkin/limited.html", context, status=429)
    response["Retry-After"] = "3600"
    return response


def public(view: View) -> View:
    """A check-in page: its link opened (a wrong or revoked token is a 404, or a 429 after
    too many from one address), in the tournament's language for a device that chose none,
    kept out of Referer headers and caches."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        link = services.link_for_token(token)
        if link is None:
            wrong = f"checkin-tokens:{client_address(request)}"
            if hit(wrong, 3600)[0] > WRONG_TOKENS_PER_HOUR:
                return limited(request)
            raise Http404
        switch = None
        if request.method in ("GET", "HEAD"):
            switch = to_its_language(request, link.tournament.language)
        response = switch or view(request, link, *args, **kwargs)
        response["Referrer-Policy"] = "same-origin"
        response["Cache-Control"] = "private, no-store"
        return response

    return wrapper


def _found(link: CheckInLink, query: str) -> dict[str, Any]:
    if not query.strip():
        return {"query": ""}
    try:
        return {"query": query, "found": services.find_players(query)}
    except ServiceError as error:
        return {"query": query, "error": error.code, "error_message": message(error.code)}


@public
def page(request: HttpRequest, link: CheckInLink) -> HttpResponse:
    """Find yourself in the roster and check in, or check in as a guest."""
    tournament = link.tournament
    context: dict[str, Any] = {"tournament": tournament, "token": link.token}
    status = 200
    if request.method == "POST":
        try:
            arrival = _check_in(request, tournament)
        except ServiceError as error:
            context["guest_error"] = {
                "code": error.code,
                "message": message(error.code, **error.params),
            }
            context["guest"] = {
                "name": request.POST.get("name", ""),
                "club": request.POST.get("club", ""),
            }
            status = 400
        else:
            return redirect("checkin:arrived", token=link.token, arrival=arrival.token)
    context.update(_found(link, request.GET.get("q", "")))
    return render(request, "checkin/page.html", context, status=status)


def _check_in(request: HttpRequest, tournament: Tournament) -> Arrival:
    chosen = request.POST.get("player", "")
    if chosen:
        if not chosen.isdigit():
            raise ServiceError("player_unknown")
        player = Player.objects.filter(pk=int(chosen)).first()
        if player is None:
            raise ServiceError("player_unknown")
        return services.check_in(tournament, player=player)
    return services.check_in(
        tournament, name=request.POST.get("name", ""), club=request.POST.get("club", "")
    )


@public
def search(request: HttpRequest, link: CheckInLink) -> HttpResponse:
    """The players found for ``q``, as the page's list (for the search as you type)."""
    context = {"token": link.token, **_found(link, request.GET.get("q", ""))}
    return render(request, "checkin/_found.html", context)


@public
def arrived(request: HttpRequest, link: CheckInLink, arrival: str) -> HttpResponse:
    """The player's confirmation: he is checked in."""
    if not services.is_token(arrival):
        raise Http404
    found = get_object_or_404(
        Arrival.objects.select_related("registration__player__club"),
        token=arrival,
        registration__tournament=link.tournament,
    )
    purse = purse_of(link.tournament)
    mine = request.build_absolute_uri(
        reverse("personal:page", args=[personal_token(found.registration)])
    )
    context = {
        "tournament": link.tournament,
        "arrival": found,
        "entry_fee": purse.entry_fee,
        "personal_url": mine,
        "personal_qr": qr.svg(mine, _("QR-Code Ihres persönlichen Links")),
    }
    return render(request, "checkin/arrived.html", context)


# --- the referee's desk ----------------------------------------------------------------------


def checkin_url(request: HttpRequest, link: CheckInLink) -> str:
    return request.build_absolute_uri(reverse("checkin:page", args=[link.token]))


def _desk(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    rows = services.desk_rows(tournament)
    here = [row for row in rows if row.arrival]
    return {
        "tournament": tournament,
        "rows": rows,
        "here": len(here),
        "paid": sum(1 for row in here if row.arrival and row.arrival.paid),
        "fees": Arrival.Fee.choices,
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
        "drawn": tournament.series.exists(),
    }
    return render(request, "checkin/desk.html", context)


@referee_required
@require_GET
def desk_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The desk's poll: 304 until an arrival or a mark changes, else the list anew."""
    etag = services.desk_stamp(tournament)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = _desk(request, tournament)
        response = JsonResponse(
            {
                "here": context["here"],
                "paid": context["paid"],
                "html": render_to_string("checkin/_arrivals.html", context, request=request),
            }
        )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


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
    return redirect(reverse("referee:checkin", args=[tournament.slug]) + f"#r{pk}")


@referee_required
@require_POST
def desk_renew(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    services.checkin_link(tournament, renew=True)
    return redirect("referee:checkin", slug=tournament.slug)


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

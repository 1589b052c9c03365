"""Check-in pages on the player's own phone, behind the poster's link (no account): find
yourself, or come as a guest; the claim's page, which waits for the desk and then carries the
personal link. The referee's desk is ``checkin.desk``.

Limits (docs/security.md, "Rate limits"): what is looked up and found (a valid link, a search
that finds someone, a player's first claim) is never counted; what cannot be vouched for is
counted per client address and in all, and refused beyond the limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.helpers import get_client_ip_address
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from skatliga.forms import posted_text, without_nul
from skatliga.forms.parsing import query_text
from skatliga.languages import to_its_language
from skatliga.messages import message
from skatliga.models import CheckInClaim, CheckInLink, Player, Tournament
from skatliga.models.limits import wrong
from skatliga.pdf import qr
from skatliga.services import ServiceError
from skatliga.services import checkin as services
from skatliga.services.money import purse_of
from skatliga.services.personal import personal_token

View = Callable[..., HttpResponse]

WRONG_TOKENS_PER_HOUR = 30
ALL_WRONG_TOKENS_PER_HOUR = 1000
"""Wrong check-in tokens (the poster's, a claim's) per client address and in all."""
EMPTY_SEARCHES_PER_HOUR = 100
ALL_EMPTY_SEARCHES_PER_HOUR = 1000
"""Searches that found nobody: a hall's typing mistakes stay well below the first."""
DOUBTFUL_CLAIMS_PER_HOUR = 30
ALL_DOUBTFUL_CLAIMS_PER_HOUR = 300
"""Claims nobody can vouch for: a guest's, a claim of a player already here, an id the link
may not name. A claim of a player not here yet is never counted (``Standing.FREE``)."""
POLL_SECONDS = 3
CLAIMS_KEPT = 20
"""How many of its claims a phone's session remembers (a family checking in on one phone)."""
SESSION_KEY = "checkin_claims"


class TooMany(Exception):
    def __init__(self, code: str, seconds: int) -> None:
        super().__init__(code, seconds)
        self.code, self.seconds = code, seconds

    @property
    def message(self) -> str:
        return message(self.code, minutes=math.ceil(self.seconds / 60))


def count(request: HttpRequest, space: str, per_address: int, in_all: int, code: str) -> None:
    """Count one request that cannot be vouched for; TooMany beyond either limit."""
    seconds = wrong(f"checkin-{space}", get_client_ip_address(request), per_address, in_all)
    if seconds is not None:
        raise TooMany(code, seconds)


def doubtful(request: HttpRequest) -> None:
    """Count a claim nobody can vouch for; TooMany beyond either limit."""
    count(
        request,
        "claims",
        DOUBTFUL_CLAIMS_PER_HOUR,
        ALL_DOUBTFUL_CLAIMS_PER_HOUR,
        "checkin_claims_limited",
    )


def limited(request: HttpRequest, refused: TooMany) -> HttpResponse:
    context = {"code": refused.code, "message": refused.message}
    response = render(request, "checkin/limited.html", context, status=429)
    response["Retry-After"] = str(refused.seconds)
    return response


def wrong_token(request: HttpRequest) -> HttpResponse:
    """A plain 404 for a wrong or revoked token, or a 429 after too many."""
    try:
        count(
            request,
            "tokens",
            WRONG_TOKENS_PER_HOUR,
            ALL_WRONG_TOKENS_PER_HOUR,
            "checkin_too_many_requests",
        )
    except TooMany as refused:
        return limited(request, refused)
    raise Http404


def public(view: View) -> View:
    """A check-in page: its link opened (a wrong or revoked token is a 404, or a 429 after
    too many from one address or in all), in the tournament's language for a device that
    chose none, kept out of Referer headers and caches."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        link = services.link_for_token(token)
        if link is None:
            return wrong_token(request)
        switch = None
        if request.method in ("GET", "HEAD"):
            switch = to_its_language(request, link.tournament.language)
        try:
            response = switch or view(request, link, *args, **kwargs)
        except TooMany as refused:
            response = limited(request, refused)
        response["Referrer-Policy"] = "same-origin"
        response.setdefault("Cache-Control", "private, no-store")
        return response

    return wrapper


def _found(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The search's answer for ``q``: the players found; a search that finds nobody is
    counted, and beyond the limit the answer says so (``retry_after``)."""
    query = query_text(request.GET, "q")
    if not query.strip():
        return {"query": ""}
    try:
        found = services.find_players(tournament, query)
    except ServiceError as error:
        return {"query": query, "error": error.code, "error_message": message(error.code)}
    if not found:
        try:
            count(
                request,
                "searches",
                EMPTY_SEARCHES_PER_HOUR,
                ALL_EMPTY_SEARCHES_PER_HOUR,
                "checkin_searches_limited",
            )
        except TooMany as refused:
            return {
                "query": query,
                "error": refused.code,
                "error_message": refused.message,
                "retry_after": refused.seconds,
            }
    return {"query": query, "found": found}


def _answer(response: HttpResponse, context: dict[str, Any]) -> HttpResponse:
    """A page or list carrying the search's answer: 429 where the search was refused."""
    if "retry_after" in context:
        response.status_code = 429
        response["Retry-After"] = str(context["retry_after"])
    return response


@public
def page(request: HttpRequest, link: CheckInLink) -> HttpResponse:
    """Find yourself among the players the link may name and claim "this is me", or come
    as a guest: either is a claim that waits for the desk."""
    tournament = link.tournament
    context: dict[str, Any] = {"tournament": tournament, "token": link.token}
    status = 200
    if request.method == "POST":
        try:
            found = _claim(request, tournament)
        except (ServiceError, ValidationError) as error:
            if isinstance(error, ServiceError):
                problem = {"code": error.code, "message": message(error.code, **error.params)}
            else:
                problem = {"code": str(error.code), "message": error.messages[0]}
            if request.POST.get("player"):
                context["claim_error"] = problem
            else:
                context["guest_error"] = problem
                context["guest"] = {
                    "name": without_nul(request.POST.get("name", "")),
                    "club": without_nul(request.POST.get("club", "")),
                }
            status = 400
        else:
            return redirect("checkin:claim", token=link.token, claim=found.token)
    context.update(_found(request, tournament))
    return _answer(render(request, "checkin/page.html", context, status=status), context)


def _mine(request: HttpRequest) -> list[str]:
    return [str(token) for token in request.session.get(SESSION_KEY, [])]


def _claim(request: HttpRequest, tournament: Tournament) -> CheckInClaim:
    """The phone's claim of the chosen player or of a guest: its own earlier claim of the
    same, or a new one; what the roster cannot vouch for is counted first."""
    chosen = request.POST.get("player", "")
    player: Player | None = None
    name = club = ""
    if chosen:
        player = services.claimable_player(tournament, chosen)
        if player is None:
            doubtful(request)
            raise ServiceError("checkin_player_unknown", "player")
    else:
        name, club = services.guest_entry(
            posted_text(request.POST, "name"), posted_text(request.POST, "club")
        )
    mine = _mine(request)
    again = services.own_claim(tournament, mine, player=player, name=name, club=club)
    if again is not None:
        return again
    standing = services.Standing.DOUBTFUL
    if player is not None:
        standing = services.claim_standing(tournament, player)
    if standing == services.Standing.FULL:
        raise ServiceError("checkin_claimed_often", "player")
    if standing == services.Standing.DOUBTFUL:
        doubtful(request)
    found = services.claim(tournament, player=player, name=name, club=club)
    request.session[SESSION_KEY] = [*mine, found.token][-CLAIMS_KEPT:]
    return found


@public
def search(request: HttpRequest, link: CheckInLink) -> HttpResponse:
    """The players found for ``q``, as the page's list (for the search as you type)."""
    context = {"token": link.token, **_found(request, link.tournament)}
    return _answer(render(request, "checkin/_found.html", context), context)


def _claim_context(request: HttpRequest, link: CheckInLink, found: CheckInClaim) -> dict[str, Any]:
    """What the claim's page shows: while it waits, its number and the public name; once
    the desk confirmed it, the personal link, and nothing private before."""
    context: dict[str, Any] = {
        "tournament": link.tournament,
        "claim": found,
        "shown_name": found.player.public_name if found.player else found.name,
        "shown_club": str(found.player.club or "") if found.player else found.club,
        "entry_fee": purse_of(link.tournament).entry_fee,
        "status_url": reverse("checkin:claim-status", args=[link.token, found.token]),
        "every": POLL_SECONDS,
    }
    registration = found.registration
    if found.state == CheckInClaim.State.CONFIRMED and registration is not None:
        mine = request.build_absolute_uri(
            reverse("personal:page", args=[personal_token(registration)])
        )
        context["arrival"] = getattr(registration, "arrival", None)
        context["personal_url"] = mine
        context["personal_qr"] = qr.svg(mine, _("QR-Code Ihres persönlichen Links"))
    return context


def _open_claim(request: HttpRequest, link: CheckInLink, claim: str) -> CheckInClaim | HttpResponse:
    found = services.claim_for_token(link, claim)
    return wrong_token(request) if found is None else found


def claim_stamp(found: CheckInClaim) -> str:
    return f'"claim-{found.pk}-{found.state}"'


@public
@require_safe
def claim(request: HttpRequest, link: CheckInLink, claim: str) -> HttpResponse:
    """The phone's claim: waiting for the desk, confirmed (with the personal link) or
    refused. It asks every few seconds whether the desk decided."""
    found = _open_claim(request, link, claim)
    if isinstance(found, HttpResponse):
        return found
    context = {**_claim_context(request, link, found), "etag": claim_stamp(found)}
    return render(request, "checkin/claim.html", context)


@public
@require_safe
def claim_status(request: HttpRequest, link: CheckInLink, claim: str) -> HttpResponse:
    """The claim page's poll: 304 until the desk decides, then the page's state anew."""
    found = _open_claim(request, link, claim)
    if isinstance(found, HttpResponse):
        return found
    etag = claim_stamp(found)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        html = render_to_string(
            "checkin/_claim.html", _claim_context(request, link, found), request=request
        )
        response = JsonResponse({"state": found.state, "html": html})
    response["ETag"] = etag
    # The poll carries the claim's page: kept out of caches as the page is.
    response["Cache-Control"] = "private, no-store"
    return response

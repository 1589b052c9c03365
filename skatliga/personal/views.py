"""The player's own page behind his personal link (``/me/<token>/``, no account), and its
poll: it asks every few seconds whether his evening changed and swaps in the new state."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.helpers import get_client_ip_address
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from skatliga.messages import message
from skatliga.models import Registration
from skatliga.models.limits import wrong
from skatliga.personal.evening import evening_stamp, my_evening
from skatliga.services.personal import registration_for_token

View = Callable[..., HttpResponse]

# Wrong personal tokens per hour, as for table tokens: per client address (a guesser) and in
# all (many guessers). Only wrong ones are counted: a valid link always opens, so a hall
# sharing one address is never locked out by a guesser among it.
WRONG_TOKENS_PER_HOUR = 30
ALL_WRONG_TOKENS_PER_HOUR = 1000
POLL_SECONDS = 10
"""How often the page asks whether the evening changed: a draw shows within seconds, and a
hall of eighty phones costs the server eight cheap answers (304) a second."""


def _limited(request: HttpRequest, seconds: int) -> HttpResponse:
    code = "checkin_too_many_requests"
    context = {"code": code, "message": message(code)}
    response = render(request, "checkin/limited.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def personal(view: View) -> View:
    """A personal page: its link opened (a wrong token is a 404, or a 429 after too many
    wrong ones), kept out of Referer headers and shared caches."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
        registration = registration_for_token(token)
        if registration is None:
            address = get_client_ip_address(request)
            seconds = wrong("me-tokens", address, WRONG_TOKENS_PER_HOUR, ALL_WRONG_TOKENS_PER_HOUR)
            if seconds is not None:
                return _limited(request, seconds)
            raise Http404
        response = view(request, registration, token, **kwargs)
        response["Referrer-Policy"] = "same-origin"
        response.setdefault("Cache-Control", "private, no-store")
        return response

    return wrapper


def _context(registration: Registration, token: str) -> dict[str, Any]:
    return {
        "tournament": registration.tournament,
        "evening": my_evening(registration),
        "at": time_format(timezone.localtime(), "H:i"),
        "now": timezone.now(),
        "token": token,
    }


@personal
@require_safe
def page(request: HttpRequest, registration: Registration, token: str) -> HttpResponse:
    """My evening: my next seat, my standing, my lists and signatures, my money, my
    objections (each game of a list leads to ``objections.objection``)."""
    context = {
        **_context(registration, token),
        "status_url": reverse("personal:status", args=[token]),
        "etag": evening_stamp(registration, get_language()),
        "every": POLL_SECONDS,
        "at_table": True,
    }
    return render(request, "personal/page.html", context)


@personal
@require_safe
def status(request: HttpRequest, registration: Registration, token: str) -> HttpResponse:
    """The page's poll: 304 until the evening changes, else its state anew."""
    etag = evening_stamp(registration, get_language())
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = _context(registration, token)
        html = render_to_string("personal/_evening.html", context, request=request)
        response = JsonResponse({"html": html})
    response["ETag"] = etag
    # The poll carries the page's private data: kept out of caches as the page is.
    response["Cache-Control"] = "private, no-store"
    return response

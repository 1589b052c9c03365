"""Logging in: what a user sees after too many wrong passwords (django-axes calls this)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user is logged in."""

    user: User


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The login page, answered 429, saying that and how long logging in is paused."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failures": settings.AXES_FAILURE_LIMIT},
        status=429,
    )


def client_address(request: HttpRequest) -> str | None:
    """The address a login attempt came from, for throttling.

    Behind ``settings.PROXY_COUNT`` reverse proxies, each appending the address it saw to
    X-Forwarded-For, the client's is the last entry the outermost proxy added; anything
    before it is the client's own claim and is not trusted.
    """
    proxies = settings.PROXY_COUNT
    if proxies:
        header: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        forwarded = [a.strip() for a in header.split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    address: str | None = request.META.get("REMOTE_ADDR")
    return address


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The user name the login throttle records (``settings.AXES_USERNAME_CALLABLE``): at most
    150 characters, what a user name may have; the login form does not refuse a longer one,
    and the throttle's column would overflow."""
    name = (credentials or {}).get("username") or request.POST.get("username") or ""
    return str(name)[:150]

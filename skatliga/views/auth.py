"""Logging in: what a user sees after too many wrong passwords (django-axes calls this)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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

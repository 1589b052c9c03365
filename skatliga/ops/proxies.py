"""Behind a reverse proxy every request comes from the proxy's address; only
``SKATLIGA_PROXY_COUNT`` lets the site see the visitor's. A proxy that sends X-Forwarded-For
while the count is 0 is told in the log (once per process) and on ``/healthz``."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("skatliga.proxies")
seen = False
"""A request with X-Forwarded-For reached this process while PROXY_COUNT was 0."""


def forwarded_without_count(request: HttpRequest | None = None) -> bool:
    """Did ``request`` (or an earlier one) come through an uncounted proxy?"""
    if settings.PROXY_COUNT:
        return False
    return seen or bool(request and "HTTP_X_FORWARDED_FOR" in request.META)


class ProxyCountMiddleware:
    """Warns once per process about X-Forwarded-For with ``SKATLIGA_PROXY_COUNT=0``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        global seen
        if not seen and forwarded_without_count(request):
            seen = True
            logger.warning(
                "Requests carry X-Forwarded-For but SKATLIGA_PROXY_COUNT is 0: set it to the "
                "number of reverse proxies (1 behind one Caddy or nginx), or every visitor "
                "counts as the proxy's address."
            )
        return self.get_response(request)

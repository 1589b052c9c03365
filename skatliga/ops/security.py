"""Headers every response gets: the Content-Security-Policy (the site loads scripts and styles
only from its own static files, never inline, so an injected ``<script>`` does not run), and
``Cache-Control: private, no-store`` on whatever a logged-in user is sent."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers


class ContentSecurityPolicyMiddleware:
    """Adds ``settings.CONTENT_SECURITY_POLICY`` to every response that has none yet."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response


class PrivateResponsesMiddleware:
    """Keeps every response to a logged-in user out of every cache, the browser's included.

    A referee's pages and exports (full names, results not yet published) would otherwise stay
    in a shared hall PC's browser after the logout. Django's ``add_never_cache_headers``
    adds ``private, no-store`` (and ``no-cache``, ``must-revalidate``, ``max-age=0``) to what
    the view set. The user is looked up only where a session cookie came along, so that an
    anonymous request's response does not vary on the cookie. The capability links (table,
    personal, check-in) send ``private, no-store`` themselves, to anyone holding them.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            and user is not None
            and user.is_authenticated
        ):
            add_never_cache_headers(response)
        return response

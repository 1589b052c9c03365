"""The API's URLs, for its audience: club websites, federations, statisticians.

They carry no language prefix: each answer is in the language of ``Accept-Language`` (German
unless English is asked for), which only matters for messages and rules in words. Every answer
may be read by a script on any other site (CORS): the data is public and read-only, and no
cookie or login is ever used by the API. Every error is JSON: an unknown address (a trailing
slash too), a method other than GET, HEAD and OPTIONS, and an internal error.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path, re_path
from django.utils import translation
from django.utils.cache import patch_vary_headers

from skatliga.api import calendar, league, players  # noqa: F401  (their operations join)
from skatliga.api.views import api, error
from skatliga.messages import message

ALLOWED = "GET, HEAD, OPTIONS"
"""The methods of every address under /api/v1/: the API only reads."""


def answer_preflight(request: HttpRequest) -> HttpResponse:
    """A CORS preflight: any origin may GET with the headers it asks for (If-None-Match…)."""
    response = HttpResponse(status=204)
    response["Access-Control-Allow-Methods"] = ALLOWED
    response["Access-Control-Allow-Headers"] = request.headers.get(
        "Access-Control-Request-Headers", "Accept-Language, If-None-Match"
    )
    response["Access-Control-Max-Age"] = "86400"
    return response


def in_asked_language(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` answering in the language asked for, readable from any origin; HEAD as GET
    without the body, OPTIONS as a CORS preflight, any other method a JSON 405."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = translation.get_language_from_request(request, check_path=False)
        head = request.method == "HEAD"
        with translation.override(language):
            if request.method == "OPTIONS":
                response = answer_preflight(request)
            elif request.method not in ("GET", "HEAD"):
                response = error(request, 405, message("api_method_not_allowed"))
                response["Allow"] = ALLOWED
            else:
                request.method = "GET"
                response = view(request, *args, **kwargs)
                request.method = "HEAD" if head else "GET"
        if head:
            response["Content-Length"] = str(len(response.content))
            response.content = b""
        patch_vary_headers(response, ["Accept-Language"])
        response["Content-Language"] = language
        response["Access-Control-Allow-Origin"] = "*"
        response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
        return response

    return answer


@in_asked_language
def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other address under /api/v1/, with a trailing slash too: a JSON 404."""
    return error(request, 404, message("api_not_found"))


_patterns, _app, _namespace = api.urls
for _pattern in _patterns:
    if isinstance(_pattern, URLPattern):
        _pattern.callback = in_asked_language(_pattern.callback)

urlpatterns = [
    path("api/v1/", (_patterns, _app, _namespace)),
    re_path(r"^api/v1(?P<rest>/.*)?$", not_found),
]

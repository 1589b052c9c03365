"""The API's URLs, for its audience: club websites, federations, statisticians.

They carry no language prefix: each answer is in the language of ``Accept-Language`` (German
unless English is asked for), which only matters for messages and rules in words. Every answer
may be read by a script on any other site (CORS): the data is public and read-only, and no
cookie or login is ever used by the API.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils import translation
from django.utils.cache import patch_vary_headers

from skatliga.api.views import api


def in_asked_language(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` answering in the language asked for, readable from any origin."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = translation.get_language_from_request(request, check_path=False)
        with translation.override(language):
            response = view(request, *args, **kwargs)
        patch_vary_headers(response, ["Accept-Language"])
        response["Content-Language"] = language
        response["Access-Control-Allow-Origin"] = "*"
        response["Access-Control-Expose-Headers"] = "ETag, Retry-After"
        return response

    return answer


_patterns, _app, _namespace = api.urls
for _pattern in _patterns:
    if isinstance(_pattern, URLPattern):
        _pattern.callback = in_asked_language(_pattern.callback)

urlpatterns = [
    path("api/v1/", (_patterns, _app, _namespace)),
]

"""The language a page of one tournament or season speaks to a visitor who chose none: its
own. The public pages, a table's link and its short code all lead there the same way; the
site's first page leads to the visitor's own."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers


def to_its_language(request: HttpRequest, language: str) -> HttpResponse | None:
    """A tournament's or season's page in its own language for a visitor who chose none:
    the unprefixed (German) address leads to the same page in ``language``. A visitor who
    chose a language (its cookie) or asked for one (a prefixed address) keeps it."""
    if (
        language == settings.LANGUAGE_CODE
        or settings.LANGUAGE_COOKIE_NAME in request.COOKIES
        or translation.get_language_from_path(request.path_info)
    ):
        return None
    response = HttpResponseRedirect(translate_url(request.get_full_path(), language))
    patch_vary_headers(response, ["Cookie"])
    return response


def to_the_visitors_language(request: HttpRequest) -> HttpResponse | None:
    """The site's first page, asked for without a language, in the one the visitor chose
    (its cookie) or, before choosing, the one his browser asks for, where the site speaks
    it."""
    language = translation.get_language_from_request(request)
    if language == settings.LANGUAGE_CODE or translation.get_language_from_path(request.path_info):
        return None
    response = HttpResponseRedirect(translate_url(request.get_full_path(), language))
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response

"""The site's views: the home page here, the public pages in ``public``, the referee's pages
in ``referee`` (tournaments, players, series) and ``lists`` (entering a list)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language_from_request

from skatliga.languages import to_its_language
from skatliga.models import Season, Tournament

RECENT = 8


def home(request: HttpRequest) -> HttpResponse:
    """What skatliga is, the seasons, and the latest tournaments; for a first visit without
    a chosen language, in the browser's, where the site speaks it."""
    if switch := to_its_language(request, get_language_from_request(request)):
        return switch
    return render(
        request,
        "home.html",
        {
            "seasons": Season.objects.all()[:RECENT],
            "tournaments": Tournament.objects.select_related("season")[:RECENT],
        },
    )

"""The site's views: the home page here, the public pages in ``public``, the referee's pages
in ``referee`` (tournaments, players, series) and ``lists`` (entering a list)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from skatliga.languages import to_the_visitors_language
from skatliga.models import Season, Tournament

RECENT = 8


def home(request: HttpRequest) -> HttpResponse:
    """What skatliga is, the seasons, and the latest tournaments, in the visitor's
    language."""
    if switch := to_the_visitors_language(request):
        return switch
    return render(
        request,
        "home.html",
        {
            "seasons": Season.objects.all()[:RECENT],
            "tournaments": Tournament.objects.select_related("season")[:RECENT],
        },
    )

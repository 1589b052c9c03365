"""The hall display: the running tournament's ranking on a projector."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from skatliga.models import ListResult, Tournament
from skatliga.standings.queries import progress_in, running_in
from skatliga.views.caching import render_page
from skatliga.views.public.common import in_tournament


def hall(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The running tournament on a projector: large type, the ranking refreshed in place
    (hall.js) every 30 seconds, or every ``?every=N`` (5 to 600)."""
    return in_tournament(request, slug, lambda tournament: _hall_page(request, tournament))


def _hall_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    rows = results.standings(lots_of=tournament)
    lists = running_in(tournament)
    try:
        every = min(600, max(5, int(request.GET.get("every", 30))))
    except ValueError:
        every = 30
    return render_page(
        request,
        "public/hall.html",
        {
            "tournament": tournament,
            "rows": rows,
            "refresh": every,
            "progress": progress_in(tournament),
            "provisional": results.provisional(),
            "running": lists.lists,
            "running_players": lists.players,
        },
    )

"""The hall display: the running tournament's ranking on a projector."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext

from skatliga.models import ListResult, Tournament
from skatliga.standings.queries import progress_in, running_in
from skatliga.standings.rankings import HALL
from skatliga.views.caching import render_page
from skatliga.views.public.common import in_tournament


def hall(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The running tournament on a projector: large type, the ranking refreshed in place
    (hall.js) every 30 seconds, or every ``?every=N`` (5 to 600); a ranking longer than the
    screen turns its pages by itself every 10 seconds, or every ``?turn=N`` (1 to 120)."""
    return in_tournament(request, slug, lambda tournament: _hall_page(request, tournament))


def _hall_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    lists = running_in(tournament)
    running = lists.players
    rows = results.standings(lots_of=tournament)
    # The ranking's columns (standings.metrics.HALL), each row's cells as text.
    classes = [HALL.css(key) for key in HALL.columns]
    lines = [
        {
            "cells": list(
                zip(classes, (found.text(record) for found in HALL.metrics), strict=True)
            ),
            "running": record["row"].player_id in running,
        }
        for record in HALL.records(rows)
    ]
    every = _seconds(request, "every", 30, 5, 600)
    # Each running list's line, its words translated once for all of them.
    line = gettext("Serie %(series)s · Tisch %(table)s: %(games)s/%(expected)s")
    return render_page(
        request,
        "public/hall.html",
        {
            "tournament": tournament,
            "rows": rows,
            "columns": [
                (css, found.name) for css, found in zip(classes, HALL.metrics, strict=True)
            ],
            "lines": lines,
            "refresh": every,
            "turn": _seconds(request, "turn", 10, 1, 120),
            "page_text": gettext("Seite %(page)d von %(pages)d"),
            "progress": progress_in(tournament),
            "provisional": results.provisional(),
            "running": lists.lists,
            "running_players": running,
            # The running lists' lines as one text, joined once here, not by a loop per list.
            "running_text": " · ".join(
                line
                % {"series": r.series, "table": r.table, "games": r.games, "expected": r.expected}
                for r in lists.lists
            ),
        },
    )


def _seconds(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    try:
        return min(high, max(low, int(request.GET.get(name, default))))
    except ValueError:
        return default

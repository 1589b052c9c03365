"""The hall display: the running tournament's ranking on a projector."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from skatliga.models import ListResult, StandingRow, Tournament
from skatliga.rendered import rendered_each
from skatliga.standings.queries import progress_in, running_in
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
    language = get_language()
    # Each row written by public/_hall_row.html once per process for each content: a save
    # changes a few players' figures and the ranks between them, of 600 rows.
    lines = rendered_each(
        "public/_hall_row.html",
        rows,
        key=lambda row: (
            language,
            row.rank,
            row.player,
            row.club,
            row.won,
            row.lost,
            row.total,
            row.player_id in running,
        ),
        values=lambda row: _shown(row, row.player_id in running),
    )
    every = _seconds(request, "every", 30, 5, 600)
    # Each running list's line, its words translated once for all of them.
    line = gettext("Serie %(series)s · Tisch %(table)s: %(games)s/%(expected)s")
    return render_page(
        request,
        "public/hall.html",
        {
            "tournament": tournament,
            "rows": rows,
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


def _shown(row: StandingRow, running: bool) -> dict[str, Any]:
    """A row as the template reads it: its whole numbers as text that needs no escaping."""
    return {
        "rank": SafeString(row.rank),
        "player": row.player,
        "club": row.club,
        "won": SafeString(row.won),
        "lost": SafeString(row.lost),
        "total": SafeString(row.total),
        "in_progress": running,
    }


def _seconds(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    try:
        return min(high, max(low, int(request.GET.get(name, default))))
    except ValueError:
        return default

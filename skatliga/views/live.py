"""The referee's live dashboard: the series page polls ``status.json`` every few seconds with
``If-None-Match``; the answer is a 304 until the tournament's revision moves (every service
that changes a list, a signature or a second entry raises it), else each table's status
block, rendered by the same template as the page: the template is fetched once and renders
every block in one context (the request's context processors run once, not per table)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.template import Engine
from django.template.context import make_context
from django.views.decorators.http import require_GET

from skatliga.models import Series, Tournament
from skatliga.views.dashboard import TableStatus, status_etag
from skatliga.views.dashboard import series_status as table_statuses
from skatliga.views.referee import referee_required


@referee_required
@require_GET
def series_status(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = _series_of(tournament, series)
    etag = status_etag(tournament, series_obj)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = JsonResponse(
            {
                "revision": tournament.revision,
                "tables": status_blocks(request, tournament, series_obj),
            }
        )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _series_of(tournament: Tournament, number: int) -> Series:
    """Series ``number`` of ``tournament``, or 404."""
    series = Series.objects.filter(tournament=tournament, number=number).first()
    if series is None:
        raise Http404
    series.tournament = tournament
    return series


def status_blocks(
    request: HttpRequest, tournament: Tournament, series: Series
) -> list[dict[str, Any]]:
    """Each table's status and its block, as ``{% include %}`` renders it on the page: one
    template, one request context (its processors run once), a layer pushed per table."""
    statuses: list[TableStatus] = table_statuses(series)
    template = Engine.get_default().get_template("referee/_table_status.html")
    context = make_context({"tournament": tournament, "series": series}, request)
    answered = []
    with context.bind_template(template):
        for status in statuses:
            with context.push(status=status.shown):
                answered.append({**status.to_json(), "html": template.render(context)})
    return answered

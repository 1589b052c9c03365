"""The referee's live dashboard: the series page polls ``status.json`` every few seconds with
``If-None-Match``; the answer is a 304 until the tournament's revision moves (every service
that changes a list, a signature or a second entry raises it), else each table's status
block, rendered by the same template as the page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from skatliga.models import Tournament
from skatliga.views.dashboard import series_status as table_statuses
from skatliga.views.dashboard import status_etag
from skatliga.views.referee import referee_required


@referee_required
@require_GET
def series_status(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    etag = status_etag(tournament, series_obj)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = JsonResponse(
            {
                "revision": tournament.revision,
                "tables": [
                    {
                        **status.to_json(),
                        "html": render_to_string(
                            "referee/_table_status.html",
                            {"status": status, "tournament": tournament, "series": series_obj},
                            request=request,
                        ),
                    }
                    for status in table_statuses(series_obj)
                ],
            }
        )
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response

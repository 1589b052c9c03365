"""The referee's live dashboard: the series page polls ``status.json`` every few seconds with
``If-None-Match``; the answer is a 304 until the tournament's revision moves (every service
that changes a list, a signature or a second entry raises it), else each table's status
block, rendered by the same template as the page: the template is fetched once and renders
every block in one context (the request's context processors run once, not per table)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.template.context import make_context
from django.urls import get_script_prefix
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from skatliga.models import Series, Tournament
from skatliga.rendered import rendered_each
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
    template, one request context, a layer pushed per table; a block rendered before (and
    holding no form, whose CSRF token is the request's) taken as it was
    (``rendered.rendered_each``)."""
    statuses: list[TableStatus] = table_statuses(series)
    where = ("status block", get_language(), get_script_prefix(), tournament.slug, series.number)
    written = rendered_each(
        "referee/_table_status.html",
        statuses,
        key=lambda status: _block_key(where, status.shown),
        values=lambda status: {"status": status.shown},
        context=make_context({"tournament": tournament, "series": series}, request),
    )
    return [
        {**status.to_json(), "html": html} for status, html in zip(statuses, written, strict=True)
    ]


def _block_key(where: tuple[Any, ...], shown: dict[str, Any]) -> Hashable | None:
    """What a block shows, complete: the language, the address' prefix, the tournament and
    series, and the block's figures, phrases and flags; None for a block with a call or
    objections (objects, and forms), which is rendered every time."""
    if shown["call"] or shown["objections"]:
        return None
    return (*where, *shown.values())

"""Cached public pages, CSVs and PDFs, with conditional responses (ETag, Last-Modified).

A view names what its response shows as a *key*: the revisions (``skatliga.revisions``) of
the tournaments and seasons it covers, read from the database on this request. The key, the
language, the path and the query parameters a page reads (:data:`READ`; a page is built
seeing only those, so ``?z=<random>`` neither changes it nor misses the cache) make the ETag
and the cache key, so:

- a browser that has the page gets 304 Not Modified without the page being built;
- any process with the page in its cache (Django's cache framework: local memory per process
  by default, Redis or memcached when configured) serves it without building it;
- after a change, the revisions in the database differ, and every process builds the page
  anew on its next request, whatever its own cache still holds;
- except that a page of a running tournament (``lag=True``: a tournament's, series',
  list's, season's, player's or team's) may be served as built up to ``settings.PAGE_LAG``
  seconds ago (``SKATLIGA_PAGE_LAG``, 5 by default: the hall display's shortest refresh).
  While a tournament runs, every save raises its revision; without the lag its 600-row
  standings would be built anew for nearly every reader. With it each cache gets such a
  page built at most once in ``PAGE_LAG`` seconds (while one process builds it anew, the
  others serve the last build, up to twice the lag); while its results are provisional the page
  says when it was built ("vorläufig · Stand 21.11.2026, 21:43 Uhr"); a list's shows its
  games. A table's device (its own page, never cached) and a referee (logged in: never
  served from the cache) always see the last save.

Only anonymous requests are served from the cache (a referee's page shows his name and
links); the language switch's CSRF token is put into the cached HTML per request.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import re
import time
from collections.abc import Callable, Hashable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, quote_etag
from django.utils.translation import get_language

CSRF_PLACEHOLDER = "csrfplaceholder0k7Qz9Xw2Rb5Tm1Lc8Vn4Hs6Jd3Fg"
"""Rendered in place of the CSRF token when a page is built for the cache; replaced with the
requesting browser's token whenever the page is sent."""
TIMEOUT = 24 * 3600
"""Seconds an entry may stay; an entry of an old revision is never asked for again anyway."""
LARGEST = 2 * 1024 * 1024
"""Bytes: a larger response (every row of a league on one page) is built each time, not kept."""
_HEADERS = ("Content-Type", "Content-Disposition")
_TOKEN = CSRF_PLACEHOLDER.encode()
_FORMAT = 2
"""The version (Django's cache ``version``) of the stored entries' shape: the page's parts
around the CSRF placeholder and its headers."""
READ = re.compile(r"(?:[\w-]+-)?(?:page|sort)|export|category|table|blank|season|every|turn")
"""The query parameters cached pages read: pages of a table (``p-page``, ``t-sort``, per
category), the export, the category or table shown, the blank sheet, the season, the hall's
refresh. Any other is dropped before the page is built."""


def read_parameters(request: HttpRequest) -> QueryDict:
    """``request.GET`` with only the parameters of :data:`READ`, in a stable order."""
    kept = QueryDict(mutable=True)
    for name, values in sorted(request.GET.lists()):
        if READ.fullmatch(name):
            kept.setlist(name, values)
    kept._mutable = False
    return kept


def cached(
    request: HttpRequest,
    key: Hashable,
    build: Callable[[], HttpResponse],
    *,
    last_modified: datetime.datetime | None = None,
    lag: bool = False,
) -> HttpResponseBase:
    """The response ``build()`` makes, served from the cache while ``key`` holds, or, with
    ``lag``, while the last one built for this page is at most ``settings.PAGE_LAG`` seconds
    old.

    ``key`` must cover everything the response shows (the revisions read on this request);
    ``last_modified`` is when that last changed.
    """
    anonymous = not request.user.is_authenticated
    viewer = "" if anonymous else f"user:{request.user.pk}"
    request.GET = read_parameters(request)  # type: ignore[assignment]  # a QueryDict as Django's
    page = repr((get_language(), request.path, request.GET.urlencode(), viewer))
    digest = hashlib.blake2b(repr((key, page)).encode(), digest_size=16).hexdigest()
    modified = int(last_modified.timestamp()) if last_modified else None
    not_modified = get_conditional_response(
        request, etag=quote_etag(digest), last_modified=modified
    )
    if not_modified is not None:
        return _validators(not_modified, digest, modified)
    if not anonymous:
        return _validators(build(), digest, modified)
    stored = cache.get(f"skatliga:page:{digest}", version=_FORMAT)
    # Where a lagging page notes its newest build: (when, its digest, its Last-Modified).
    newest = ""
    if lag:
        newest = f"skatliga:newest:{hashlib.blake2b(page.encode(), digest_size=16).hexdigest()}"
    if stored is None and newest and settings.PAGE_LAG:
        # The page as last built, if that was a moment ago: its own validators. Once it is
        # older, one process builds it anew; the others keep serving it meanwhile, up to
        # twice the lag (a 600-row standing takes a tenth of a second and more to build, in
        # which every worker of every server would otherwise start building it too).
        recent = cache.get(newest)
        age = time.time() - recent[0] if recent is not None else math.inf
        if recent is not None and (
            age <= settings.PAGE_LAG
            or (
                age <= 2 * settings.PAGE_LAG
                and not cache.add(f"{newest}:building", True, settings.PAGE_LAG)
            )
        ):
            stored = cache.get(f"skatliga:page:{recent[1]}", version=_FORMAT)
            if stored is not None:
                _built, digest, modified = recent
                not_modified = get_conditional_response(
                    request, etag=quote_etag(digest), last_modified=modified
                )
                if not_modified is not None:
                    return _validators(not_modified, digest, modified)
    if stored is None:
        request.csrf_placeholder = True  # type: ignore[attr-defined]
        response = build()
        if response.status_code != 200 or response.streaming:
            return response
        # Split where the token goes, once: a page sent from the cache is then joined
        # with the token, not searched for its place (80 µs of a 290 kB standings page).
        parts = tuple(response.content.split(_TOKEN))
        stored = (parts, {h: response[h] for h in _HEADERS if h in response})
        if len(response.content) <= LARGEST:
            cache.set(f"skatliga:page:{digest}", stored, TIMEOUT, version=_FORMAT)
            if newest:
                cache.set(newest, (time.time(), digest, modified), TIMEOUT)
    parts, headers = stored
    content = get_token(request).encode().join(parts) if len(parts) > 1 else parts[0]
    return _validators(HttpResponse(content, headers=headers), digest, modified)


def _validators(
    response: HttpResponseBase, digest: str, last_modified: int | None
) -> HttpResponseBase:
    response["ETag"] = quote_etag(digest)
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified)
    # Browsers keep the page but ask again each time: a 304 while nothing changed.
    patch_cache_control(response, private=True, no_cache=True)
    return response


def render_page(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """``render``, with the CSRF token left as a placeholder when the page goes to the cache."""
    if getattr(request, "csrf_placeholder", False):
        context = {**context, "csrf_token": CSRF_PLACEHOLDER}
    return render(request, template, context)


def latest(*moments: datetime.datetime | None) -> datetime.datetime | None:
    """The latest of the given times, None if none is known."""
    known = [moment for moment in moments if moment is not None]
    return max(known) if known else None

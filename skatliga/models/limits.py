"""Rate limits that every worker process shares: hits per key in fixed windows, counted in
the configured cache when every worker shares it (Redis, memcached) and in the database
otherwise (a local-memory cache is one per process, so four workers would allow four times
the limit)."""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, models, transaction
from django.db.models import F

SHARED_CACHES = ("RedisCache", "PyMemcacheCache", "PyLibMCCache")


class Hits(models.Model):
    """The hits on one rate limit's key in one window; a window's row is deleted after it."""

    key = models.CharField(max_length=200, unique=True)
    until = models.DateTimeField(db_index=True)
    count = models.PositiveIntegerField(default=0)


def cache_is_shared() -> bool:
    return settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1] in SHARED_CACHES


def _window(key: str, seconds: int) -> tuple[str, float, int, float]:
    """The current window of ``seconds`` for ``key``: its name, the time now, the seconds
    until it ends and when it ends."""
    now = time.time()
    window = int(now // seconds)
    ends = (window + 1) * seconds
    return f"{key}@{seconds}:{window}", now, max(1, math.ceil(ends - now)), ends


def hits(key: str, seconds: int) -> tuple[int, int]:
    """The hits on ``key`` so far in the current window of ``seconds``, without counting
    one, and the seconds until the window ends."""
    name, _now, left, _ends = _window(key, seconds)
    if cache_is_shared():
        return int(cache.get(name, 0)), left
    found = Hits.objects.filter(key=name).values_list("count", flat=True).first()
    return int(found or 0), left


def hit(key: str, seconds: int) -> tuple[int, int]:
    """Count one more hit on ``key`` in the current window of ``seconds``: the hits so far in
    that window and the seconds until it ends (what ``Retry-After`` says)."""
    name, now, left, ends = _window(key, seconds)
    if cache_is_shared():
        cache.add(name, 0, left + 1)
        try:
            return int(cache.incr(name)), left
        except ValueError:  # expired between add and incr
            cache.set(name, 1, left + 1)
            return 1, left
    if not Hits.objects.filter(key=name).update(count=F("count") + 1):
        Hits.objects.filter(until__lt=datetime.fromtimestamp(now, UTC)).delete()
        try:
            with transaction.atomic():
                Hits.objects.create(key=name, until=datetime.fromtimestamp(ends, UTC), count=1)
            return 1, left
        except IntegrityError:  # another worker created it first
            Hits.objects.filter(key=name).update(count=F("count") + 1)
    return Hits.objects.filter(key=name).values_list("count", flat=True).get(), left


def wrong(space: str, address: str | None, per_address: int, in_all: int) -> int | None:
    """Count one wrong request of ``space`` (a wrong token, a search that found nobody, a
    doubtful check-in) from client ``address`` and in all, in the hour's window: the seconds
    until the window ends where either count is now over its limit, else None.

    Only what cannot be vouched for is counted; what can (a valid link, a player found) is
    looked up first and never refused, so a hall sharing one address is never locked out by
    a guesser among it (docs/security.md, "Rate limits")."""
    mine, mine_left = hit(f"{space}:{address}", 3600)
    every, every_left = hit(space, 3600)
    if mine > per_address:
        return mine_left
    if every > in_all:
        return every_left
    return None

"""``/healthz``: is this instance fit to serve? For load balancers, systemd and monitoring.

It reads the database (one connection, the list of applied migrations) and writes one
short-lived key to the page cache; it touches no session (no cookie, no session row).
Problems (503) keep the site from serving; warnings (still 200) need the operator soon.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from skatliga.ops import proxies

BACKUP_MAX_AGE = 24 * 3600 + 3600
"""Seconds: a nightly backup plus an hour's slack."""

PROXY_COUNT_ZERO = (
    "requests carry X-Forwarded-For but SKATLIGA_PROXY_COUNT is 0: every visitor counts as "
    "the proxy's address for login throttling and the API's rate limit"
)


def problems(alias: str = "default") -> list[str]:
    """What keeps the site from serving: an unreachable database, unapplied migrations or a
    page cache that cannot be written.

    Each problem is one line for an operator; an empty list means healthy.
    """
    return _database_problems(alias) + _cache_problems()


def _cache_problems() -> list[str]:
    """Public pages are stored in the cache: one that fails makes every one of them fail."""
    try:
        cache.set("skatliga:healthz", 1, timeout=10)
        if cache.get("skatliga:healthz") == 1:
            return []
        error = "a value written is not read back"
    except Exception as failure:  # any backend, any way of failing
        error = f"{type(failure).__name__}: {failure}"
    where = settings.CACHES["default"].get("LOCATION", "")
    return [f"cache {where} unusable: {error}".replace("  ", " ")]


def backup_warning(directory: Path | None = None, now: float | None = None) -> str | None:
    """When the newest backup in ``SKATLIGA_BACKUP_DIR`` is older than a day (and an hour's
    slack), or there is none."""
    directory = directory or settings.BACKUP_DIR
    if directory is None:
        return None
    try:
        newest = max((p.stat().st_mtime for p in directory.glob("*.backup")), default=None)
    except OSError as error:
        return f"backups in {directory} cannot be read: {error.strerror}"
    if newest is None:
        return f"no backup in {directory}"
    age = (now or time.time()) - newest
    if age > BACKUP_MAX_AGE:
        return f"the newest backup in {directory} is {age / 3600:.0f} hours old"
    return None


def warnings(request: HttpRequest | None = None) -> list[str]:
    """What the operator should fix although the site serves."""
    found = [w for w in [backup_warning()] if w]
    if proxies.forwarded_without_count(request):
        found.append(PROXY_COUNT_ZERO)
    return found


def _database_problems(alias: str) -> list[str]:
    connection = connections[alias]
    try:
        connection.ensure_connection()
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return [f"database unreachable: {type(error).__name__}: {first_line}".rstrip(": ")]
    if plan:
        names = ", ".join(f"{migration.app_label}.{migration.name}" for migration, _ in plan[:3])
        if len(plan) > 3:
            names += ", …"
        return [f"{len(plan)} migration(s) not applied ({names}): run manage.py migrate"]
    return []


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 ``{"status": "ok"}``, or 503 with the problems."""
    found = problems()
    body = {
        "status": "unavailable" if found else "ok",
        "version": settings.VERSION,
        "problems": found,
        "warnings": warnings(request),
    }
    return HttpResponse(
        json.dumps(body), status=503 if found else 200, content_type="application/json"
    )

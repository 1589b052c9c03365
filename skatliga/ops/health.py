"""``/healthz``: is this instance fit to serve? For load balancers, systemd and monitoring.

It reads the database (one connection, the list of applied migrations) and writes one
short-lived key to the page cache; it touches no session (no cookie, no session row).
Problems (503) keep the site from serving; warnings (still 200) need the operator soon.
"""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from skatliga.ops import proxies
from skatliga.tasks.worker import health_warnings as task_warnings

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
    found = [w for w in [migration_warning(), backup_warning()] if w] + task_warnings()
    if proxies.forwarded_without_count(request):
        found.append(PROXY_COUNT_ZERO)
    return found


@dataclass(frozen=True)
class Migrations:
    """The migrations this process runs with, read from disk once (``known_migrations``)."""

    nodes: dict[tuple[str, str], int]
    """Every migration of the code, and those a squashed one replaces, with its place in the
    order ``migrate`` applies them."""
    folders: tuple[tuple[str, tuple[str, ...]], ...]
    """Each app's migration folders, to see migrations put on disk since."""
    newest: str
    """The newest of skatliga's own, as ``skatliga.0030_…``."""
    error: str = ""
    """Why the migrations could not be read, if they could not."""


@functools.cache
def known_migrations() -> Migrations:
    """The code's migrations, read once per process: ``wsgi.py`` reads them at the start.

    Read later, after ``git pull``, they would be the new code's, which the old process may
    not even be able to import; a failure is kept as the problem it reports, in one line.
    """
    try:
        loader = MigrationLoader(None, ignore_no_migrations=True)
        nodes: dict[tuple[str, str], int] = {}
        for leaf in loader.graph.leaf_nodes():
            for key in loader.graph.forwards_plan(leaf):
                nodes.setdefault(key, len(nodes))
        for migration in loader.replacements.values():
            for key in migration.replaces:
                nodes.setdefault(key, len(nodes))
        folders = []
        for app_label in sorted(loader.migrated_apps):
            module_name, _explicit = MigrationLoader.migrations_module(app_label)
            if module_name is None:
                continue
            module = importlib.import_module(module_name)
            folders.append((app_label, tuple(getattr(module, "__path__", ()))))
        [(_app, newest)] = loader.graph.leaf_nodes("skatliga")
    except Exception as failure:  # any import error of any migration file
        error = f"{type(failure).__name__}: {failure}".splitlines()[0]
        return Migrations({}, (), "", error)
    return Migrations(nodes, tuple(folders), f"skatliga.{newest}")


def _on_disk(known: Migrations) -> set[tuple[str, str]]:
    """The migration files in the code's folders now, by name, without importing any."""
    found = set()
    for app_label, paths in known.folders:
        for module in pkgutil.iter_modules(paths):
            if not module.ispkg and module.name[0] not in "_~":
                found.add((app_label, module.name))
    return found


def _names(keys: Iterable[tuple[str, str]], order: dict[tuple[str, str], int]) -> str:
    """The first three, in the order ``migrate`` applies them (new files last)."""
    keys = sorted(keys, key=lambda key: (order.get(key, len(order)), key))
    names = ", ".join(f"{app}.{name}" for app, name in keys[:3])
    return names + (", …" if len(keys) > 3 else "")


def _database_problems(alias: str) -> list[str]:
    """Unreachable, or behind the code's migrations (the process's own, or those put on disk
    since it started: between ``git pull`` and ``migrate``)."""
    known = known_migrations()
    if known.error:
        return [f"migrations unreadable by this process ({known.error}): reload after migrate"]
    connection = connections[alias]
    try:
        connection.ensure_connection()
        applied = MigrationRecorder(connection).applied_migrations()
    except DatabaseError as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return [f"database unreachable: {type(error).__name__}: {first_line}".rstrip(": ")]
    missing = (set(known.nodes) | _on_disk(known)) - set(applied)
    if missing:
        names = _names(missing, known.nodes)
        return [f"{len(missing)} migration(s) not applied ({names}): run manage.py migrate"]
    return []


def migration_warning(alias: str = "default") -> str | None:
    """Migrations applied that this process does not know: the code was upgraded and migrated
    but the process not reloaded yet."""
    known = known_migrations()
    if known.error:
        return None
    try:
        applied = MigrationRecorder(connections[alias]).applied_migrations()
    except DatabaseError:
        return None
    apps = {app for app, _paths in known.folders}
    newer = {key for key in applied if key[0] in apps and key not in known.nodes}
    if newer:
        names = _names(newer, known.nodes)
        return f"the database has migrations this process does not run ({names}): reload"
    return None


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 ``{"status": "ok"}``, or 503 with the problems."""
    found = problems()
    body = {
        "status": "unavailable" if found else "ok",
        "version": settings.VERSION,
        "migration": known_migrations().newest,
        "problems": found,
        "warnings": warnings(request),
    }
    return HttpResponse(
        json.dumps(body), status=503 if found else 200, content_type="application/json"
    )

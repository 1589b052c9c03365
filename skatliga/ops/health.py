"""``/healthz``: is this instance fit to serve? For load balancers, systemd and monitoring.

It reads only: one connection to the database and the list of applied migrations. It touches
no session (no cookie, no session row) and writes nothing.
"""

from __future__ import annotations

import json

from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


def problems(alias: str = "default") -> list[str]:
    """What keeps the site from serving: an unreachable database or unapplied migrations.

    Each problem is one line for an operator; an empty list means healthy.
    """
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
    body = {"status": "unavailable" if found else "ok", "problems": found}
    return HttpResponse(
        json.dumps(body), status=503 if found else 200, content_type="application/json"
    )

"""What a table sees of its asks to the referee: its last call and its objections with the
answers (``table/_help_status.html``). The help page shows them all; the list's page shows
what is waiting and the answers of the last half hour, so that the players see there too
that the referee saw their call or decided their objection."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from skatliga.models import Objection, RefereeCall, Table

RECENT = datetime.timedelta(minutes=30)
"""How long the list's page shows an answer (a call seen, an objection decided)."""


def status(table: Table, *, recent: bool = False) -> dict[str, Any]:
    """The table's last call and its objections, the latest first; with ``recent``, only
    what is waiting and what was answered in the last :data:`RECENT`."""
    calls = RefereeCall.objects.filter(table=table)
    objections = Objection.objects.filter(game__table=table)
    if recent:
        since = timezone.now() - RECENT
        calls = calls.filter(Q(acknowledged_at__isnull=True) | Q(acknowledged_at__gte=since))
        objections = objections.filter(Q(decided_at__isnull=True) | Q(decided_at__gte=since))
    return {
        "call": calls.order_by("-created_at", "-id").first(),
        "objections": list(
            objections.select_related("game", "seat__player").order_by("-created_at", "-id")
        ),
    }

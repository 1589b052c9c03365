"""Publishing: a series' results are provisional until the referee publishes them.

Publishing needs every list of the series closed; a published series' lists cannot be
reopened until the publication is withdrawn (with a reason). Both are logged as ``Change``.
``Series.objects.public()`` is the query every public reader filters on.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from skatliga import revisions
from skatliga.models import Change, Series, Table, Tournament
from skatliga.services.common import ServiceError, User, acting_user, lock_tournament


def objections_until(
    tournament: Tournament, published_at: datetime.datetime
) -> datetime.datetime | None:
    """The end of the objection window of a series published at ``published_at``: the
    tournament's ``objection_minutes`` later, on the next full minute (the public pages say
    "Einspruch bis 21:45"); None without a window.

    >>> at = datetime.datetime(2026, 11, 27, 21, 30, 40, tzinfo=datetime.UTC)
    >>> objections_until(Tournament(objection_minutes=15), at).time()
    datetime.time(21, 46)
    >>> objections_until(Tournament(objection_minutes=0), at) is None
    True
    """
    if not tournament.objection_minutes:
        return None
    end = published_at + datetime.timedelta(minutes=tournament.objection_minutes)
    whole = end.replace(second=0, microsecond=0)
    return whole if whole == end else whole + datetime.timedelta(minutes=1)


def _lock_series(series: Series) -> Series:
    """The series locked after its tournament (``common.lock_tournament``)."""
    tournament = lock_tournament(series=series.pk)
    series = Series.objects.select_for_update().get(pk=series.pk)
    series.tournament = tournament
    return series


@transaction.atomic
def publish_series(series: Series, *, user: User = None) -> Series:
    """Publish a series whose lists are all closed: its results become final."""
    series = _lock_series(series)
    if series.is_published:
        raise ServiceError("series_already_published")
    tables = series.tables.count()
    open_tables = series.tables.filter(closed_at__isnull=True).count()
    if tables == 0:
        raise ServiceError("series_without_tables")
    if open_tables:
        raise ServiceError("series_lists_open", count=open_tables)
    series.published_at = timezone.now()
    series.published_by = acting_user(user)
    series.objections_until = objections_until(series.tournament, series.published_at)
    series.save(update_fields=["published_at", "published_by", "objections_until"])
    Change.objects.create(
        user=acting_user(user),
        tournament=series.tournament,
        series=series,
        action=Change.Action.SERIES_PUBLISHED,
        after={"series": series.number, "published_at": series.published_at.isoformat()},
    )
    return series


@transaction.atomic
def withdraw_publication(series: Series, *, user: User = None, reason: str) -> Series:
    """Make a published series provisional again, e.g. to correct a list; a reason is required."""
    series = _lock_series(series)
    if not series.is_published:
        raise ServiceError("series_not_published")
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    assert series.published_at is not None
    before = {"series": series.number, "published_at": series.published_at.isoformat()}
    series.published_at = None
    series.published_by = None
    series.objections_until = None
    series.save(update_fields=["published_at", "published_by", "objections_until"])
    Change.objects.create(
        user=acting_user(user),
        tournament=series.tournament,
        series=series,
        action=Change.Action.SERIES_WITHDRAWN,
        before=before,
        after={"series": series.number, "published_at": None},
        reason=reason.strip(),
    )
    return series


@transaction.atomic(savepoint=False)
def publish_complete_series(tournament: Tournament, *, user: User = None) -> list[Series]:
    """Publish every unpublished series of ``tournament`` whose lists are all closed (an
    import of a finished tournament, the demo league); returns those published.

    As :func:`publish_series` does for each, in five statements for them all: the
    tournament's lock, the series to publish (one table at least, none open), one update
    of them, one insert of their ``Change`` rows, the revisions. Inside a caller's
    transaction (an import) without a savepoint of its own: it raises no error of its own
    to recover from, and a database error fails the caller's transaction."""
    tournament = lock_tournament(pk=tournament.pk)
    now, by = timezone.now(), acting_user(user)
    tables = Table.objects.filter(series=OuterRef("pk"))
    candidates = list(
        tournament.series.filter(published_at__isnull=True)
        .filter(Exists(tables), ~Exists(tables.filter(closed_at__isnull=True)))
        .order_by("number")
    )
    if not candidates:
        return []
    until = objections_until(tournament, now)
    Series.objects.filter(pk__in=[series.pk for series in candidates]).update(
        published_at=now, published_by=by, objections_until=until
    )
    for series in candidates:
        series.tournament, series.published_at, series.published_by = tournament, now, by
        series.objections_until = until
    Change.objects.bulk_create(
        [
            Change(
                user=by,
                tournament=tournament,
                series=series,
                action=Change.Action.SERIES_PUBLISHED,
                after={"series": series.number, "published_at": now.isoformat()},
            )
            for series in candidates
        ]
    )
    revisions.touch(tournament)
    return candidates

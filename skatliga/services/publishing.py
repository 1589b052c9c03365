"""Publishing: a series' results are provisional until the referee publishes them.

Publishing needs every list of the series closed; a published series' lists cannot be
reopened until the publication is withdrawn (with a reason). Both are logged as ``Change``.
``Series.objects.public()`` is the query every public reader filters on.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from skatliga import revisions, statements
from skatliga.models import Change, Series, Table, Tournament
from skatliga.services.common import ServiceError, User, acting_user, lock_tournament


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
    series.save(update_fields=["published_at", "published_by"])
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
    series.save(update_fields=["published_at", "published_by"])
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

    As :func:`publish_series` does for each, in four statements for them all: the
    tournament's lock, one ``UPDATE … RETURNING`` that picks and publishes the series (one
    table at least, none open), one insert of their ``Change`` rows, the revisions. Inside
    a caller's transaction (an import) without a savepoint of its own: it raises no error
    of its own to recover from, and a database error fails the caller's transaction."""
    tournament = lock_tournament(pk=tournament.pk)
    now, by = timezone.now(), acting_user(user)
    column = statements.column
    series_id = f"{statements.table_of(Series)}.{column(Series, 'id')}"
    tables, table_series = statements.table_of(Table), column(Table, "series")
    sql = (
        f"UPDATE {statements.table_of(Series)} SET {column(Series, 'published_at')} = %s, "
        f"{column(Series, 'published_by')} = %s "
        f"WHERE {column(Series, 'tournament')} = %s AND {column(Series, 'published_at')} IS NULL "
        f"AND EXISTS (SELECT 1 FROM {tables} t WHERE t.{table_series} = {series_id}) "
        f"AND NOT EXISTS (SELECT 1 FROM {tables} t WHERE t.{table_series} = {series_id} "
        f"AND t.{column(Table, 'closed_at')} IS NULL) "
        f"RETURNING {column(Series, 'id')}, {column(Series, 'number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            sql,
            [
                connection.ops.adapt_datetimefield_value(now),
                None if by is None else by.pk,
                tournament.pk,
            ],
        )
        published = sorted(cursor.fetchall(), key=lambda row: row[1])
    if not published:
        return []
    candidates = [
        statements.stored(
            Series(pk=pk, tournament=tournament, number=number, published_at=now, published_by=by)
        )
        for pk, number in published
    ]
    statements.insert_all(
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

"""Table links: issue, renew and revoke them, and find the table a token or code opens."""

from __future__ import annotations

from django.db import transaction

from skatliga.models import Series, Table, TableLink
from skatliga.services import User
from skatliga.services.links import CODE_ALPHABET as CODE_ALPHABET
from skatliga.services.links import TOKEN_BYTES as TOKEN_BYTES
from skatliga.services.links import by_code, is_token, issue, revoke
from skatliga.services.links import format_code as format_code


def _lock(table: Table) -> Table:
    return Table.objects.select_for_update().get(pk=table.pk)


def _revoke_active(table: Table) -> int:
    return revoke(TableLink.objects.filter(table=table))


def _issue(table: Table, user: User) -> TableLink:
    return issue(TableLink, user, table=table)


def renew_link(table: Table, *, user: User = None) -> TableLink:
    """Revoke the table's link, if it has one, and issue a new token and code."""
    with transaction.atomic():
        table = _lock(table)
        _revoke_active(table)
        return _issue(table, user)


def revoke_link(table: Table, *, user: User = None) -> None:
    """Close the table's link: its token and code open nothing any more."""
    with transaction.atomic():
        _revoke_active(_lock(table))


def ensure_links(series: Series, *, user: User = None) -> None:
    """Issue a link to every table of ``series`` that never had one (a revoked one stays so)."""
    linked = TableLink.objects.values("table_id")
    missing = list(series.tables.exclude(pk__in=linked).values_list("pk", flat=True))
    if not missing:
        return
    with transaction.atomic():
        # Locked by id: PostgreSQL cannot lock the nullable side of an outer join.
        for table in Table.objects.select_for_update().filter(pk__in=missing).order_by("pk"):
            if not TableLink.objects.filter(table=table).exists():
                _issue(table, user)


def active_links(series: Series) -> dict[int, TableLink]:
    """Each table's current link by table id."""
    return {
        link.table_id: link
        for link in TableLink.objects.filter(
            table__series=series, revoked_at__isnull=True
        ).select_related("table")
    }


def link_for_token(token: str) -> TableLink | None:
    """The unrevoked link with this token, with its table, series and tournament."""
    if not is_token(token):
        return None
    return (
        TableLink.objects.select_related("table__series__tournament")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def link_for_code(text: str) -> TableLink | None:
    return by_code(TableLink.objects.all(), text)

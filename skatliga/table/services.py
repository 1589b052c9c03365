"""Table links: issue, renew and revoke them, and find the table a token or code opens."""

from __future__ import annotations

import re
import secrets

from django.db import transaction
from django.utils import timezone

from skatliga.models import Series, Table, TableLink
from skatliga.services import User, acting_user

# 31 letters and digits a player cannot misread (no 0/O, 1/I/L): 8 of them are 39 bits, and
# the code lookup is rate-limited. The token itself carries 192 bits.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
TOKEN_BYTES = 24


def new_token() -> str:
    """An unguessable, URL-safe token of ``TOKEN_BYTES`` random bytes (192 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    """The code as stored, from what a player typed: case, spaces and dashes do not matter.

    >>> normalize_code(" abcd-efgh ")
    'ABCDEFGH'
    """
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def format_code(code: str) -> str:
    """The code in two groups of four, as printed: ``ABCD-EFGH``.

    >>> format_code("ABCDEFGH")
    'ABCD-EFGH'
    """
    return f"{code[:4]}-{code[4:]}"


def _lock(table: Table) -> Table:
    return Table.objects.select_for_update().get(pk=table.pk)


def _revoke_active(table: Table) -> int:
    return TableLink.objects.filter(table=table, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def _issue(table: Table, user: User) -> TableLink:
    code = new_code()
    while TableLink.objects.filter(code=code).exists():
        code = new_code()
    return TableLink.objects.create(
        table=table, token=new_token(), code=code, created_by=acting_user(user)
    )


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
    if not re.fullmatch(r"[\w-]{1,64}", token, re.ASCII):
        return None
    return (
        TableLink.objects.select_related("table__series__tournament")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def link_for_code(text: str) -> TableLink | None:
    code = normalize_code(text)
    if len(code) != CODE_LENGTH:
        return None
    return TableLink.objects.filter(code=code, revoked_at__isnull=True).first()

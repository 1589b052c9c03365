"""Capability links (``models.links.Link``): a table's and a team's. Issue a link's token and
short code, revoke it, and find the unrevoked link a token or a typed code opens. The table
link's services (``services.table_links``) and the team link's (``services.matchdays``) ask here."""

from __future__ import annotations

import re
import secrets
from typing import Any, TypeVar

from django.db.models import QuerySet
from django.utils import timezone

from skatliga.models.links import Link
from skatliga.services.common import User, acting_user

# 31 letters and digits a player cannot misread (no 0/O, 1/I/L): 8 of them are 39 bits, and
# the code lookup is rate-limited. The token itself carries 192 bits.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
TOKEN_BYTES = 24

L = TypeVar("L", bound=Link)


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


def is_token(text: str) -> bool:
    """Whether ``text`` can be a token (a NUL or a stray character never reaches the
    database)."""
    return re.fullmatch(r"[\w-]{1,64}", text, re.ASCII) is not None


def issue(model: type[L], user: User, **owner: Any) -> L:
    """A new link of ``model`` for ``owner`` (``table=…``, ``team=…``) with a fresh token and
    a code no link of that kind has."""
    code = new_code()
    while model._default_manager.filter(code=code).exists():
        code = new_code()
    return model._default_manager.create(
        token=new_token(), code=code, created_by=acting_user(user), **owner
    )


def revoke(links: QuerySet[L]) -> int:
    """Revoke the unrevoked ``links``: their tokens and codes open nothing any more."""
    return links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def by_code(links: QuerySet[L], text: str) -> L | None:
    """The unrevoked link among ``links`` whose code is what was typed."""
    code = normalize_code(text)
    if len(code) != CODE_LENGTH:
        return None
    return links.filter(code=code, revoked_at__isnull=True).first()

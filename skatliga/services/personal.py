"""Personal links ("Mein Abend"): issue each registration's token, and find the registration a
token opens. The table cards, the seat slips, the check-in confirmation and the personal page
all ask here."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable

from django.db import IntegrityError, transaction

from skatliga.models import PersonalLink, Registration

TOKEN_BYTES = 16
"""128 random bits, as the check-in's: short enough for a small QR code beside a seat on
the table card, and guessing is rate-limited (docs/security.md)."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(text: str) -> bool:
    """Whether ``text`` has the shape of a token: URL-safe base64, as ``new_token`` makes."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,64}", text) is not None


def personal_tokens(registrations: Iterable[Registration]) -> dict[int, str]:
    """The token of each registration by its id, issued now where it has none."""
    wanted = {registration.pk for registration in registrations}
    found = dict(
        PersonalLink.objects.filter(registration__in=wanted).values_list("registration", "token")
    )
    for pk in wanted - set(found):
        found[pk] = _issue(pk)
    return found


def personal_token(registration: Registration) -> str:
    return personal_tokens([registration])[registration.pk]


def _issue(registration_pk: int) -> str:
    """A new token for the registration; another request that issued one first wins."""
    try:
        with transaction.atomic():
            return PersonalLink.objects.create(
                registration_id=registration_pk, token=new_token()
            ).token
    except IntegrityError:
        return PersonalLink.objects.values_list("token", flat=True).get(
            registration_id=registration_pk
        )


def registration_for_token(token: str) -> Registration | None:
    """The registration whose link has this token, with its player and tournament; None for
    a text that cannot be a token (a NUL or a stray character never reaches the database)."""
    if not is_token(token):
        return None
    return (
        Registration.objects.select_related("player__club", "tournament")
        .filter(personal_link__token=token)
        .first()
    )

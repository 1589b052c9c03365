"""Forms of the referee's pages: they parse what was typed; the services decide and save.

Errors carry the same codes as the engine and the services (``ValidationError.code``); the
words come from :mod:`skatliga.messages`. ``entry``: a row of a list and the list's own
forms; ``parsing``: what is typed into a row; ``tournaments``: a tournament's settings, its
referees, its change log, the archive; ``players``: players, teams, the draw, seats and
substitutes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict

from skatliga.messages import message


def coded_error(code: str, **params: Any) -> ValidationError:
    return ValidationError(message(code, **params), code=code)


def posted_text(data: QueryDict, name: str) -> str:
    """A text field a view reads without a form of its own (a reason, a guest's name),
    cleaned by a form's ``CharField``, the one check every text input passes: a NUL, which
    PostgreSQL refuses in any text, raises ``ValidationError`` (code
    ``null_characters_not_allowed``, in the user's language) instead of reaching the database.
    The text is kept as typed otherwise; the service checks its length and content."""
    try:
        return str(forms.CharField(required=False, strip=False).clean(data.get(name, "")))
    except ValidationError as refused:
        raise refused.error_list[0] from None  # the one error, with its code


def without_nul(text: str) -> str:
    """What was typed, shown again in a form after an error, without the NUL refused."""
    return text.replace("\x00", "")

"""Forms of the referee's pages: they parse what was typed; the services decide and save.

Errors carry the same codes as the engine and the services (``ValidationError.code``); the
words come from :mod:`skatliga.messages`. ``entry``: a row of a list and the list's own
forms; ``parsing``: what is typed into a row; ``tournaments``: a tournament's settings, its
referees, its change log, the archive; ``players``: players, teams, the draw, seats and
substitutes.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from skatliga.messages import message


def coded_error(code: str, **params: Any) -> ValidationError:
    return ValidationError(message(code, **params), code=code)

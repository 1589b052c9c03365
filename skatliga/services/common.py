"""What every use case shares: the errors it raises and the user it acts for."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

import scoring
from skatliga.models import (
    Game,
)

User = AbstractBaseUser | AnonymousUser | None


class ServiceError(Exception):
    """A request the rules or the state refuse, with a stable ``code`` and every problem."""

    def __init__(
        self,
        code: str,
        field: str | None = None,
        problems: Sequence[scoring.Problem] = (),
        **params: Any,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.field = field
        self.problems = tuple(problems) or (scoring.Problem(code, field),)
        self.params = params


class Conflict(ServiceError):
    """Someone else changed the row meanwhile; ``current`` is the row as it is now."""

    def __init__(self, current: Game | None) -> None:
        super().__init__("conflict")
        self.current = current


def acting_user(user: User) -> Any:
    """The user to record as author: None for an anonymous request."""
    return user if user is not None and user.is_authenticated else None

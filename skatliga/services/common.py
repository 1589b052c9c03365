"""What every use case shares: the errors it raises, the user it acts for, the first lock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

import scoring
from skatliga.models import Change, Game, SecondEntry, Table, Tournament

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

    def __init__(self, current: Game | SecondEntry | None) -> None:
        super().__init__("conflict")
        self.current = current


def acting_user(user: User) -> Any:
    """The user to record as author: None for an anonymous request."""
    return user if user is not None and user.is_authenticated else None


def lock_tournaments(**where: Any) -> list[Tournament]:
    """The tournaments ``where`` selects, their rows locked in the order of their ids.

    Every writing service takes this lock first, before any row below a tournament (series,
    tables, seats, games, results, registrations, its purse) and before the season row
    (which ``revisions.touch`` raises last): with one order, two services can only wait for
    each other, never deadlock. The lock leaves foreign keys alone (``FOR NO KEY UPDATE``),
    so rows pointing at the tournament can still be written while it is held.
    """
    chosen = Tournament.objects.filter(**where).values("pk")
    return list(
        Tournament.objects.select_for_update(no_key=True).filter(pk__in=chosen).order_by("pk")
    )


def lock_tournament(**where: Any) -> Tournament:
    """The one tournament ``where`` selects, locked as :func:`lock_tournaments` says."""
    return Tournament.objects.select_for_update(no_key=True, of=("self",)).get(**where)


def log_at_table(table: Table, *, user: User = None, **fields: Any) -> None:
    """A line of a list's history (:class:`~skatliga.models.Change`): ``fields`` (the action,
    the game, before and after, the reason, the device) at ``table``, by ``user``."""
    Change.objects.create(
        user=acting_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        **fields,
    )

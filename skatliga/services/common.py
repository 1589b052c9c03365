"""What every use case shares: the errors it raises, the user it acts for, the first lock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import Model
from django.db.transaction import TransactionManagementError

import scoring
from skatliga.models import Game, SecondEntry, Tournament

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
    if where.keys() == {"pk"}:
        # The saves' path: one plain statement, without the query compiler.
        return locked_row(Tournament, where["pk"], no_key=True)
    return Tournament.objects.select_for_update(no_key=True, of=("self",)).get(**where)


ModelT = TypeVar("ModelT", bound=Model)


def locked_row(model: type[ModelT], pk: Any, *, no_key: bool = False) -> ModelT:
    """Row ``pk`` of ``model``, locked (``FOR UPDATE``, or ``FOR NO KEY UPDATE``: see
    :func:`lock_tournaments`) where the database locks rows; ``model.DoesNotExist`` if none.

    The same row and lock as ``select_for_update(of=("self",)).get(pk=pk)``, read as a raw
    statement: a save takes two such locks, and the query compiler costs more than the read.
    """
    features = connection.features
    lock = ""
    if features.has_select_for_no_key_update and no_key:
        lock = " FOR NO KEY UPDATE"
    elif features.has_select_for_update:
        lock = " FOR UPDATE"
    if lock and not connection.in_atomic_block:
        raise TransactionManagementError("a row is locked only inside a transaction")
    return row_by_pk(model, pk, lock)


def row_by_pk(model: type[ModelT], pk: Any, lock: str = "") -> ModelT:
    """Row ``pk`` of ``model`` (``model.objects.get(pk=pk)``) read as a raw statement, with
    the ``lock`` clause given; ``model.DoesNotExist`` if none."""
    q = connection.ops.quote_name
    meta = model._meta
    assert meta.pk is not None and meta.pk.column is not None
    sql = f"SELECT * FROM {q(meta.db_table)} WHERE {q(meta.pk.column)} = %s{lock}"
    rows = list(model._default_manager.raw(sql, [pk]))
    if not rows:
        missing: type[Exception] = model.DoesNotExist  # type: ignore[attr-defined]
        raise missing(f"{meta.object_name} matching query does not exist.")
    return rows[0]

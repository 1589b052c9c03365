"""Plain SQL statements for the hot paths, where Django's query compiler costs more than the
database: a game's save reads and writes a dozen rows, each by its key, and compiling each
ORM query took longer than running it. Each function names the ORM call it stands for; the
statements are the same rows, locks and values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model
from django.db.transaction import TransactionManagementError

ModelT = TypeVar("ModelT", bound=Model)


def quote(name: str) -> str:
    return str(connection.ops.quote_name(name))


def table_of(model: type[Model]) -> str:
    """The quoted table of ``model``."""
    return quote(model._meta.db_table)


def column(model: type[Model], name: str) -> str:
    """The quoted column of field ``name`` of ``model``."""
    return quote(str(model._meta.get_field(name).column))  # type: ignore[union-attr]


def select_from(model: type[Model]) -> str:
    """``SELECT`` every column of ``model`` by name ``FROM`` its table: not ``*``, whose
    prepared statement (PostgreSQL) would fail once a migration adds a column."""
    columns = ", ".join(quote(str(field.column)) for field in model._meta.concrete_fields)
    return f"SELECT {columns} FROM {table_of(model)}"


def row_by_pk(model: type[ModelT], pk: Any, lock: str = "") -> ModelT:
    """``model.objects.get(pk=pk)``, with the ``lock`` clause given; ``model.DoesNotExist``
    if there is no such row."""
    meta = model._meta
    assert meta.pk is not None and meta.pk.column is not None
    sql = f"{select_from(model)} WHERE {quote(meta.pk.column)} = %s{lock}"
    rows = list(model._default_manager.raw(sql, [pk]))
    if not rows:
        missing: type[Exception] = model.DoesNotExist  # type: ignore[attr-defined]
        raise missing(f"{meta.object_name} matching query does not exist.")
    return rows[0]


def locked_row(model: type[ModelT], pk: Any, *, no_key: bool = False) -> ModelT:
    """``model.objects.select_for_update(of=("self",)).get(pk=pk)`` (``FOR NO KEY UPDATE``
    with ``no_key``) where the database locks rows; only inside a transaction."""
    features = connection.features
    lock = ""
    if features.has_select_for_no_key_update and no_key:
        lock = " FOR NO KEY UPDATE"
    elif features.has_select_for_update:
        lock = " FOR UPDATE"
    if lock and not connection.in_atomic_block:
        raise TransactionManagementError("a row is locked only inside a transaction")
    return row_by_pk(model, pk, lock)


def rows_where(model: type[ModelT], field: str, value: Any) -> list[ModelT]:
    """``list(model.objects.filter(**{field: value}))``, in no order."""
    sql = f"{select_from(model)} WHERE {column(model, field)} = %s"
    return list(model._default_manager.raw(sql, [value]))


def delete_where(model: type[Model], field: str, value: Any) -> int:
    """``model.objects.filter(**{field: value}).delete()`` for rows nothing refers to (the
    ORM's fast delete); the number deleted."""
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {table_of(model)} WHERE {column(model, field)} = %s", [value])
        return int(cursor.rowcount)


def _fields(model: type[Model]) -> list[Any]:
    return [field for field in model._meta.concrete_fields if not field.primary_key]


def _insert(rows: Sequence[Model], returning: bool) -> list[Any]:
    """Insert ``rows`` (all of one model) as few statements as the database allows; with
    ``returning``, their new ids in the order of ``rows``."""
    model = type(rows[0])
    fields = _fields(model)
    head = f"INSERT INTO {table_of(model)} ({', '.join(quote(f.column) for f in fields)}) VALUES "
    values = "(" + ", ".join(["%s"] * len(fields)) + ")"
    tail = ""
    if returning:
        assert model._meta.pk is not None and model._meta.pk.column is not None
        tail = f" RETURNING {quote(model._meta.pk.column)}"
    ids: list[Any] = []
    size = max(connection.ops.bulk_batch_size(fields, rows), 1)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start : start + size]
            params = [
                field.get_db_prep_save(field.pre_save(row, True), connection)
                for row in batch
                for field in fields
            ]
            cursor.execute(head + ", ".join([values] * len(batch)) + tail, params)
            if returning:
                ids += [row[0] for row in cursor.fetchall()]
    return ids


def insert(row: Model) -> None:
    """``row.save()`` of a new row that nothing reads back: its id stays None."""
    _insert([row], returning=False)


def stored(row: ModelT) -> ModelT:
    """``row``, marked as the database's row (as after ``save()``): its id already set."""
    row._state.adding = False
    row._state.db = connection.alias
    return row


def create_all(rows: Sequence[ModelT]) -> list[ModelT]:
    """``bulk_create(rows)`` of new rows (of one model) in one statement, each given its id
    (``RETURNING``, as Django's own ``bulk_create`` reads it back on both databases)."""
    if not rows:
        return []
    ids = _insert(rows, returning=True)
    assert len(ids) == len(rows)
    for row, pk in zip(rows, ids, strict=True):
        row.pk = pk
    return [stored(row) for row in rows]


def upsert(rows: Sequence[ModelT], unique: Sequence[str], update: Sequence[str]) -> None:
    """``bulk_create(rows, update_conflicts=True, unique_fields=unique, update_fields=update)``
    as one statement; the rows' ids stay as they were."""
    if not rows:
        return
    model = type(rows[0])
    fields = _fields(model)
    values = "(" + ", ".join(["%s"] * len(fields)) + ")"
    updated = [column(model, name) for name in update]
    sql = (
        f"INSERT INTO {table_of(model)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES {', '.join([values] * len(rows))} "
        f"ON CONFLICT ({', '.join(column(model, name) for name in unique)}) DO UPDATE SET "
        + ", ".join(f"{name} = EXCLUDED.{name}" for name in updated)
    )
    params = [
        field.get_db_prep_save(getattr(row, field.attname), connection)
        for row in rows
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)

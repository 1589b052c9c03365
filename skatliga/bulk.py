"""Inserting many new rows at once, at the speed of the database's own bulk path.

``Model.objects.bulk_create`` compiles every value of every row through the field's SQL
preparation (most of an import's time went there). :func:`insert` writes the same rows with
``COPY … FROM STDIN`` on PostgreSQL and one prepared ``executemany`` on SQLite: the values go
to the database driver as they are (integers, strings, booleans, None; times adapted once per
field), the constraints are the database's as always, and the caller's transaction keeps it
all or nothing. For new rows whose ids nobody needs afterwards (games, seats, result rows
of an import).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from operator import itemgetter
from typing import Any

from django.db import connection, models
from django.utils import timezone

_AS_THEY_ARE = (
    models.IntegerField,
    models.BooleanField,
    models.CharField,
    models.TextField,
    models.ForeignKey,
)
"""Fields whose Python values the drivers take unchanged; others (JSON, decimals, …) are
prepared by the field, once per value."""


def insert(model: type[models.Model], objects: Sequence[models.Model | Mapping[str, Any]]) -> None:
    """Insert ``objects`` into ``model``'s table: unsaved instances without primary keys, or
    mappings of attribute names to values (every field left out takes its default), which
    spare building a model instance for each row."""
    if not objects:
        return
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    now = timezone.now()
    base = {field.attname: field.get_default() for field in fields}
    # Set once for every row: auto_now fields, already adapted.
    constant: dict[str, Any] = {}
    adapt: dict[int, Callable[[Any], Any]] = {}
    for index, field in enumerate(fields):
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            constant[field.attname] = connection.ops.adapt_datetimefield_value(now)
        elif isinstance(field, models.DateTimeField):
            adapt[index] = connection.ops.adapt_datetimefield_value
        elif isinstance(field, models.DateField):
            adapt[index] = connection.ops.adapt_datefield_value
        elif not isinstance(field, _AS_THEY_ARE):
            adapt[index] = partial(field.get_db_prep_save, connection=connection)
    row_of = itemgetter(*(field.attname for field in fields))
    rows: list[Any] = [
        row_of({**base, **(obj.__dict__ if isinstance(obj, models.Model) else obj), **constant})
        for obj in objects
    ]
    if adapt:
        # None is NULL to every field and driver: only other values are prepared.
        for number, row in enumerate(rows):
            values = None
            for index, prepare in adapt.items():
                if row[index] is not None:
                    values = values or list(row)
                    values[index] = prepare(row[index])
            if values is not None:
                rows[number] = values
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(str(field.column)) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)

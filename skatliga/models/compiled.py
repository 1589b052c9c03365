"""The ORM's statements on the hottest paths, compiled once and run again with other keys.

Compiling a query (joins, the columns of ``select_related``, ordering, locking) costs the ORM
more than running it: a table link's lookup with its table, series and tournament took
3.5–3.6 ms of CPU through the ORM, 1.7–2.0 ms of it compiling, and 0.5–0.7 ms compiled once
(PostgreSQL, the bench's championship evening, best of 5 × 400 on a machine busy with the
test suite). Here a query is built once per ``name`` and database with stand-ins
for its keys, compiled by the ORM, and its statement run again with the keys of each call;
the rows are made into instances by the ORM's own iterable (``select_related`` followed,
annotations set, field converters applied), or returned as the database sends them.

A query for this is one whose shape does not depend on the keys: the same filters, joins
and ordering for every call, the keys only compared (``filter(pk=key)``, ``token=key``).
No statement is written by hand.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.constants import MULTI

ModelT = TypeVar("ModelT", bound=models.Model)
Key = int | str

_INT_STAND_INS = tuple(2_000_000_101 + n for n in range(4))
_TEXT_STAND_INS = tuple(f"\x1fskatliga-stand-in-{n}\x1f" for n in range(4))
_COMPILED: dict[Hashable, tuple[models.QuerySet[Any], SQLCompiler, str, tuple[Any, ...]]] = {}


def _stand_ins(keys: Sequence[Key]) -> list[Key]:
    return [
        _INT_STAND_INS[n] if isinstance(key, int) else _TEXT_STAND_INS[n]
        for n, key in enumerate(keys)
    ]


def _ready(
    name: Hashable, build: Callable[..., models.QuerySet[Any]], keys: Sequence[Key]
) -> tuple[models.QuerySet[Any], SQLCompiler]:
    """The query built with stand-ins, and its compiler answering this call's statement."""
    connection = connections[DEFAULT_DB_ALIAS]
    stand_ins = _stand_ins(keys)
    key = (connection.vendor, name)
    found = _COMPILED.get(key)
    if found is None:
        template = build(*stand_ins)
        compiler = template.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        found = _COMPILED[key] = (template, compiler, sql, tuple(params))
    template, compiler, sql, params = found
    by_stand_in = dict(zip(stand_ins, keys, strict=True))
    bound = tuple(by_stand_in.get(p, p) if type(p) in (int, str) else p for p in params)
    ready = copy.copy(compiler)
    ready.connection = connection  # this thread's
    ready.as_sql = lambda *args, **kwargs: (sql, bound)  # type: ignore[method-assign]
    return template, ready


def compiled_objects(
    name: Hashable, build: Callable[..., models.QuerySet[ModelT]], *keys: Key
) -> list[ModelT]:
    """The model instances of ``build(*keys)``, as the ORM makes them, its statement
    compiled once per ``name``: for reads by key on every save and preview."""
    template, ready = _ready(name, build, keys)
    queryset = template.all()
    queryset.query.get_compiler = lambda *args, **kwargs: ready  # type: ignore[method-assign]
    return list(queryset)


def compiled_rows(
    name: Hashable, build: Callable[..., models.QuerySet[Any]], *keys: Key
) -> list[tuple[Any, ...]]:
    """The rows of ``build(*keys)`` as the database returns them (no field converters), its
    statement compiled once per ``name``: for the small queries of a public page, whose
    compiling cost 10 to 100 times their running: running_in 5.3 ms compiled against 0.04 ms
    run, a series' table cards 6.2 ms against 0.4 ms (SQLite, the bench's small season, on a
    busy machine)."""
    _, ready = _ready(name, build, keys)
    chunks = ready.execute_sql(MULTI)
    return [tuple(row) for chunk in chunks or () for row in chunk]

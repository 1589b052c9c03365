"""Backups of the whole database, and the databases a restore works in.

SQLite goes through SQLite's online backup API, which copies a consistent snapshot while the
site keeps running (WAL mode: readers and the one writer go on). PostgreSQL goes through
``pg_dump --format=custom`` and ``pg_restore``, which must be installed (Debian:
postgresql-client, of the server's major version or newer).

A restore never writes into the live database first (``skatliga.ops.restore``): the backup
goes into a scratch database beside it (:func:`scratch_database`, :func:`restore_into`), is
checked there, and only then takes the live database's place (:func:`switch`), the live one
kept under another name. On PostgreSQL that needs the right to create databases
(``ALTER ROLE skatliga CREATEDB``); the switch renames the two databases and refuses while
the site is still connected.

A backup restores only into the same kind of database; to move a tournament between kinds,
use ``export_archive`` and ``import_archive``.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _

from skatliga.models import Player, Season, Tournament

SQLITE_MAGIC = b"SQLite format 3\x00"
POSTGRESQL_MAGIC = b"PGDMP"

Database = dict[str, Any]
"""A database's settings, as in ``settings.DATABASES``."""


class BackupError(Exception):
    """A backup or restore that cannot be done; the message is for the operator."""


def _connection(alias: str) -> BaseDatabaseWrapper:
    connection = connections[alias]
    if connection.vendor not in {"sqlite", "postgresql"}:
        raise BackupError(
            _("Sicherungen gibt es für SQLite und PostgreSQL, nicht für %(vendor)s.")
            % {"vendor": connection.vendor}
        )
    return connection


def kind_of(path: Path) -> str:
    """``"sqlite"`` or ``"postgresql"``: which database a backup file comes from."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(
            _("%(path)s lässt sich nicht lesen: %(error)s")
            % {"path": path, "error": error.strerror}
        ) from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(POSTGRESQL_MAGIC):
        return "postgresql"
    raise BackupError(
        _("%(path)s ist keine Sicherung von skatliga (weder SQLite noch pg_dump).") % {"path": path}
    )


def check_kind(path: Path, vendor: str) -> str:
    """The kind of the backup at ``path``, refused unless it is ``vendor``'s."""
    kind = kind_of(path)
    if kind != vendor:
        raise BackupError(
            _(
                "%(path)s ist eine Sicherung einer %(kind)s-Datenbank, diese Datenbank ist "
                "%(vendor)s. Turniere zwischen beiden trägt export_archive/import_archive."
            )
            % {"path": path, "kind": kind, "vendor": vendor}
        )
    return kind


def is_empty(alias: str = "default") -> bool:
    """No seasons, tournaments, players or users: nothing a restore could overwrite."""
    connection = _connection(alias)
    tables = set(connection.introspection.table_names())
    return not any(
        model._meta.db_table in tables and model.objects.using(alias).exists()
        for model in (Season, Tournament, Player, get_user_model())
    )


def _pg_env(settings: Database) -> tuple[list[str], dict[str, str]]:
    """Connection options for pg_dump and pg_restore; the password goes in the environment."""
    options = []
    if settings.get("HOST"):
        options += ["--host", str(settings["HOST"])]
    if settings.get("PORT"):
        options += ["--port", str(settings["PORT"])]
    if settings.get("USER"):
        options += ["--username", str(settings["USER"])]
    environment = dict(os.environ)
    if settings.get("PASSWORD"):
        environment["PGPASSWORD"] = str(settings["PASSWORD"])
    return options, environment


def _run(program: str, arguments: list[str], environment: dict[str, str]) -> None:
    executable = shutil.which(program)
    if executable is None:
        raise BackupError(
            _("%(program)s fehlt: installieren Sie postgresql-client.") % {"program": program}
        )
    result = subprocess.run(
        [executable, *arguments], env=environment, capture_output=True, text=True
    )
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines() or [f"exit status {result.returncode}"]
        raise BackupError(f"{program}: {lines[-1].removeprefix(program + ': ')}")


def backup(path: Path, alias: str = "default") -> bool:
    """Write a backup of the whole database to ``path`` (replaced only once it is complete).

    True when a file of that name was there before and has been replaced.
    """
    connection = _connection(alias)
    existed = path.exists()
    partial = path.with_name(path.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            target = sqlite3.connect(partial)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
        else:
            settings = connection.settings_dict
            options, environment = _pg_env(settings)
            _run(
                "pg_dump",
                [
                    *options,
                    "--format=custom",
                    "--no-owner",
                    "--no-privileges",
                    "--file",
                    str(partial),
                    str(settings["NAME"]),
                ],
                environment,
            )
        os.replace(partial, path)
    except sqlite3.Error as error:
        raise BackupError(
            _("%(path)s lässt sich nicht schreiben: %(error)s") % {"path": path, "error": error}
        ) from None
    except OSError as error:
        raise BackupError(
            _("%(path)s lässt sich nicht schreiben: %(error)s")
            % {"path": path, "error": error.strerror}
        ) from None
    finally:
        partial.unlink(missing_ok=True)
    return existed


def stamped_name(directory: Path, now: datetime.datetime | None = None) -> Path:
    """A new file in ``directory`` named by the moment: ``skatliga-2026-11-21-041500.backup``
    (a second one in the same second gets ``-2``), so that no backup replaces another."""
    stamp = (now or datetime.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    path = directory / f"skatliga-{stamp}.backup"
    number = 2
    while path.exists():
        path = directory / f"skatliga-{stamp}-{number}.backup"
        number += 1
    return path


# --- the databases a restore works in ---------------------------------------------------------


def _stamp() -> str:
    return datetime.datetime.now().strftime("%Y%m%d_%H%M%S")


def database_url(database: Database) -> str:
    """``DATABASE_URL`` for ``database``: how a ``manage.py`` of its own reaches it."""
    if database["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{database['NAME']}"
    user = quote(str(database.get("USER") or ""), safe="")
    password = quote(str(database.get("PASSWORD") or ""), safe="")
    host = quote(str(database.get("HOST") or ""), safe="")
    port = f":{database['PORT']}" if database.get("PORT") else ""
    login = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    options = {
        key: value
        for key, value in (database.get("OPTIONS") or {}).items()
        if key in {"sslmode", "sslrootcert", "sslcert", "sslkey", "options"}
    }
    query = f"?{urlencode(options)}" if options else ""
    return f"postgres://{login}{host}{port}/{quote(str(database['NAME']), safe='')}{query}"


@contextlib.contextmanager
def _maintenance(database: Database) -> Iterator[Any]:
    """A cursor, in autocommit, on a database other than ``database``: PostgreSQL creates,
    renames and drops databases only from another one."""
    import psycopg

    params = {
        key: value
        for key, value in {
            "host": database.get("HOST"),
            "port": database.get("PORT"),
            "user": database.get("USER"),
            "password": database.get("PASSWORD"),
        }.items()
        if value
    }
    failure: Exception | None = None
    maintenance = None
    for name in ("postgres", "template1"):
        try:
            maintenance = psycopg.connect(dbname=name, autocommit=True, **params)
            break
        except psycopg.Error as error:
            failure = error
    if maintenance is None:
        raise BackupError(f"PostgreSQL: {str(failure).strip().splitlines()[0]}")
    with maintenance, maintenance.cursor() as cursor:
        try:
            yield cursor
        except psycopg.Error as error:
            raise BackupError(f"PostgreSQL: {str(error).strip().splitlines()[0]}") from None


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def scratch_database(live: Database) -> Database:
    """Make an empty database beside ``live`` for a trial: ``<name>_trial_<moment>`` on
    PostgreSQL, ``<file>.trial-<moment>`` beside the SQLite file."""
    if live["ENGINE"].endswith("sqlite3"):
        path = Path(str(live["NAME"]))
        scratch = path.with_name(f"{path.name}.trial-{_stamp()}")
        scratch.unlink(missing_ok=True)
        return {**live, "NAME": str(scratch)}
    suffix = f"_trial_{_stamp()}"
    name = str(live["NAME"])[: 63 - len(suffix)] + suffix
    import psycopg

    with _maintenance(live) as cursor:
        try:
            cursor.execute(f"CREATE DATABASE {_identifier(name)}")
        except psycopg.errors.InsufficientPrivilege:
            raise BackupError(
                _(
                    "Der Datenbanknutzer %(user)s darf keine Datenbank anlegen, und eine "
                    "Sicherung wird erst in einer eigenen Datenbank erprobt: runuser -u "
                    "postgres -- psql -c 'ALTER ROLE %(user)s CREATEDB'"
                )
                % {"user": live.get("USER") or os.environ.get("USER", "")}
            ) from None
    return {**live, "NAME": name}


def drop_database(database: Database) -> None:
    """Remove a scratch database (or file) again."""
    if database["ENGINE"].endswith("sqlite3"):
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(database["NAME"]) + suffix).unlink(missing_ok=True)
        return
    with _maintenance(database) as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {_identifier(str(database['NAME']))} WITH (FORCE)")


def restore_into(path: Path, database: Database) -> None:
    """Load the backup at ``path`` into the empty database ``database``, all or nothing."""
    kind = check_kind(path, "sqlite" if database["ENGINE"].endswith("sqlite3") else "postgresql")
    if kind == "sqlite":
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if source.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError(_("%(path)s ist beschädigt.") % {"path": path})
            target = sqlite3.connect(str(database["NAME"]))
            try:
                source.backup(target)
            finally:
                target.close()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path}: {error}") from None
        finally:
            source.close()
        return
    options, environment = _pg_env(database)
    _run(
        "pg_restore",
        [
            *options,
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            "--dbname",
            str(database["NAME"]),
            str(path),
        ],
        environment,
    )


def switch(live: Database, scratch: Database, *, keep: bool) -> str | None:
    """Put the scratch database in the live one's place; the live one is kept under the name
    returned (``<name>_before_restore_<moment>``), or, with ``keep`` false, dropped.

    PostgreSQL renames the two databases, which it does only while nobody else is connected
    to either: a running site is refused. SQLite copies the scratch file into the live one
    in one step, after copying the live one aside.
    """
    stamp = _stamp()
    if live["ENGINE"].endswith("sqlite3"):
        path = Path(str(live["NAME"]))
        kept = path.with_name(f"{path.name}.before-restore-{stamp}") if keep else None
        source = sqlite3.connect(str(scratch["NAME"]))
        target = sqlite3.connect(str(path))
        try:
            if kept is not None:
                aside = sqlite3.connect(str(kept))
                try:
                    target.backup(aside)
                finally:
                    aside.close()
            source.backup(target)
        except sqlite3.Error as error:
            raise BackupError(f"{path}: {error}") from None
        finally:
            source.close()
            target.close()
        drop_database(scratch)
        return None if kept is None else str(kept)
    name = str(live["NAME"])
    suffix = f"_before_restore_{stamp}"
    kept_name = name[: 63 - len(suffix)] + suffix
    with _maintenance(live) as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )
        (others,) = cursor.fetchone()
        if others:
            raise BackupError(
                _(
                    "%(count)d Verbindungen zur Datenbank %(name)s sind noch offen: erst die "
                    "Seite anhalten (systemctl stop skatliga), dann wiederherstellen."
                )
                % {"count": others, "name": name}
            )
        cursor.execute(f"ALTER DATABASE {_identifier(name)} RENAME TO {_identifier(kept_name)}")
        try:
            cursor.execute(
                f"ALTER DATABASE {_identifier(str(scratch['NAME']))} RENAME TO {_identifier(name)}"
            )
        except Exception:
            cursor.execute(f"ALTER DATABASE {_identifier(kept_name)} RENAME TO {_identifier(name)}")
            raise
        if not keep:
            cursor.execute(f"DROP DATABASE {_identifier(kept_name)}")
            return None
    return kept_name

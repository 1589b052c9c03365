"""Backups of the whole database, and restoring one into an empty database.

SQLite goes through SQLite's online backup API, which copies a consistent snapshot while the
site keeps running (WAL mode: readers and the one writer go on). PostgreSQL goes through
``pg_dump --format=custom`` and ``pg_restore``, which must be installed (Debian:
postgresql-client, of the server's major version or newer).

A backup restores only into the same kind of database; to move a tournament between kinds,
use ``export_archive`` and ``import_archive``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext as _

from skatliga.models import Player, Season, Tournament

SQLITE_MAGIC = b"SQLite format 3\x00"
POSTGRESQL_MAGIC = b"PGDMP"


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


def is_empty(alias: str = "default") -> bool:
    """No seasons, tournaments, players or users: nothing a restore could overwrite."""
    connection = _connection(alias)
    tables = set(connection.introspection.table_names())
    return not any(
        model._meta.db_table in tables and model.objects.using(alias).exists()
        for model in (Season, Tournament, Player, get_user_model())
    )


def _pg_env(settings: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
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
        raise BackupError(f"{program}: {lines[-1]}")


def backup(path: Path, alias: str = "default") -> None:
    """Write a backup of the whole database to ``path`` (replaced only once it is complete)."""
    connection = _connection(alias)
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


def restore(path: Path, *, force: bool = False, alias: str = "default") -> None:
    """Replace the database's contents with the backup at ``path``.

    Refuses a database with data in it unless ``force``, and a backup of the other kind.
    """
    connection = _connection(alias)
    kind = kind_of(path)
    if kind != connection.vendor:
        raise BackupError(
            _(
                "%(path)s ist eine Sicherung einer %(kind)s-Datenbank, diese Datenbank ist "
                "%(vendor)s. Turniere zwischen beiden trägt export_archive/import_archive."
            )
            % {"path": path, "kind": kind, "vendor": connection.vendor}
        )
    if not force and not is_empty(alias):
        raise BackupError(
            _(
                "Die Datenbank ist nicht leer: Wiederherstellen würde ihre Daten ersetzen. "
                "Mit --force geschieht das trotzdem."
            )
        )
    if kind == "sqlite":
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if source.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise BackupError(_("%(path)s ist beschädigt.") % {"path": path})
            connection.ensure_connection()
            source.backup(connection.connection)
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path}: {error}") from None
        finally:
            source.close()
    else:
        settings = connection.settings_dict
        connection.close()
        options, environment = _pg_env(settings)
        _run(
            "pg_restore",
            [
                *options,
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                "--dbname",
                str(settings["NAME"]),
                str(path),
            ],
            environment,
        )
    connection.close()

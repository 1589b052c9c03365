"""Restoring a backup without risking the live data: prove the file first, then switch.

:func:`try_backup` restores a backup into a scratch database beside the live one, refuses a
backup of a newer version than the code, applies the code's migrations to it (a backup of
an older version), checks every list's result rows against its games (``check_results``)
and counts what it holds. ``manage.py check_backup --trial`` stops there and drops the
scratch database: the live data is never touched. :func:`restore` then puts the proven
database in the live one's place (``skatliga.ops.backup.switch``), keeping the live one
under another name, and empties the page cache, whose pages were built from the data
replaced. A damaged file, or one from a newer version, fails in the trial, and the live
database is as it was.

The migrations and the check run as ``manage.py`` of their own with the scratch database as
``DATABASE_URL``: a migration reads and writes the database it runs on, never the live one.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connections, models
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from skatliga.models import Club, Game, Player, Season, Series, Table, Tournament
from skatliga.ops.backup import (
    BackupError,
    Database,
    check_kind,
    database_url,
    drop_database,
    is_empty,
    restore_into,
    scratch_database,
    switch,
)

COUNTED: tuple[tuple[str, object, type[models.Model] | None], ...] = (
    ("seasons", gettext_lazy("Saisons"), Season),
    ("tournaments", gettext_lazy("Turniere"), Tournament),
    ("series", gettext_lazy("Serien"), Series),
    ("lists", gettext_lazy("Listen"), Table),
    ("games", gettext_lazy("Spiele"), Game),
    ("players", gettext_lazy("Spieler"), Player),
    ("clubs", gettext_lazy("Vereine"), Club),
    ("users", gettext_lazy("Benutzer"), None),  # the user model, looked up when counted
)
"""What a trial counts in the backup and in the live database, to compare them."""

TRIAL_ALIAS = "skatliga_trial"


@dataclass(frozen=True)
class Trial:
    """A backup restored, migrated and checked in a scratch database."""

    path: Path
    database: Database
    counts: dict[str, int]


@dataclass(frozen=True)
class Restored:
    """What a restore replaced: the counts before and after, and where the old data is."""

    before: dict[str, int]
    after: dict[str, int]
    kept: str | None


@contextlib.contextmanager
def _opened(database: Database) -> Iterator[str]:
    """An alias for ``database`` while the block runs: a connection of its own."""
    connections.settings[TRIAL_ALIAS] = dict(database)
    try:
        yield TRIAL_ALIAS
    finally:
        connections[TRIAL_ALIAS].close()
        del connections[TRIAL_ALIAS]
        del connections.settings[TRIAL_ALIAS]


def counts(alias: str = "default") -> dict[str, int]:
    """How many of each counted thing the database holds (0 for a table not there)."""
    tables = set(connections[alias].introspection.table_names())
    found = {}
    for key, _label, model in COUNTED:
        model = model or get_user_model()
        exists = model._meta.db_table in tables
        found[key] = model._default_manager.using(alias).count() if exists else 0
    return found


def comparison(live: dict[str, int], backup: dict[str, int]) -> list[str]:
    """The counts side by side, one line each, with a head line."""
    width = max(len(str(label)) for _key, label, _model in COUNTED)
    lines = [f"{'':{width}}  {_('jetzt'):>9}  {_('Sicherung'):>9}"]
    for key, label, _model in COUNTED:
        lines.append(f"{label!s:{width}}  {live[key]:>9}  {backup[key]:>9}")
    return lines


def _manage(database: Database, *arguments: str) -> None:
    """``manage.py ARGUMENTS`` in a process of its own, on ``database``."""
    environment = {**os.environ, "DATABASE_URL": database_url(database)}
    result = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), *arguments],
        env=environment,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        reason = lines[-1] if lines else f"exit status {result.returncode}"
        raise BackupError(f"manage.py {arguments[0]}: {reason.removeprefix('CommandError: ')}")


def _needs_migrations(alias: str) -> bool:
    """Whether the database needs the code's migrations; a backup made by a newer version,
    whose migrations this code does not know, is refused."""
    executor = MigrationExecutor(connections[alias])
    known = set(executor.loader.graph.nodes)
    applied = executor.recorder.applied_migrations()
    unknown = sorted(key for key in applied if key not in known)
    if unknown:
        names = ", ".join(f"{app}.{name}" for app, name in unknown[:3])
        raise BackupError(
            _(
                "Die Sicherung stammt von einer neueren Version (Migrationen, die dieser Code "
                "nicht kennt: %(names)s): erst den Code aktualisieren."
            )
            % {"names": names}
        )
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


def try_backup(path: Path, alias: str = "default") -> Trial:
    """Restore ``path`` into a scratch database, migrate, check and count it.

    Raises :class:`BackupError` with the reason when any step fails; the scratch database is
    gone then. On success the caller drops it (:func:`discard`) or switches to it.
    """
    live = connections[alias].settings_dict
    check_kind(path, connections[alias].vendor)
    scratch = scratch_database(live)
    try:
        restore_into(path, scratch)
        with _opened(scratch) as trial:
            behind = _needs_migrations(trial)
        if behind:
            _manage(scratch, "migrate", "--no-input", "-v0")
        _manage(scratch, "check_results")
        with _opened(scratch) as trial:
            found = counts(trial)
    except BaseException:
        drop_database(scratch)
        raise
    return Trial(path, scratch, found)


def discard(trial: Trial) -> None:
    drop_database(trial.database)


def restore(path: Path, *, force: bool = False, alias: str = "default") -> Restored:
    """Replace the live database with the backup at ``path``, once it has proved itself.

    Refuses a database that holds data unless ``force``; the data replaced is kept (see
    :func:`skatliga.ops.backup.switch`), unless the live database held none.
    """
    empty = is_empty(alias)
    if not force and not empty:
        raise BackupError(
            _(
                "Die Datenbank ist nicht leer: Wiederherstellen würde ihre Daten ersetzen. "
                "Mit --force geschieht das trotzdem."
            )
        )
    before = counts(alias)
    trial = try_backup(path, alias)
    live = dict(connections[alias].settings_dict)
    connections[alias].close()
    try:
        kept = switch(live, trial.database, keep=not empty)
    except BaseException:
        discard(trial)
        raise
    cache.clear()
    return Restored(before, trial.counts, kept)

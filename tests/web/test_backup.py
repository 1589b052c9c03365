"""manage.py backup and restore: a backup restored into a fresh database gives the same
standings and the same games; a restore over data refuses unless forced."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from skatliga.models import ListResult
from skatliga.ops.consistency import inconsistent_tables
from tests.web.test_install import ROOT, WRAPPER, clean_environment

pytestmark = pytest.mark.django_db(transaction=True)


def command(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def fresh_database(tmp_path) -> Iterator[str]:
    """The DATABASE_URL of an empty database of the kind the tests run on."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    import psycopg

    params = connection.settings_dict
    name = f"{params['NAME']}_restore"
    base = f"postgres://{params['USER']}@{params['HOST']}:{params['PORT'] or 5432}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            # The database, and any a restore made beside it (trials, the data it replaced).
            for (made,) in admin.execute(
                "SELECT datname FROM pg_database WHERE datname = %s OR datname LIKE %s",
                [name, f"{name}\\_%"],
            ).fetchall():
                admin.execute(f'DROP DATABASE IF EXISTS "{made}" WITH (FORCE)')


def databases_beside(database_url: str) -> list[str]:
    """The scratch and kept databases (or files) a restore left beside ``database_url``."""
    if database_url.startswith("sqlite"):
        path = Path(database_url.removeprefix("sqlite:///"))
        return sorted(p.name for p in path.parent.glob(f"{path.name}.*"))
    import psycopg

    base, name = database_url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres") as admin:
        rows = admin.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s ORDER BY 1", [f"{name}\\_%"]
        ).fetchall()
    return [row[0] for row in rows]


STANDINGS_BY_SLUG = """
import io, json
from django.core.management import call_command
from skatliga.models import Tournament
found = {}
for slug in Tournament.objects.values_list("slug", flat=True):
    out = io.StringIO()
    call_command("standings", slug, "--format", "json", stdout=out)
    found[slug] = json.loads(out.getvalue())
print(json.dumps(found))
"""


def skatliga_manage(env_file: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The documented way: deploy/skatliga-manage with the site's settings file."""
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    env = clean_environment(
        SKATLIGA_APP=str(ROOT), SKATLIGA_ENV_FILE=str(env_file), SKATLIGA_USER=user
    )
    return subprocess.run(
        [str(WRAPPER), *args], env=env, capture_output=True, text=True, timeout=300
    )


def test_a_damaged_backup_is_refused_and_a_good_one_replaces_the_sites_data(
    small_season, tmp_path, fresh_database, run_manage
):
    """docs/operations.md's restore, through skatliga-manage, on a site with data: a damaged
    backup fails in its trial and the live data stays; a good one takes its place."""
    good = tmp_path / "good.backup"
    command("backup", str(good))
    backed_up = json.loads(command("standings", "spieltag-1", "--format", "json"))
    damaged = tmp_path / "damaged.backup"
    damaged.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    env_file = tmp_path / "env"
    env_file.write_text(f"SKATLIGA_DEBUG=1\nDATABASE_URL={fresh_database}\n")
    assert skatliga_manage(env_file, "restore", str(good)).returncode == 0
    archive = tmp_path / "spieltag-1.json"
    archive.write_text(skatliga_manage(env_file, "export_archive", "spieltag-1").stdout)
    assert skatliga_manage(env_file, "import_archive", "--again", str(archive)).returncode == 0

    def site() -> dict[str, object]:
        """Every tournament's standings, by slug, read in one process."""
        read = skatliga_manage(env_file, "shell", "--no-imports", "-c", STANDINGS_BY_SLUG)
        assert read.returncode == 0, read.stderr
        return json.loads(read.stdout)

    before = site()
    refused = skatliga_manage(env_file, "restore", "--force", str(damaged))

    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    [line] = refused.stderr.strip().splitlines()
    assert line.startswith("CommandError: ")
    assert "damaged.backup" in line or "pg_restore: error" in line, line
    assert site() == before
    assert sorted(before) == ["1-spieltag-2026-11-21", "spieltag-1"]
    assert databases_beside(fresh_database) == []  # the trial's scratch database is gone

    replaced = skatliga_manage(env_file, "restore", "--force", str(good))

    assert replaced.returncode == 0, replaced.stderr
    assert site() == {"spieltag-1": backed_up}
    assert skatliga_manage(env_file, "check_results").returncode == 0
    [kept] = databases_beside(fresh_database)  # the data replaced, kept aside
    assert f"{kept} " in replaced.stdout.replace(")", " ").replace(f"{tmp_path}/", "")


def test_a_restore_into_a_fresh_database_gives_the_same_standings_game_for_game(
    small_season, tmp_path, fresh_database, run_manage
):
    backup = tmp_path / "skatliga.backup"
    standings = command("standings", "spieltag-1", "--format", "json")
    archive = command("export_archive", "spieltag-1")

    command("backup", str(backup))
    env = {"DATABASE_URL": fresh_database}
    restored = run_manage("restore", str(backup), env=env)

    assert restored.returncode == 0, restored.stderr
    again = run_manage("standings", "spieltag-1", "--format", "json", env=env)
    assert json.loads(again.stdout) == json.loads(standings)
    assert [row["total"] for row in json.loads(standings)][:3] == [128, 128, 103]
    assert run_manage("export_archive", "spieltag-1", env=env).stdout == archive
    assert run_manage("check_results", env=env).returncode == 0


def test_a_restore_over_data_refuses_unless_forced(
    small_season, tmp_path, fresh_database, run_manage
):
    backup = tmp_path / "skatliga.backup"
    command("backup", str(backup))
    env = {"DATABASE_URL": fresh_database}
    assert run_manage("restore", str(backup), env=env).returncode == 0

    refused = run_manage("restore", str(backup), env=env)
    forced = run_manage("restore", "--force", str(backup), env=env)

    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert refused.stderr.strip() == (
        "CommandError: Die Datenbank ist nicht leer: Wiederherstellen würde ihre Daten "
        "ersetzen. Mit --force geschieht das trotzdem."
    )
    assert forced.returncode == 0, forced.stderr
    again = run_manage("standings", "spieltag-1", "--format", "json", env=env)
    assert json.loads(again.stdout) == json.loads(command("standings", "spieltag-1"))


def test_a_restore_refuses_in_process_too_and_keeps_the_data(small_season, tmp_path):
    backup = tmp_path / "skatliga.backup"
    command("backup", str(backup))
    before = ListResult.objects.count()

    with pytest.raises(CommandError, match="nicht leer"):
        call_command("restore", str(backup))

    assert ListResult.objects.count() == before == 12


def test_a_file_that_is_no_backup_is_refused(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("kein Backup\n")

    with pytest.raises(CommandError, match="ist keine Sicherung von skatliga"):
        call_command("restore", str(text))
    with pytest.raises(CommandError, match="lässt sich nicht lesen"):
        call_command("restore", str(tmp_path / "missing.backup"))


def test_a_backup_of_the_other_kind_of_database_is_refused(tmp_path):
    other = tmp_path / "other.backup"
    magic = b"PGDMP" if connection.vendor == "sqlite" else b"SQLite format 3\x00"
    other.write_bytes(magic + b"\x00" * 100)

    with pytest.raises(CommandError, match="export_archive/import_archive"):
        call_command("restore", str(other))


def test_check_results_finds_a_list_whose_rows_do_not_follow_from_its_games(small_season):
    assert list(inconsistent_tables()) == []
    row = ListResult.objects.get(table__number=2, position=3)
    ListResult.objects.filter(pk=row.pk).update(
        game_points=row.game_points + 1, total=row.total + 1
    )

    [wrong] = inconsistent_tables()

    assert wrong.number == 2
    with pytest.raises(CommandError, match="1 Listen stimmen nicht"):
        call_command("check_results")


def test_a_backup_into_an_unwritable_place_says_so(tmp_path):
    with pytest.raises(CommandError, match="lässt sich nicht schreiben|pg_dump"):
        call_command("backup", str(tmp_path / "no-such-directory" / "skatliga.backup"))


def test_a_backup_file_is_replaced_only_when_complete(small_season, tmp_path):
    backup = tmp_path / "skatliga.backup"
    command("backup", str(backup))

    assert backup.stat().st_size > 0
    assert not Path(str(backup) + ".part").exists()


def test_a_sqlite_backup_runs_beside_a_writer_and_holds_only_committed_data(tmp_path, run_manage):
    """The site keeps running: a referee's transaction holds SQLite's write lock (WAL mode)
    while the backup is taken; the backup neither waits for it nor contains its rows."""
    import sqlite3

    database = tmp_path / "site.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{database}"}
    assert run_manage("migrate", "--no-input", "-v0", env=env).returncode == 0
    writer = sqlite3.connect(database, isolation_level=None)
    assert writer.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO skatliga_club (name) VALUES ('SC Sicherung')")

    during = run_manage("backup", str(tmp_path / "during.backup"), env=env)
    writer.execute("COMMIT")
    after = run_manage("backup", str(tmp_path / "after.backup"), env=env)
    writer.close()

    assert during.returncode == after.returncode == 0, during.stderr + after.stderr

    def clubs(name: str) -> int:
        with sqlite3.connect(tmp_path / name) as backup:
            return backup.execute("SELECT count(*) FROM skatliga_club").fetchone()[0]

    assert (clubs("during.backup"), clubs("after.backup")) == (0, 1)

"""Long work in the background: an archive import as a job with a progress page, run by the
task worker (``manage.py task_worker``), and surviving the worker's death.

The worker is a process of its own, so the tests that start one work on a database of their
own (``fresh_database``: a file or a PostgreSQL database beside the test database).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from skatliga.models import Game, Job, TaskWorker, Tournament
from skatliga.ops.health import warnings
from skatliga.tasks import worker as task_worker
from tests.web.factories import entry, make_table, play
from tests.web.test_backup import fresh_database as fresh_database  # a fixture

ROOT = Path(__file__).resolve().parents[2]


def large_archive(tables: int) -> str:
    """The championship evening's archive (bench/evening.py): ``tables`` four-tables, the
    first series complete, the second one game short of it at every table."""
    from bench.evening import document

    return json.dumps(document(random.Random(7), [4] * tables, 47))


def run_tasks() -> str:
    """What the worker does, here and now: every task waiting, then stop. The worker closes
    a connection whose transaction it did not open: a test that calls this has
    ``django_db(transaction=True)``."""
    out = StringIO()
    call_command("task_worker", "--batch", "--interval", "0", stdout=out, verbosity=0)
    return out.getvalue()


# --- the referee's upload: a job, its page, its result ------------------------------------


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


def exported(client, referee) -> bytes:
    table = make_table(size=3, rounds=1)
    table.series.tournament.referees.add(referee)
    play(table, entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7), entry())
    return client.get(reverse("referee:archive-download", args=[table.series.tournament.slug]))


def upload(client, content: bytes, **data: str):
    return client.post(
        reverse("referee:archive-upload"),
        {"file": SimpleUploadedFile("turnier.json", content, "application/json"), **data},
    )


@pytest.mark.django_db(transaction=True)
def test_an_upload_waits_as_a_job_and_its_page_leads_to_the_tournament(client, referee):
    archive = exported(client, referee).content

    response = upload(client, archive, again="on")

    job = Job.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("referee:job", args=[job.pk])
    waiting = client.get(response.url)
    status = client.get(reverse("referee:job-status", args=[job.pk])).json()
    assert waiting.status_code == 200
    assert 'data-status="' in waiting.content.decode()
    assert status == {
        "state": "waiting",
        "finished": False,
        "percent": 0,
        "text": "Wartet auf den Hintergrunddienst …",
    }
    assert Tournament.objects.count() == 1

    run_tasks()

    job.refresh_from_db()
    done = client.get(reverse("referee:job", args=[job.pk]))
    assert (job.state, job.done, job.total, job.attempts) == ("done", 2, 2, 1)
    assert job.source == ""
    assert done.status_code == 302
    assert done.url == reverse("referee:tournament", args=[job.result["slug"]])
    assert list(Tournament.objects.get(slug=job.result["slug"]).referees.all()) == [referee]
    assert Game.objects.filter(table__series__tournament__slug=job.result["slug"]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_failed_import_lists_its_problems_on_the_jobs_page_and_saves_nothing(client, referee):
    data = json.loads(exported(client, referee).content)
    data["series"][0]["tables"][0]["games"][0]["bid"] = 19
    del data["tournament"]["name"]
    job = Job.objects.get(pk=upload(client, json.dumps(data).encode()).url.split("/")[-2])

    run_tasks()

    page = client.get(reverse("referee:job", args=[job.pk]))
    problems = {(p["path"], p["code"]) for p in page.context["problems"]}
    assert page.status_code == 200
    assert ("tournament.name", "required") in problems
    assert ("series[0].tables[0].games[0].bid", "bid_not_legal") in problems
    assert all(p["message"] for p in page.context["problems"])
    assert 'data-status="' not in page.content.decode()  # finished: nothing to poll
    assert Tournament.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_archive_imported_already_offers_the_tournament_there(client, referee):
    archive = exported(client, referee).content
    job_url = upload(client, archive).url

    run_tasks()

    page = client.get(job_url)
    original = Tournament.objects.get()
    assert [p["code"] for p in page.context["problems"]] == ["already_imported"]
    assert page.context["existing_url"] == reverse("referee:tournament", args=[original.slug])


@pytest.mark.django_db
def test_a_job_is_its_starters_alone(client, referee, django_user_model):
    job_url = upload(client, exported(client, referee).content, again="on").url
    other = django_user_model.objects.create_user("bert", password="kreuz-bube-11")
    client.force_login(other)

    assert client.get(job_url).status_code == 403
    assert client.get(job_url + "status.json").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_a_job_done_before_is_not_run_again(client, referee):
    """A task run twice (its worker died after the commit): the second run changes nothing."""
    job_url = upload(client, exported(client, referee).content, again="on").url
    run_tasks()
    job = Job.objects.get()
    tournaments = Tournament.objects.count()

    from skatliga.tasks.archive import import_archive

    import_archive.call(str(job.pk))

    assert Tournament.objects.count() == tournaments
    assert Job.objects.get().attempts == 1
    assert client.get(job_url).status_code == 302


# --- /healthz: the worker and the queue ------------------------------------------------------


@pytest.mark.django_db
def test_healthz_says_when_no_worker_runs_and_when_tasks_wait_too_long(client, referee):
    upload(client, exported(client, referee).content, again="on")
    DBTaskResult.objects.update(enqueued_at=time_ago(300))

    missing = warnings()
    task_worker.register("a-worker")
    seen = warnings()

    assert missing[0].startswith("no task worker has reported for 60 s")
    assert missing[1].startswith("1 task(s) waiting for a worker, the oldest for 30")
    assert seen == missing[1:]


def time_ago(seconds: int):
    import datetime

    from django.utils import timezone

    return timezone.now() - datetime.timedelta(seconds=seconds)


@pytest.mark.django_db
def test_a_worker_of_this_machine_whose_process_is_gone_is_gone(settings):
    task_worker.register("here")
    TaskWorker.objects.filter(worker_id="here").update(pid=dead_pid())
    task_worker.register("alive")

    assert [task_worker.alive(w) for w in TaskWorker.objects.order_by("worker_id")] == [
        True,
        False,
    ]


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


# --- kill -9 of the worker in the middle of an import ----------------------------------------


def reader(database_url: str) -> Callable[[str], list[tuple]]:
    """Read the test's own database from here, as the progress page would."""
    if database_url.startswith("sqlite"):
        path = database_url.removeprefix("sqlite:///")

        def read(sql: str) -> list[tuple]:
            with sqlite3.connect(path, timeout=30) as db:
                return db.execute(sql).fetchall()

        return read
    import psycopg

    def read_pg(sql: str) -> list[tuple]:
        with psycopg.connect(database_url, autocommit=True) as db:
            return db.execute(sql).fetchall()

    return read_pg


def wait_for(check: Callable[[], object], what: str, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    pytest.fail(f"waited {seconds} s for {what}")


def test_an_import_survives_kill_9_of_its_worker_and_is_done_once(
    fresh_database, run_manage, tmp_path
):
    env = {"DATABASE_URL": fresh_database}
    assert run_manage("migrate", "--no-input", "-v0", env=env).returncode == 0
    archive = tmp_path / "evening.json"
    archive.write_text(large_archive(150))  # seconds of writing, even on a quick machine
    started = run_manage("import_archive", "--background", str(archive), env=env)
    assert started.returncode == 0, started.stderr
    read = reader(fresh_database)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SKATLIGA_")}
    environment.update(env)

    def worker(name: str) -> subprocess.Popen[bytes]:
        with (tmp_path / f"{name}.log").open("wb") as log:
            return subprocess.Popen(
                [sys.executable, "manage.py", "task_worker"],
                cwd=ROOT,
                env=environment,
                stdout=log,
                stderr=log,
            )

    first = worker("first")
    try:
        wait_for(lambda: read("SELECT step FROM skatliga_job") == [("writing",)], "the writing")
        os.kill(first.pid, signal.SIGKILL)
    finally:
        first.kill()
        first.wait()
    assert read("SELECT count(*) FROM skatliga_tournament") == [(0,)]

    second = worker("second")
    try:
        wait_for(lambda: read("SELECT state FROM skatliga_job") == [("done",)], "the import")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)

    games = 150 * 48 + 150 * 47
    assert read("SELECT count(*) FROM skatliga_tournament") == [(1,)]
    assert read("SELECT count(*) FROM skatliga_game") == [(games,)]
    assert read("SELECT attempts, done, total FROM skatliga_job") == [(2, 600, 600)]
    assert sorted(read("SELECT status FROM django_tasks_database_dbtaskresult")) == [
        ("FAILED",),
        ("SUCCESSFUL",),
    ]
    assert run_manage("check_results", env=env).returncode == 0
    assert read("SELECT count(*) FROM skatliga_taskworker") == [(0,)]  # both rows gone

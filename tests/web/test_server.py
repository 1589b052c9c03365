"""The production server for real: gunicorn started by the production start command (or,
where that command refuses, by gunicorn's own), spoken to over HTTP.

- A request that fails answers the site's 500 page and logs its traceback to stderr.
- Static files come hashed, compressed and with a far-future cache header.
- ``kill -9`` of a worker in the middle of a game save or an archive import leaves every
  list's result rows equal to a recomputation from its games (PostgreSQL only: the test
  holds a row lock from a second connection to stop the worker mid-transaction).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import brotli
import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from skatliga.models import Change, Game, Tournament
from skatliga.ops.consistency import inconsistent_tables
from tests.web.factories import entry, make_table, play

ROOT = Path(__file__).resolve().parents[2]
SECRET_KEY = secrets.token_urlsafe(50)
PRODUCTION = {
    "SKATLIGA_DEBUG": "0",
    "SKATLIGA_SECRET_KEY": SECRET_KEY,
    "SKATLIGA_ALLOWED_HOSTS": "127.0.0.1",
    "SKATLIGA_LOG_LEVEL": "INFO",
}


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One request as the HTTPS proxy forwards it; errors are answers too."""
        origin = f"https://127.0.0.1:{self.port}"
        all_headers = {"X-Forwarded-Proto": "https", "Origin": origin, "Referer": origin + "/"}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        all_headers.update(headers or {})
        request = urllib.request.Request(self.base + path, data=data, headers=all_headers)
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def children(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]

    def workers(self) -> list[int]:
        """gunicorn's workers (the master's other child is the task worker's keeper)."""
        return [pid for pid in self.children() if b"gunicorn" in command_line(pid)]

    def keeper(self) -> int:
        [keeper] = [pid for pid in self.children() if b"skatliga.tasks.keeper" in command_line(pid)]
        return keeper

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def environment(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKATLIGA_")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.update(PRODUCTION, DATABASE_URL=database_url, **extra)
    return env


def start_server(command: list[str], env: dict[str, str], port: int, log: Path) -> Server:
    env = {**env, "SKATLIGA_BIND": f"127.0.0.1:{port}"}
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=stderr, stderr=stderr)
    server = Server(process, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server stopped: {server.stderr()}")
        try:
            server.request("/healthz")
            return server
        except OSError:
            time.sleep(0.2)
    stop(server)
    pytest.fail(f"the server did not answer: {server.stderr()}")


def stop(server: Server) -> None:
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


def collectstatic(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )


GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:skatliga.ops.gunicorn"]
SERVE = [sys.executable, "-m", "skatliga.ops.serve"]


@pytest.fixture(scope="module")
def unreachable(tmp_path_factory) -> Iterator[Server]:
    """gunicorn with production settings whose database does not answer."""
    env = environment("postgres://postgres@127.0.0.1:1/skatliga", SKATLIGA_WORKERS="1")
    collectstatic(env)
    log = tmp_path_factory.mktemp("gunicorn") / "stderr.log"
    server = start_server(GUNICORN, env, 8103, log)
    yield server
    stop(server)


def test_a_failing_request_answers_the_500_page_and_logs_its_traceback(unreachable):
    status, headers, body = unreachable.request("/")
    english_status, _, english = unreachable.request("/en/")

    assert (status, english_status) == (500, 500)
    assert "<h1>Das hat nicht geklappt</h1>" in body.decode()
    assert "<h1>That did not work</h1>" in english.decode()
    assert "Content-Security-Policy" in headers
    time.sleep(0.5)
    log = unreachable.stderr()
    assert "ERROR django.request Internal Server Error: /\n" in log
    assert "Traceback (most recent call last):" in log
    assert "OperationalError" in log


def test_healthz_is_503_when_the_database_is_unreachable(unreachable):
    status, headers, body = unreachable.request("/healthz")

    assert status == 503
    assert json.loads(body)["problems"][0].startswith("database unreachable: OperationalError")


def test_healthz_answers_plain_http_too(unreachable):
    status, _, _ = unreachable.request("/healthz", headers={"X-Forwarded-Proto": "http"})

    assert status == 503  # not a redirect to HTTPS: load balancers probe over HTTP


def test_static_files_are_hashed_compressed_and_cached_for_ever(unreachable):
    manifest = json.loads((ROOT / "staticfiles" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["skatliga/entry.js"]
    assert hashed != "skatliga/entry.js"

    status, headers, body = unreachable.request(
        f"/static/{hashed}", headers={"Accept-Encoding": "gzip"}
    )
    plain_status, plain_headers, _ = unreachable.request("/static/skatliga/entry.js")

    assert status == 200
    assert headers["Cache-Control"] == "max-age=315360000, public, immutable"
    assert headers["Content-Encoding"] == "gzip"
    assert plain_status == 200
    assert "immutable" not in plain_headers["Cache-Control"]


def test_static_files_are_served_with_brotli_to_who_accepts_it(unreachable):
    manifest = json.loads((ROOT / "staticfiles" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["skatliga/base.css"]
    path = ROOT / "staticfiles" / hashed
    assert path.with_name(path.name + ".br").exists()
    assert path.with_name(path.name + ".gz").exists()

    status, headers, body = unreachable.request(
        f"/static/{hashed}", headers={"Accept-Encoding": "gzip, deflate, br"}
    )

    assert status == 200
    assert headers["Content-Encoding"] == "br"
    assert brotli.decompress(body) == path.read_bytes()


# --- kill -9 -----------------------------------------------------------------------------

postgresql_only = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").split(":")[0] not in {"postgres", "postgresql"},
    reason="needs PostgreSQL: row locks from a second connection",
)


@pytest.fixture
def live(transactional_db, settings, tmp_path) -> Iterator[Server]:
    """The production start command on the test database, with one worker."""
    settings.SECRET_KEY = SECRET_KEY  # the sessions made here must be valid there
    params = connection.settings_dict
    url = f"postgres://{params['USER']}@{params['HOST']}:{params['PORT'] or 5432}/{params['NAME']}"
    server = start_server(
        SERVE, environment(url, SKATLIGA_WORKERS="1"), 8104, tmp_path / "stderr.log"
    )
    yield server
    stop(server)


def log_in(server: Server, user) -> None:
    client = Client()
    client.force_login(user)
    csrf = secrets.token_hex(16)
    server.cookies = {
        django_settings.SESSION_COOKIE_NAME: client.cookies[
            django_settings.SESSION_COOKIE_NAME
        ].value,
        django_settings.CSRF_COOKIE_NAME: csrf,
    }


def form(server: Server, fields: dict[str, str]) -> bytes:
    fields = {**fields, "csrfmiddlewaretoken": server.cookies[django_settings.CSRF_COOKIE_NAME]}
    return urllib.parse.urlencode(fields).encode()


def lock_connection():
    import psycopg

    params = connection.settings_dict
    return psycopg.connect(
        host=params["HOST"],
        port=params["PORT"] or 5432,
        user=params["USER"],
        dbname=params["NAME"],
    )


def wait_for(condition, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.005)
    pytest.fail(f"timed out waiting for {what}")


def backend_gone(watcher, pid: int) -> bool:
    return (
        watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0]
        == 0
    )


def in_background(server: Server, path: str, data: bytes, headers=None) -> threading.Thread:
    def send() -> None:
        with contextlib.suppress(OSError):  # the worker dies under the request
            server.request(path, data, headers)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


ROW = {
    "declarer": "",
    "game": "",
    "matadors": "",
    "announced": "",
    "bid": "",
    "card_points": "",
    "tricks": "",
    "won": "",
    "level": "",
}


@postgresql_only
def test_kill_9_of_a_worker_during_a_game_save_leaves_every_list_consistent(
    live, django_user_model
):
    table = make_table(size=4, rounds=3)
    play(
        table,
        entry(2, "grand", bid=18, matadors=1, card_points=70, tricks=6),
        entry(3, "hearts", bid=18, matadors=1, card_points=50, tricks=4),
    )
    referee = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(referee)
    log_in(live, referee)
    path = reverse("referee:list", args=[table.series.tournament.slug, 1, table.number])
    game_3 = form(
        live,
        {
            **ROW,
            "number": "3",
            "declarer": "4",
            "game": "clubs",
            "matadors": "2",
            "bid": "18",
            "card_points": "90",
            "tricks": "8",
        },
    )
    changes = Change.objects.count()

    with lock_connection() as locker, lock_connection() as watcher:
        watcher.autocommit = True
        locker.execute(
            "SELECT id FROM skatliga_listresult WHERE table_id = %s FOR UPDATE", [table.pk]
        )
        [worker] = live.workers()
        request = in_background(live, path, game_3)
        blocked: list[int] = []

        def saving_and_blocked() -> bool:
            # The worker's transaction has written (game 3 saved, an xid assigned) and waits
            # for our lock to rewrite the list's result rows.
            blocked[:] = [
                row[0]
                for row in watcher.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND backend_xid IS NOT NULL"
                )
            ]
            return bool(blocked)

        wait_for(saving_and_blocked, "the worker to block in the middle of the save")
        os.kill(worker, signal.SIGKILL)
        request.join(timeout=30)
        locker.rollback()
        wait_for(lambda: backend_gone(watcher, blocked[0]), "the killed worker's transaction")

    assert Game.objects.filter(table=table).count() == 2
    assert Change.objects.count() == changes
    assert list(inconsistent_tables()) == []

    # gunicorn has replaced the worker: the same save now goes through.
    wait_for(lambda: len(live.workers()) == 1 and live.workers() != [worker], "a new worker")
    status, headers, _ = live.request(path, game_3)
    assert status == 302, live.stderr()
    assert Game.objects.get(table=table, number=3).value == 48
    assert list(inconsistent_tables()) == []


def multipart(server: Server, name: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    token = server.cookies[django_settings.CSRF_COOKIE_NAME]
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f'{token}\r\n--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def big_archive() -> bytes:
    """One match day of the benchmark league: 16 players, 3 series, 576 games."""
    import random

    from bench.league import match_day_document, roster

    rng = random.Random(11)
    document = match_day_document(rng, 1, 1, roster(rng, 4))
    return json.dumps(document).encode()


@postgresql_only
def test_kill_9_of_the_task_worker_during_an_import_leaves_it_done_once(live, django_user_model):
    """The upload is a job (skatliga.tasks); its worker, kept beside gunicorn by the start
    command, is killed while it writes: the transaction is rolled back, the keeper starts
    another worker, which runs the job again, and the match day is there once."""
    from skatliga.models import Job

    table = make_table(size=4, rounds=1)
    play(table, entry(2, "grand", bid=18, matadors=1, card_points=70, tricks=6))
    admin = django_user_model.objects.create_superuser("chef", password="kreuz-bube-11")
    log_in(live, admin)
    body, content_type = multipart(live, "file", "spieltag.json", big_archive())
    tournaments = Tournament.objects.count()
    keeper = live.keeper()

    def task_worker() -> list[int]:
        children = Path(f"/proc/{keeper}/task/{keeper}/children")
        return [int(pid) for pid in children.read_text().split()]

    wait_for(lambda: len(task_worker()) == 1, "the task worker", timeout=60)
    [worker] = task_worker()
    with lock_connection() as watcher:
        watcher.autocommit = True
        status, headers, _ = live.request(
            reverse("referee:archive-upload"), body, {"Content-Type": content_type}
        )
        assert status == 302, live.stderr()
        job = Job.objects.get()
        assert headers["Location"].endswith(reverse("referee:job", args=[job.pk]))
        writing: list[int] = []

        def importing() -> bool:
            writing[:] = [
                row[0]
                for row in watcher.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()"
                )
            ]
            return bool(writing)

        wait_for(
            lambda: Job.objects.filter(state="running", step="writing").exists(),
            "the import to begin writing",
            timeout=120,
        )
        wait_for(importing, "the import's transaction", timeout=60)
        os.kill(worker, signal.SIGKILL)
        wait_for(lambda: backend_gone(watcher, writing[0]), "the killed worker's transaction")

    assert Tournament.objects.count() == tournaments  # nothing half imported
    wait_for(lambda: task_worker() not in ([], [worker]), "the keeper's new worker", timeout=60)
    wait_for(lambda: Job.objects.get().state == Job.State.DONE, "the job's second run", timeout=180)
    assert Job.objects.get().attempts == 2
    assert Tournament.objects.count() == tournaments + 1
    assert Game.objects.count() == 1 + 576
    assert list(inconsistent_tables()) == []

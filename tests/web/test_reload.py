"""The production server's life: a reload refuses no request, and after ``kill -9`` of the
master the next start comes up at once (its workers end with it and free the port, and so
does the task worker's keeper).

gunicorn started the README's way (``python -m skatliga.ops.serve``) on a migrated SQLite
file, spoken to over loopback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.web.test_server import ROOT, Server, environment, start_server, stop

SERVE = [sys.executable, "-m", "skatliga.ops.serve"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("reload")
    env = environment(f"sqlite:///{folder / 'site.sqlite3'}", SKATLIGA_WORKERS="2")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    return {**env, "LOG_DIR": str(folder)}


def healthz_loop(server: Server, stop_at: threading.Event, answers: list[int | str]) -> None:
    while not stop_at.is_set():
        try:
            answers.append(server.request("/healthz")[0])
        except OSError as error:
            answers.append(type(error).__name__)


def test_hup_replaces_the_workers_without_refusing_a_request(site):
    server = start_server(SERVE, site, 8161, Path(site["LOG_DIR"]) / "hup.log")
    try:
        old_workers = set(server.workers())
        answers: list[int | str] = []
        done = threading.Event()
        clients = [
            threading.Thread(target=healthz_loop, args=(server, done, answers)) for _ in range(2)
        ]
        for client in clients:
            client.start()
        time.sleep(1)
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and set(server.workers()) & old_workers:
            time.sleep(0.2)
        time.sleep(1)
        done.set()
        for client in clients:
            client.join(timeout=60)
        new_workers = set(server.workers())
    finally:
        stop(server)

    assert new_workers and not new_workers & old_workers, server.stderr()
    assert len(answers) >= 6
    assert set(answers) == {200}, [a for a in answers if a != 200][:5]


def test_after_kill_9_of_the_master_the_next_start_comes_up(site):
    log = Path(site["LOG_DIR"]) / "kill.log"
    server = start_server(SERVE, site, 8162, log)
    workers = server.workers()
    keeper = server.keeper()  # the task worker's, which ends with the master too
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()

    started = time.monotonic()
    again = start_server(SERVE, site, 8162, Path(site["LOG_DIR"]) / "again.log")
    try:
        status = again.request("/healthz")[0]
    finally:
        stop(again)

    assert status == 200
    assert time.monotonic() - started < 30
    assert "Address already in use" not in again.stderr()
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    assert not Path(f"/proc/{keeper}").exists()

"""What the browser tests share: Chromium, axe-core for the accessibility checks, a live
server that answers one request at a time on SQLite, and the hall's line (``hall_line``),
which a test can take down between the tables and the server.

axe-core comes from the npm registry: the first run installs the pinned version into
tests/browser/.axe/ (``npm install``). Without it, or without Chromium, the tests skip,
except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.core.servers.basehttp import WSGIRequestHandler
from django.core.signals import request_finished, request_started
from django.db import connection

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
AXE_VERSION = "4.11.4"
AXE_HOME = Path(__file__).resolve().parent / ".axe"
AXE_SCRIPT = AXE_HOME / "node_modules" / "axe-core" / "axe.min.js"


def unavailable(reason: str) -> None:
    """Fail under CI, where every browser test must run; skip elsewhere."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def axe_source() -> str:
    """The text of axe.min.js, installed from the npm registry on first use."""
    if not AXE_SCRIPT.exists():
        npm = shutil.which("npm")
        if npm is None:
            unavailable("npm is missing: install Debian's npm package to fetch axe-core")
        AXE_HOME.mkdir(exist_ok=True)
        result = subprocess.run(
            [
                str(npm),
                "install",
                "--prefix",
                str(AXE_HOME),
                "--no-audit",
                "--no-fund",
                "--no-save",
                f"axe-core@{AXE_VERSION}",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if result.returncode != 0 or not AXE_SCRIPT.exists():
            unavailable(f"axe-core@{AXE_VERSION} could not be installed: {result.stderr[-500:]}")
    return AXE_SCRIPT.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium, for the module. Playwright's sync API runs an event loop in this thread,
    so Django's ORM must be told that synchronous calls here are fine."""
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing: install Debian's chromium package")
    from playwright.sync_api import expect, sync_playwright

    # A check that waits for the server (a preview, a save) gets 15 s instead of 5: on a busy
    # machine a round trip through the live server can take longer than Playwright's default.
    expect.set_options(timeout=15_000)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            yield browser
            browser.close()


class RequestsInFlight:
    """Counts the requests the live server is answering. On SQLite the server's threads share
    the test's in-memory connection, so the database must not be flushed while one runs, and
    (``one_at_a_time``) the server answers one request at a time: there, a write that meets a
    read still open in another thread fails as "database table is locked" (the referee's
    dashboard polling while a player signs)."""

    def __init__(self, *, one_at_a_time: bool) -> None:
        self.count = 0
        self.changed = threading.Condition()
        self.turn = threading.Lock() if one_at_a_time else None

    def started(self, **kwargs: Any) -> None:
        if self.turn is not None:
            self.turn.acquire()
        with self.changed:
            self.count += 1

    def finished(self, **kwargs: Any) -> None:
        with self.changed:
            self.count -= 1
            self.changed.notify_all()
        if self.turn is not None:
            self.turn.release()

    @contextmanager
    def between_requests(self) -> Iterator[None]:
        """The test's own write, taken while the server answers nothing on SQLite."""
        if self.turn is None:
            yield
            return
        with self.turn:
            yield

    def wait_until_idle(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.count <= 0, timeout=timeout)


@pytest.fixture(autouse=True)
def no_page_lag(settings: Any) -> None:
    """Pages show the last save at once (``SKATLIGA_PAGE_LAG=0``), as tests/web's."""
    settings.PAGE_LAG = 0


@pytest.fixture(autouse=True)
def quiet_live_server(request: pytest.FixtureRequest) -> Iterator[RequestsInFlight | None]:
    """After a browser test: close the pages it left open, then wait for the live server to
    finish the requests they sent, before pytest-django empties the database. A test that
    writes while a page is open does so ``with quiet_live_server.between_requests():``."""
    if "live_server" not in request.fixturenames:
        yield None
        return
    in_flight = RequestsInFlight(one_at_a_time=connection.vendor == "sqlite")
    request_started.connect(in_flight.started, dispatch_uid="quiet-live-server-started")
    request_finished.connect(in_flight.finished, dispatch_uid="quiet-live-server-finished")
    try:
        yield in_flight
        if "browser" in request.fixturenames:
            for context in request.getfixturevalue("browser").contexts:
                context.close()
        assert in_flight.wait_until_idle(timeout=30), "the live server is still answering"
    finally:
        request_started.disconnect(dispatch_uid="quiet-live-server-started")
        request_finished.disconnect(dispatch_uid="quiet-live-server-finished")


class HallLine:
    """The hall's line between the tables and the live server. While it is down, the server
    leaves every post for a table's page (``/t/…``) unanswered and closes the connection, as
    a dead line would: the page's own fetches and its service worker's alike fail with a
    network error. (Playwright's routes and offline emulation do not always reach the
    service worker's own fetches: a preview and twice a save slipped through them in CI.)"""

    def __init__(self) -> None:
        self.is_down = False

    def down(self) -> None:
        self.is_down = True

    def up(self) -> None:
        self.is_down = False

    def cuts(self, command: str, path: str) -> bool:
        return self.is_down and command == "POST" and path.startswith("/t/")


@pytest.fixture
def hall_line(monkeypatch: pytest.MonkeyPatch) -> HallLine:
    """The hall's line (:class:`HallLine`), up until the test takes it down."""
    line = HallLine()
    parse_request = WSGIRequestHandler.parse_request

    def parse_or_cut(handler: WSGIRequestHandler) -> bool:
        if not parse_request(handler):
            return False
        if line.cuts(handler.command, handler.path):
            handler.close_connection = True
            return False  # no answer: the server closes the connection
        return True

    monkeypatch.setattr(WSGIRequestHandler, "parse_request", parse_or_cut)
    return line

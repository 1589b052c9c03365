"""What the browser tests share: Chromium, and axe-core for the accessibility checks.

axe-core comes from the npm registry: the first run installs the pinned version into
tests/browser/.axe/ (``npm install``). Without it, or without Chromium, the tests skip,
except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

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

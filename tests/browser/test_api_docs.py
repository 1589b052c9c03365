"""The API in a real browser (Debian's Chromium): the docs page renders from the site's own
files with every other host blocked, and docs/api.md's JavaScript fills a club's table from
another origin.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/api-docs-phone.png and
api-docs-laptop.png.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.utils import timezone

from skatliga.models import Series
from tests.browser.test_entry import SCREENSHOTS
from tests.web.conftest import ROOT, small_season  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

CLUB = "http://127.0.0.1"


@contextlib.contextmanager
def club_site(html: str) -> Iterator[str]:
    """The club's website: a page served from another origin (127.0.0.1) than the live server
    (localhost), by a real server so that Chromium's local-network rules see two loopback
    addresses, as they would see two public ones on the internet."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{CLUB}:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def only_local(page, live_server):
    """Abort every request to a host other than the live server (and the club's page)."""
    blocked: list[str] = []
    local = urlsplit(live_server.url).netloc

    def route(route):
        url = route.request.url
        if urlsplit(url).netloc == local or url.startswith(CLUB + ":"):
            return route.fallback()
        blocked.append(url)
        return route.abort()

    page.route("**/*", route)
    return blocked


@pytest.mark.parametrize(("name", "width"), [("phone", 390), ("laptop", 1366)])
def test_the_docs_page_renders_without_the_internet(browser, live_server, name, width):
    cache.clear()
    page = browser.new_page(viewport={"width": width, "height": 900})
    blocked = only_local(page, live_server)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + "/api/v1/docs")
    page.wait_for_selector(".swagger-ui .opblock-tag", timeout=15000)
    assert page.locator(".swagger-ui .info .title").inner_text().startswith("skatliga open data")
    assert page.locator(
        ".opblock-summary-path", has_text="/api/v1/seasons/{slug}/standings"
    ).count()
    assert blocked == [] and errors == []
    if os.environ.get("SKATLIGA_SCREENSHOTS"):
        page.screenshot(path=str(SCREENSHOTS / f"api-docs-{name}.png"), full_page=False)
    page.close()


def test_the_javascript_example_fills_a_club_table_from_another_site(
    browser,
    small_season,  # noqa: F811
    live_server,
):
    cache.clear()
    Series.objects.update(published_at=timezone.now())
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    found = re.search(r"```js\n(.*?)```", text, re.S)
    assert found is not None
    code = found.group(1).replace("https://skat.example.org", live_server.url)
    assert len(code.splitlines()) == 5
    html = (
        '<!doctype html><meta charset="utf-8"><table id="tabelle"><tbody></tbody></table>'
        f'<script type="module">{code}\ndocument.body.dataset.done = "1";</script>'
    )
    page = browser.new_page()
    only_local(page, live_server)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    with club_site(html) as url:
        page.goto(url)
        page.wait_for_selector("body[data-done='1']", state="attached", timeout=10000)
    assert console == []
    rows = page.locator("#tabelle tbody tr")
    assert rows.count() == 12
    assert rows.nth(0).locator("td").all_inner_texts() == ["1", "b1", "", "128"]
    assert rows.nth(11).locator("td").all_inner_texts() == ["12", "d2", "", "-104"]
    page.close()

"""Crawl the public pages of a running skatliga over HTTP, as the HTTPS proxy forwards them.

    python3 .ci/crawl.py http://127.0.0.1:8105 [--limit 2000]

Follows every same-site link from the home page (German and English), but not into the
referee's pages, the admin, logout, exports or the sort orders of tables. Fails (exit 1) on
any answer of 400 or more, on an HTML page without a Content-Security-Policy, and unless the
hashed stylesheet the pages link to comes with a far-future cache header. Standard library
only.
"""

from __future__ import annotations

import argparse
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, deque
from html.parser import HTMLParser

SKIP = ("/referee/", "/en/referee/", "/admin/", "/en/admin/", "/logout/", "/en/logout/", "/i18n/")
FAR_FUTURE = 365 * 24 * 3600


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.stylesheets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")
        if tag == "link" and values.get("rel") == "stylesheet" and values.get("href"):
            self.stylesheets.append(values["href"] or "")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
    try:
        with OPENER.open(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def crawl(base: str, limit: int) -> int:
    host = urllib.parse.urlsplit(base).netloc
    queue = deque(["/", "/en/"])
    seen = set(queue)
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    stylesheets: set[str] = set()
    started = time.monotonic()
    while queue and sum(statuses.values()) < limit:
        path = queue.popleft()
        status, headers, body = fetch(base + path)
        statuses[status] += 1
        if status >= 400:
            failures.append(f"{status} {path}")
            continue
        if status in (301, 302):
            location = urllib.parse.urlsplit(headers.get("Location", ""))
            target = location.path + (f"?{location.query}" if location.query else "")
            if location.netloc in ("", host) and target not in seen:
                seen.add(target)
                queue.append(target)
            continue
        if not headers.get("Content-Type", "").startswith("text/html"):
            continue
        if "script-src 'self'" not in headers.get("Content-Security-Policy", ""):
            failures.append(f"no Content-Security-Policy: {path}")
        parser = Links()
        parser.feed(body.decode("utf-8", errors="replace"))
        stylesheets.update(parser.stylesheets)
        for href in parser.links:
            url = urllib.parse.urlsplit(urllib.parse.urljoin(path, href))
            if url.netloc not in ("", host) or url.scheme not in ("", "http", "https"):
                continue
            target = url.path + (f"?{url.query}" if url.query else "")
            keys = {key for key, _ in urllib.parse.parse_qsl(url.query)}
            if url.path.startswith(SKIP) or keys & {"export", "sort", "p-sort", "t-sort"}:
                continue
            if target in seen:
                continue
            seen.add(target)
            queue.append(target)
    for stylesheet in sorted(stylesheets):
        status, headers, _ = fetch(base + stylesheet)
        cache = headers.get("Cache-Control", "")
        ages = [int(p.split("=")[1]) for p in cache.split(", ") if p.startswith("max-age=")]
        ok = status == 200 and "immutable" in cache and ages and ages[0] >= FAR_FUTURE
        print(f"{stylesheet}: {status}, Cache-Control: {cache}")
        if not ok:
            failures.append(f"static file without a far-future cache header: {stylesheet}")
    if not stylesheets:
        failures.append("no stylesheet linked from the pages")
    elapsed = time.monotonic() - started
    counts = ", ".join(f"{n} × {status}" for status, n in sorted(statuses.items()))
    print(f"crawled {sum(statuses.values())} URLs in {elapsed:.1f} s: {counts}")
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the site's address, e.g. http://127.0.0.1:8105")
    parser.add_argument("--limit", type=int, default=2000, help="at most this many URLs")
    arguments = parser.parse_args()
    return crawl(arguments.base.rstrip("/"), arguments.limit)


if __name__ == "__main__":
    sys.exit(main())

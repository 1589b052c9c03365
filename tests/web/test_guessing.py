"""Guessers behind the documented reverse proxy, against the production server: gunicorn with
two workers whose local memory is renewed every few requests, behind a small proxy that
appends the client's address to X-Forwarded-For (SKATLIGA_PROXY_COUNT=1). Clients speak from
different loopback addresses (127.0.0.2, 127.0.0.3, ...).

- Wrong table tokens and codes lock the address that sent them, never a valid link or code,
  and ``Retry-After`` says when the hour's window ends.
- The limits count across workers: the 31st wrong token is refused whichever worker gets it.
- The API's rate is counted per client address behind the proxy, across workers too.
"""

from __future__ import annotations

import http.client
import http.server
import secrets
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.db import connection

from tests.web.test_server import GUNICORN, ROOT, collectstatic, environment, start_server, stop

SETUP = """
import django
django.setup()
from skatliga.services.table_links import renew_link
from tests.web.factories import make_table
table = make_table(size=3, rounds=1)
stale = renew_link(table)
link = renew_link(table)
print(link.token, link.code, stale.token)
"""


class Proxy(http.server.BaseHTTPRequestHandler):
    """Forwards to the server, appending the client's address as nginx and Caddy do."""

    upstream = 0

    def forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() != "x-forwarded-for"}
        claimed = self.headers.get("X-Forwarded-For")
        seen = self.client_address[0]
        headers["X-Forwarded-For"] = f"{claimed}, {seen}" if claimed else seen
        upstream = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=60)
        upstream.request(self.command, self.path, body=body or None, headers=headers)
        answer = upstream.getresponse()
        content = answer.read()
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "transfer-encoding", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)
        upstream.close()

    do_GET = do_POST = forward

    def log_message(self, *args: object) -> None:
        pass


@dataclass
class Site:
    port: int
    token: str
    code: str
    stale: str

    def request(
        self, path: str, *, source: str, form: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str]]:
        origin = f"https://127.0.0.1:{self.port}"
        csrf = "c" * 32
        headers = {
            "X-Forwarded-Proto": "https",
            "Origin": origin,
            "Referer": origin + "/",
            "X-Forwarded-For": "6.6.6.6",  # a client's own claim: not trusted
            "Cookie": f"csrftoken={csrf}",
        }
        body = None
        if form is not None:
            body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": csrf})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        client = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60, source_address=(source, 0)
        )
        client.request("POST" if form is not None else "GET", path, body=body, headers=headers)
        response = client.getresponse()
        response.read()
        client.close()
        return response.status, dict(response.getheaders())


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def database_url(tmp_path) -> str:
    params = connection.settings_dict
    if params["ENGINE"].endswith("sqlite3"):
        url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
        env = {**environment(url), "SKATLIGA_DEBUG": "1"}
        migrate = [sys.executable, "manage.py", "migrate", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=300)
        return url
    port = params["PORT"] or 5432
    return f"postgres://{params['USER']}@{params['HOST']}:{port}/{params['NAME']}"


@pytest.fixture
def site(transactional_db, tmp_path) -> Iterator[Site]:
    """One server for every check below: starting it takes a while."""
    yield from serve(tmp_path)


def serve(tmp_path) -> Iterator[Site]:
    url = database_url(tmp_path)
    setup_env = {**environment(url), "SKATLIGA_DEBUG": "1", "PYTHONPATH": str(ROOT)}
    setup_env["DJANGO_SETTINGS_MODULE"] = "skatliga.settings"
    made = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=ROOT, env=setup_env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    token, code, stale = made.stdout.split()
    env = environment(
        url,
        SKATLIGA_WORKERS="2",
        SKATLIGA_PROXY_COUNT="1",
        SKATLIGA_API_RATE="5/h",
        SKATLIGA_SECRET_KEY=secrets.token_urlsafe(50),
        GUNICORN_CMD_ARGS="--preload --max-requests 8",
    )
    collectstatic(env)
    server = start_server(GUNICORN, env, free_port(), tmp_path / "stderr.log")
    Proxy.upstream = server.port
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Proxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    yield Site(proxy.server_address[1], token, code, stale)
    proxy.shutdown()
    proxy.server_close()
    stop(server)


def guessers_and_stale_tablets_lock_themselves_out_never_the_hall(site: Site) -> None:
    hall, guesser, neighbour = "127.0.0.2", "127.0.0.3", "127.0.0.4"
    wrong = [site.request(f"/t/{secrets.token_urlsafe(24)}/", source=guesser) for _ in range(30)]
    refused, headers = site.request("/t/wrong/", source=guesser)
    window_left = 3600 - time.time() % 3600
    stale = [site.request(f"/t/{site.stale}/", source=hall)[0] for _ in range(32)]
    valid = {site.request(f"/t/{site.token}/device/", source=hall)[0] for _ in range(6)}
    guessers_valid = site.request(f"/t/{site.token}/device/", source=guesser)[0]

    assert {status for status, _ in wrong} == {404}
    assert refused == 429
    assert abs(int(headers["Retry-After"]) - window_left) <= 5
    assert stale[:30] == [404] * 30 and stale[30:] == [429, 429]  # counted as wrong
    assert valid == {200}  # the hall's valid link, from the same address
    assert guessers_valid == 200  # even the guesser's, had he found one
    assert site.request("/t/wrong/", source=neighbour)[0] == 404  # another address


def wrong_codes_lock_the_guesser_a_right_code_always_opens(site: Site) -> None:
    guesser = "127.0.0.5"
    statuses = [site.request("/t/", source=guesser, form={"code": "ZZZZ"})[0] for _ in range(21)]
    right = site.request("/t/", source=guesser, form={"code": site.code})

    assert statuses == [200] * 20 + [429]
    assert right[0] == 302 and right[1]["Location"] == f"/t/{site.token}/"


def the_api_rate_is_per_client_address_behind_the_proxy(site: Site) -> None:
    first = [site.request("/api/v1/seasons", source="127.0.0.6")[0] for _ in range(6)]
    other = site.request("/api/v1/seasons", source="127.0.0.7")[0]

    assert first == [200] * 5 + [429]
    assert other == 200


def test_behind_the_proxy_guessers_lock_only_themselves_across_workers(site):
    guessers_and_stale_tablets_lock_themselves_out_never_the_hall(site)
    wrong_codes_lock_the_guesser_a_right_code_always_opens(site)
    the_api_rate_is_per_client_address_behind_the_proxy(site)

"""The championship evening: one running tournament of 150 tables under an open-loop load.

    python bench/evening.py --db postgresql|sqlite [--seconds 120] [--saves 30] [--reads 60]
    python bench/evening.py --db postgresql --sweep          # the largest save rate that holds
    python bench/evening.py --db postgresql --cache-query-check     # ?z=<random> against none
    python bench/evening.py --db postgresql --servers 2   # two app servers, nginx, Redis

Builds a fresh scratch database (``bench/run.py``'s: /tmp/<name>-evening.sqlite3 or the
PostgreSQL database <name>_evening) with one tournament imported as a ``skatliga-archive/1``
document: ``--tables`` tables (default 150 four-tables, 600 players; ``--three-tables`` of
them seat three), Seeger-Fabian, 12 rounds (48 games per four-list, 36 per three-list). Its
first series is complete and published; in the second, which is running, every list holds
its first ``--played`` games and every table has its table link. Three referees are
referees of the tournament.

Serves it as production does (``bench/load.py``'s :func:`~bench.load.start_server`: gunicorn,
``SKATLIGA_DEBUG=0``, ``--workers`` as the start command: 2 × cores + 1, each worker its own
local-memory page cache, or with ``--cache redis`` one Redis of the bench's own that they
share, as the page cache and the rate limits' store) on 127.0.0.1 only, and drives it for
``--warmup`` seconds (not measured) and then ``--seconds``:

- table devices, through their table links, as table-grid.js, table-queue.js and entry.js
  do online: the preview of the row typed (one POST per save, ``--previews``), then the
  save of a new row as the script sends it (``X-Requested-With: fetch``, and the list's
  revision its page shows, ``X-List-Revision``), whose answer (the rows it changed)
  updates the page in place; only when the list is complete does the page reload (the
  entry page and the service worker it registers, ``/t/sw.js``). A full list is corrected
  instead: the page of a row (``?game=N``), then its preview and the form's own post with
  the row's version and a reason, the entry page it redirects to and the service worker.
  ``--saves`` per second in all;
- 600 phones (one per player), each every 600/``--reads`` seconds, reading its table's
  public list, the tournament standings or its own player page (one of the three at
  random; unconditional GETs, as a phone opening the page anew);
- 4 hall displays every 10 s (``hall/?every=10``, as hall.js fetches it);
- 3 referees' dashboards every 5 s: the running series' ``status.json`` with
  ``If-None-Match`` of the last answer, logged in (a session made as in ``bench/load.py``).

How it is measured: every actor (a device, phone, display or dashboard) has a fixed
schedule (a random offset, then one step every period) and runs one step at a time, as a
real one does; a pool of ``--connections`` threads carries the steps out with
``http.client`` (a new connection per request, as gunicorn's sync workers close each one).
The first request of a step is timed from its **scheduled** moment, not from when it was
sent, so that a late step (the server still busy with the actor's last one, or no thread
free) counts its wait; the requests a step makes after an answer (the save after the
preview, the page after the save) are timed from that answer, when a browser sends them.
``lag_ms`` per class is how late first requests were sent: if it is large while the
server's own time is small, the load generator was the bottleneck, not the server. The
server's time per class comes from gunicorn's access log (``%(D)s``, from the request read
to the response written), each request carrying its class in an ``X-Bench`` header.
The load generator runs on the same machine as the server and takes CPU from it.

Afterwards every list of the tournament is compared with a recomputation from its games
(:func:`bench.load.compare_lists`), and a cached public page is asked for with
``?z=<random>`` against without (``cache_query``; the quiet server, interleaved pairs).

With ``--servers 2`` the app servers are two gunicorn instances on the ports after
``--port`` behind nginx on ``--port``, sharing the database and a Redis (``bench/servers.py``)
as the page cache and the rate limits' store. After every run, five saves through the first
server are read back through the last (the device's page at once, the table's public list
and the standings within the page lag: ``fresh``), and
every new row a device was answered as saved must be in the database (``saves_lost``).

Targets per class: p95 ≤ 150 ms, p99 ≤ 400 ms, no errors; and every list equal. Writes
``bench/results/evening-<db>.json`` (``--sweep``: ``evening-<db>-sweep.json``; two servers:
``evening-two-servers.json``).
"""

from __future__ import annotations

import argparse
import datetime
import heapq
import http.client
import itertools
import json
import math
import os
import queue
import random
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import league, load, run, servers  # noqa: E402
from skatliga.ops.gunicorn import default_workers  # noqa: E402

ROUNDS = 12
PHONE_PAGES = ("table", "standings", "player")
HALLS, HALL_EVERY = 4, 10.0
REFEREES, DASHBOARD_EVERY = 3, 5.0
CLASSES = ("preview", "save", "device_page", "public", "hall", "dashboard")
"""The classes measured: a device's preview, its save, the pages it reads after a save (the
entry page, a row's page, the service worker), the phones' reads, the hall displays, the
referees' dashboards."""
TARGETS = {"p95_ms": 150.0, "p99_ms": 400.0}
ACCESS_LOG = "%({x-bench}i)s %(s)s %(D)s"
TIMEOUT = 30.0


# --- the tournament --------------------------------------------------------------------------


def document(rng: random.Random, sizes: list[int], played: int) -> dict[str, Any]:
    """The archive document: series 1 complete, series 2 with ``played`` games per list
    (one fewer than complete at most: a complete list is imported closed)."""
    players = [
        {
            "id": f"E{index:05d}",
            "name": f"{rng.choice(league.FIRST_NAMES)} {rng.choice(league.LAST_NAMES)}",
            "club": f"SC {league.TOWNS[index % len(league.TOWNS)]}",
            "number": f"E{index:05d}",
        }
        for index in range(1, sum(sizes) + 1)
    ]

    def tables(order: list[str], games: Callable[[int], int]) -> list[dict[str, Any]]:
        seats = iter(order)
        result = []
        for number, size in enumerate(sizes, start=1):
            sitting = [next(seats) for _ in range(size)]
            rows = league.list_games(rng, sitting, games(size))
            result.append({"number": number, "seats": sitting, "games": rows})
        return result

    ids = [p["id"] for p in players]
    drawn = rng.sample(ids, len(ids))
    return {
        "format": "skatliga-archive/1",
        "tournament": {
            "name": "Meisterschaftsabend",
            "date": datetime.date.today().isoformat(),
            "venue": "Stadthalle",
            "rules": "isko",
            "scoring": "seeger-fabian",
            "rounds_per_series": ROUNDS,
        },
        "players": players,
        "series": [
            {"number": 1, "tables": tables(ids, lambda size: ROUNDS * size)},
            {"number": 2, "tables": tables(drawn, lambda size: min(played, ROUNDS * size - 1))},
        ],
    }


@dataclass
class Device:
    """A table's device: its link, its cookies and the row its page shows."""

    token: str
    size: int
    cookies: dict[str, str]
    public: str = ""  # the table's public list
    games_before: int = 0
    number: int = 0
    version: str = ""
    shown: str = ""  # what the page's rows show (``X-List-Revision``, ``revisions.list_mark``)
    added: int = 0  # new rows the server answered as saved


@dataclass
class Evening:
    """What the load needs of the tournament built."""

    tournament: Any
    devices: list[Device]
    phones: list[tuple[str, str]]  # (own table's public list, own player page)
    standings: str
    hall: str
    status: str
    referee_cookies: list[str]
    bodies: dict[tuple[int, int], list[dict[str, str]]]
    csrf: str


def build(args: argparse.Namespace) -> Evening:
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from django.urls import reverse
    from django.utils.crypto import get_random_string

    from skatliga import services
    from skatliga.archive import load_archive
    from skatliga.forms.entry import GameRowForm
    from skatliga.models import Game, Seat
    from skatliga.services.table_links import active_links, ensure_links

    rng = random.Random(f"skatliga-evening-{args.tables}-{args.three_tables}")
    sizes = [4] * (args.tables - args.three_tables) + [3] * args.three_tables
    began = time.perf_counter()
    tournament = load_archive(document(rng, sizes, args.played))
    referees = [
        get_user_model().objects.create_user(f"evening-referee-{n}") for n in range(REFEREES)
    ]
    tournament.referees.add(*referees)
    first, running = tournament.series.order_by("number")
    services.publish_series(first, user=referees[0])
    ensure_links(running, user=referees[0])
    print(f"built in {time.perf_counter() - began:.1f} s", file=sys.stderr)

    # What a device types for row N: a row of the complete first series at a table of the
    # same size (the same row number has the same dealer, so the same seat sits out).
    bodies: dict[tuple[int, int], list[dict[str, str]]] = {}
    for game in Game.objects.filter(table__series=first).select_related("table"):
        body = run._post_data(GameRowForm.initial_for(game), game.version)
        for key in ("version", "reason", "number"):
            body.pop(key)
        bodies.setdefault((game.table.size, game.number), []).append(body)

    csrf = get_random_string(32)
    slug = tournament.slug
    played = dict(
        Game.objects.filter(table__series=running)
        .values("table_id")
        .annotate(count=Count("pk"))
        .values_list("table_id", "count")
    )
    devices = [
        Device(
            link.token,
            link.table.size,
            {"sessionid": device_session(link), "csrftoken": csrf},
            public=reverse("table", args=[slug, 2, link.table.number]),
            games_before=played.get(link.table_id, 0),
        )
        for link in sorted(active_links(running).values(), key=lambda link: link.table.number)
    ]
    phones = [
        (reverse("table", args=[slug, 2, table]), reverse("player", args=[player]))
        for table, player in Seat.objects.filter(series=running).values_list(
            "table__number", "player_id"
        )
    ]
    return Evening(
        tournament=tournament,
        devices=devices,
        phones=phones,
        standings=reverse("standings", args=[slug]),
        hall=reverse("hall", args=[slug]) + f"?every={HALL_EVERY:.0f}",
        status=reverse("referee:series-status", args=[slug, 2]),
        referee_cookies=[f"sessionid={load.referee_session(user)}" for user in referees],
        bodies=bodies,
        csrf=csrf,
    )


def device_session(link: Any) -> str:
    """A session in which the device has named itself (the table link's first step)."""
    from django.contrib.sessions.backends.db import SessionStore

    from skatliga.table.views import DEVICE_SESSION_KEY

    session = SessionStore()
    session[DEVICE_SESSION_KEY] = {str(link.pk): f"Tisch {link.table.number}"}
    session.create()
    return str(session.session_key)


# --- measuring -------------------------------------------------------------------------------


@dataclass
class Record:
    """One class's figures: latencies, how late first requests were sent, errors."""

    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)


class Client:
    """HTTP to the server, each request timed and counted under its class (while measuring)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.records = {name: Record() for name in CLASSES}
        self.lock = threading.Lock()
        self.measure_from = math.inf

    def request(
        self,
        name: str,
        due: float,
        method: str,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        body: str | None = None,
        ok: tuple[int, ...] = (200,),
        after: float | None = None,
    ) -> tuple[int, dict[str, list[str]], bytes] | None:
        """The answer (status, headers, body), or None on a failed request. ``due`` is when
        the step it belongs to was scheduled, and decides whether it is measured; its latency
        counts from there, or from ``after`` (the answer it follows)."""
        measured = due >= self.measure_from
        sent = time.monotonic()
        all_headers = {
            "Host": f"{self.host}:{self.port}",
            "X-Forwarded-Proto": "https",
            "X-Bench": name if measured else "warm",
            **(headers or {}),
        }
        if body is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["Referer"] = f"https://{self.host}:{self.port}{path}"
        answer, problem = None, ""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        try:
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            content = response.read()
            received: dict[str, list[str]] = {}
            for key, value in response.getheaders():
                received.setdefault(key.lower(), []).append(value)
            answer = (response.status, received, content)
            if response.status not in ok:
                problem = str(response.status)
        except (OSError, http.client.HTTPException) as error:
            problem = type(error).__name__
        finally:
            connection.close()
        if measured:
            with self.lock:
                record = self.records[name]
                record.latencies.append((time.monotonic() - (after or due)) * 1000)
                if after is None:
                    record.lags.append((sent - due) * 1000)
                status = str(answer[0]) if answer else "none"
                record.statuses[status] = record.statuses.get(status, 0) + 1
                if problem:
                    record.errors[problem] = record.errors.get(problem, 0) + 1
        return answer if not problem else None


class Actor:
    """Something that asks the server on a schedule: one step every ``period`` seconds."""

    period: float

    def step(self, client: Client, due: float) -> None:
        raise NotImplementedError


class Schedule:
    """Runs every actor's steps at their scheduled moments until ``end``, one step per actor
    at a time, on a pool of threads; a step that is late starts as soon as it can."""

    def __init__(self, client: Client, workers: int) -> None:
        self.client = client
        self.workers = workers

    def run(self, actors: list[tuple[Actor, float]], start: float, end: float) -> None:
        heap = [(start + offset, n, actor) for n, (actor, offset) in enumerate(actors)]
        heapq.heapify(heap)
        order = itertools.count(len(heap))
        ready: queue.Queue[tuple[float, Actor] | None] = queue.Queue()
        changed = threading.Condition()
        busy = 0

        def work() -> None:
            nonlocal busy
            while (item := ready.get()) is not None:
                due, actor = item
                try:
                    actor.step(self.client, due)
                finally:
                    with changed:
                        busy -= 1
                        heapq.heappush(heap, (due + actor.period, next(order), actor))
                        changed.notify()

        threads = [threading.Thread(target=work, daemon=True) for _ in range(self.workers)]
        for thread in threads:
            thread.start()
        while True:
            with changed:
                while heap and heap[0][0] > end:
                    heapq.heappop(heap)  # this actor is done
                if not heap:
                    if not busy:
                        break
                    changed.wait(0.5)
                    continue
                due = heap[0][0]
                wait = due - time.monotonic()
                if wait > 0:
                    changed.wait(wait)
                    continue
                _, _, actor = heapq.heappop(heap)
                busy += 1
            ready.put((due, actor))
        for _ in threads:
            ready.put(None)
        for thread in threads:
            thread.join(timeout=TIMEOUT)


ENTRY_FORM = re.compile(r'<form id="entry".*?</form>', re.S)
NUMBER = re.compile(r'name="number" value="(\d+)"')
VERSION = re.compile(r'name="version"(?: value="(\d*)")?')
SHOWN = re.compile(r'<table class="list[^>]*? data-revision="([^"]*)"')


class TableDevice(Actor):
    def __init__(
        self, device: Device, evening: Evening, period: float, previews: int, in_place: bool = True
    ) -> None:
        self.device, self.evening, self.period, self.previews = device, evening, period, previews
        self.in_place = in_place
        self.rng = random.Random(device.token)
        self.entry = f"/t/{device.token}/"
        self.full = False

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.device.cookies.items())

    def keep_cookies(self, headers: dict[str, list[str]]) -> None:
        """The browser's part: cookies set (the messages of a save) come back, deleted ones
        do not."""
        for line in headers.get("set-cookie", []):
            pair, *attributes = line.split(";")
            name, _, value = pair.strip().partition("=")
            gone = any(a.strip().lower() in ("max-age=0",) for a in attributes)
            if gone or value in ("", '""'):
                self.device.cookies.pop(name, None)
            else:
                self.device.cookies[name] = value

    def read_page(self, client: Client, due: float, path: str, after: float | None) -> bool:
        """GET the entry page (or a row's); note the row its form shows. False: failed."""
        answer = client.request(
            "device_page", due, "GET", path, headers={"Cookie": self.cookie()}, after=after
        )
        if answer is None:
            return False
        self.keep_cookies(answer[1])
        page = answer[2].decode()
        shown = SHOWN.search(page)
        self.device.shown = shown.group(1) if shown else ""
        form = ENTRY_FORM.search(page)
        if form is None:  # the list is full: no new row to type
            self.device.number, self.device.version = 0, ""
            return True
        number, version = NUMBER.search(form.group()), VERSION.search(form.group())
        self.device.number = int(number.group(1)) if number else 0
        self.device.version = (version.group(1) or "") if version else ""
        return True

    def step(self, client: Client, due: float) -> None:
        device = self.device
        after: float | None = None  # the first request counts from the scheduled moment
        if not device.number:
            # The page not read yet, or the list full: its entry page, or a row's to correct.
            for _ in range(2):
                path = self.entry
                if self.full:
                    path += f"?game={self.rng.randint(1, ROUNDS * device.size)}"
                if not self.read_page(client, due, path, after):
                    return
                after = time.monotonic()
                if device.number:
                    break
                self.full = True
            else:
                return
        fields = {
            "csrfmiddlewaretoken": self.evening.csrf,
            "number": str(device.number),
            "version": device.version,
            **self.rng.choice(self.evening.bodies[(device.size, device.number)]),
        }
        if device.version:
            fields["reason"] = "Korrektur am Tisch"
        body = urlencode(fields)
        headers = {"Cookie": self.cookie()}
        asking = headers | {"X-Requested-With": "fetch", "Accept": "application/json"}
        for _ in range(self.previews):
            preview = self.entry + "preview/"
            if (
                client.request(
                    "preview", due, "POST", preview, headers=asking, body=body, after=after
                )
                is None
            ):
                return
            after = time.monotonic()
        if not device.version and self.in_place:
            # A new row, as table-queue.js saves it online: the answer updates the page in
            # place (the list's rows, its summary, the next row's number), no page to read.
            saved = client.request(
                "save",
                due,
                "POST",
                self.entry,
                headers=asking | {"X-List-Revision": device.shown},
                body=body,
                after=after,
            )
            if saved is None:
                device.number = 0
                return
            self.keep_cookies(saved[1])
            device.added += 1
            answer = json.loads(saved[2])
            following = answer.get("next")
            device.number, device.version = following or 0, ""
            device.shown = answer.get("revision") or ""
            if following:
                return
            # The list complete: the page reloads for its signing part.
            location = self.entry
        else:
            # A correction (or, with --devices reload, every save) is the form's own post:
            # the redirect, then the page.
            saved = client.request(
                "save", due, "POST", self.entry, headers=headers, body=body, ok=(302,), after=after
            )
            if saved is None:
                device.number = 0  # read the page again before the next save
                return
            self.keep_cookies(saved[1])
            if not device.version:
                device.added += 1
            location = saved[1].get("location", [self.entry])[0]
        if not self.read_page(client, due, location, time.monotonic()):
            device.number = 0
            return
        client.request("device_page", due, "GET", "/t/sw.js", after=time.monotonic())


class Phone(Actor):
    def __init__(self, pages: tuple[str, str, str], period: float, seed: int) -> None:
        self.pages, self.period = pages, period
        self.rng = random.Random(seed)

    def step(self, client: Client, due: float) -> None:
        client.request("public", due, "GET", self.rng.choice(self.pages))


class Hall(Actor):
    def __init__(self, path: str) -> None:
        self.path, self.period = path, HALL_EVERY

    def step(self, client: Client, due: float) -> None:
        client.request("hall", due, "GET", self.path, headers={"Accept": "text/html"})


class Dashboard(Actor):
    def __init__(self, path: str, cookie: str) -> None:
        self.path, self.cookie, self.period = path, cookie, DASHBOARD_EVERY
        self.etag = ""

    def step(self, client: Client, due: float) -> None:
        headers = {"Cookie": self.cookie, "Accept": "application/json"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        answer = client.request("dashboard", due, "GET", self.path, headers=headers, ok=(200, 304))
        if answer is not None:
            self.etag = answer[1].get("etag", [self.etag])[0]


def actors(
    evening: Evening,
    saves: float,
    reads: float,
    previews: int,
    rng: random.Random,
    in_place: bool = True,
) -> list[tuple[Actor, float]]:
    """Every actor with its first step's offset, spread at random over its period."""
    found: list[Actor] = []
    device_period = len(evening.devices) / saves
    found += [TableDevice(d, evening, device_period, previews, in_place) for d in evening.devices]
    phone_period = len(evening.phones) / reads
    found += [
        Phone((table, evening.standings, player), phone_period, n)
        for n, (table, player) in enumerate(evening.phones)
    ]
    found += [Hall(evening.hall) for _ in range(HALLS)]
    found += [Dashboard(evening.status, cookie) for cookie in evening.referee_cookies]
    return [(actor, rng.uniform(0, actor.period)) for actor in found]


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted ``values``."""
    return values[max(0, math.ceil(share * len(values)) - 1)] if values else 0.0


def summary(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "p50_ms": round(percentile(values, 0.5), 1),
        "p95_ms": round(percentile(values, 0.95), 1),
        "p99_ms": round(percentile(values, 0.99), 1),
        "max_ms": round(values[-1], 1) if values else 0.0,
    }


def server_times(logs: dict[Path, int]) -> dict[str, dict[str, float]]:
    """Milliseconds inside gunicorn per class, from each access log's lines after its
    offset (one log per app server)."""
    times: dict[str, list[float]] = {name: [] for name in CLASSES}
    for log, offset in logs.items():
        with log.open() as file:
            file.seek(offset)
            for line in file:
                parts = line.split()
                if len(parts) == 3 and parts[0] in times:
                    times[parts[0]].append(int(parts[2]) / 1000)
    return {name: summary(values) | {"count": len(values)} for name, values in times.items()}


def drive(
    client: Client,
    evening: Evening,
    logs: list[Path],
    *,
    saves: float,
    reads: float,
    warmup: float,
    seconds: float,
    previews: int,
    connections: int,
    in_place: bool = True,
) -> dict[str, Any]:
    """One load run: the figures per class and whether each met its targets."""
    client.records = {name: Record() for name in CLASSES}
    offsets = {log: log.stat().st_size for log in logs}
    start = time.monotonic() + 0.5
    client.measure_from = start + warmup
    rng = random.Random(f"evening-{saves}-{reads}")
    load_before = os.getloadavg()[0]
    Schedule(client, connections).run(
        actors(evening, saves, reads, previews, rng, in_place), start, start + warmup + seconds
    )
    took = time.monotonic() - client.measure_from
    time.sleep(0.5)  # gunicorn writes its log line after the answer
    inside = server_times(offsets)
    classes = {}
    for name, record in client.records.items():
        errors = sum(record.errors.values())
        figures = summary(record.latencies)
        classes[name] = {
            "requests": len(record.latencies),
            "per_s": round(len(record.latencies) / seconds, 1),
            **figures,
            "lag_p95_ms": summary(record.lags)["p95_ms"] if record.lags else None,
            "errors": errors,
            "error_kinds": record.errors,
            "statuses": record.statuses,
            "server": inside[name],
            "met": (
                figures["p95_ms"] <= TARGETS["p95_ms"]
                and figures["p99_ms"] <= TARGETS["p99_ms"]
                and errors == 0
                # Devices that update in place read pages only when a list is complete.
                and (len(record.latencies) > 0 or name == "device_page")
            ),
        }
    return {
        "saves_per_s_asked": saves,
        "public_reads_per_s_asked": reads,
        "saves_per_s_served": (
            classes["save"]["statuses"].get("302", 0) + classes["save"]["statuses"].get("200", 0)
        )
        / seconds,
        "seconds": seconds,
        "drained_after_s": round(took, 1),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "classes": classes,
        "met": all(c["met"] for c in classes.values()),
    }


def cache_query(client: Client, paths: list[str], pairs: int) -> dict[str, Any]:
    """A cached public page asked for with ``?z=<random>`` against without, on the quiet
    server: the median of each, in interleaved pairs, and their ratio (target ≤ 1.5)."""
    client.measure_from = math.inf  # its requests are logged as "warm", not in a class
    result: dict[str, Any] = {}
    for path in paths:
        plain, random_query = [], []
        client.request("public", 0, "GET", path)
        for _ in range(pairs):
            for times, asked in ((plain, path), (random_query, f"{path}?z={secrets.token_hex(8)}")):
                start = time.monotonic()
                client.request("public", 0, "GET", asked)
                times.append((time.monotonic() - start) * 1000)
        median, with_query = statistics.median(plain), statistics.median(random_query)
        result[path] = {
            "plain_ms": round(median, 2),
            "random_query_ms": round(with_query, 2),
            "ratio": round(with_query / median, 2),
            "met": with_query / median <= 1.5,
        }
    return result


EMPTY_ROW = '<tr class="empty">'


def fresh_everywhere(evening: Evening, ports: list[int], tables: int = 5) -> dict[str, Any]:
    """After the load: a save through one app server, then read through the other (the same
    one when there is one): the table's own page (its device's) shows the new row at once;
    the table's public list and the standings are new once ``settings.PAGE_LAG`` seconds
    have passed (they may lag that much), whatever either server had cached."""
    from django.conf import settings

    writer, reader = Client("127.0.0.1", ports[0]), Client("127.0.0.1", ports[-1])
    checked = []
    time.sleep(settings.PAGE_LAG + 0.1)  # the public pages as of the load's last saves
    for device in [d for d in evening.devices if d.number][:tables]:
        before = reader.request("public", 0, "GET", device.public)
        standings = reader.request("public", 0, "GET", evening.standings)
        added = device.added
        actor = TableDevice(device, evening, 1.0, 1)
        actor.step(writer, 0)
        answered = device.shown  # the list's revision the save answered
        own = reader.request(
            "device_page", 0, "GET", actor.entry, headers={"Cookie": actor.cookie()}
        )
        time.sleep(settings.PAGE_LAG + 0.1)
        after = reader.request("public", 0, "GET", device.public)
        standings_after = reader.request("public", 0, "GET", evening.standings)
        if None in (before, after, standings, standings_after, own) or device.added != added + 1:
            checked.append({"table": device.public, "saved": False, "fresh": False})
            continue
        assert before and after and standings and standings_after and own
        shown = SHOWN.search(own[2].decode())
        own_page = bool(answered) and shown is not None and shown.group(1) == answered
        rows_added = before[2].decode().count(EMPTY_ROW) - after[2].decode().count(EMPTY_ROW)
        standings_new = standings[1].get("etag") != standings_after[1].get("etag")
        checked.append(
            {
                "table": device.public,
                "saved": True,
                "own_page_shows_the_save": own_page,
                "list_shows_the_save": rows_added == 1,
                "standings_new": standings_new,
                "fresh": own_page and rows_added == 1 and standings_new,
            }
        )
    return {
        "written_through_port": ports[0],
        "read_through_port": ports[-1],
        "public_pages_may_lag_s": settings.PAGE_LAG,
        "tables": checked,
        "all_fresh": bool(checked) and all(c["fresh"] for c in checked),
    }


def print_fresh(fresh: dict[str, Any]) -> None:
    shown = sum(c["fresh"] for c in fresh["tables"])
    print(
        f"\nfresh: {shown} of {len(fresh['tables'])} saves through :{fresh['written_through_port']}"
        f" shown through :{fresh['read_through_port']} (the device's page at once, the public"
        f" list and the standings within {fresh['public_pages_may_lag_s']:g} s)"
    )


def saves_kept(evening: Evening) -> dict[str, Any]:
    """Every new row a device was told was saved is in the database: the rows added per
    list against the saves answered (more rows: a save whose answer never came)."""
    from django.db.models import Count

    from skatliga.models import Game, TableLink

    tables = dict(
        TableLink.objects.filter(token__in=[d.token for d in evening.devices]).values_list(
            "token", "table_id"
        )
    )
    now = dict(
        Game.objects.filter(table_id__in=tables.values())
        .values("table_id")
        .annotate(count=Count("pk"))
        .values_list("table_id", "count")
    )
    lost, unanswered = 0, 0
    for device in evening.devices:
        added = now.get(tables[device.token], 0) - device.games_before
        lost += max(0, device.added - added)
        unanswered += max(0, added - device.added)
    return {
        "new_rows_answered_saved": sum(d.added for d in evening.devices),
        "saves_lost": lost,
        "rows_saved_without_an_answer": unanswered,
    }


def verdict(flag: bool) -> str:
    return "ok  " if flag else "MISS"


def print_run(result: dict[str, Any]) -> None:
    print(
        f"\n{result['saves_per_s_asked']:g} saves/s and "
        f"{result['public_reads_per_s_asked']:g} public reads/s asked; "
        f"{result['saves_per_s_served']:.1f} saves/s served in {result['seconds']:g} s "
        f"(load {result['load_before']:.1f} → {result['load_after']:.1f})"
    )
    print(
        f"  {'class':<12} {'requests':>8} {'per s':>6} {'p50':>7} {'p95':>7} {'p99':>7} "
        f"{'max':>7} {'lag95':>7} {'srv95':>7} {'errors':>6}  p95≤150 p99≤400 errors"
    )
    for name, c in result["classes"].items():
        print(
            f"  {name:<12} {c['requests']:>8} {c['per_s']:>6} {c['p50_ms']:>7} {c['p95_ms']:>7} "
            f"{c['p99_ms']:>7} {c['max_ms']:>7} {c['lag_p95_ms'] or '-':>7} "
            f"{c['server']['p95_ms']:>7} {c['errors']:>6}  "
            f"{verdict(c['p95_ms'] <= TARGETS['p95_ms'])}    "
            f"{verdict(c['p99_ms'] <= TARGETS['p99_ms'])}    {verdict(c['errors'] == 0)}"
            + (f"  {c['error_kinds']}" if c["errors"] else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--name", default=run.NAME, help="scratch database prefix")
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--three-tables", type=int, default=0, help="of --tables, seating 3")
    parser.add_argument("--played", type=int, default=12, help="games per running list")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--saves", type=float, default=30, help="saves per second in all")
    parser.add_argument("--reads", type=float, default=60, help="phones' requests per second")
    parser.add_argument("--previews", type=int, default=1, help="previews per save")
    parser.add_argument(
        "--devices",
        choices=("in-place", "reload"),
        default="in-place",
        help="reload: every save the form's own post and the page after it (no script)",
    )
    parser.add_argument("--connections", type=int, default=200, help="load generator threads")
    parser.add_argument("--port", type=int, default=8311, help="gunicorn's port on 127.0.0.1")
    parser.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="gunicorn workers per server; default as the start command: 2 × cores + 1",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="app servers (gunicorn each, on --port+1…) behind nginx on --port when above 1",
    )
    parser.add_argument(
        "--redis",
        default="",
        help="the shared page cache and rate limits' store, redis://host:port/db; with "
        "--servers above 1 and none given, a redis-server of its own on --redis-port",
    )
    parser.add_argument("--redis-port", type=int, default=0, help="default: --port + 9")
    parser.add_argument(
        "--cache",
        choices=("local", "redis"),
        default="local",
        help="one server's page cache: local memory per worker, or a Redis of its own (as "
        "with --servers above 1) that its workers share",
    )
    parser.add_argument("--sweep", action="store_true", help="short runs at rising save rates")
    parser.add_argument("--sweep-rates", default="10,20,30,45,60")
    parser.add_argument("--sweep-seconds", type=float, default=30)
    parser.add_argument(
        "--cache-query-check", action="store_true", help="only the ?z=<random> measure"
    )
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()
    if not 0 <= args.three_tables <= args.tables:
        parser.error("--three-tables must be between 0 and --tables")

    url = run.fresh_database(args.db, "evening", args.name)
    secret_key = secrets.token_urlsafe(50)  # the server's too: sessions are signed with it
    os.environ["SKATLIGA_SECRET_KEY"] = secret_key
    run.setup_django(url)
    from django.db import connections

    evening = build(args)
    run.analyze()
    connections.close_all()

    workdir = Path(tempfile.mkdtemp(prefix="skatliga-evening-"))
    started_here: list[Any] = []
    redis_url = args.redis
    if (args.servers > 1 or args.cache == "redis") and not redis_url:
        redis_port = args.redis_port or args.port + 9
        started_here.append(servers.start_redis(redis_port, workdir / "redis"))
        redis_url = f"redis://127.0.0.1:{redis_port}/0"
    # One server: on --port itself; several: on the ports after it, nginx on --port.
    ports = [args.port] if args.servers == 1 else [args.port + 1 + n for n in range(args.servers)]
    app_servers = []
    for n, port in enumerate(ports):
        own = workdir / f"server-{n + 1}" if args.servers > 1 else workdir
        own.mkdir(exist_ok=True)
        app_servers.append(
            load.start_server(
                url,
                secret_key,
                f"127.0.0.1:{port}",
                args.workers,
                own,
                cache=redis_url or "local",
                access_log=ACCESS_LOG,
            )
        )
    logs = [
        (workdir / f"server-{n + 1}" if args.servers > 1 else workdir) / "access.log"
        for n in range(len(ports))
    ]
    if args.servers > 1:
        started_here.append(
            servers.start_proxy(
                args.port, [f"127.0.0.1:{port}" for port in ports], workdir / "proxy"
            )
        )
    client = Client("127.0.0.1", args.port)
    cached_pages = [evening.standings, evening.phones[0][1]]
    started = datetime.datetime.now().astimezone()
    result: dict[str, Any] = {
        "db": args.db,
        "database": run.database_version(),
        "date": started.isoformat(timespec="seconds"),
        "machine": run.machine(),
        "gunicorn_workers": args.workers,
        "app_servers": args.servers,
        "proxy": "nginx (round robin)" if args.servers > 1 else None,
        "page_cache": "redis" if redis_url else "local memory per worker",
        "rate_limits": "redis" if redis_url else "database",
        "tables": len(evening.devices),
        "three_tables": args.three_tables,
        "players": len(evening.phones),
        "games_per_list": {"4": 4 * ROUNDS, "3": 3 * ROUNDS},
        "played_before": args.played,
        "warmup_s": args.warmup,
        "previews_per_save": args.previews,
        "devices": args.devices,
        "load_generator_threads": args.connections,
        "targets": {**TARGETS, "errors": 0, "lists": "every list equals its recomputation"},
    }
    try:
        for port in ports:
            load.wait_for(f"http://127.0.0.1:{port}/")
        # Every page once, as devices and screens had them open before the evening began.
        for path in {evening.standings, evening.hall, *itertools.chain(*evening.phones)}:
            client.request("public", 0, "GET", path)
        if args.cache_query_check:
            result["cache_query"] = cache_query(client, cached_pages, 30)
        elif args.sweep:
            steps = []
            for rate in (float(r) for r in args.sweep_rates.split(",")):
                step = drive(
                    client,
                    evening,
                    logs,
                    saves=rate,
                    reads=2 * rate,
                    warmup=min(args.warmup, 10),
                    seconds=args.sweep_seconds,
                    previews=args.previews,
                    connections=args.connections,
                    in_place=args.devices == "in-place",
                )
                print_run(step)
                steps.append(step)
            held = [s["saves_per_s_asked"] for s in steps if s["met"]]
            result["sweep"] = steps
            result["largest_save_rate_met"] = max(held) if held else None
        else:
            result |= drive(
                client,
                evening,
                logs,
                saves=args.saves,
                reads=args.reads,
                warmup=args.warmup,
                seconds=args.seconds,
                previews=args.previews,
                connections=args.connections,
                in_place=args.devices == "in-place",
            )
            print_run(result)
            result["cache_query"] = cache_query(client, cached_pages, 30)
        if not args.sweep and not args.cache_query_check:
            result["fresh"] = fresh_everywhere(evening, ports)
            print_fresh(result["fresh"])
    finally:
        for server in app_servers:
            load.stop_server(server)
        for process in reversed(started_here):
            servers.stop(process)
    lists = load.compare_lists(series__tournament=evening.tournament)
    result |= lists
    result |= saves_kept(evening)
    print(
        f"\nsaves: {result['new_rows_answered_saved']} new rows answered saved, "
        f"{result['saves_lost']} lost, {result['rows_saved_without_an_answer']} saved unanswered"
    )
    result["lists_equal"] = not lists["lists_wrong"]
    print(f"\nlists: {lists['lists_checked']} checked, {len(lists['lists_wrong'])} differ")
    for path, figures in result.get("cache_query", {}).items():
        print(
            f"cached page {path}: {figures['plain_ms']} ms, with ?z=<random> "
            f"{figures['random_query_ms']} ms, ratio {figures['ratio']} "
            f"(≤ 1.5: {verdict(figures['met']).strip()})"
        )
    if args.sweep:
        print(f"largest save rate with every target met: {result['largest_save_rate_met']}")
    elif not args.cache_query_check:
        result["all_met"] = result["met"] and result["lists_equal"]
        print(f"every target met: {'yes' if result['all_met'] else 'no'}")
    kind = "-sweep" if args.sweep else "-cache-query" if args.cache_query_check else ""
    name = f"evening-{args.db}{kind}.json"
    if args.servers == 2 and not kind:
        name = "evening-two-servers.json"
    output = args.output or run.RESULTS / name
    output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"written to {output} (server logs in {workdir})")


if __name__ == "__main__":
    main()

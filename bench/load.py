"""Load test: the site as in production (gunicorn, debug off) under wrk, on a league season.

    python bench/load.py --db postgresql [--size medium] [--seconds 60] [--name skatliga_bench]

To reproduce on a quiet machine (PostgreSQL on 127.0.0.1:5432, user postgres; Debian's wrk):

    apt-get install wrk
    python bench/run.py --db postgresql --size medium --build-only
    python bench/load.py --db postgresql --size medium --workers 2 --seconds 60

Needs the season of an earlier ``bench/run.py --db … --size … --build-only`` (or a full run).
Starts gunicorn on 127.0.0.1:<port> with ``SKATLIGA_DEBUG=0``, as production does (each
worker its own local-memory page cache unless ``--cache file``), and runs two wrk processes
side by side for the same time, each with its own connections:

- public pages (about 90 % of the requests): season and tournament standings, series and
  list pages, players, the hall display, the CSVs, drawn at random from the season;
- referee saves (about 10 %): POSTs of a corrected row, as the browser sends them, to lists
  of different tournaments; each list's row alternates between passed in and the game as it
  was, and each connection keeps the row's version it saved last.

Then every list of the season has its result rows compared with a recomputation from its
games. Prints a summary and writes ``bench/results/load-<db>.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import run  # noqa: E402

LUA = r"""
local paths = {}
local bodies = {}
local versions = {}
local n = 0
local current = 0
local saved, refused, done_requests = 0, 0, 0
local kind = "%(kind)s"
local headers = %(headers)s

threads = {}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

function init(args)
  local id = wrk.thread:get("id")
  local line_number = 0
  for line in io.lines("%(plan)s") do
    line_number = line_number + 1
    -- Saves: each thread (one connection each) keeps to its own lists.
    if kind == "get" or (line_number - 1) %% %(threads)d == id - 1 then
      local path, a, b, version = line:match("([^\t]+)\t?([^\t]*)\t?([^\t]*)\t?([^\t]*)")
      n = n + 1
      paths[n] = path
      bodies[n] = {a, b}
      versions[n] = tonumber(version)
    end
  end
  math.randomseed(%(seed)d + id)
  current = math.random(n)
end

function request()
  if kind == "get" then
    return wrk.format("GET", paths[math.random(n)], headers)
  end
  current = current %% n + 1
  local version = versions[current]
  local body = bodies[current][(version %% 2) + 1] .. "&version=" .. version
  return wrk.format("POST", paths[current], headers, body)
end

function response(status, hdrs, body)
  done_requests = done_requests + 1
  if kind == "post" then
    if status == 302 then
      saved = saved + 1
      versions[current] = versions[current] + 1
    else
      refused = refused + 1
    end
  elseif status ~= 200 then
    refused = refused + 1
  end
  wrk.thread:set("saved", saved)
  wrk.thread:set("refused", refused)
end

function done(summary, latency, requests)
  local saved_all, refused_all = 0, 0
  for _, t in ipairs(threads) do
    saved_all = saved_all + (t:get("saved") or 0)
    refused_all = refused_all + (t:get("refused") or 0)
  end
  io.write(string.format(
    '{"requests": %%d, "duration_us": %%d, "connect_errors": %%d, "read_errors": %%d, ' ..
    '"write_errors": %%d, "status_errors": %%d, "timeouts": %%d, "saved": %%d, ' ..
    '"refused": %%d, "p50_ms": %%.2f, "p90_ms": %%.2f, "p95_ms": %%.2f, "p99_ms": %%.2f, ' ..
    '"max_ms": %%.2f, "mean_ms": %%.2f}\n',
    summary.requests, summary.duration, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.status, summary.errors.timeout, saved_all,
    refused_all, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    latency.mean / 1000))
end
"""


def public_paths(season: Any, rng: random.Random, count: int) -> list[str]:
    """Public URLs of the season: standings, series, lists, players, hall display, CSVs."""
    from django.urls import reverse

    from skatliga.models import ListResult, Table, Tournament

    tournaments = list(Tournament.objects.filter(season=season).order_by("pk"))
    tables = list(
        Table.objects.filter(series__tournament__season=season).select_related("series__tournament")
    )
    players = list(
        ListResult.objects.for_season(season).values_list("player_id", flat=True).distinct()
    )
    paths = [
        reverse("season", args=[season.slug]),
        reverse("season", args=[season.slug]) + "?export=csv",
    ]
    while len(paths) < count:
        choice = rng.random()
        if choice < 0.25:
            paths.append(reverse("standings", args=[rng.choice(tournaments).slug]))
        elif choice < 0.4:
            t = rng.choice(tables)
            paths.append(reverse("series", args=[t.series.tournament.slug, t.series.number]))
        elif choice < 0.6:
            t = rng.choice(tables)
            slug = t.series.tournament.slug
            paths.append(reverse("table", args=[slug, t.series.number, t.number]))
        elif choice < 0.8:
            paths.append(reverse("player", args=[rng.choice(players)]))
        elif choice < 0.9:
            paths.append(reverse("hall", args=[rng.choice(tournaments).slug]))
        else:
            slug = rng.choice(tournaments).slug
            paths.append(reverse("standings", args=[slug]) + "?export=csv")
    return paths


def save_plan(
    season: Any, user: Any, lists: int
) -> tuple[list[tuple[str, str, str, int]], list[tuple[Any, int, Any, bool, bool]]]:
    """Per list (of different tournaments): its URL, the two row bodies (passed in / as
    played, without the version) and the row's version now; and, for :func:`restore`,
    the list, the row's number and entry, and whether the list was closed and its series
    published."""
    from django.urls import reverse

    from skatliga import services
    from skatliga.forms.entry import PASSED, GameRowForm
    from skatliga.models import Game, Table

    plan = []
    originals = []
    tables = (
        Table.objects.filter(series__tournament__season=season, number=1, series__number=1)
        .select_related("series__tournament")
        .order_by("-series__tournament__date", "series__tournament__name")[:lists]
    )
    for table in tables:
        tournament = table.series.tournament
        tournament.referees.add(user)
        published, closed = table.series.is_published, table.is_closed
        if table.series.is_published:
            services.withdraw_publication(table.series, user=user, reason="Lasttest")
            table.refresh_from_db()
        if table.is_closed:
            services.reopen_table(table, user=user, reason="Lasttest")
        game = Game.objects.filter(table=table, passed=False).order_by("-number").first()
        assert game is not None
        played = run._post_data(GameRowForm.initial_for(game), game.version)
        passed = run._post_data({"number": game.number, "declarer": PASSED}, game.version)
        played.pop("version"), passed.pop("version")
        url = reverse("referee:list", args=[tournament.slug, table.series.number, table.number])
        # Version v is saved as "passed" when v has the parity of the current one.
        first, second = (passed, played) if game.version % 2 == 0 else (played, passed)
        plan.append((url, urlencode(first), urlencode(second), game.version))
        entry = services.GameEntry.from_game(game)
        originals.append((table, game.number, entry, published, closed))
    return plan, originals


def restore(originals: list[tuple[Any, int, Any, bool, bool]], user: Any, logged: int) -> None:
    """The season as it was built, for later runs on it: each saved row as it was, its list
    closed and its series published again, and the changes logged since ``logged`` gone."""
    from skatliga import services
    from skatliga.models import Change, Game

    for table, number, entry, published, closed in originals:
        table.refresh_from_db()
        game = Game.objects.get(table=table, number=number)
        if services.GameEntry.from_game(game) != entry:
            services.record_game(
                table, number, entry, user=user, expected_version=game.version, reason="Lasttest"
            )
        if closed and not table.is_closed:
            services.close_table(table, user=user)
        if published and not table.series.is_published:
            services.publish_series(table.series, user=user)
    Change.objects.filter(pk__gt=logged).delete()


def referee_session(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def check_lists(season: Any) -> dict[str, Any]:
    """Every list of the season: its result rows against a recomputation from its games."""
    return compare_lists(series__tournament__season=season)


def compare_lists(**where: Any) -> dict[str, Any]:
    """Every list of the tables ``where`` selects (a filter on Table): its result rows
    against a recomputation from its games."""
    from skatliga import services
    from skatliga.models import RESULT_FIGURES, Game, ListResult, Seat, Table

    within = {f"table__{key}": value for key, value in where.items()}
    tables = list(Table.objects.filter(**where).select_related("series__tournament"))
    games: dict[int, list[Any]] = {}
    for game in Game.objects.filter(**within).order_by("number"):
        games.setdefault(game.table_id, []).append(game)
    seats: dict[int, list[int]] = {}
    for table_id, player in (
        Seat.objects.filter(**within).order_by("position").values_list("table_id", "player_id")
    ):
        seats.setdefault(table_id, []).append(player)
    stored: dict[int, dict[int, tuple[int, ...]]] = {}
    for row in ListResult.objects.filter(**within).values_list(
        "table_id", "player_id", *RESULT_FIGURES
    ):
        stored.setdefault(row[0], {})[row[1]] = tuple(row[2:])
    wrong = []
    for table in tables:
        tournament = table.series.tournament
        rows = services.list_rows(games.get(table.pk, []), table.size, tournament.rule_set)
        summaries = services.summarize(rows, table.size, tournament.list_system)
        expected = {
            player: (s.game_points, s.won, s.lost, s.others_lost, s.bonus, s.total)
            for player, s in zip(seats[table.pk], summaries, strict=True)
        }
        if stored.get(table.pk) != expected:
            wrong.append(table.pk)
    return {"lists_checked": len(tables), "lists_wrong": wrong}


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
            with urllib.request.urlopen(request, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


ACCESS_LOG = "%(m)s %(U)s %(s)s %(D)s"
"""gunicorn's access log line: method, path, status, microseconds (:func:`access_times`)."""


def start_server(
    url: str,
    secret_key: str,
    host: str,
    workers: int,
    workdir: Path,
    *,
    cache: str = "local",
    access_log: str = ACCESS_LOG,
) -> subprocess.Popen[bytes]:
    """gunicorn on ``host`` (127.0.0.1:port) as production runs it: ``SKATLIGA_DEBUG=0``,
    the hashed static files collected first, each worker its own local-memory page cache
    unless ``cache`` is "file" (one directory in ``workdir`` they share) or a Redis URL
    (``redis://…``: the page cache and the rate limits every server shares). Its access log
    goes to ``workdir``/access.log, its errors to gunicorn.log; :func:`stop_server` ends it."""
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SKATLIGA_DEBUG": "0",
        "SKATLIGA_SECRET_KEY": secret_key,
        "SKATLIGA_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "skatliga.settings",
    }
    if cache == "file":
        env["SKATLIGA_CACHE_URL"] = f"file://{workdir / 'cache'}"
    elif cache.startswith("redis://"):
        env["SKATLIGA_CACHE_URL"] = cache
    else:
        env.pop("SKATLIGA_CACHE_URL", None)
    # As production starts (skatliga.ops.serve): the hashed static files first.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "skatliga.wsgi",
            "--bind",
            host,
            "--workers",
            str(workers),
            "--access-logfile",
            "-",
            "--access-logformat",
            access_log,
        ],
        cwd=ROOT,
        env=env,
        stdout=(workdir / "access.log").open("w"),  # noqa: SIM115
        stderr=(workdir / "gunicorn.log").open("w"),  # noqa: SIM115
        start_new_session=True,
    )


def stop_server(server: subprocess.Popen[bytes]) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--size", choices=("small", "medium", "large"), default="medium")
    parser.add_argument("--name", default=run.NAME)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--port", type=int, default=8301, help="gunicorn's port on 127.0.0.1")
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="gunicorn workers (default 2: one per core of the 2-core target; production's "
        "default is 2 × cores + 1)",
    )
    parser.add_argument("--get-connections", type=int, default=16)
    parser.add_argument("--post-connections", type=int, default=2)
    parser.add_argument("--save-lists", type=int, default=16)
    parser.add_argument(
        "--cache",
        choices=("file", "local"),
        default="local",
        help="the workers' page cache: one directory they share, or local memory each",
    )
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args()

    url = run.existing_database(args.db, args.size, args.name)
    # The server's secret key here too: the referee's session is signed with it.
    secret_key = secrets.token_urlsafe(50)
    os.environ["SKATLIGA_SECRET_KEY"] = secret_key
    run.setup_django(url)
    from django.contrib.auth import get_user_model
    from django.db.models import Max
    from django.utils.crypto import get_random_string

    from skatliga.models import Change, Season

    season = Season.objects.get(slug=f"bench-{args.size}")
    rng = random.Random("skatliga-load")
    user = get_user_model().objects.get_or_create(username="load-referee")[0]
    paths = public_paths(season, rng, 400)
    logged = Change.objects.aggregate(last=Max("pk"))["last"] or 0
    plan, originals = save_plan(season, user, args.save_lists)
    session = referee_session(user)
    csrf = get_random_string(32)  # letters and digits, as Django's CSRF secrets
    host = f"127.0.0.1:{args.port}"
    base = f"http://{host}"

    workdir = Path(tempfile.mkdtemp(prefix="skatliga-load-"))
    (workdir / "get.txt").write_text("".join(f"{p}\n" for p in paths))
    (workdir / "post.txt").write_text("".join(f"{u}\t{a}\t{b}\t{v}\n" for u, a, b, v in plan))
    get_headers = {"X-Forwarded-Proto": "https", "Host": host}
    post_headers = {
        **get_headers,
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"sessionid={session}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "Referer": f"https://{host}/",
    }

    def lua(kind: str, plan_file: str, headers: dict[str, str], threads: int) -> Path:
        table = "{" + ", ".join(f'["{k}"] = "{v}"' for k, v in headers.items()) + "}"
        script = workdir / f"{kind}.lua"
        values = {"kind": kind, "plan": workdir / plan_file, "headers": table, "seed": 7}
        script.write_text(LUA % (values | {"threads": threads}))
        return script

    server = start_server(url, secret_key, host, args.workers, workdir, cache=args.cache)
    try:
        wait_for(base + "/")
        load_before = os.getloadavg()[0]
        # Warm up: every public page once, so that the run measures a working site.
        for path in dict.fromkeys(paths):
            request = urllib.request.Request(base + path, headers=get_headers)
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 200, path
        started = datetime.datetime.now().astimezone()
        wrk = []
        for kind, connections, plan_file, headers in (
            ("get", args.get_connections, "get.txt", get_headers),
            ("post", args.post_connections, "post.txt", post_headers),
        ):
            # Saves: one connection per thread, so that each keeps its lists' versions.
            threads = connections if kind == "post" else min(connections, 2)
            wrk.append(
                subprocess.Popen(
                    [
                        "wrk",
                        "-t",
                        str(threads),
                        "-c",
                        str(connections),
                        "-d",
                        f"{args.seconds}s",
                        "--timeout",
                        "10s",
                        "-s",
                        str(lua(kind, plan_file, headers, threads)),
                        base,
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        outputs = [process.communicate()[0] for process in wrk]
        load_after = os.getloadavg()[0]
    finally:
        stop_server(server)

    figures = [json.loads(out.strip().splitlines()[-1]) for out in outputs]
    public, saves = figures
    seconds = public["duration_us"] / 1e6
    total = public["requests"] + saves["requests"]
    errors = (
        sum(
            f[k]
            for f in figures
            for k in ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")
        )
        + public["refused"]
        + saves["refused"]
    )
    lists = check_lists(season)
    restore(originals, user, logged)
    server_times = access_times(workdir / "access.log")
    result = {
        "db": args.db,
        "size": args.size,
        "database": run.database_version(),
        "date": started.isoformat(timespec="seconds"),
        "machine": run.machine() | {"load_before": load_before, "load_after": load_after},
        "seconds": round(seconds, 1),
        "gunicorn_workers": args.workers,
        "cache": args.cache,
        "wrk_connections": {"public": args.get_connections, "saves": args.post_connections},
        "requests": total,
        "requests_per_s": round(total / seconds, 1),
        "public_share": round(public["requests"] / total, 3),
        "public": public,
        "saves": saves,
        "save_lists": len(plan),
        "errors": errors,
        "server_ms": server_times,
        **lists,
        "targets": {
            "requests_per_s": total / seconds >= 200,
            "public_p95": public["p95_ms"] <= 100,
            "saves_p95": saves["p95_ms"] <= 250,
            "errors": errors == 0,
            "lists": not lists["lists_wrong"],
        },
    }
    print(json.dumps({k: v for k, v in result.items() if k != "machine"}, indent=2))
    output = args.output or run.RESULTS / f"load-{args.db}.json"
    output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"written to {output}")


def access_times(log: Path) -> dict[str, Any]:
    """Server-side milliseconds per request from gunicorn's access log: GETs and POSTs."""
    times: dict[str, list[float]] = {"GET": [], "POST": []}
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] in times:
            times[parts[0]].append(int(parts[3]) / 1000)
    summary = {}
    for method, values in times.items():
        values.sort()
        if values:
            summary[method] = {
                "count": len(values),
                "p50": round(values[len(values) // 2], 2),
                "p95": round(values[int(len(values) * 0.95)], 2),
                "max": round(values[-1], 2),
            }
    return summary


if __name__ == "__main__":
    main()

"""Benchmarks of a league season: standings, game entry, PDFs, import and engine, in one run.

    python bench/run.py --size small|medium|large --db sqlite|postgresql

Sets up a fresh scratch database (SQLite: /tmp/skatliga_bench-<size>.sqlite3; PostgreSQL:
the database ``skatliga_bench_<size>`` on 127.0.0.1:5432, user postgres, dropped and created;
``--name`` changes the prefix),
migrates it, builds the season with ``bench/league.py`` and measures, each against a
baseline taken in the same run:

- season, tournament and series standings: GET of each page (player and team tables)
  through Django's test client, cache miss and cached, against the physical floor (SUM,
  GROUP BY and RANK over the per-list result rows, plus the team query) and the home page;
  each page's own statements are also run alone, against the same floor;
- game entry: a referee's POST of a corrected row to a list of the season (rows alternate
  between passed in and the game as imported), against a GET of the home page;
- the score sheets of one series (pages per second), against the same sheets' text and grid
  drawn on a bare reportlab canvas (``sheets_floor_pages_per_s``), and the season's result
  list (seconds, and ms per page: ``season_pdf_ms_per_page``);
- importing archives (games per second), against COPY (PostgreSQL) or ``executemany``
  (SQLite) of the same rows already built and scored, and ``bulk_create`` as before;
- the engine: ``scoring.score_game`` on random legal games.

Prints a table and writes ``bench/results/<db>-<size>.json``. The development database
(db.sqlite3) is never used.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import platform
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import league  # noqa: E402
from bench.games import random_game  # noqa: E402
from bench.rating import measure_rating  # noqa: E402

RESULTS = ROOT / "bench" / "results"
PG_HOST = "127.0.0.1"
PG_PORT = 5432
NAME = "skatliga_bench"
"""The scratch database's name (``--name``): SQLite /tmp/<name>-<size>.sqlite3, PostgreSQL
<name>_<size>."""
FORM = "application/x-www-form-urlencoded"
"""How a browser posts the list's entry form."""

WARM_UP = 8
"""Runs of each page and floor before the standings are measured."""

TARGETS = {
    "standings": "season, tournament and series page, cache miss ≤ 2 × the floor",
    "standings_cached": "season page served again ≤ 1.5 × the home page",
    "entry": "POST ≤ 2.5 × home page",
    "import": "≥ 0.33 × the floor (COPY on PostgreSQL, executemany on SQLite) games/s",
    "pdf": "≥ 50 score-sheet pages/s",
    "sheets": "score sheets (read and drawn) ≥ 0.5 × the bare-canvas floor pages/s",
    "rating": "every closed list of the season rated again ≤ 60 s (bench/rating.py)",
}


# --- the database ----------------------------------------------------------------------------


def fresh_database(db: str, size: str, name: str = NAME) -> str:
    """A new, empty scratch database; its URL."""
    if db == "sqlite":
        path = Path(f"/tmp/{name}-{size}.sqlite3")
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    with psycopg.connect(
        host=PG_HOST, port=PG_PORT, user="postgres", dbname="postgres", autocommit=True
    ) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name}_{size} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name}_{size}")
    return f"postgres://postgres@{PG_HOST}:{PG_PORT}/{name}_{size}"


def existing_database(db: str, size: str, name: str = NAME) -> str:
    """The scratch database a previous run built (``--reuse``)."""
    if db == "sqlite":
        return f"sqlite:////tmp/{name}-{size}.sqlite3"
    return f"postgres://postgres@{PG_HOST}:{PG_PORT}/{name}_{size}"


def build_record(db: str, size: str, name: str = NAME) -> Path:
    """Where a run notes what building its season took, for later ``--reuse`` runs."""
    return Path(f"/tmp/{name}-{db}-{size}.build.json")


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "skatliga.settings"
    import django
    from django.conf import settings

    django.setup()
    # As in production: no query log, no template debugging; the test client's host allowed.
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["testserver"]
    from django.db import connection

    name = str(connection.settings_dict["NAME"])
    if Path(name).resolve() == (ROOT / "db.sqlite3").resolve():
        sys.exit("refusing to benchmark the development database db.sqlite3")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def database_version() -> str:
    from django.db import connection

    if connection.vendor == "sqlite":
        import sqlite3

        return f"SQLite {sqlite3.sqlite_version}"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return f"PostgreSQL {cursor.fetchone()[0]}"


def analyze() -> None:
    """Refresh the planner's statistics after the bulk load, as autovacuum would on PostgreSQL."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


# --- timing ----------------------------------------------------------------------------------


def repeat(
    run: Callable[[], object], reps: int, *, warm: bool = True, budget: float = 60.0
) -> list[float]:
    """Seconds of each of up to ``reps`` runs (fewer once ``budget`` seconds are spent)."""
    if warm:
        run()
    times: list[float] = []
    spent = 0.0
    while len(times) < reps and (not times or spent < budget):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
        spent += times[-1]
    return times


def median_ms(times: Sequence[float]) -> float:
    return round(statistics.median(times) * 1000, 2)


# --- standings -------------------------------------------------------------------------------

BASELINE_SQL = """
SELECT s.player_id,
       SUM(CASE WHEN s.position = g.declarer THEN g.list_score ELSE 0 END),
       SUM(CASE WHEN s.position = g.declarer AND g.won THEN 1 ELSE 0 END),
       SUM(CASE WHEN s.position = g.declarer AND NOT g.won THEN 1 ELSE 0 END),
       SUM(CASE WHEN NOT g.passed AND NOT g.won AND s.position <> g.declarer THEN 1 ELSE 0 END),
       SUM(CASE WHEN s.position = g.declarer
                THEN g.list_score + CASE WHEN g.won THEN 50 ELSE -50 END
                WHEN NOT g.passed AND NOT g.won
                THEN CASE WHEN g.table_size = 3 THEN 40 ELSE 30 END
                ELSE 0 END) AS total
FROM skatliga_game g
JOIN skatliga_table t ON t.id = g.table_id
JOIN skatliga_series se ON se.id = t.series_id
JOIN skatliga_tournament tr ON tr.id = se.tournament_id
JOIN skatliga_seat s ON s.table_id = g.table_id
WHERE tr.season_id = %s
GROUP BY s.player_id
ORDER BY total DESC
"""
"""Seeger-Fabian totals straight from the games: the declarer's list score ± 50, and 30
(4-table) or 40 (3-table) to every other player at the table for each game lost."""


def baseline_standings(season_id: int) -> dict[int, tuple[int, ...]]:
    """player id → (game points, won, lost, others lost, total)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(BASELINE_SQL, [season_id])
        return {row[0]: tuple(int(v) for v in row[1:]) for row in cursor.fetchall()}


class _StandingsParser(HTMLParser):
    """The first standings table of a page: player id → the total in the row's last cell."""

    def __init__(self) -> None:
        super().__init__()
        self.tables = 0
        self.in_first = False
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.player: int | None = None
        self.totals: dict[int, int] = {}
        self.rows = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables += 1
            self.in_first = self.tables == 1
        elif self.in_first and tag == "tr":
            self.row, self.player = [], None
        elif self.in_first and tag == "td" and self.row is not None:
            self.cell = []
        elif self.in_first and tag == "a" and self.row is not None:
            found = re.search(r"/players/(\d+)/", dict(attrs).get("href") or "")
            if found:
                self.player = int(found[1])

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.in_first = False
        elif self.in_first and tag == "td" and self.row is not None and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif self.in_first and tag == "tr" and self.row:
            self.rows += 1
            if self.player is not None:
                text = self.row[-1].replace("\u2212", "-").replace(".", "").replace("\xa0", "")
                self.totals[self.player] = int(text)
            self.row = None


def page_totals(html: str) -> tuple[dict[int, int], int]:
    parser = _StandingsParser()
    parser.feed(html)
    return parser.totals, parser.rows


FLOOR_PLAYERS_SQL = """
SELECT r.rank, r.player_id, p.name, c.name, r.lists, r.game_points, r.won, r.lost,
       r.others_lost, r.bonus, r.total
FROM (
    SELECT player_id, COUNT(*) AS lists, SUM(game_points) AS game_points, SUM(won) AS won,
           SUM(lost) AS lost, SUM(others_lost) AS others_lost, SUM(bonus) AS bonus,
           SUM(total) AS total,
           RANK() OVER (ORDER BY SUM(total) DESC, SUM(won) DESC, SUM(lost)) AS rank
    FROM skatliga_listresult WHERE {scope} = %s GROUP BY player_id
) r
JOIN skatliga_player p ON p.id = r.player_id
LEFT JOIN skatliga_club c ON c.id = p.club_id
ORDER BY r.rank, p.name, r.player_id
"""
"""The physical floor of a standing: SUM, GROUP BY and RANK over the per-list result rows,
the names joined after the aggregate (LIMIT the page size for a page)."""

FLOOR_TEAMS_SQL = """
SELECT s.series_id, s.team_id, s.points, t.name, c.name
FROM (
    SELECT series_id, team_id, SUM(total) AS points FROM skatliga_listresult
    WHERE {scope} = %s AND team_id IS NOT NULL GROUP BY series_id, team_id
) s
JOIN skatliga_team t ON t.id = s.team_id
LEFT JOIN skatliga_club c ON c.id = t.club_id
"""
"""The team query under a team standing: Spielpunkte per series and team, names after."""


def floor_standings(scope: str, pk: int, limit: int | None) -> tuple[list[Any], list[Any]]:
    """The floor's rows: players (the first ``limit``, or all) and the teams' per-series sums."""
    from django.db import connection

    players = FLOOR_PLAYERS_SQL.format(scope=scope)
    params: list[Any] = [pk]
    if limit is not None:
        players += " LIMIT %s"
        params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(players, params)
        player_rows = cursor.fetchall()
        cursor.execute(FLOOR_TEAMS_SQL.format(scope=scope), [pk])
        team_rows = cursor.fetchall()
    return player_rows, team_rows


def measure_standings(season: Any, reps: int) -> dict[str, Any]:
    """Season, tournament and series standings pages: cache miss and cached, against the floor
    and the home page, interleaved; the totals checked against the floor's. A miss keeps
    the standings' rows rendered (as after a save, where a few of them change); the pages are
    also measured with every row rendered anew (``*_unwritten_ms``)."""
    from django.core.cache import cache, caches
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from skatliga.models import ListResult, Series
    from skatliga.views.public.seasons import SEASON_ROWS_PER_PAGE

    client = Client()
    series = (
        Series.objects.filter(tournament__season=season, number=2)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament__name")
        .first()
    )
    assert series is not None
    tournament = series.tournament
    pages = {
        "standings": (
            reverse("season", args=[season.slug]),
            "season_id",
            season.pk,
            SEASON_ROWS_PER_PAGE,
        ),
        "tournament_standings": (
            reverse("standings", args=[tournament.slug]),
            "tournament_id",
            tournament.pk,
            None,
        ),
        "series_standings": (
            reverse("series", args=[tournament.slug, series.number]),
            "series_id",
            series.pk,
            None,
        ),
    }
    home = reverse("home")

    def page_statements(url: str) -> list[tuple[str, Any]]:
        """The statements (SQL and parameters) of one request of ``url`` on a cache miss."""
        found: list[tuple[str, Any]] = []

        def note(execute: Callable[..., Any], sql: str, params: Any, *args: Any) -> Any:
            found.append((sql, params))
            return execute(sql, params, *args)

        with connection.execute_wrapper(note):
            get(url, miss=True)
        return found

    def get(url: str, *, miss: bool, rows: bool = True) -> float:
        """One request of ``url``; on a ``miss`` the page cache emptied first, and without
        ``rows`` the standings' rows the process keeps rendered too (the cache ``rows``)."""
        if miss:
            cache.clear()
        if not rows:
            caches["rows"].clear()
        start = time.perf_counter()
        response = client.get(url)
        took = time.perf_counter() - start
        assert response.status_code == 200, (url, response.status_code)
        return took

    def floor(scope: str, pk: int, limit: int | None) -> float:
        start = time.perf_counter()
        floor_standings(scope, pk, limit)
        return time.perf_counter() - start

    def replay(statements: list[tuple[str, Any]]) -> float:
        start = time.perf_counter()
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
                cursor.fetchall()
        return time.perf_counter() - start

    result: dict[str, Any] = {}
    samples: dict[str, list[float]] = {}
    # Warm up as a running server is: PostgreSQL plans a prepared statement anew for its
    # first runs on a connection (settings: SKATLIGA_DB_PREPARE), the floor's and the pages'
    # alike, and keeps one plan from about the seventh on.
    for _ in range(WARM_UP):
        for url, scope, pk, limit in pages.values():
            get(url, miss=True), get(url, miss=False), floor(scope, pk, limit)
    get(home, miss=False)
    # Each page's own statements on a cache miss, to be run again without the page around
    # them: what the database does for the page, against what it does for the floor.
    statements = {name: page_statements(url) for name, (url, *_) in pages.items()}
    for _ in range(reps):  # interleaved, so that a busy moment hits all alike
        for name, (url, scope, pk, limit) in pages.items():
            samples.setdefault(f"{name}_floor", []).append(floor(scope, pk, limit))
            samples.setdefault(f"{name}_statements", []).append(replay(statements[name]))
            samples.setdefault(name, []).append(get(url, miss=True))
            samples.setdefault(f"{name}_unwritten", []).append(get(url, miss=True, rows=False))
            samples.setdefault(f"{name}_cached", []).append(get(url, miss=False))
        samples.setdefault("home", []).append(get(home, miss=False))
    for key, times in samples.items():
        result[f"{key}_ms"] = median_ms(times)
        result[f"{key}_samples_ms"] = [round(t * 1000, 2) for t in times]
    result["home_ms"] = result.pop("home_ms")
    result |= measure_season_tables(season, pages["standings"][0], reps)
    for name, found in statements.items():
        result[f"{name}_statement_count"] = len(found)

    # Correctness: every player's totals on the page and in the ranked rows equal the floor's.
    url = pages["standings"][0]
    cache.clear()
    response = client.get(url)
    html = response.content.decode()
    shown, rows = page_totals(html)
    everyone, _teams = floor_standings("season_id", season.pk, None)
    floor_totals = {row[1]: row[-1] for row in everyone}
    mismatches = [p for p in shown if floor_totals.get(p) != shown[p]]
    ranked = ListResult.objects.for_season(season).standings()
    floor_rows = [(row[0], row[1], *row[4:]) for row in everyone]
    ours = [
        (
            r.rank,
            r.player_id,
            r.lists,
            r.game_points,
            r.won,
            r.lost,
            r.others_lost,
            r.bonus,
            r.total,
        )
        for r in ranked
    ]
    if mismatches or ours != floor_rows:
        sys.exit(f"the floor's totals differ from the page: players {mismatches}")
    # The old baseline, kept and named for what it is: a GROUP BY over the raw games.
    games_group_by = repeat(lambda: baseline_standings(season.pk), min(reps, 3), budget=30)
    games_totals = baseline_standings(season.pk)
    if {p: v[-1] for p, v in games_totals.items()} != floor_totals:
        sys.exit("the games' GROUP BY differs from the result rows' totals")
    everything = {"p-per_page": 100_000, "t-per_page": 100_000}
    cache.clear()
    all_rows = repeat(lambda: (cache.clear(), client.get(url, everything)), min(reps, 3), budget=30)
    result |= {
        "standings_baseline_ms": median_ms(games_group_by),
        "standings_games_group_by_ms": median_ms(games_group_by),
        "standings_all_rows_ms": median_ms(all_rows),
        "standings_page_bytes": len(response.content),
        "standings_rows_on_page": rows,
        "standings_players": len(ranked),
        "standings_checked_players": len(shown),
        "standings_checked_all_rows": len(floor_rows),
        "standings_tournament": tournament.slug,
    }
    return result


def measure_season_tables(season: Any, url: str, reps: int) -> dict[str, Any]:
    """Where the season page's Python goes: its two standings tables set up and read
    (``tables``), then also written by their template (``written``), interleaved."""
    from django.template import engines
    from django.test import RequestFactory

    from skatliga.models import ListResult
    from skatliga.views.public.common import standings_tables
    from skatliga.views.public.seasons import SEASON_ROWS_PER_PAGE

    template = engines["django"].from_string(
        "{% load django_tables2 %}{% render_table players %}{% render_table teams %}"
    )

    request = RequestFactory().get(url)

    def tables() -> tuple[Any, Any]:
        players, teams = standings_tables(
            request,
            ListResult.objects.for_season(season),
            per_page=SEASON_ROWS_PER_PAGE,
            season=season,
            scheme=season.match_points,
        )
        list(players.paginated_rows.data)
        return players, teams

    def written() -> None:
        players, teams = tables()
        template.render({"players": players, "teams": teams, "request": request})

    steps = {"tables": tables, "written": written}
    samples: dict[str, list[float]] = {name: [] for name in steps}
    for run in steps.values():
        run()
    for _ in range(reps):
        for name, run in steps.items():
            samples[name] += repeat(run, 1, warm=False)
    players, teams = tables()
    return {f"standings_tables_{name}_ms": median_ms(times) for name, times in samples.items()} | {
        "standings_tables_cells": len(players.paginated_rows.data) * len(players.columns)
        + len(teams.paginated_rows.data) * len(teams.columns)
    }


# --- game entry ------------------------------------------------------------------------------


def _post_data(initial: dict[str, Any], version: int) -> dict[str, str]:
    """A row's form values as a browser posts them: booleans ticked or absent."""
    data = {}
    for key, value in initial.items():
        if value is True:
            data[key] = "on"
        elif value is not False and value is not None:
            data[key] = str(value)
    data["version"] = str(version)
    data["reason"] = "Benchmark"  # a correction needs a reason
    return data


def measure_entry(season: Any, reps: int) -> dict[str, Any]:
    """Saving a game through the referee's list, against the home page; the referee's list
    page it redirects to, and the public list page (cache miss) that the players read."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db.models import Max
    from django.test import Client
    from django.urls import reverse

    from skatliga import services
    from skatliga.forms.entry import PASSED, GameRowForm
    from skatliga.models import Game, Table

    table = (
        Table.objects.filter(series__tournament__season=season, series__number=2, number=2)
        .select_related("series__tournament")
        .order_by("-series__tournament__date", "-series__tournament__name")
        .first()
    )
    assert table is not None
    tournament = table.series.tournament
    user = get_user_model().objects.get_or_create(username="bench-referee")[0]
    tournament.referees.add(user)
    published, closed = table.series.is_published, table.is_closed
    logged = tournament.changes.aggregate(last=Max("pk"))["last"] or 0
    if published:
        # An imported, finished match day is published: made provisional again to correct it.
        services.withdraw_publication(table.series, user=user, reason="Benchmark")
        table.refresh_from_db()
    if table.is_closed:
        services.reopen_table(table, user=user, reason="Benchmark")
    client, anonymous = Client(), Client()
    client.force_login(user)
    url = reverse("referee:list", args=[tournament.slug, table.series.number, table.number])
    public = reverse("table", args=[tournament.slug, table.series.number, table.number])
    home = reverse("home")
    game = Game.objects.filter(table=table, passed=False).order_by("-number").first()
    assert game is not None
    number = game.number
    played = GameRowForm.initial_for(game)
    passed = {"number": number, "declarer": PASSED}
    version = game.version
    original = Game.objects.filter(table=table).count()

    def post() -> tuple[float, float]:
        nonlocal version
        data = _post_data(passed if version % 2 == game.version % 2 else played, version)
        start, cpu = time.perf_counter(), time.process_time()
        response = client.post(url, urlencode(data), content_type=FORM)
        took = time.perf_counter() - start, time.process_time() - cpu
        if response.status_code != 302:
            sys.exit(f"the entry was refused: {response.status_code}")
        version += 1
        return took

    def get(path: str, via: Client = client) -> tuple[float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        response = via.get(path)
        took = time.perf_counter() - start, time.process_time() - cpu
        assert response.status_code == 200, (path, response.status_code)
        return took

    entry, trivial, list_page, public_page = [], [], [], []
    try:
        for _ in range(2):  # warm up: both variants once, the pages once
            post()
            get(url)
            get(home)
        for _ in range(reps):  # interleaved, so that a busy moment hits both alike
            entry.append(post())
            list_page.append(get(url))  # where the POST redirects to; it shows the saved row
            trivial.append(get(home))
            cache.clear()  # the list as the players' phones ask for it after the save
            public_page.append(get(public, via=anonymous))
        row = Game.objects.get(table=table, number=number)
        assert row.version == version and Game.objects.filter(table=table).count() == original
    finally:
        # The season as it was built, so that a later --reuse run measures the same: the row
        # as it was, the list closed and its series published again, and the changes logged
        # here gone (the list page shows the latest 200).
        if version % 2 != game.version % 2:
            post()
        if closed:
            services.close_table(table, user=user)
        if published:
            services.publish_series(table.series, user=user)
        tournament.changes.filter(pk__gt=logged).delete()
    wall = [t for t, _ in entry]
    return {
        "entry_ms": median_ms(wall),
        "entry_baseline_ms": median_ms([t for t, _ in trivial]),
        "entry_list_page_ms": median_ms([t for t, _ in list_page]),
        "table_page_ms": median_ms([t for t, _ in public_page]),
        # CPU time of this process (the whole request on SQLite; without the server's on
        # PostgreSQL): steadier than wall-clock time on a busy machine.
        "entry_cpu_ms": median_ms([c for _, c in entry]),
        "entry_baseline_cpu_ms": median_ms([c for _, c in trivial]),
        "entry_reps": len(entry),
        "entry_samples_ms": [round(t * 1000, 2) for t in wall],
    }


# --- PDFs ------------------------------------------------------------------------------------


def pdf_pages(data: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def sheets_floor_pdf(sheets: Sequence[Any]) -> bytes:
    """The physical floor of the score sheets: the same sheets' text and grid on a bare
    reportlab canvas, one page each, every string drawn with ``drawString`` at its cell and
    the grid in one ``grid`` call, in the same fonts; no layout engine, no measuring."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from skatliga.entries import signed
    from skatliga.pdf.base import BOLD, FONT, PAGE, register_fonts
    from skatliga.pdf.rows import LEVELS

    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAGE)
    left, top = 15 * mm, PAGE[1] - 15 * mm
    for sheet in sheets:
        players = len(sheet.players)
        columns = 4 + len(LEVELS) + 2 * players
        widths = (PAGE[0] - 30 * mm) / columns
        height = 4.5 * mm
        canvas.setFont(BOLD, 14)
        canvas.drawString(left, top, sheet.tournament)
        canvas.setFont(FONT, 8)
        canvas.drawString(left, top - 12, f"{sheet.date} {sheet.venue} {sheet.rules}")
        canvas.drawString(left + 140 * mm, top, f"{sheet.series} {sheet.table}")
        y = top - 20 * mm
        for seat, player in enumerate(sheet.players):
            canvas.drawString(left + (4 + len(LEVELS) + 2 * seat) * widths, y, player.name)
        for row in sheet.rows:
            y -= height
            cells = [str(row.number), row.game, row.matadors]
            cells += ["x" if level in row.levels else "" for level in LEVELS]
            cells.append("" if row.value is None else signed(row.value))
            for seat in range(players):
                cells.append("G" if seat + 1 == row.dealer else "")
                cells.append(str(row.totals[seat]) if row.totals else "")
            for index, text in enumerate(cells):
                if text:
                    canvas.drawString(left + index * widths + 1, y + 3, text)
        for summary in sheet.summary:
            y -= height
            for index, value in enumerate(
                (summary.game_points, summary.won, summary.lost, summary.others_lost)
            ):
                canvas.drawString(left + (4 + len(LEVELS) + index) * widths, y + 3, str(value))
        rows = len(sheet.rows) + len(sheet.summary) + 2
        canvas.grid(
            [left + index * widths for index in range(columns + 1)],
            [top - 20 * mm - index * height for index in range(rows)],
        )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def measure_pdfs(season: Any, reps: int) -> dict[str, Any]:
    from skatliga import pdf, printing
    from skatliga.models import Series

    series = (
        Series.objects.filter(tournament__season=season, number=1)
        .order_by("tournament__date", "tournament__name")
        .first()
    )
    assert series is not None
    sheets = printing.series_score_sheets_pdf(series)
    sheet_pages = pdf_pages(sheets)
    result = printing.season_result_pdf(season)
    result_pages = pdf_pages(result)
    result_times = repeat(lambda: printing.season_result_pdf(season), 3, warm=False, budget=20)
    sheets_data = printing.series_sheets(series)
    sheets_floor_pdf(sheets_data)
    # The sheets (read, scored and drawn), their two halves (reading and scoring the lists,
    # drawing them) and the floor interleaved, so that a busy moment hits all alike.
    sheet_times: list[float] = []
    data_times: list[float] = []
    floor_times: list[float] = []
    draw_times: list[float] = []
    for _ in range(reps):
        sheet_times += repeat(lambda: printing.series_score_sheets_pdf(series), 1, warm=False)
        floor_times += repeat(lambda: sheets_floor_pdf(sheets_data), 1, warm=False)
        data_times += repeat(lambda: printing.series_sheets(series), 1, warm=False)
        draw_times += repeat(lambda: pdf.score_sheets_pdf(sheets_data), 1, warm=False)
    sheet_s = statistics.median(sheet_times)
    return {
        "pdf_pages_per_s": round(sheet_pages / sheet_s, 1),
        "pdf_sheets_pages": sheet_pages,
        "pdf_sheets_ms": median_ms(sheet_times),
        "pdf_sheets_data_ms": median_ms(data_times),
        "pdf_sheets_draw_ms": median_ms(draw_times),
        "sheets_floor_ms": median_ms(floor_times),
        "sheets_floor_pages_per_s": round(sheet_pages / statistics.median(floor_times), 1),
        "season_pdf_s": round(statistics.median(result_times), 3),
        "season_pdf_pages": result_pages,
        "season_pdf_pages_per_s": round(result_pages / statistics.median(result_times), 1),
        "season_pdf_ms_per_page": round(1000 * statistics.median(result_times) / result_pages, 2),
    }


# --- import ----------------------------------------------------------------------------------


def scored_games(document: dict[str, Any]) -> list[list[tuple[Any, Any]]]:
    """Per table of the document, in order: (GameEntry, ScoredGame | None) for each game."""
    import scoring
    from skatliga import services

    lists = []
    for series in document["series"]:
        for table in series["tables"]:
            seats = table["seats"]
            rows = []
            for number, data in enumerate(table["games"], start=1):
                parsed = scoring.parse_game(data)
                if parsed is None:
                    entry = services.GameEntry()
                else:
                    declarer = seats.index(data["declarer"]) + 1
                    entry = services.GameEntry(declarer, *parsed)
                rows.append((entry, services.score_entry(entry, number, len(seats), scoring.ISKO)))
            lists.append(rows)
    return lists


def baseline_rows(document: dict[str, Any], index: int) -> list[Any]:
    """The document's games as unsaved, scored Game rows in new (empty) tables."""
    from skatliga import services
    from skatliga.models import Series, Table, Tournament

    tournament = Tournament.objects.create(
        name=f"Bulk-Insert {index}",
        slug=f"bench-bulk-insert-{index}-{time.time_ns()}",
        date=datetime.date(2027, 6, 1),
    )
    games = []
    lists = scored_games(document)
    for number, series_data in enumerate(document["series"], start=1):
        series = Series.objects.create(tournament=tournament, number=number)
        for table_number, _table_data in enumerate(series_data["tables"], start=1):
            table = Table.objects.create(series=series, number=table_number, size=4)
            rows = lists.pop(0)
            games += [
                services.new_game(table, n, entry, scored)
                for n, (entry, scored) in enumerate(rows, start=1)
            ]
    return games


def floor_rows(document: dict[str, Any], index: int) -> dict[str, list[tuple[Any, ...]]]:
    """The document's game, seat and result rows as tuples for a bulk insert, in new tables:
    everything an import writes per game, already built and scored."""
    from django.db import connection

    import scoring
    from skatliga import services
    from skatliga.models import Game, ListResult, Player, Seat

    games = baseline_rows(document, index)
    tables = sorted({game.table for game in games}, key=lambda t: (t.series.number, t.number))
    numbers = [p["number"] for p in document["players"]]
    players = dict(Player.objects.filter(number__in=numbers).values_list("number", "pk"))
    seats: list[Any] = []
    results: list[Any] = []
    lists = scored_games(document)
    seat_lists = [t["seats"] for s in document["series"] for t in s["tables"]]
    for table, rows, seated in zip(tables, lists, seat_lists, strict=True):
        ids = [players[p] for p in seated]
        seats += [
            Seat(table=table, series=table.series, position=n, player_id=pk)
            for n, pk in enumerate(ids, start=1)
        ]
        games_of = [(n, entry.declarer, scored) for n, (entry, scored) in enumerate(rows, 1)]
        where = {"table_id": table.pk, "series_id": table.series_id}
        where["tournament_id"] = table.series.tournament_id
        results += [
            ListResult(**row)
            for row in services.result_rows(
                where,
                games_of,
                [services.Sitting(n, pk) for n, pk in enumerate(ids, start=1)],
                len(ids),
                scoring.ListSystem.SEEGER_FABIAN,
                scoring.ISKO,
            )
        ]

    def tuples(model: Any, objects: list[Any]) -> tuple[list[str], list[tuple[Any, ...]]]:
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        now = datetime.datetime.now(datetime.UTC)
        for obj in objects:
            if hasattr(obj, "updated_at"):
                obj.updated_at = now
        columns = [f.column for f in fields]
        return columns, [
            tuple(f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields)
            for obj in objects
        ]

    return {
        model._meta.db_table: tuples(model, objects)  # type: ignore[misc]
        for model, objects in ((Game, games), (Seat, seats), (ListResult, results))
    }


def bulk_insert(rows: dict[str, Any]) -> None:
    """The floor of an import's writes: COPY (PostgreSQL) or executemany (SQLite), one
    transaction."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        for table, (columns, values) in rows.items():
            names = ", ".join(columns)
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in values:
                        copy.write_row(row)
            else:
                marks = ", ".join("?" for _ in columns)
                cursor.cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)


def measure_import(
    teams: Sequence[league.RosterTeam], size: league.LeagueSize, documents: int
) -> dict[str, Any]:
    from django.db import transaction

    from skatliga.archive import load_archive
    from skatliga.models import Game, Tournament

    rng = random.Random(f"skatliga-import-{size.name}")
    before = Tournament.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    imported = baseline = floor = 0.0
    games = 0
    for index in range(documents):
        group = league.groups(rng, teams)[0]
        document = league.match_day_document(rng, 9, index + 1, group)
        count = sum(len(t["games"]) for s in document["series"] for t in s["tables"])
        rows = baseline_rows(document, index)
        tuples = floor_rows(document, index + 1000)
        start = time.perf_counter()
        bulk_insert(tuples)
        floor += time.perf_counter() - start
        start = time.perf_counter()
        with transaction.atomic():
            Game.objects.bulk_create(rows)
        baseline += time.perf_counter() - start
        start = time.perf_counter()
        load_archive(document)
        imported += time.perf_counter() - start
        games += count
    # What the measures wrote is removed: tournaments outside the season, with open lists
    # that a later --reuse run's plans would otherwise count.
    Tournament.objects.filter(pk__gt=before).delete()
    return {
        "import_games_per_s": round(games / imported),
        "import_baseline_games_per_s": round(games / baseline),
        "import_bulk_create_games_per_s": round(games / baseline),
        "import_floor_games_per_s": round(games / floor),
        "import_documents": documents,
        "import_games": games,
    }


# --- engine ----------------------------------------------------------------------------------


def measure_engine(games: int) -> dict[str, Any]:
    from scoring import score_game

    rng = random.Random("skatliga-engine")
    drawn = [random_game(rng) for _ in range(games)]
    start = time.perf_counter()
    for declaration, outcome in drawn:
        score_game(declaration, outcome)
    return {"engine_games_per_s": round(games / (time.perf_counter() - start))}


def reuse_league(size: league.LeagueSize, seed: int, record: dict[str, Any]) -> league.League:
    """The season of an earlier run, with its roster drawn again and its build figures."""
    from skatliga.models import Season

    rng = random.Random(f"skatliga-league-{seed}-{size.name}")
    teams = league.roster(rng, size.teams)
    season = Season.objects.get(slug=f"bench-{size.name}")
    report = league.BuildReport(
        games=record["games"],
        tournaments=record["tournaments"],
        seconds=record["seconds"],
        import_seconds=record["import_seconds"],
    )
    return league.League(season, teams, report)


# --- the run ---------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{kib / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    import django

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "django": django.get_version(),
        "load_before": os.getloadavg()[0],
    }


def ratios(result: dict[str, Any]) -> dict[str, Any]:
    standings = result["standings_ms"] / result["standings_floor_ms"]
    tournament = result["tournament_standings_ms"] / result["tournament_standings_floor_ms"]
    series = result["series_standings_ms"] / result["series_standings_floor_ms"]
    cached = result["standings_cached_ms"] / result["home_ms"]
    entry = result["entry_ms"] / result["entry_baseline_ms"]
    imported = result["import_games_per_s"] / result["import_floor_games_per_s"]
    bulk_create = result["import_games_per_s"] / result["import_bulk_create_games_per_s"]
    sheets = result["pdf_pages_per_s"] / result["sheets_floor_pages_per_s"]
    return {
        "standings_ratio": round(standings, 3),
        "tournament_standings_ratio": round(tournament, 3),
        "series_standings_ratio": round(series, 3),
        "standings_cached_ratio": round(cached, 3),
        "standings_games_group_by_ratio": round(
            result["standings_ms"] / result["standings_games_group_by_ms"], 3
        ),
        "entry_ratio": round(entry, 2),
        "import_ratio": round(imported, 3),
        "import_bulk_create_ratio": round(bulk_create, 2),
        "sheets_ratio": round(sheets, 3),
        "targets": {
            "standings": max(standings, tournament, series) <= 2.0,
            # Each page on its own, where the target is set: at medium and large.
            **{
                f"{page}_standings": ratio <= 2.0 if result["size"] != "small" else None
                for page, ratio in (
                    ("season", standings),
                    ("tournament", tournament),
                    ("series", series),
                )
            },
            "standings_cached": cached <= 1.5,
            "entry": entry <= 2.5,
            "import": imported >= 0.33,
            "pdf": result["pdf_pages_per_s"] >= 50,
            "sheets": sheets >= 0.5,
            "rating": result["rating_all_s"] <= 60 if "rating_all_s" in result else None,
        },
    }


def standings_rows(result: dict[str, Any], mark: Callable[[str], str]) -> list[tuple[str, ...]]:
    """The season, tournament and series pages against their floors; under each, the page's
    own statements run again on their own, against the floor, and the rest of the page (its
    Python) against what 2 × the floor leaves it; under the tournament's and the series', the
    same page served from the cache against the same floor, and what that leaves for building
    the page within 2 × the floor: no answer through the site's middleware is quicker than
    one from the cache."""
    rows: list[tuple[str, ...]] = []
    for page, key in (
        ("season", "standings"),
        ("tournament", "tournament_standings"),
        ("series", "series_standings"),
    ):
        floor = result[f"{key}_floor_ms"]
        rows.append(
            (
                f"{page} standings page",
                f"{result[f'{key}_ms']:.1f} ms",
                f"floor {floor:.1f} ms, × {result[f'{key}_ratio']:.2f} "
                f"({mark(f'{page}_standings')})",
            )
        )
        if f"{key}_statements_ms" in result:  # not in results of before they were measured
            own = result[f"{key}_statements_ms"]
            rest, left = result[f"{key}_ms"] - own, 2 * floor - own
            rows.append(
                (
                    "  its statements alone",
                    f"{own:.1f} ms",
                    f"{result[f'{key}_statement_count']} statements, × {own / floor:.2f} the "
                    f"floor; the rest of the page {rest:.1f} ms, "
                    + (f"{left:.1f} ms left for it" if left > 0 else "none left for it"),
                )
            )
        if f"{key}_unwritten_ms" in result:
            unwritten = result[f"{key}_unwritten_ms"]
            rows.append(
                (
                    "  every row rendered anew",
                    f"{unwritten:.1f} ms",
                    f"× {unwritten / floor:.2f} the floor (above: the rows kept rendered)",
                )
            )
        if page == "season" and "standings_tables_written_ms" in result:
            tables = result["standings_tables_tables_ms"]
            written = result["standings_tables_written_ms"] - tables
            rows.append(
                (
                    "  its tables; their rows",
                    f"{tables:.1f} ms",
                    f"+ {written:.1f} ms writing {result['standings_tables_cells']:,} cells",
                )
            )
        if page != "season":
            cached = result[f"{key}_cached_ms"]
            left = 2 * floor - cached
            rows.append(
                (
                    "  same, from the cache",
                    f"{cached:.1f} ms",
                    f"× {cached / floor:.2f} the floor: "
                    + (f"{left:.2f} ms left to build it" if left > 0 else "over 2 × already"),
                )
            )
    return rows


def table_lines(result: dict[str, Any]) -> list[str]:
    met = result["targets"]

    def mark(key: str) -> str:
        if met[key] is None:
            return "no target at this size"
        return "met" if met[key] else "MISSED"

    rows = [
        ("games", f"{result['games']:,}", ""),
        (
            "build (generate + import)",
            f"{result['build_s']:.0f} s",
            f"{result['build_games_per_s']:,.0f} games/s",
        ),
        *standings_rows(result, mark),
        (
            "season page, cached",
            f"{result['standings_cached_ms']:.1f} ms",
            f"home page {result['home_ms']:.1f} ms, "
            f"× {result['standings_cached_ratio']:.2f} ({mark('standings_cached')})",
        ),
        (
            "  old baseline",
            f"{result['standings_games_group_by_ms']:.1f} ms",
            "GROUP BY over the games × seats",
        ),
        (
            "standings, every row on one page",
            f"{result['standings_all_rows_ms']:.1f} ms",
            "(unpaged: ?p-per_page=100000&t-per_page=100000)",
        ),
        (
            "enter a game (POST)",
            f"{result['entry_ms']:.1f} ms",
            f"home page {result['entry_baseline_ms']:.1f} ms, "
            f"× {result['entry_ratio']:.2f} ({mark('entry')})",
        ),
        (
            "  same, CPU time",
            f"{result['entry_cpu_ms']:.1f} ms",
            f"home page {result['entry_baseline_cpu_ms']:.1f} ms, "
            f"× {result['entry_cpu_ms'] / result['entry_baseline_cpu_ms']:.2f}",
        ),
        ("referee list page (GET)", f"{result['entry_list_page_ms']:.1f} ms", ""),
        ("public list page, cache miss", f"{result['table_page_ms']:.1f} ms", ""),
        (
            "score sheets PDF",
            f"{result['pdf_pages_per_s']:.0f} pages/s",
            f"{result['pdf_sheets_pages']} pages in {result['pdf_sheets_ms']:.0f} ms "
            f"(data {result['pdf_sheets_data_ms']:.0f}, drawing "
            f"{result['pdf_sheets_draw_ms']:.0f}) ({mark('pdf')})",
        ),
        (
            "  bare-canvas floor",
            f"{result['sheets_floor_pages_per_s']:.0f} pages/s",
            f"× {result['sheets_ratio']:.2f} ({mark('sheets')})",
        ),
        (
            "season result list PDF",
            f"{result['season_pdf_s']:.2f} s",
            f"{result['season_pdf_pages']} pages, "
            f"{result['season_pdf_ms_per_page']:.1f} ms per page",
        ),
        (
            "import",
            f"{result['import_games_per_s']:,} games/s",
            f"floor {result['import_floor_games_per_s']:,} games/s, "
            f"× {result['import_ratio']:.2f} ({mark('import')}); "
            f"bulk_create {result['import_bulk_create_games_per_s']:,}",
        ),
        ("engine", f"{result['engine_games_per_s']:,} games/s", "scoring.score_game"),
    ]
    if "rating_all_s" in result:  # not in results of before the rating was measured
        rows.append(
            (
                "rating, every list again",
                f"{result['rating_all_s']:.1f} s",
                f"{result['rating_lists']:,} lists ({mark('rating')}); one list closed "
                f"{result['rating_close_list_ms']:.0f} ms",
            )
        )
    return [f"{name:<28}{value:>18}   {note}" for name, value, note in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=league.SIZES, default="small")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reps", type=int, default=7, help="repetitions of the cheap measures")
    parser.add_argument(
        "--output", type=Path, default=None, help="default: bench/results/<db>-<size>.json"
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="measure the season a previous run of the same --db and --size built (no rebuild)",
    )
    parser.add_argument("--name", default=NAME, help=f"scratch database name (default {NAME})")
    parser.add_argument(
        "--build-only", action="store_true", help="build the season for later --reuse runs"
    )
    args = parser.parse_args()
    size = league.SIZES[args.size]
    record = build_record(args.db, args.size, args.name)

    if args.reuse:
        if not record.exists():
            sys.exit(f"--reuse: no earlier run of --db {args.db} --size {args.size} ({record})")
        setup_django(existing_database(args.db, args.size, args.name))
        about = machine()
        built = reuse_league(size, args.seed, json.loads(record.read_text()))
        analyze()  # after what earlier runs wrote, as autovacuum would have by now
    else:
        setup_django(fresh_database(args.db, args.size, args.name))
        about = machine()
        print(
            f"{args.db} {args.size}: {size.teams} teams, {size.players} players, "
            f"{size.tournaments} tournaments, {size.games:,} games",
            file=sys.stderr,
        )
        progress = league.Progress(size.games)
        built = league.build_league(size, seed=args.seed, on_progress=progress.update)
        progress.update(built.report.games, final=True)
        analyze()
        record.write_text(
            json.dumps(
                {
                    "seconds": built.report.seconds,
                    "import_seconds": built.report.import_seconds,
                    "games": built.report.games,
                    "tournaments": built.report.tournaments,
                }
            )
        )
        if args.build_only:
            return

    from skatliga.models import Game, ListResult

    season = built.season
    result: dict[str, Any] = {
        "reused_database": args.reuse,
        "size": args.size,
        "db": args.db,
        "database": database_version(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": about,
        "seed": args.seed,
        "games": Game.objects.filter(table__series__tournament__season=season).count(),
        "teams": size.teams,
        "players": size.players,
        "tournaments": built.report.tournaments,
        "list_results": ListResult.objects.for_season(season).count(),
        "build_s": round(built.report.seconds, 1),
        "build_games_per_s": round(built.report.games_per_s),
        "build_import_games_per_s": round(built.report.import_games_per_s),
    }
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        ("standings", lambda: measure_standings(season, args.reps)),
        ("entry", lambda: measure_entry(season, 6 * args.reps)),
        ("pdfs", lambda: measure_pdfs(season, args.reps)),
        ("import", lambda: measure_import(built.teams, size, 10)),
        ("engine", lambda: measure_engine(50_000)),
        ("rating", lambda: measure_rating(3)),
    ]
    for name, step in steps:
        print(f"  measuring {name} …", file=sys.stderr)
        result |= step()
    result |= ratios(result)
    result["target_rules"] = TARGETS
    result["machine"]["load_after"] = os.getloadavg()[0]

    print()
    print(f"{args.db} · {args.size} · {result['database']} · {result['date']}")
    for line in table_lines(result):
        print(line)
    output = args.output or RESULTS / f"{args.db}-{args.size}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwritten to {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")


if __name__ == "__main__":
    main()

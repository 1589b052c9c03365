"""Cached public pages: current at once after every kind of change, other scopes untouched,
conditional responses, and a change in one process seen by another.

Numbers from ``conftest.small_season`` (worked out there by hand):
  b3 83 (spades hand with 1 = 33, won, + 50), a3 0, c3 0, d3 0; team B 241, team A 133.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import http_date
from pypdf import PdfReader

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.archive import load_archive
from skatliga.models import Game, Player, Season, Series, Table, Team, Tournament
from tests.web.test_archive import EXAMPLE

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def csv_totals(client, name, *args, **query):
    """name → total of a standings CSV."""
    response = client.get(reverse(name, args=args), {"export": "csv", **query})
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    return {row["Spieler"]: int(row["Gesamt"]) for row in rows}


def html_totals(client, name, *args):
    """The figures in the page's total cells, in order."""
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return [int(v) for v in re.findall(r'class="number total">(-?\d+)<', response.content.decode())]


def pdf_text(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


def b3_pages(client, ids):
    """What the public sees of b3 (whose list is table 3 of series 1) and of team B."""
    return {
        "season": csv_totals(client, "season", "liga-2026")["b3"],
        "tournament": csv_totals(client, "standings", "spieltag-1")["b3"],
        "series": csv_totals(client, "series", "spieltag-1", 1)["b3"],
        "table": html_totals(client, "table", "spieltag-1", 1, 3),
        "player": html_totals(client, "player", ids["b3"]),
        "team": html_totals(client, "team", ids["B"])[0],
        "hall": "83"
        in re.sub(r"\s+", "", client.get(reverse("hall", args=["spieltag-1"])).content.decode()),
    }


@pytest.fixture
def ids(small_season):
    return {
        "b3": Player.objects.get(name="b3").pk,
        "a3": Player.objects.get(name="a3").pk,
        "B": Team.objects.get(name="Team B").pk,
        "A": Team.objects.get(name="Team A").pk,
    }


def table(number):
    return Table.objects.get(series__tournament__slug="spieltag-1", number=number)


def test_a_correction_shows_at_once_on_every_page_csv_and_pdf(client, small_season, ids):
    before = b3_pages(client, ids)
    assert before == {
        "season": 83,
        "tournament": 83,
        "series": 83,
        "table": [0, 83, 0, 0],
        "player": [83],
        "team": 241,
        "hall": True,
    }
    assert "83" in pdf_text(client, "season-results-pdf", "liga-2026")
    # Game 1 at table 3 (b3's spades hand) corrected to passed in: b3 0, team B 241 - 83 = 158.
    game = Game.objects.get(table=table(3), number=1)
    services.record_game(
        table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )
    after = b3_pages(client, ids)
    assert after == {
        "season": 0,
        "tournament": 0,
        "series": 0,
        "table": [0, 0, 0, 0],
        "player": [0],
        "team": 158,
        "hall": False,
    }
    assert "158" in pdf_text(client, "season-teams-pdf", "liga-2026")


def test_a_saved_game_shows_at_once(client, small_season, ids):
    # The passed-in game 4 of table 3 deleted, the pages cached, then game 4 saved again as a
    # grand with 1 by a3 (seat 1; seat 4 deals game 4), 70 points: 2 × 24 = 48, won, + 50 = 98.
    last = Game.objects.get(table=table(3), number=4)
    services.delete_last_game(table(3), 4, expected_version=last.version, reason="Korrektur")
    assert csv_totals(client, "season", "liga-2026")["a3"] == 0
    assert html_totals(client, "player", ids["a3"]) == [0]
    assert html_totals(client, "team", ids["A"])[0] == 133
    services.record_game(
        table(3), 4, services.GameEntry(1, Declaration(GameType.GRAND, 18, 1), Outcome(70, 7))
    )
    assert csv_totals(client, "season", "liga-2026")["a3"] == 98
    assert csv_totals(client, "standings", "spieltag-1")["a3"] == 98
    assert html_totals(client, "table", "spieltag-1", 1, 3) == [98, 83, 0, 0]
    assert html_totals(client, "player", ids["a3"]) == [98]
    assert html_totals(client, "team", ids["A"])[0] == 133 + 98


def test_an_import_shows_at_once_on_the_season(client, small_season):
    assert "Bernd Łukasz" not in csv_totals(client, "season", "liga-2026")
    load_archive(EXAMPLE, season=small_season)
    totals = csv_totals(client, "season", "liga-2026")
    # The archive's example, by hand (test_archive): p2 152, p1 −110.
    assert totals["Bernd Łukasz"] == 152 and totals["Anna Schmidt"] == -110
    assert totals["b3"] == 83


def test_a_seat_swap_shows_at_once(client, small_season):
    tournament = Tournament.objects.get(slug="spieltag-1")
    for number in (1, 2, 3):
        services.close_table(table(number))
    series = services.draw_tables(tournament, seed=7)
    first, second = series.tables.order_by("number")[:2]
    a, b = first.seats.get(position=1), second.seats.get(position=1)
    assert seated(client, series, 1)[0] == a.player_id
    assert seated(client, series, 2)[0] == b.player_id
    services.swap_seats(series, a, b)
    assert seated(client, series, 1)[0] == b.player_id
    assert seated(client, series, 2)[0] == a.player_id


def seated(client, series: Series, table_number: int) -> list[int]:
    """The players' ids in the seat order of a list's public page."""
    response = client.get(reverse("table", args=["spieltag-1", series.number, table_number]))
    assert response.status_code == 200
    return [
        int(pk)
        for pk in re.findall(
            r'<th class="number"><a href="/players/(\d+)/">', response.content.decode()
        )
    ]


def test_other_tournaments_and_seasons_stay_cached(client, small_season, ids):
    other = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    load_archive(EXAMPLE, season=other)
    slug = Tournament.objects.get(season=other).slug
    urls = [reverse("season", args=["liga-2027"]), reverse("standings", args=[slug])]
    for url in urls:
        assert client.get(url).status_code == 200
    game = Game.objects.get(table=table(3), number=1)
    services.record_game(
        table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )
    for url in urls:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        # The season or tournament, read for its revision; nothing else: served from the cache.
        assert len(captured) == 1, [q["sql"] for q in captured]


def test_pages_and_pdfs_answer_conditional_requests(client, small_season):
    for url in (
        reverse("season", args=["liga-2026"]),
        reverse("series-sheets-pdf", args=["spieltag-1", 1]),
    ):
        first = client.get(url)
        etag, modified = first["ETag"], first["Last-Modified"]
        with CaptureQueriesContext(connection) as captured:
            again = client.get(url, headers={"if-none-match": etag})
        assert again.status_code == 304 and again["ETag"] == etag and len(captured) == 1
        assert client.get(url, headers={"if-modified-since": modified}).status_code == 304
        game = Game.objects.get(table=table(3), number=1)
        services.record_game(
            table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
        )
        changed = client.get(url, headers={"if-none-match": etag})
        assert changed.status_code == 200 and changed["ETag"] != etag
        services.record_game(
            table(3),
            1,
            services.GameEntry(2, Declaration(GameType.SPADES, 18, 1, hand=True), Outcome(61, 5)),
            expected_version=game.version + 1,
            reason="Korrektur",
        )


def test_last_modified_is_when_the_page_last_changed(client, small_season, ids, monkeypatch):
    """The revision's time, in GMT, on both databases (SQLite gives it without a zone), on
    a server whose clock is set to Berlin time."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    tournament = Tournament.objects.get(slug="spieltag-1")
    season = Season.objects.get(slug="liga-2026")
    pages = {
        reverse("standings", args=["spieltag-1"]): tournament.revised_at,
        reverse("season", args=["liga-2026"]): season.revised_at,
        reverse("player", args=[ids["b3"]]): tournament.revised_at,
    }
    try:
        for url, revised_at in pages.items():
            assert revised_at is not None, url
            assert client.get(url)["Last-Modified"] == http_date(revised_at.timestamp()), url
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_cached_page_carries_each_browsers_own_csrf_token(client, small_season):
    from django.test import Client

    url = reverse("standings", args=["spieltag-1"])
    pages = []
    for browser in (Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)):
        html = browser.get(url).content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]
        switched = browser.post(
            reverse("set_language"), {"language": "en", "next": url, "csrfmiddlewaretoken": token}
        )
        assert switched.status_code == 302
        pages.append(token)
    assert pages[0] != pages[1]


def test_a_referees_pages_are_not_served_from_the_anonymous_cache(client, small_season):
    from django.contrib.auth import get_user_model

    url = reverse("standings", args=["spieltag-1"])
    anonymous = client.get(url)
    user = get_user_model().objects.create_user("schiri", password="x")
    client.force_login(user)
    mine = client.get(url)
    assert b"schiri" in mine.content and b"schiri" not in anonymous.content
    assert mine["ETag"] != anonymous["ETag"]


WORKER = """
import json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "skatliga.settings"
import django
django.setup()
from django.conf import settings
settings.ALLOWED_HOSTS = ["testserver"]
from django.test import Client
from skatliga import services
from skatliga.models import Game, Table
client = Client()
for line in sys.stdin:
    command = line.split()
    if command[0] == "get":
        response = client.get(command[1], {"export": "csv"})
        print(json.dumps([response.status_code, response.content.decode("utf-8-sig")]), flush=True)
    elif command[0] == "pass":
        table = Table.objects.get(pk=int(command[1]))
        number = int(command[2])
        game = Game.objects.get(table=table, number=number)
        services.record_game(
            table, number, services.GameEntry(), expected_version=game.version, reason="Korrektur"
        )
        print(json.dumps(["saved"]), flush=True)
    elif command[0] == "hit":
        from skatliga.models.limits import hit
        print(json.dumps(list(hit(command[1], 3600))), flush=True)
"""
REDIS = os.environ.get("SKATLIGA_TEST_REDIS", "redis://127.0.0.1:6379/13")
"""A Redis database the tests may empty (CI starts redis-server: .ci/run)."""


@pytest.fixture(params=["local", "redis"])
def store(request, settings):
    """Each process's own local-memory cache, or one Redis both share (page cache and rate
    limits), as several app servers have it (docs/scaling.md)."""
    if request.param == "local":
        yield {}
        return
    from django.core.cache import cache

    try:
        import redis

        redis.Redis.from_url(REDIS, socket_timeout=2).ping()
    except Exception as error:  # noqa: BLE001  # the package missing, or redis's own errors
        if os.environ.get("CI"):
            pytest.fail(f"Redis at {REDIS}: {error}")
        pytest.skip(f"no Redis at {REDIS}: {error}")
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS}
    }
    cache.clear()
    yield {"SKATLIGA_CACHE_URL": REDIS}
    cache.clear()


@pytest.mark.skipif(
    "postgres" not in os.environ.get("DATABASE_URL", ""),
    reason="two processes share the test database on PostgreSQL (SQLite's is in memory); "
    "CI runs the suite on both",
)
@pytest.mark.django_db(transaction=True)
def test_a_save_in_one_process_is_seen_by_another(client, small_season, store):
    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    # The other process reads its own writes' effects at once, as this one (conftest).
    env = {**os.environ, "DATABASE_URL": url, "SKATLIGA_PAGE_LAG": "0"}
    env.pop("SKATLIGA_CACHE_URL", None)
    env.update(store)
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )

    def ask(command: str) -> list:
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(command + "\n")
        worker.stdin.flush()
        return json.loads(worker.stdout.readline())

    def worker_totals() -> dict[str, int]:
        status, body = ask(f"get {season_url}")
        assert status == 200
        return {row["Spieler"]: int(row["Gesamt"]) for row in csv.DictReader(io.StringIO(body))}

    season_url = reverse("season", args=["liga-2026"])
    try:
        # Both processes have the page cached: b3 83.
        assert csv_totals(client, "season", "liga-2026")["b3"] == 83
        assert worker_totals()["b3"] == 83
        # Saved here (b3's game passed in): the other process shows it at once.
        game = Game.objects.get(table=table(3), number=1)
        services.record_game(
            table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
        )
        assert worker_totals()["b3"] == 0
        # Saved there: c1's lost hearts (game 2 at table 1) passed in; c1 −40 − 50 = −90 → 0,
        # and a1, b1, d1 lose the 30 each for it: 103 → 73, 128 → 98, 30 → 0.
        assert csv_totals(client, "season", "liga-2026")["c1"] == -90
        assert ask(f"pass {table(1).pk} 2") == ["saved"]
        totals = csv_totals(client, "season", "liga-2026")
        assert [totals[p] for p in ("a1", "b1", "c1", "d1")] == [73, 98, 0, 0]
        assert worker_totals()["c1"] == 0
        if store:
            # One store of rate limits: a hit here and one there count as two.
            from skatliga.models.limits import hit

            assert hit("two-processes", 3600)[0] == 1
            assert ask("hit two-processes")[0] == 2
    finally:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait(timeout=30)


def test_a_page_too_large_to_keep_is_built_each_time(client, small_season, monkeypatch):
    from skatliga.views import caching

    monkeypatch.setattr(caching, "LARGEST", 100)
    url = reverse("standings", args=["spieltag-1"])
    first = client.get(url)
    assert caching.CSRF_PLACEHOLDER.encode() not in first.content
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url, headers={"if-none-match": '"other"'})
    assert again.status_code == 200 and len(captured) > 1
    assert again["ETag"] == first["ETag"]


def test_a_renamed_player_and_team_show_at_once(client, small_season, ids):
    # As the admin saves them: Model.save(), the signals raise the revisions.
    assert "b3" in csv_totals(client, "season", "liga-2026")
    player = Player.objects.get(pk=ids["b3"])
    player.name = "Bernd Drei"
    player.save()
    totals = csv_totals(client, "season", "liga-2026")
    assert totals["Bernd Drei"] == 83 and "b3" not in totals
    assert "Bernd Drei" in client.get(reverse("table", args=["spieltag-1", 1, 3])).content.decode()
    teams = client.get(reverse("season", args=["liga-2026"]), {"table": "teams", "export": "csv"})
    assert "Team B" in teams.content.decode("utf-8-sig")
    team = Team.objects.get(pk=ids["B"])
    team.name = "Kreuzbuben"
    team.save()
    teams = client.get(reverse("season", args=["liga-2026"]), {"table": "teams", "export": "csv"})
    assert "Kreuzbuben" in teams.content.decode("utf-8-sig")
    assert "Team B" not in teams.content.decode("utf-8-sig")


def test_a_renamed_tournament_and_season_show_at_once(client, small_season, ids):
    """As the admin saves them, from rows read before a game was saved: the new names show
    on every page, and the revisions only grow (a row read earlier does not write its
    older revision back)."""
    stale_tournament = Tournament.objects.get(slug="spieltag-1")
    stale_season = Season.objects.get(slug="liga-2026")
    player_page = reverse("player", args=[ids["b3"]])
    assert "1. Spieltag" in client.get(player_page).content.decode()
    last = Game.objects.get(table=table(3), number=4)
    services.delete_last_game(table(3), 4, expected_version=last.version, reason="Korrektur")
    raised = Tournament.objects.get(pk=stale_tournament.pk).revision
    raised_season = Season.objects.get(pk=stale_season.pk).revision

    stale_tournament.name = "Erster Spieltag"
    stale_tournament.save()
    stale_season.name = "Kreisliga 2026"
    stale_season.save()

    tournament = Tournament.objects.get(pk=stale_tournament.pk)
    season = Season.objects.get(pk=stale_season.pk)
    assert tournament.revision > raised and season.revision > raised_season
    assert tournament.name == "Erster Spieltag" and season.name == "Kreisliga 2026"
    for page in (player_page, reverse("standings", args=["spieltag-1"])):
        assert "Erster Spieltag" in client.get(page).content.decode(), page
    assert "Kreisliga 2026" in client.get(reverse("season", args=["liga-2026"])).content.decode()


def test_a_closed_list_shows_at_once(client, small_season):
    url = reverse("table", args=["spieltag-1", 1, 3])
    assert client.get(url).status_code == 200
    etag = client.get(url)["ETag"]
    services.close_table(table(3))
    assert client.get(url, headers={"if-none-match": etag}).status_code == 200


# --- every other writing service: its pages current at once, other scopes still cached --------


@pytest.fixture
def elsewhere(client, small_season):
    """Pages of another season and tournament, cached; ``still_cached()`` checks they stay."""
    other = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    load_archive(EXAMPLE, season=other)
    slug = Tournament.objects.get(season=other).slug
    urls = [reverse("season", args=["liga-2027"]), reverse("standings", args=[slug])]
    for url in urls:
        assert client.get(url).status_code == 200

    def still_cached():
        for url in urls:
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            assert len(captured) == 1, [q["sql"] for q in captured]

    return still_cached


def team_totals(client, name, *args):
    """team → Spielpunkte of a standings page's team CSV."""
    response = client.get(reverse(name, args=args), {"export": "csv", "table": "teams"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    return {row["Mannschaft"]: int(row["Spielpunkte"]) for row in rows}


def test_a_team_assignment_shows_at_once(client, ids, elsewhere):
    assert team_totals(client, "season", "liga-2026")["Team B"] == 241
    assert team_totals(client, "standings", "spieltag-1")["Team A"] == 133
    tournament = Tournament.objects.get(slug="spieltag-1")
    registration = tournament.registrations.get(player_id=ids["b3"])
    services.assign_teams(tournament, {registration.pk: Team.objects.get(pk=ids["A"])})
    # b3's 83 moves from B to A: B 241 − 83 = 158, A 133 + 83 = 216.
    for name, args in (("season", ["liga-2026"]), ("standings", ["spieltag-1"])):
        totals = team_totals(client, name, *args)
        assert (totals["Team B"], totals["Team A"]) == (158, 216)
    elsewhere()


def test_a_settings_change_shows_at_once(client, elsewhere):
    assert csv_totals(client, "season", "liga-2026")["b3"] == 83
    tournament = Tournament.objects.get(slug="spieltag-1")
    services.update_tournament(tournament, scoring="classic")
    # Classic scoring counts the game values only, no 50 per won game nor 40/30 for the
    # defenders: b3 33; b1 48; c1 −2 × 20 = −40; a1 23; d1 0.
    for name, args in (("season", ["liga-2026"]), ("standings", ["spieltag-1"])):
        totals = csv_totals(client, name, *args)
        assert [totals[p] for p in ("b3", "b1", "c1", "a1", "d1")] == [33, 48, -40, 23, 0]
    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 33, 0, 0]
    services.update_tournament(tournament, name="Erster Spieltag")
    for name, slug in (("season", "liga-2026"), ("standings", "spieltag-1")):
        assert "Erster Spieltag" in client.get(reverse(name, args=[slug])).content.decode()
    elsewhere()


def test_a_withdrawal_shows_at_once(client, ids, elsewhere):
    services.close_table(table(3))
    url = reverse("standings", args=["spieltag-1"])
    assert "zurückgezogen" not in client.get(url).content.decode()
    tournament = Tournament.objects.get(slug="spieltag-1")
    services.withdraw_player(tournament.registrations.get(player_id=ids["b3"]))
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*>b3<.*?</tr>", client.get(url).content.decode(), re.S)
    assert row is not None and "zurückgezogen" in row[0]
    elsewhere()


def test_a_merge_shows_at_once(client, ids, elsewhere):
    assert csv_totals(client, "season", "liga-2026")["b3"] == 83
    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 83, 0, 0]
    keep = Player.objects.create(name="Bernd Drei")
    from skatliga.services.rosters import merge_players

    merge_players(keep, Player.objects.get(pk=ids["b3"]))
    totals = csv_totals(client, "season", "liga-2026")
    assert totals["Bernd Drei"] == 83 and "b3" not in totals
    assert csv_totals(client, "standings", "spieltag-1")["Bernd Drei"] == 83
    page = client.get(reverse("table", args=["spieltag-1", 1, 3])).content.decode()
    assert "Bernd Drei" in page and ">b3<" not in page
    elsewhere()


def test_a_purse_change_makes_the_tournaments_pages_new(client, elsewhere):
    from decimal import Decimal

    from skatliga.services.money import save_purse

    url = reverse("standings", args=["spieltag-1"])
    etag = client.get(url)["ETag"]
    tournament = Tournament.objects.get(slug="spieltag-1")
    before = tournament.revision
    save_purse(
        tournament,
        entry_fee=Decimal("10"),
        lost_fee=Decimal("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("1"),
        prizes=["50%", "30%"],
    )
    tournament.refresh_from_db()
    assert tournament.revision == before + 1
    assert client.get(url, headers={"if-none-match": etag}).status_code == 200
    elsewhere()


def test_a_query_parameter_no_page_reads_is_served_from_the_cache(client, small_season):
    from django.core.cache import cache

    url = reverse("standings", args=["spieltag-1"])
    first = client.get(url, {"z": "1"})
    again = client.get(url, {"z": "2"})
    pages = [key for key in cache._cache if "skatliga:page:" in key]
    other_page = client.get(url, {"z": "3", "p-page": "2"})

    assert len(pages) == 1  # built once, served twice
    assert again["ETag"] == first["ETag"] != other_page["ETag"]

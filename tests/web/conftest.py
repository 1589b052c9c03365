import datetime
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache, caches
from django.utils import timezone, translation

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.models import Player, Registration, Season, Seat, Series, Table, Team, Tournament

ROOT = Path(__file__).resolve().parents[2]

Completed = subprocess.CompletedProcess[str]
RunManage = Callable[..., Completed]


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Start every test in the default language; requests activate others on this thread."""
    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    """Every test starts with an empty page cache and no standing rows kept: rolled-back
    tests reuse ids and revisions."""
    cache.clear()
    caches["rows"].clear()
    yield
    cache.clear()
    caches["rows"].clear()


@pytest.fixture(autouse=True)
def no_page_lag(settings: Any) -> None:
    """Pages show the last save at once (``SKATLIGA_PAGE_LAG=0``): a test reads its own
    writes. tests/web/test_cache_scopes.py tests the lag itself."""
    settings.PAGE_LAG = 0


@pytest.fixture
def published(small_season: Season) -> Season:
    """``small_season`` with its series published: what the public and the API see."""
    Series.objects.update(published_at=timezone.now())
    return small_season


@pytest.fixture
def run_manage() -> RunManage:
    """Run manage.py in a fresh interpreter, with extra environment variables (None unsets)."""

    def run(*args: str, env: dict[str, str | None] | None = None) -> Completed:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("SKATLIGA_")}
        environment.pop("DJANGO_SETTINGS_MODULE", None)
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        return subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run


D, Out = Declaration, Outcome
GAMES = {
    1: [
        (2, D(GameType.GRAND, 18, 1), Out(70, 6)),
        (3, D(GameType.HEARTS, 18, 1), Out(50, 4)),
        None,
        (1, D(GameType.NULL, 23), Out(tricks=0)),
    ],
    2: [
        (3, D(GameType.CLUBS, 18, 2), Out(90, 8)),
        (4, D(GameType.DIAMONDS, 22, -1), Out(70, 6)),
        None,
        None,
    ],
    3: [(2, D(GameType.SPADES, 18, 1, hand=True), Out(61, 5)), None, None, None],
}


@pytest.fixture
def small_season(db: None) -> Season:
    """A season worked out by hand (the standings tests check these numbers).

    One match day, one series with rounds_per_series 1 (four games at each 4-table), teams
    A-D of three players, one player of each team at each table.

    Table 1 (a1 b1 c1 d1): 1 b1 grand with 1 won = 2 × 24 = 48; 2 c1 hearts with 1 lost = 2 × 10
      = 20 → −40; 3 passed; 4 a1 null won = 23.
      a1 23 + 50 + 30 = 103 · b1 48 + 50 + 30 = 128 · c1 −40 − 50 = −90 · d1 0 + 30 = 30
    Table 2 (a2 b2 c2 d2): 1 c2 clubs with 2, 90 points (schneider) = 4 × 12 = 48; 2 d2 diamonds
      without 1 at bid 22 = 18 < 22, overbid, charged 27 → −54; 3, 4 passed.
      a2 30 · b2 30 · c2 48 + 50 + 30 = 128 · d2 −54 − 50 = −104
    Table 3 (a3 b3 c3 d3): 1 b3 spades hand with 1 = 3 × 11 = 33; 2-4 passed.
      a3 0 · b3 33 + 50 = 83 · c3 0 · d3 0
    Teams (Spielpunkte): A 103 + 30 + 0 = 133, B 128 + 30 + 83 = 241, C −90 + 128 + 0 = 38,
      D 30 − 104 + 0 = −74 → B 3:0, A 2:1, C 1:2, D 0:3.
    """
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    tournament = Tournament.objects.create(
        name="1. Spieltag",
        slug="spieltag-1",
        date=datetime.date(2026, 11, 21),
        season=season,
        match_day=1,
        rounds_per_series=1,
    )
    series = Series.objects.create(tournament=tournament, number=1)
    for letter in "abcd":
        team = Team.objects.create(season=season, name=f"Team {letter.upper()}")
        for n in (1, 2, 3):
            player = Player.objects.create(name=f"{letter}{n}")
            team.players.add(player)
            Registration.objects.create(tournament=tournament, player=player, team=team)
    for number, games in GAMES.items():
        table = Table.objects.create(series=series, number=number, size=4)
        for position, letter in enumerate("abcd", start=1):
            Seat.objects.create(
                table=table,
                series=series,
                position=position,
                player=Player.objects.get(name=f"{letter}{number}"),
            )
        for game_number, game in enumerate(games, start=1):
            entry = services.GameEntry() if game is None else services.GameEntry(*game)
            services.record_game(table, game_number, entry)
    return season


LEAGUE_DATES = [datetime.date(2026, 3, 21), datetime.date(2026, 4, 4)]


@pytest.fixture
def played(db):
    """Day one: group 1 plays its three series (published); group 2 has played series 1,
    not yet published. The team sums per series (A B C D the first group's teams by name,
    E F G H the second's):

    ====== ===== ===== ===== =====      match points
    series  A     B     C     D         A      B    C      D
    1       1100  1300  1100  400       1½:1½  3:0  1½:1½  0:3
    2       900   800   700   600       3:0    2:1  1:2    0:3
    3       500   500   500   900       1:2    1:2  1:2    3:0
    sum     2500  2600  2300  1900      5½:3½  6:3  3½:5½  3:6
    ====== ===== ===== ===== =====

    Group 2, series 1: E 300, F 200, G 200, H −50: E 3:0, F and G 1½:1½, H 0:3."""
    from skatliga.models import MatchGroup
    from skatliga.services import fixtures, matchdays
    from tests.web.factories import make_division, score_series

    division = make_division(8)
    fixtures.generate_schedule(division, LEAGUE_DATES)
    found = MatchGroup.objects.filter(match_day__division=division, match_day__number=1)
    first, second = (matchdays.set_up_group(group) for group in found.order_by("number"))
    a, b, c, d = first.teams.order_by("name")
    for number, sums in enumerate(
        [(1100, 1300, 1100, 400), (900, 800, 700, 600), (500, 500, 500, 900)], start=1
    ):
        score_series(first, number, dict(zip((a, b, c, d), sums, strict=True)))
    e, f, g, h = second.teams.order_by("name")
    score_series(second, 1, {e: 300, f: 200, g: 200, h: -50}, publish=False)
    return division, (a, b, c, d, e, f, g, h)

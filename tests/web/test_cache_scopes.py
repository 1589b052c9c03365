"""What a save invalidates is what it changed (``skatliga.revisions.touch_list``): its list,
its series' standing and the tournament's; the other lists and series stay cached. Every
other change reaches every page of the tournament.

Numbers from ``conftest.small_season`` (worked out there by hand): b3 83 (spades hand with
1 = 33, won, + 50) at table 3 of series 1.
"""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from skatliga import services
from skatliga.models import Game, Player, Series, Table, Team, Tournament
from tests.web.test_caching import csv_totals, html_totals, table

pytestmark = pytest.mark.django_db


def served_from_the_cache(client, url) -> bool:
    """Whether ``url`` is answered with the one statement of its key: from the cache."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured) == 1


def test_a_save_rebuilds_its_list_and_series_and_leaves_the_others_cached(client, small_season):
    """What a game saved at table 3 of series 1 changes: that list, series 1's standing and
    the tournament's; the other lists and series 2 stay cached."""
    tournament = Tournament.objects.get(slug="spieltag-1")
    Series.objects.create(tournament=tournament, number=2)
    own = reverse("table", args=["spieltag-1", 1, 3])
    other = reverse("table", args=["spieltag-1", 1, 1])
    series_1 = reverse("series", args=["spieltag-1", 1])
    series_2 = reverse("series", args=["spieltag-1", 2])
    standings = reverse("standings", args=["spieltag-1"])
    for url in (own, other, series_1, series_2, standings):
        assert client.get(url).status_code == 200
        assert served_from_the_cache(client, url)

    # Game 1 at table 3 (b3's spades hand, 83 with the 50) corrected to passed in: b3 0.
    game = Game.objects.get(table=table(3), number=1)
    services.record_game(
        table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )

    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 0, 0, 0]
    assert csv_totals(client, "series", "spieltag-1", 1)["b3"] == 0
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 0
    assert served_from_the_cache(client, other)
    assert served_from_the_cache(client, series_2)
    assert not served_from_the_cache(client, standings)


def test_public_pages_may_be_a_moment_behind_a_save_a_referees_never(
    client, small_season, settings
):
    """With ``SKATLIGA_PAGE_LAG`` (here 1 s): after a save the tournament's and series'
    standings and the list's public page are served as last built until that is a second
    old, with their own validators (a browser holding them gets 304); every page shows the
    save at once to a logged-in referee."""
    settings.PAGE_LAG = 1
    standings = reverse("standings", args=["spieltag-1"])
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 83
    assert csv_totals(client, "series", "spieltag-1", 1)["b3"] == 83
    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 83, 0, 0]
    first = client.get(standings)
    assert "vorläufig · Stand " in first.content.decode()
    game = Game.objects.get(table=table(3), number=1)

    services.record_game(
        table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )

    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 83, 0, 0]
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 83
    assert csv_totals(client, "series", "spieltag-1", 1)["b3"] == 83
    again = client.get(standings, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    referee = get_user_model().objects.create_user("lag-referee")
    own = type(client)()
    own.force_login(referee)
    assert csv_totals(own, "standings", "spieltag-1")["b3"] == 0
    assert html_totals(own, "table", "spieltag-1", 1, 3) == [0, 0, 0, 0]
    time.sleep(1.1)
    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 0, 0, 0]
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 0
    assert csv_totals(client, "series", "spieltag-1", 1)["b3"] == 0
    assert client.get(standings, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_while_another_process_builds_a_lagging_page_the_last_build_is_served(
    client, small_season, settings
):
    """Past the lag one process builds the page anew (it marks that in the shared cache);
    the others serve the last build meanwhile, but never one older than twice the lag."""
    from django.core.cache import cache

    settings.PAGE_LAG = 1
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 83
    game = Game.objects.get(table=table(3), number=1)
    services.record_game(
        table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )
    time.sleep(1.1)
    building = [key for key in cache._cache if "skatliga:newest:" in key]  # local memory
    assert len(building) == 1
    cache.add(building[0].split(":", 2)[2] + ":building", True, 5)  # another process's mark
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 83
    time.sleep(1.0)
    assert csv_totals(client, "standings", "spieltag-1")["b3"] == 0


def test_a_deleted_game_rebuilds_its_list_only(client, small_season):
    other = reverse("table", args=["spieltag-1", 1, 1])
    assert html_totals(client, "table", "spieltag-1", 1, 3) == [0, 83, 0, 0]
    assert client.get(other).status_code == 200
    # Table 3's game 4 (passed in) deleted: nothing changes in the totals, the list has one
    # row fewer.
    last = Game.objects.get(table=table(3), number=4)
    services.delete_last_game(table(3), 4, expected_version=last.version, reason="Korrektur")

    assert not served_from_the_cache(client, reverse("table", args=["spieltag-1", 1, 3]))
    assert served_from_the_cache(client, other)


def test_a_change_beyond_the_games_reaches_every_list_and_series(client, small_season):
    """A renamed tournament (its frame: names, settings, seats, publishing, closing) shows on
    every list and series page, as any change the services make other than a game's."""
    pages = [reverse("table", args=["spieltag-1", 1, n]) for n in (1, 2, 3)]
    pages.append(reverse("series", args=["spieltag-1", 1]))
    for url in pages:
        assert "1. Spieltag" in client.get(url).content.decode()
    tournament = Tournament.objects.get(slug="spieltag-1")
    tournament.name = "Herbstpokal"
    tournament.save()
    for url in pages:
        assert "Herbstpokal" in client.get(url).content.decode()
    services.close_table(table(1))
    assert "abgeschlossen" in client.get(pages[0]).content.decode()


def test_a_list_read_earlier_and_saved_whole_keeps_its_revision(small_season):
    stale = table(3)
    series_before = Series.objects.get(pk=stale.series_id).revision
    game = Game.objects.get(table=stale, number=1)
    services.record_game(
        stale, 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )
    raised = Table.objects.get(pk=stale.pk).revision
    assert raised == stale.revision + 1
    stale.save()  # as the admin saves a row read before the game
    assert Table.objects.get(pk=stale.pk).revision == raised
    assert Series.objects.get(pk=stale.series_id).revision == series_before + 1


def test_a_save_rebuilds_the_pages_of_its_lists_players_only(client, small_season):
    """A player's page shows his lists: a game saved at table 3 rebuilds b3's page and
    leaves a1's (table 1, the same tournament and season) cached; a renamed tournament or
    team reaches his page too."""
    b3, a1 = (Player.objects.get(name=name) for name in ("b3", "a1"))
    b3_page, a1_page = (reverse("player", args=[p.pk]) for p in (b3, a1))
    for url in (b3_page, a1_page):
        assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as cached:
        client.get(a1_page)

    def rebuilt(url: str) -> bool:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        return len(captured) > len(cached)

    assert not rebuilt(a1_page) and not rebuilt(b3_page)
    game = Game.objects.get(table=table(3), number=1)
    services.record_game(
        table(3), 1, services.GameEntry(), expected_version=game.version, reason="Korrektur"
    )
    assert rebuilt(b3_page)
    assert not rebuilt(a1_page)

    Team.objects.filter(name="Team A").get().players.add(a1)  # already his: nothing changes
    team = Team.objects.get(name="Team A")
    team.name = "Asse"
    team.save()
    assert "Asse" in client.get(a1_page).content.decode()
    tournament = Tournament.objects.get(slug="spieltag-1")
    tournament.name = "Herbstpokal"
    tournament.save()
    assert "Herbstpokal" in client.get(a1_page).content.decode()

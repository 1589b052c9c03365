"""The bid is optional (docs/rules.md section 3.2): paper lists have no column for it.

Blank means the game reached its bid. Clubs with 1 at 61 card points: (1 + 1) × 12 = 24, won,
in every way in; at a bid of 30 the same game is overbid: charged 3 × 12 = 36, lost, −72.
"""

import pytest
from django.urls import reverse

from skatliga.archive import dump_archive, load_archive
from skatliga.models import Game, SecondEntry
from skatliga.services import table_links as links
from tests.web.factories import entry, make_table, play
from tests.web.test_archive import example
from tests.web.test_referee_entry import codes, row, url

pytestmark = pytest.mark.django_db

CLUBS = dict(declarer=1, game="clubs", matadors=1, card_points=61)


@pytest.fixture
def table(client, django_user_model):
    table = make_table(size=3, rounds=1, double_entry=True)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return table


def test_the_referee_saves_a_game_without_a_bid(client, table):
    response = client.post(url(table), row(1, **CLUBS))

    assert response.status_code == 302
    game = Game.objects.get(table=table)
    assert (game.bid, game.won, game.overbid, game.value, game.list_score) == (
        None,
        True,
        False,
        24,
        24,
    )


def test_a_bid_given_scores_the_overbid(client, table):
    client.post(url(table), row(1, bid=30, **CLUBS))

    game = Game.objects.get(table=table)
    assert (game.bid, game.won, game.overbid, game.value, game.list_score) == (
        30,
        False,
        True,
        36,
        -72,
    )


def test_a_bid_given_is_still_checked(client, table):
    response = client.post(url(table), row(1, bid=31, **CLUBS))

    assert codes(response.context["form"], "bid") == ["bid_not_legal"]
    assert not Game.objects.exists()


def test_the_preview_scores_a_game_without_a_bid(client, table):
    response = client.post(url(table, "referee:preview"), row(1, **CLUBS))

    data = response.json()
    assert (data["ok"], data["value"], data["overbid"]) == (True, 24, False)


def test_the_second_entry_takes_a_game_without_a_bid(client, table):
    play(table, entry(1, "clubs", bid=None, matadors=1, card_points=61))

    response = client.post(url(table, "referee:second-entry"), row(1, **CLUBS))

    assert response.status_code == 302
    assert SecondEntry.objects.get(table=table, number=1).bid is None


def test_a_table_device_saves_a_game_without_a_bid(client, table):
    link = links.renew_link(table)
    client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})

    response = client.post(reverse("table:entry", args=[link.token]), row(1, **CLUBS))

    assert response.status_code == 302
    assert Game.objects.get(table=table).bid is None


def test_the_archive_reads_and_writes_a_game_without_a_bid():
    document = example()
    del document["series"][0]["tables"][0]["games"][0]["bid"]

    tournament = load_archive(document)

    game = Game.objects.get(table__series__tournament=tournament, number=1)
    assert (game.bid, game.value, game.overbid) == (None, 72, False)
    exported = dump_archive(tournament)["series"][0]["tables"][0]["games"][0]
    assert "bid" not in exported

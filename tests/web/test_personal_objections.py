"""Objections from the personal link: a player objects to a game of his own lists from "my
evening", through the same service as the table's device, from his seat at that table; his
evening shows the objection and the referee's decision."""

import datetime

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from skatliga import services
from skatliga.models import Change, Objection, Series
from skatliga.personal.evening import evening_stamp
from skatliga.services import personal
from tests.web.factories import entry, make_player, make_table, play
from tests.web.test_personal import evening_of, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


def objection_url(registration, series=1, number=1):
    token = personal.personal_token(registration)
    return reverse("personal:objection", args=[token, series, number])


def carla():
    """Carla Weiß at seat 3 of a 3-table (``evening_of``): three games, all hers."""
    table, regs = evening_of(make_player("Carla Weiß"))
    return table, regs["Carla Weiß"]


def test_each_game_of_my_list_leads_to_its_objection():
    table, registration = carla()
    page = Client().get(url(registration)).content.decode()
    for number in (1, 2, 3):
        assert f'href="{objection_url(registration, 1, number)}"' in page
    assert Client().get(objection_url(registration, 1, 2)).status_code == 200


def test_i_object_from_my_seat_through_the_tables_service():
    table, registration = carla()
    client = Client()

    response = client.post(objection_url(registration, 1, 1), {"reason": "Es war ein Handspiel"})

    assert (response.status_code, response.url) == (302, url(registration))
    objection = Objection.objects.get()
    assert (objection.game.number, objection.seat.position) == (1, 3)
    assert objection.seat.player.name == "Carla Weiß"
    assert objection.reason == "Es war ein Handspiel"
    change = Change.objects.get(action=Change.Action.OBJECTION_FILED)
    assert (change.game_number, change.reason) == (1, "Es war ein Handspiel")
    page = client.get(url(registration)).content.decode()
    assert "Einspruch zu Spiel 1 eingelegt." in page
    assert f'data-objection="{objection.pk}"' in page
    assert "wartet auf die Entscheidung" in page
    # While it waits, the game offers no second objection.
    assert f'href="{objection_url(registration, 1, 1)}"' not in page
    assert f'href="{objection_url(registration, 1, 2)}"' in page


def test_objecting_twice_files_one_objection():
    table, registration = carla()
    for _ in range(2):
        Client().post(objection_url(registration, 1, 2), {"reason": "Bube vergessen"})
    assert Objection.objects.count() == 1


def test_my_evening_shows_the_referees_decision_by_its_poll():
    table, registration = carla()
    Client().post(objection_url(registration, 1, 1), {"reason": "Es war ein Handspiel"})
    client = Client()
    status = reverse("personal:status", args=[personal.personal_token(registration)])
    etag = client.get(status)["ETag"]

    services.decide_objection(Objection.objects.get(), reason="Karten geprüft: kein Handspiel")

    answer = client.get(status, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    html = answer.json()["html"]
    assert 'data-decision="kept"' in html
    assert "Spiel bleibt" in html and "Karten geprüft: kein Handspiel" in html
    # Decided, the game may be objected to again.
    assert f'href="{objection_url(registration, 1, 1)}"' in html


def test_a_reason_is_required_and_short():
    table, registration = carla()
    empty = Client().post(objection_url(registration), {"reason": "  "})
    long = Client().post(objection_url(registration), {"reason": "x" * 201})
    assert (empty.status_code, long.status_code) == (400, 400)
    assert not Objection.objects.exists()


def test_only_games_of_my_own_lists():
    table, registration = carla()
    other = make_table(table.series.tournament, size=4)
    play(other, entry(), entry(), entry(), entry())
    client = Client()
    # Game 4 is played only at the other table; series 2 has no seat of mine.
    assert client.get(objection_url(registration, 1, 4)).status_code == 404
    assert client.post(objection_url(registration, 1, 4), {"reason": "x"}).status_code == 404
    assert client.get(objection_url(registration, 2, 1)).status_code == 404
    # Another player's link objects from his own seat, not from mine.
    anna = table.series.tournament.registrations.get(player__name="Anna Berg")
    client.post(objection_url(anna, 1, 1), {"reason": "Kreuz war Trumpf"})
    assert Objection.objects.get().seat.position == 1


def test_a_substitute_objects_only_to_the_games_he_played():
    """Dora takes Bernd's seat 2 from game 3 on: games 1 and 2 are not hers to object to."""
    table, regs = evening_of(make_player("Carla Weiß"))
    dora = make_player("Dora Vogel")
    services.register_players(table.series.tournament, players=[dora])
    services.appoint_substitute(table, 2, 3, player=dora, reason="Bernd musste gehen")
    registration = table.series.tournament.registrations.get(player=dora)
    client = Client()

    assert client.get(objection_url(registration, 1, 2)).status_code == 404
    assert client.post(objection_url(registration, 1, 3), {"reason": "x"}).status_code == 302
    objection = Objection.objects.get()
    assert (objection.seat.position, objection.game.number) == (2, 3)


def test_after_publication_only_within_the_objection_window():
    table, registration = carla()
    services.close_table(table, reason="test")
    services.publish_series(table.series)
    client = Client()

    page = client.get(url(registration)).content.decode()
    refused = client.post(objection_url(registration), {"reason": "Bube vergessen"})

    assert f'href="{objection_url(registration)}"' not in page
    assert refused.status_code == 409
    assert "Einspruchsfrist ist abgelaufen" in refused.content.decode()
    assert not Objection.objects.exists()


def test_within_the_window_the_list_says_until_when(monkeypatch):
    table, registration = carla()
    tournament = table.series.tournament
    tournament.objection_minutes = 15
    tournament.save()
    services.close_table(table, reason="test")
    services.publish_series(table.series)
    until = Series.objects.get().objections_until
    client = Client()

    page = client.get(url(registration)).content.decode()
    assert 'data-objections="open"' in page
    assert f'href="{objection_url(registration)}"' in page
    assert client.post(objection_url(registration), {"reason": "x"}).status_code == 302

    later = until + datetime.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    page = client.get(url(registration)).content.decode()
    assert 'data-objections="final"' in page
    assert f'href="{objection_url(registration, 1, 2)}"' not in page


def test_the_poll_asks_again_each_minute_while_a_window_may_run(monkeypatch):
    table, registration = carla()
    tournament = table.series.tournament
    tournament.objection_minutes = 15
    tournament.save()
    services.close_table(table, reason="test")
    services.publish_series(table.series)
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    first = evening_stamp(registration, "de")
    monkeypatch.setattr(timezone, "now", lambda: now + datetime.timedelta(minutes=1))
    assert evening_stamp(registration, "de") != first
    monkeypatch.setattr(timezone, "now", lambda: now + datetime.timedelta(minutes=17))
    settled = evening_stamp(registration, "de")
    monkeypatch.setattr(timezone, "now", lambda: now + datetime.timedelta(minutes=18))
    assert evening_stamp(registration, "de") == settled

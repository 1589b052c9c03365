"""Calls and objections through the pages: the table's device behind its link asks, the
referee's dashboard answers, the table sees the answer, and the public pages show the
objection window of a published series."""

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from skatliga import services
from skatliga.models import Change, Objection, RefereeCall, Series
from skatliga.services import table_links as links
from tests.web.factories import entry, make_table, play
from tests.web.test_referee_entry import row
from tests.web.test_referee_settings import settings_data

pytestmark = pytest.mark.django_db

# Grand, declarer seat 1, with 2 (docs/rules.md section 2): (2 + 1) × 24 = 72; from the
# hand (+1): (2 + 1 + 1) × 24 = 96.
GRAND = dict(declarer=1, game="grand", bid=24, matadors=2, card_points=78, tricks=7)


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table():
    """A 3-table with one round (3 games), its first game a grand with 2 (72)."""
    table = make_table(size=3, rounds=1)
    play(table, entry(**GRAND))
    return table


@pytest.fixture
def link(table):
    return links.renew_link(table)


@pytest.fixture
def device(client, link):
    """The table's device, named "Tablet 3"."""
    client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})
    return client


@pytest.fixture
def referee(client, django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    return user


def at(link, name):
    return reverse(f"table:{name}", args=[link.token])


def series_url(table):
    return reverse("referee:series", args=[table.series.tournament.slug, table.series.number])


def status_url(table):
    return reverse(
        "referee:series-status", args=[table.series.tournament.slug, table.series.number]
    )


def objection_data(**changes):
    return {"number": "1", "seat": "2", "reason": "Bube vergessen", **changes}


# --- the table's device ----------------------------------------------------------------------


def test_the_list_at_the_table_leads_to_calling_the_referee(device, link):
    response = device.get(at(link, "entry"))

    assert at(link, "help") in response.content.decode()


def test_the_help_page_asks_for_the_device_name_first(client, link):
    response = client.get(at(link, "help"))

    assert response.status_code == 302
    assert response.url == at(link, "device")


def test_the_table_calls_the_referee_once_however_often_it_presses(device, link, table):
    first = device.post(at(link, "call"), {"reason": "rule"})
    device.post(at(link, "call"), {"reason": "device"})

    assert (first.status_code, first.url) == (302, at(link, "help"))
    call = RefereeCall.objects.get(table=table)
    assert (call.reason, call.device, call.is_open) == ("rule", "Tablet 3", True)
    page = device.get(at(link, "help")).content.decode()
    assert 'data-call="open"' in page
    # The list at the table says so too, until the referee saw the call.
    assert 'data-call="open"' in device.get(at(link, "entry")).content.decode()
    services.acknowledge_call(call)
    assert 'data-call="open"' not in device.get(at(link, "entry")).content.decode()


def test_a_call_without_a_known_reason_is_refused(device, link):
    response = device.post(at(link, "call"), {"reason": "pizza"}, follow=True)

    assert not RefereeCall.objects.exists()
    assert "Bitte einen Grund für den Ruf wählen." in response.content.decode()


def test_the_device_sees_the_call_was_seen_without_reloading(device, link, table, referee):
    call = services.call_referee(table, "dispute")
    first = device.get(at(link, "help-status"))
    again = device.get(at(link, "help-status"), headers={"if-none-match": first["ETag"]})

    services.acknowledge_call(call, user=referee)
    seen = device.get(at(link, "help-status"), headers={"if-none-match": first["ETag"]})

    assert 'data-call="open"' in first.json()["html"]
    assert again.status_code == 304
    assert seen.status_code == 200
    assert 'data-call="seen"' in seen.json()["html"]


def test_a_seat_objects_to_a_game_from_the_device(device, link, table):
    response = device.post(at(link, "objection"), objection_data())

    assert (response.status_code, response.url) == (302, at(link, "help"))
    objection = Objection.objects.get()
    assert (objection.game.number, objection.seat.position) == (1, 2)
    assert (objection.reason, objection.device) == ("Bube vergessen", "Tablet 3")
    status = device.get(at(link, "help-status")).json()["html"]
    assert f'data-objection="{objection.pk}"' in status
    assert "wartet auf die Entscheidung" in status


def test_the_device_offers_only_its_own_games_and_seats(device, link, table):
    other = make_table(table.series.tournament, size=3)
    play(other, entry(), entry())

    game_two = device.post(at(link, "objection"), objection_data(number="2"))
    seat_four = device.post(at(link, "objection"), objection_data(seat="4"))

    assert (game_two.status_code, seat_four.status_code) == (400, 400)
    assert not Objection.objects.exists()


def test_the_device_refuses_an_objection_after_the_window(device, link, table):
    play(table, entry(), entry())
    services.close_table(table)
    services.publish_series(table.series)

    response = device.post(at(link, "objection"), objection_data())

    assert response.status_code == 409
    assert not Objection.objects.exists()
    assert "Einspruchsfrist ist abgelaufen" in response.content.decode()


# --- the referee's dashboard ------------------------------------------------------------------


def test_the_dashboard_shows_a_call_with_its_table_and_time(client, table, referee):
    client.force_login(referee)
    call = services.call_referee(table, "rule")

    page = client.get(series_url(table)).content.decode()
    [status] = client.get(status_url(table)).json()["tables"]

    at_time = timezone.localtime(call.created_at).strftime("%H:%M")
    assert "Tisch 1 ruft" in page and "Regelfrage" in page and f"seit {at_time} Uhr" in page
    assert "has-call" in page
    assert status["call"] is True


def test_the_referee_acknowledges_a_call_from_the_dashboard(client, table, referee):
    client.force_login(referee)
    call = services.call_referee(table, "rule")
    url = reverse("referee:call-acknowledge", args=[table.series.tournament.slug, call.pk])

    response = client.post(url)

    assert (response.status_code, response.url) == (302, series_url(table))
    call.refresh_from_db()
    assert (call.is_open, call.acknowledged_by) == (False, referee)
    [status] = client.get(status_url(table)).json()["tables"]
    assert status["call"] is False


def test_another_tournaments_referee_cannot_acknowledge(client, table, django_user_model):
    stranger = django_user_model.objects.create_user("bert", password="kreuz-bube-11")
    client.force_login(stranger)
    call = services.call_referee(table, "rule")
    url = reverse("referee:call-acknowledge", args=[table.series.tournament.slug, call.pk])

    assert client.post(url).status_code == 403
    call.refresh_from_db()
    assert call.is_open


def test_the_dashboard_lists_open_objections_and_the_referee_keeps_the_game(client, table, referee):
    client.force_login(referee)
    objection = services.file_objection(table.games.get(), table.seats.get(position=2), "Bube?")
    [status] = client.get(status_url(table)).json()["tables"]
    url = reverse("referee:objection-keep", args=[table.series.tournament.slug, objection.pk])

    without = client.post(url, {"reason": ""}, follow=True)
    response = client.post(url, {"reason": "Karten geprüft"})

    assert status["objections"] == 1
    assert "Einspruch zu Spiel 1" in status["html"] and "Bube?" in status["html"]
    assert "Bitte einen Grund angeben." in without.content.decode()
    assert (response.status_code, response.url) == (302, series_url(table))
    objection.refresh_from_db()
    assert (objection.decision, objection.decision_reason) == ("kept", "Karten geprüft")
    [after] = client.get(status_url(table)).json()["tables"]
    assert after["objections"] == 0


def test_the_referee_corrects_the_game_on_the_list_page(client, table, referee, link):
    client.force_login(referee)
    objection = services.file_objection(table.games.get(), table.seats.get(position=2), "Hand!")
    list_url = reverse(
        "referee:list", args=[table.series.tournament.slug, table.series.number, table.number]
    )

    page = client.get(list_url, {"game": 1, "objection": objection.pk}).content.decode()
    response = client.post(
        list_url,
        {
            **row(1, version=1, **GRAND, hand=True, reason="Hand bestätigt"),
            "objection": str(objection.pk),
        },
    )

    assert f'name="objection" value="{objection.pk}"' in page
    assert "Einspruch eingelegt" in page and "Hand!" in page  # in the list's history
    assert (response.status_code, response.url) == (302, series_url(table))
    game = table.games.get()
    assert (game.hand, game.value, game.version) == (True, 96, 2)
    objection.refresh_from_db()
    assert (objection.decision, objection.decision_reason) == ("corrected", "Hand bestätigt")
    assert Change.objects.filter(
        action=Change.Action.GAME_CORRECTED, reason="Hand bestätigt"
    ).exists()
    status = client.get(at(link, "help-status")).json()["html"]
    assert "Spiel korrigiert" in status and "Hand bestätigt" in status


def test_a_correction_without_a_reason_leaves_the_objection_open(client, table, referee):
    client.force_login(referee)
    objection = services.file_objection(table.games.get(), table.seats.get(position=2), "Hand!")
    list_url = reverse(
        "referee:list", args=[table.series.tournament.slug, table.series.number, table.number]
    )

    response = client.post(
        list_url, {**row(1, version=1, **GRAND, hand=True), "objection": str(objection.pk)}
    )

    assert response.status_code == 200
    objection.refresh_from_db()
    assert objection.is_open
    assert table.games.get().value == 72


# --- the window: settings and public pages ----------------------------------------------------


def test_the_settings_set_the_objection_window(client, table, referee):
    client.force_login(referee)
    tournament = table.series.tournament
    url = reverse("referee:tournament-settings", args=[tournament.slug])

    response = client.post(url, settings_data(tournament, objection_minutes="15"))
    too_long = client.post(url, settings_data(tournament, objection_minutes="121"))

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.objection_minutes == 15
    assert too_long.status_code == 200
    assert too_long.context["form"].errors["objection_minutes"]


def publish_with_window(table, minutes=15):
    tournament = table.series.tournament
    tournament.objection_minutes = minutes
    tournament.save()
    play(table, entry(), entry())
    services.close_table(table)
    services.publish_series(table.series)
    return Series.objects.get(pk=table.series.pk)


def test_the_public_pages_show_the_window_then_final(client, table, monkeypatch):
    series = publish_with_window(table)
    tournament = table.series.tournament
    series_page = reverse("series", args=[tournament.slug, series.number])
    tournament_page = reverse("standings", args=[tournament.slug])
    until = timezone.localtime(series.objections_until).strftime("%H:%M")

    during = [client.get(series_page), client.get(tournament_page)]
    later = series.objections_until + datetime.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    after = [client.get(series_page), client.get(tournament_page)]

    for response in during:
        assert f"Einspruch bis {until}" in response.content.decode()
    for response in after:
        page = response.content.decode()
        assert "Einspruch bis" not in page
        assert 'data-objections="final"' in page and "endgültig" in page


def test_the_window_in_english_reads_the_locales_time(client, table):
    series = publish_with_window(table)
    tournament = table.series.tournament
    until = timezone.localtime(series.objections_until).strftime("%H:%M")

    page = client.get(f"/en{reverse('series', args=[tournament.slug, series.number])}")

    assert f"Objections until {until}" in page.content.decode()


def test_without_a_window_the_public_pages_say_nothing_of_it(client, table):
    series = publish_with_window(table, minutes=0)
    tournament = table.series.tournament

    page = client.get(reverse("series", args=[tournament.slug, series.number]))

    assert "data-objections" not in page.content.decode()


def test_the_list_at_the_table_shows_the_referees_answers_of_the_last_half_hour(
    device, link, table, referee
):
    """The call seen and the objection decided show on the list's page, not only on the
    help page; after half an hour they are no news there."""
    call = services.call_referee(table, "dispute")
    services.acknowledge_call(call, user=referee)
    objection = services.file_objection(
        table.games.get(number=1), table.seats.get(position=2), "Bube vergessen"
    )
    services.decide_objection(objection, reason="Bube lag im Skat", user=referee)

    page = device.get(at(link, "entry")).content.decode()
    assert 'data-call="seen"' in page
    assert f'data-objection="{objection.pk}" data-decision="kept"' in page
    assert "Bube lag im Skat" in page
    recent = device.get(at(link, "help-status") + "?recent=1").json()["html"]
    assert 'data-call="seen"' in recent and 'data-decision="kept"' in recent

    long_ago = timezone.now() - datetime.timedelta(minutes=31)
    RefereeCall.objects.update(acknowledged_at=long_ago)
    Objection.objects.update(decided_at=long_ago)
    page = device.get(at(link, "entry")).content.decode()
    assert 'data-call="seen"' not in page and "data-objection" not in page
    # The help page keeps them all.
    help_page = device.get(at(link, "help")).content.decode()
    assert 'data-call="seen"' in help_page and 'data-decision="kept"' in help_page


def test_the_objection_form_names_each_game_in_playing_order(device, link, table):
    """Game 1: seat 1's grand with 2 (+72); game 2 passed in; game 3: seat 2 plays clubs
    with 1 and 70 card points, (1 + 1) × 12 = +24. The last game is chosen first."""
    play(table, entry(), entry(2, "clubs", bid=18, matadors=1, card_points=70))
    seats = {seat.position: str(seat.player) for seat in table.seats.all()}

    form = device.get(at(link, "help")).context["form"]

    assert form.fields["number"].choices == [
        (1, f"Spiel 1: {seats[1]} · Grand · +72"),
        (2, "Spiel 2: eingepasst"),
        (3, f"Spiel 3: {seats[2]} · Kreuz · +24"),
    ]
    assert form["number"].value() == 3

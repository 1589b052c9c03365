"""A correction says what it does: one that deletes signatures asks first and says so
afterwards; one that makes no sense (a bid on a passed-in row) is refused with a message."""

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Change, Game, Signature
from tests.web.factories import entry
from tests.web.test_referee_entry import codes, row
from tests.web.test_signatures import GRAND, kept

pytestmark = pytest.mark.django_db


def sign_two(table):
    for position in (1, 2):
        services.sign_list(table, position, state=services.list_state(table))


def referee_url(table):
    return reverse(
        "referee:list", args=[table.series.tournament.slug, table.series.number, table.number]
    )


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    client.force_login(user)
    return user


def test_a_correction_of_a_signed_list_asks_first_and_changes_nothing(client, referee):
    table, _link = kept(3)
    table.series.tournament.referees.add(referee)
    sign_two(table)

    response = client.post(referee_url(table), row(3, version=1, **GRAND))

    assert response.status_code == 200
    form = response.context["form"]
    assert codes(form, "__all__") == ["signatures_would_clear"]
    assert "Speichern löscht alle Unterschriften" in response.content.decode()
    # The form now carries the confirmation: the next save goes through.
    assert 'name="clear_signatures" value="True"' in response.content.decode()
    assert Signature.objects.filter(table=table).count() == 2
    assert Game.objects.get(table=table, number=3).passed


def test_the_confirmed_correction_clears_the_signatures_and_says_so(client, referee):
    table, _link = kept(3)
    table.series.tournament.referees.add(referee)
    sign_two(table)

    response = client.post(
        referee_url(table), row(3, version=1, clear_signatures=True, **GRAND), follow=True
    )

    assert "alle Unterschriften sind gelöscht" in response.content.decode()
    assert not Signature.objects.filter(table=table).exists()
    assert Change.objects.filter(action=Change.Action.SIGNATURES_CLEARED).count() == 1


def test_a_bid_on_a_passed_in_row_is_refused_with_a_message(client, referee):
    table, _link = kept(3)
    table.series.tournament.referees.add(referee)

    response = client.post(referee_url(table), row(3, version=1, declarer="0", bid=30))

    assert codes(response.context["form"], "bid") == ["passed_with_declaration"]
    assert "Eingepasst und doch ein Spiel angegeben" in response.content.decode()
    assert Game.objects.get(table=table, number=3).version == 1


def test_the_passed_in_button_still_passes_whatever_was_typed(client, referee):
    table, _link = kept(3)
    table.series.tournament.referees.add(referee)
    services.record_game(
        table, 3, services.GameEntry(), expected_version=1, reason="x"
    )  # version 2, still passed in

    response = client.post(referee_url(table), row(3, version=2, passed="1", game="grand"))

    assert response.status_code == 302
    assert Game.objects.get(table=table, number=3).passed


# --- a save sent again after its answer was lost ----------------------------------------------


def test_a_new_row_sent_again_is_accepted_quietly(client, referee):
    table, _link = kept(3)
    table.series.tournament.referees.add(referee)
    services.delete_last_game(table, 3, expected_version=1, reason="neu")
    new_row = row(3, **GRAND)

    assert client.post(referee_url(table), new_row).status_code == 302
    again = client.post(referee_url(table), new_row)

    assert again.status_code == 302
    assert Game.objects.get(table=table, number=3).version == 1
    recorded = Change.objects.filter(action=Change.Action.GAME_RECORDED, game_number=3)
    assert sorted(str(change.after.get("game")) for change in recorded) == ["None", "grand"]


def test_a_correction_sent_again_is_accepted_quietly_and_a_different_one_conflicts(client, referee):
    table, _link = kept(3)
    table.series.tournament.referees.add(referee)
    correction = row(3, version=1, **GRAND)

    assert client.post(referee_url(table), correction).status_code == 302
    assert client.post(referee_url(table), correction).status_code == 302
    assert Game.objects.get(table=table, number=3).version == 2

    other = client.post(referee_url(table), {**correction, "matadors": "1"})
    assert other.context["conflict"]["code"] == "conflict"


# --- a table's version of a row the referee corrected ------------------------------------------


def disputed_by_the_table(client, referee):
    """The referee corrects game 1 (grand → clubs with 1: (1 + 1) × 12 = 24); the table
    then saves its own version over it, against the current row."""
    table, link = kept(3)
    table.series.tournament.referees.add(referee)
    clubs = entry(2, "clubs", bid=None, matadors=1, card_points=61)
    services.record_game(table, 1, clubs, user=referee, expected_version=1)
    client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})
    response = client.post(reverse("table:entry", args=[link.token]), row(1, version=2, **GRAND))
    return table, response


def test_a_table_cannot_undo_the_referees_correction(client, referee):
    table, response = disputed_by_the_table(client, referee)

    assert response.status_code == 200
    assert codes(response.context["form"], "__all__") == ["referee_version_stands"]
    game = Game.objects.get(table=table, number=1)
    assert (game.game, game.value, game.version) == ("clubs", 24, 2)
    assert game.disputed["device"] == "Tablet 3"
    assert game.disputed["game"]["game"] == "grand"


def test_the_referee_sees_the_dispute_on_the_list_and_the_dashboard(client, referee):
    table, _response = disputed_by_the_table(client, referee)
    client.force_login(referee)

    page = client.get(referee_url(table)).content.decode()
    dashboard = client.get(
        reverse("referee:series", args=[table.series.tournament.slug, 1])
    ).content.decode()

    assert "Der Tisch (Tablet 3) möchte Spiel 1 ändern" in page
    assert "Fassung des Tisches wartet (Spiel 1)" in dashboard


def test_the_referee_accepts_the_tables_version(client, referee):
    table, _response = disputed_by_the_table(client, referee)
    client.force_login(referee)

    response = client.post(referee_url(table), {"number": "1", "dispute": "accept"})

    assert response.status_code == 302
    game = Game.objects.get(table=table, number=1)
    assert (game.game, game.value, game.disputed, game.version) == ("grand", 96, None, 3)


def test_the_referee_keeps_the_own_version(client, referee):
    table, _response = disputed_by_the_table(client, referee)
    client.force_login(referee)

    client.post(referee_url(table), {"number": "1", "dispute": "reject"})

    game = Game.objects.get(table=table, number=1)
    assert (game.game, game.disputed, game.version) == ("clubs", None, 2)

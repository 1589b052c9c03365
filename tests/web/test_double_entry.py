"""Double entry: the list entered twice, compared row by row; it closes only when both
agree or the referee picked one version of each differing row, with a reason."""

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Change, Game, SecondEntry
from tests.web.factories import entry, make_table, make_tournament, play
from tests.web.test_referee_entry import row

pytestmark = pytest.mark.django_db

# Clubs with 1, bid 18, won with 61: (1 + 1) × 12 = 24. Spades with 1 at 61: (1 + 1) × 11 = 22.
CLUBS = entry(1, "clubs", bid=18, matadors=1, card_points=61)
SPADES = entry(1, "spades", bid=18, matadors=1, card_points=61)


@pytest.fixture
def table(client, django_user_model):
    """A 3-table with one round (3 games) under double entry, its referee logged in, the
    list entered: clubs, passed in, passed in."""
    table = make_table(size=3, rounds=1, double_entry=True)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    play(table, CLUBS, entry(), entry())
    return table


def url(table, name="referee:list"):
    return reverse(name, args=[table.series.tournament.slug, table.series.number, table.number])


def second(table, *entries):
    for number, item in enumerate(entries, start=1):
        services.record_second_entry(table, number, item)


def test_double_entry_is_off_by_default_and_on_the_settings_page(client, django_user_model):
    tournament = make_tournament()
    user = django_user_model.objects.create_user("bernd", password="kreuz-bube-11")
    tournament.referees.add(user)
    client.force_login(user)
    assert not tournament.double_entry

    page = client.get(reverse("referee:tournament-settings", args=[tournament.slug]))
    response = client.post(
        reverse("referee:tournament-settings", args=[tournament.slug]),
        {
            "name": tournament.name,
            "date": "2026-11-21",
            "rules": "isko",
            "scoring": "seeger-fabian",
            "rounds_per_series": "12",
            "double_entry": "on",
        },
    )

    assert "double_entry" in page.context["form"].fields
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.double_entry


def test_a_second_entry_needs_the_tournament_setting():
    table = make_table(size=3, rounds=1)

    with pytest.raises(services.ServiceError) as error:
        services.record_second_entry(table, 1, entry())

    assert error.value.code == "double_entry_off"


def test_equal_entries_close(client, table):
    second(table, CLUBS, entry(), entry())

    response = client.post(url(table, "referee:close"))

    table.refresh_from_db()
    assert response.status_code == 302
    assert table.is_closed
    assert services.differences(table) == []


def test_one_different_row_blocks_closing_with_its_game_number(client, table):
    second(table, SPADES, entry(), entry())

    response = client.post(url(table, "referee:close"))

    table.refresh_from_db()
    assert response.status_code == 409
    assert response.context["action_error"]["code"] == "entries_differ"
    assert "Spiel 1" in response.context["action_error"]["message"]
    assert not table.is_closed
    [difference] = response.context["differences"]
    assert difference["number"] == 1
    assert "Kreuz" in difference["first"] and "Pik" in difference["second"]


def test_a_missing_second_entry_row_is_a_difference(table):
    second(table, CLUBS, entry())

    assert [(d.number, d.second) for d in services.differences(table)] == [(3, None)]
    with pytest.raises(services.ServiceError) as error:
        services.close_table(table)
    assert (error.value.code, error.value.params) == ("entries_differ", {"games": "3"})


def test_the_comparison_ignores_who_entered_a_row_and_when(table):
    second(table, CLUBS, entry(), entry())
    SecondEntry.objects.filter(table=table).update(device="Tablet", version=7)

    assert services.differences(table) == []


def test_picking_the_second_entry_with_a_reason_saves_it_into_the_list(client, table):
    second(table, SPADES, entry(), entry())

    response = client.post(
        url(table, "referee:pick-entry"),
        {"number": "1", "choice": "second", "reason": "Papier zeigt Pik"},
    )

    assert response.status_code == 302
    game = Game.objects.get(table=table, number=1)
    assert (game.game, game.value, game.list_score) == ("spades", 22, 22)
    corrected = Change.objects.get(table=table, action=Change.Action.GAME_CORRECTED)
    assert corrected.reason == "Papier zeigt Pik"
    picked = Change.objects.get(table=table, action=Change.Action.ENTRY_PICKED)
    assert (picked.game_number, picked.after, picked.reason) == (
        1,
        {"picked": "second"},
        "Papier zeigt Pik",
    )
    assert picked.before["first"]["game"] == "clubs"
    assert client.post(url(table, "referee:close")).status_code == 302


def test_picking_the_list_s_version_copies_it_into_the_second_entry(table):
    second(table, SPADES, entry(), entry())

    services.pick_entry(table, 1, "first", reason="Tippfehler in der Zweiteingabe")

    assert SecondEntry.objects.get(table=table, number=1).game == "clubs"
    assert Game.objects.get(table=table, number=1).game == "clubs"
    services.close_table(table)


def test_picking_without_a_reason_is_an_error_at_the_field(client, table):
    second(table, SPADES, entry(), entry())

    response = client.post(url(table, "referee:pick-entry"), {"number": "1", "choice": "second"})

    assert response.status_code == 400
    error = response.context["pick_error"]
    assert (error["number"], error["field"], error["code"]) == (1, "reason", "reason_required")
    assert 'aria-invalid="true"' in response.content.decode()
    assert Game.objects.get(table=table, number=1).game == "clubs"


def test_picking_neither_version_is_an_error_at_the_field(table):
    second(table, SPADES, entry(), entry())

    with pytest.raises(services.ServiceError) as error:
        services.pick_entry(table, 1, "both", reason="x")

    assert (error.value.code, error.value.field) == ("entry_choice_invalid", "choice")


def test_the_second_entry_page_saves_a_row_through_the_same_engine(client, table):
    response = client.post(
        url(table, "referee:second-entry"),
        row(1, declarer=1, game="clubs", matadors=1, bid=17, card_points=61),
    )

    assert response.status_code == 400
    assert "bid_not_legal" in [e.code for e in response.context["form"].errors.as_data()["bid"]]
    assert not SecondEntry.objects.exists()

    response = client.post(
        url(table, "referee:second-entry"),
        row(1, declarer=1, game="clubs", matadors=1, bid=18, card_points=61),
    )

    assert response.status_code == 302
    assert SecondEntry.objects.get(table=table, number=1).game == "clubs"
    change = Change.objects.get(table=table, action=Change.Action.SECOND_ENTRY)
    assert change.after["game"] == "clubs"


def test_a_second_entry_row_keeps_the_version_check(table):
    services.record_second_entry(table, 1, CLUBS)

    with pytest.raises(services.Conflict):
        services.record_second_entry(table, 1, SPADES)  # typed against no row, but one exists
    services.record_second_entry(table, 1, SPADES, expected_version=1)

    assert SecondEntry.objects.get(table=table, number=1).version == 2

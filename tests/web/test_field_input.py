"""Bad input from the field test (issue 10): every entrance answers with a clear, coded error,
saves nothing it should not, and never a 500."""

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from skatliga.models import Player, Tournament
from tests.web.factories import entry, make_player, make_table, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


def refereed(referee, **fields):
    tournament = make_tournament(**fields)
    tournament.referees.add(referee)
    return tournament


def flash(response) -> list[tuple[str, str]]:
    return [(m.level_tag, str(m)) for m in response.wsgi_request._messages]


# --- item 7: pasting players reports added and already registered separately ---------------


def test_a_paste_reports_added_and_already_registered_players_apart(client, referee):
    tournament = refereed(referee)
    make_player("Petra Schulz")
    url = reverse("referee:players-add", args=[tournament.slug])
    client.post(url, {"roster": "Petra Schulz"}, follow=True)

    response = client.post(url, {"roster": "Petra Schulz\nOtto Meier\nOtto Meier"}, follow=True)

    assert flash(response) == [
        ("success", "1 Spieler eingetragen: Otto Meier"),
        ("info", "2 Spieler waren schon eingetragen: Petra Schulz, Otto Meier"),
    ]
    assert tournament.registrations.count() == 2


# --- item 16: names no longer than their column, at every entrance ---------------------------


def test_a_pasted_name_longer_than_the_column_is_refused_naming_its_line(client, referee):
    tournament = refereed(referee)
    roster = "Anna Schmidt\n" + "x" * 100_000 + "\nBernd; " + "V" * 121

    response = client.post(
        reverse("referee:players-add", args=[tournament.slug]), {"roster": roster}
    )

    errors = response.context["players_form"].non_field_errors().as_data()
    assert [e.code for e in errors] == ["name_too_long", "club_too_long"]
    assert [e.messages[0] for e in errors] == [
        "Zeile 2: der Name ist zu lang (höchstens 120 Zeichen).",
        "Zeile 3: der Verein ist zu lang (höchstens 120 Zeichen).",
    ]
    assert not Player.objects.exists()


def test_a_name_of_exactly_the_columns_length_is_entered(client, referee):
    tournament = refereed(referee)

    client.post(reverse("referee:players-add", args=[tournament.slug]), {"roster": "x" * 120})

    assert Player.objects.get().name == "x" * 120


def test_the_service_refuses_a_long_name_whoever_calls_it():
    from skatliga import services

    tournament = make_tournament()
    with pytest.raises(services.ServiceError) as error:
        services.register_players(tournament, [("Anna", ""), ("y" * 121, "")])

    assert (error.value.code, error.value.params) == ("name_too_long", {"line": 2, "most": 120})
    assert not Player.objects.exists()


# --- item 18: a deeply nested upload gets the clear error, not a 500 -------------------------


def test_a_deeply_nested_upload_is_a_clear_error(client, referee):
    response = client.post(
        reverse("referee:archive-upload"),
        {"file": SimpleUploadedFile("tief.json", b"[" * 100_000, "application/json")},
    )

    assert response.status_code == 200
    errors = response.context["form"].errors.as_data()["file"]
    assert [(e.code, e.messages) for e in errors] == [
        ("archive_too_deep", ["Die Datei ist zu tief verschachtelt."])
    ]
    assert not Tournament.objects.exists()


# --- item 20: importing the same archive twice asks first -----------------------------------


def upload(client, content: bytes, **data: str):
    return client.post(
        reverse("referee:archive-upload"),
        {"file": SimpleUploadedFile("turnier.json", content, "application/json"), **data},
    )


@pytest.mark.django_db(transaction=True)
def test_an_archive_imported_already_is_refused_until_the_referee_asks_again(client, referee):
    table = make_table(size=3, rounds=1)
    original = table.series.tournament
    original.referees.add(referee)
    play(table, entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7))
    exported = client.get(reverse("referee:archive-download", args=[original.slug])).content

    refused = after_the_import(client, upload(client, exported))

    assert refused.status_code == 200
    assert [p["code"] for p in refused.context["problems"]] == ["already_imported"]
    assert original.slug in refused.context["problems"][0]["message"]
    assert refused.context["existing_url"] == reverse("referee:tournament", args=[original.slug])
    assert Tournament.objects.count() == 1

    again = after_the_import(client, upload(client, exported, again="on"))

    assert again.status_code == 302
    assert Tournament.objects.count() == 2


def after_the_import(client, uploaded):
    """The job's page once the task worker has run the upload's import."""
    from tests.web.test_tasks import run_tasks

    assert uploaded.status_code == 302
    run_tasks()
    return client.get(uploaded.url)


# --- item 22: the rounds' message names the real range -------------------------------------


@pytest.mark.parametrize("rounds", ["-1", "0", "31", "40000"])
def test_rounds_outside_1_to_30_name_the_range(client, referee, rounds):
    tournament = refereed(referee)
    data = {
        "name": tournament.name,
        "date": "2026-11-21",
        "venue": "",
        "season": "",
        "match_day": "",
        "rules": tournament.rules,
        "scoring": tournament.scoring,
        "rounds_per_series": rounds,
    }

    response = client.post(reverse("referee:tournament-settings", args=[tournament.slug]), data)

    errors = response.context["form"].errors.as_data()["rounds_per_series"]
    assert [(e.code, e.messages) for e in errors] == [
        ("rounds_out_of_range", ["Runden pro Serie: 1 bis 30"])
    ]


# --- item 8: drawing the next series while lists are open warns first -----------------------


def test_drawing_while_lists_are_open_warns_and_draws_only_when_asked_again(client, referee):
    from skatliga import services
    from skatliga.models import Series

    tournament = refereed(referee, players=8, size=4, rounds=1)
    first = tournament.series.get().tables.get(number=1)
    play(first, entry(), entry(), entry(), entry())
    services.close_table(first)
    url = reverse("referee:draw", args=[tournament.slug])

    warned = client.post(url, {"method": "standings"})

    assert warned.status_code == 200
    assert warned.context["action_error"]["code"] == "lists_open"
    assert warned.context["action_error"]["message"] == (
        "Nicht abgeschlossene Listen der bisherigen Serien: 1. Die nächste Serie trotzdem auslosen?"
    )
    html = warned.content.decode()
    assert 'name="despite_open" value="1"' in html
    assert 'name="method" value="standings"' in html
    assert Series.objects.filter(tournament=tournament).count() == 1

    drawn = client.post(url, {"method": "standings", "despite_open": "1"})

    assert drawn.status_code == 302
    assert Series.objects.filter(tournament=tournament).count() == 2


def test_drawing_after_every_list_is_closed_needs_no_confirmation(client, referee):
    from skatliga import services
    from skatliga.models import Series

    tournament = refereed(referee, players=4, size=4, rounds=1)
    table = tournament.series.get().tables.get()
    play(table, entry(), entry(), entry(), entry())
    services.close_table(table)

    response = client.post(reverse("referee:draw", args=[tournament.slug]))

    assert response.status_code == 302
    assert Series.objects.filter(tournament=tournament).count() == 2


# --- item 19: failed logins are throttled per user and address ------------------------------


def test_wrong_passwords_lock_the_login_for_that_user_and_address(client, django_user_model):
    django_user_model.objects.create_user("berta", password="kreuz-bube-11")
    url = reverse("login")
    wrong = {"username": "berta", "password": "falsch"}

    answers = [client.post(url, wrong).status_code for _ in range(6)]
    right = client.post(url, {"username": "berta", "password": "kreuz-bube-11"})

    assert answers == [200, 200, 200, 200, 429, 429]
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    html = right.content.decode()
    assert "Zu viele falsche Passwörter für diesen Benutzer von dieser Adresse." in html
    assert "für 15 Minuten gesperrt" in html


def test_another_address_may_still_log_in(client, django_user_model):
    django_user_model.objects.create_user("berta", password="kreuz-bube-11")
    url = reverse("login")
    for _ in range(5):
        client.post(url, {"username": "berta", "password": "falsch"}, REMOTE_ADDR="10.0.0.9")

    response = client.post(
        url, {"username": "berta", "password": "kreuz-bube-11"}, REMOTE_ADDR="10.0.0.8"
    )

    assert response.status_code == 302


def test_the_lockout_speaks_english_on_english_pages(client, django_user_model):
    from django.utils import translation

    django_user_model.objects.create_user("berta", password="kreuz-bube-11")
    with translation.override("en"):
        url = reverse("login")
    for _ in range(5):
        response = client.post(url, {"username": "berta", "password": "falsch"})

    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()


# --- item 2: a declared game becomes passed in, or the last game goes, only with a reason ---


def test_turning_a_declared_game_into_a_passed_one_needs_a_reason():
    from skatliga import services

    table = make_table(size=3, rounds=1)
    play(table, entry(1, "grand", bid=18, matadors=1, card_points=70, tricks=6))

    with pytest.raises(services.ServiceError) as error:
        services.record_game(table, 1, entry(), expected_version=1)

    assert (error.value.code, error.value.field) == ("reason_required", "reason")
    assert not table.games.get().passed
    services.record_game(table, 1, entry(), expected_version=1, reason="eingepasst")
    assert table.games.get().passed


def test_deleting_the_last_game_needs_a_reason(client, referee):
    table = make_table(size=3, rounds=1)
    table.series.tournament.referees.add(referee)
    play(table, entry())
    url = reverse("referee:delete-last", args=[table.series.tournament.slug, 1, 1])

    refused = client.post(url, {"number": 1, "version": 1, "reason": " "})

    assert refused.context["action_error"]["code"] == "reason_required"
    assert table.games.count() == 1
    assert client.post(url, {"number": 1, "version": 1, "reason": "doppelt"}).status_code == 302
    assert table.games.count() == 0

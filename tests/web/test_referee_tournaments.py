"""Setting a tournament up: create it, enter players, draw the tables, swap two seats."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from skatliga.models import Club, Registration, Seat, Series, Tournament
from tests.web.factories import entry, make_player, make_table, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def referee(client, user):
    client.force_login(user)
    return user


def refereed(user, **fields):
    tournament = make_tournament(**fields)
    tournament.referees.add(user)
    return tournament


def test_creating_a_tournament_makes_the_creator_its_referee(client, referee):
    response = client.post(
        reverse("referee:tournament-create"),
        {
            "name": "Herbstturnier Köln",
            "date": "2026-11-21",
            "venue": "Vereinsheim",
            "rules": "isko-kontra",
            "scoring": "classic",
            "rounds_per_series": "8",
            "keep_teammates_apart": "on",
        },
    )

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("referee:tournament", args=[tournament.slug])
    assert tournament.slug == "herbstturnier-koln-2026-11-21"
    assert (tournament.rules, tournament.scoring, tournament.rounds_per_series) == (
        "isko-kontra",
        "classic",
        8,
    )
    assert tournament.keep_teammates_apart
    assert list(tournament.referees.all()) == [referee]


def test_two_tournaments_of_the_same_name_and_day_get_different_slugs(client, referee):
    data = {"name": "Pokal", "date": "2026-11-21", "rules": "isko", "scoring": "seeger-fabian"}
    data["rounds_per_series"] = "12"

    client.post(reverse("referee:tournament-create"), data)
    client.post(reverse("referee:tournament-create"), data)

    assert sorted(Tournament.objects.values_list("slug", flat=True)) == [
        "pokal-2026-11-21",
        "pokal-2026-11-21-2",
    ]


def test_a_tournament_without_name_is_not_created(client, referee):
    response = client.post(
        reverse("referee:tournament-create"),
        {"date": "2026-11-21", "rules": "isko", "scoring": "seeger-fabian"},
    )

    assert response.status_code == 200
    assert response.context["form"].errors.as_data()["name"][0].code == "required"
    assert not Tournament.objects.exists()


def test_pasting_a_list_registers_every_player_with_his_club(client, referee):
    tournament = refereed(referee)

    response = client.post(
        reverse("referee:players-add", args=[tournament.slug]),
        {"roster": "Anna Schmidt; SC Altenburg\nBernd Łukasz\n\nCarla Weiß; SC Altenburg\n"},
    )

    assert response.status_code == 302
    registered = tournament.registrations.values_list("player__name", "player__club__name")
    assert sorted(registered) == [
        ("Anna Schmidt", "SC Altenburg"),
        ("Bernd Łukasz", None),
        ("Carla Weiß", "SC Altenburg"),
    ]
    assert Club.objects.count() == 1


def test_a_player_picked_from_the_roster_is_the_known_player(client, referee):
    tournament = refereed(referee)
    club = Club.objects.create(name="Grand Hand Jena")
    known = make_player("Dora Krause", club=club)

    client.post(
        reverse("referee:players-add", args=[tournament.slug]),
        {"player": "Dora Krause; Grand Hand Jena"},
    )

    assert list(tournament.registrations.values_list("player", flat=True)) == [known.pk]


def test_an_empty_player_list_is_an_error(client, referee):
    tournament = refereed(referee)

    response = client.post(reverse("referee:players-add", args=[tournament.slug]), {"roster": " "})

    assert response.status_code == 200
    errors = response.context["players_form"].non_field_errors().as_data()
    assert [e.code for e in errors] == ["roster_empty"]


def test_the_roster_search_returns_matching_players_as_json(client, referee):
    tournament = refereed(referee)
    club = Club.objects.create(name="SC Altenburg")
    anna = make_player("Anna Schmidt", club=club)
    make_player("Bernd Łukasz")
    Registration.objects.create(tournament=tournament, player=anna)

    response = client.get(reverse("referee:player-search", args=[tournament.slug]), {"q": "schm"})

    assert response["Content-Type"] == "application/json"
    assert response.json()["players"] == [
        {
            "id": anna.pk,
            "name": "Anna Schmidt",
            "club": "SC Altenburg",
            "value": "Anna Schmidt; SC Altenburg",
            "registered": True,
        }
    ]


def test_a_registration_can_be_removed_before_the_draw(client, referee):
    tournament = refereed(referee, players=2)
    registration = tournament.registrations.first()

    response = client.post(
        reverse("referee:registration-remove", args=[tournament.slug, registration.pk])
    )

    assert response.status_code == 302
    assert tournament.registrations.count() == 1


def test_a_registration_cannot_be_removed_after_the_draw(client, referee):
    tournament = refereed(referee, players=4, size=4)
    registration = tournament.registrations.first()

    response = client.post(
        reverse("referee:registration-remove", args=[tournament.slug, registration.pk])
    )

    assert response.context["action_error"]["code"] == "series_drawn"
    assert tournament.registrations.count() == 4


def test_drawing_seats_everyone_at_tables_of_four_and_three(client, referee):
    tournament = refereed(referee, players=7)

    response = client.post(reverse("referee:draw", args=[tournament.slug]))

    series = Series.objects.get(tournament=tournament)
    assert response.status_code == 302
    assert response.url == reverse("referee:series", args=[tournament.slug, 1])
    assert sorted(series.tables.values_list("size", flat=True)) == [3, 4]
    assert Seat.objects.filter(series=series).count() == 7


def test_five_players_cannot_be_drawn(client, referee):
    tournament = refereed(referee, players=5)

    response = client.post(reverse("referee:draw", args=[tournament.slug]))

    assert response.status_code == 200
    assert response.context["action_error"]["code"] == "players_cannot_be_seated"
    assert "5" in response.context["action_error"]["message"]
    assert not Series.objects.exists()


def test_two_players_can_swap_seats_before_the_series_starts(client, referee):
    tournament = refereed(referee, players=8, size=4)
    first = Seat.objects.get(table__number=1, position=1)
    second = Seat.objects.get(table__number=2, position=3)
    players = first.player_id, second.player_id

    response = client.post(
        reverse("referee:swap", args=[tournament.slug, 1]),
        {"first": first.pk, "second": second.pk},
    )

    assert response.status_code == 302
    assert Seat.objects.get(table__number=1, position=1).player_id == players[1]
    assert Seat.objects.get(table__number=2, position=3).player_id == players[0]


def test_seats_cannot_be_swapped_once_a_game_is_recorded(client, referee):
    table = make_table(size=3)
    tournament = table.series.tournament
    tournament.referees.add(referee)
    play(table, entry())
    first, second = Seat.objects.filter(table=table)[:2]

    response = client.post(
        reverse("referee:swap", args=[tournament.slug, 1]),
        {"first": first.pk, "second": second.pk},
    )

    assert response.context["action_error"]["code"] == "series_started"
    assert Seat.objects.get(pk=first.pk).player_id == first.player_id


def test_a_seat_cannot_be_swapped_with_itself(client, referee):
    tournament = refereed(referee, players=4, size=4)
    seat = Seat.objects.first()

    response = client.post(
        reverse("referee:swap", args=[tournament.slug, 1]), {"first": seat.pk, "second": seat.pk}
    )

    assert response.context["action_error"]["code"] == "same_seat"


def test_the_series_page_links_every_list(client, referee):
    tournament = refereed(referee, players=8, size=4)

    response = client.get(reverse("referee:series", args=[tournament.slug, 1]))

    content = response.content.decode()
    for number in (1, 2):
        assert reverse("referee:list", args=[tournament.slug, 1, number]) in content


def test_the_referees_player_list_sorts_umlauts_as_their_letter(client, django_user_model):
    names = ["Uwe", "Ülrike", "Otto", "Ute"]
    tournament = make_tournament(players=[make_player(name) for name in names])
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament.referees.add(user)
    client.force_login(user)

    page = client.get(reverse("referee:tournament", args=[tournament.slug]))

    assert [row.player.name for row, _field in page.context["player_rows"]] == [
        "Otto",
        "Ülrike",
        "Ute",
        "Uwe",
    ]

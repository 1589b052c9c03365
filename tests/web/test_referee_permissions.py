"""Who may use the referee's pages: anonymous users log in, other referees get 403."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from skatliga.models import Change, Game, Registration, Season, Seat, Series, Team, Tournament
from tests.web.factories import entry, make_table, play
from tests.web.test_referee_settings import settings_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    table = make_table(size=4, rounds=1)
    play(table, entry(2, "grand", bid=18, matadors=1, won=True))
    return table


def urls(table):
    """Every referee URL of ``table``'s tournament, with the method and data it takes."""
    tournament = table.series.tournament
    slug, series, number = tournament.slug, table.series.number, table.number
    registration = tournament.registrations.first()
    seats = list(Seat.objects.filter(table=table))
    listing = [slug, series, number]
    row = {"number": "2", "declarer": "3", "game": "clubs", "matadors": "1", "bid": "18"}
    return [
        ("get", reverse("referee:tournament", args=[slug]), {}),
        ("post", reverse("referee:players-add", args=[slug]), {"roster": "Neu Spieler"}),
        ("get", reverse("referee:player-search", args=[slug]) + "?q=Spie", {}),
        (
            "post",
            reverse("referee:registration-remove", args=[slug, registration.pk]),
            {},
        ),
        ("post", reverse("referee:draw", args=[slug]), {}),
        ("get", reverse("referee:archive-download", args=[slug]), {}),
        ("get", reverse("referee:series", args=[slug, series]), {}),
        (
            "post",
            reverse("referee:swap", args=[slug, series]),
            {"first": seats[0].pk, "second": seats[1].pk},
        ),
        ("get", reverse("referee:list", args=listing), {}),
        ("post", reverse("referee:list", args=listing), {**row, "won": "won"}),
        ("post", reverse("referee:preview", args=listing), row),
        ("post", reverse("referee:close", args=listing), {}),
        ("post", reverse("referee:reopen", args=listing), {"reason": "x"}),
        ("post", reverse("referee:delete-last", args=listing), {"number": 1, "version": 1}),
    ]


def snapshot():
    return (
        Tournament.objects.count(),
        Registration.objects.count(),
        Series.objects.count(),
        list(Seat.objects.order_by("pk").values_list("player_id", flat=True)),
        list(Game.objects.order_by("pk").values_list("number", "version")),
        Change.objects.count(),
    )


def test_anonymous_users_are_sent_to_log_in_from_every_referee_url(client, table):
    before = snapshot()
    for method, url, data in urls(table):
        response = getattr(client, method)(url, data)

        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url
    assert snapshot() == before


@pytest.mark.parametrize(
    "name", ["referee:dashboard", "referee:tournament-create", "referee:archive-upload"]
)
def test_anonymous_users_are_sent_to_log_in_from_the_dashboard_pages(client, name):
    response = client.get(reverse(name))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_referee_of_another_tournament_gets_403_everywhere_and_writes_nothing(
    client, django_user_model, table
):
    other = make_table(size=3, rounds=1).series.tournament
    user = django_user_model.objects.create_user("bernd", password="pik-sieben")
    other.referees.add(user)
    client.force_login(user)
    before = snapshot()

    for method, url, data in urls(table):
        response = getattr(client, method)(url, data)

        assert response.status_code == 403, url
    assert snapshot() == before


def test_a_user_without_tournaments_cannot_create_one(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("gast", password="x-y-z-123"))

    response = client.post(
        reverse("referee:tournament-create"),
        {"name": "Heimlich", "date": "2026-11-21", "rules": "isko", "scoring": "seeger-fabian"},
    )

    assert response.status_code == 403
    assert not Tournament.objects.exists()


def test_the_referee_of_a_tournament_may_open_its_pages(client, django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)

    for method, url, _data in urls(table):
        if method == "get":
            assert client.get(url).status_code == 200, url


def test_a_superuser_may_open_every_tournament(client, django_user_model, table):
    client.force_login(django_user_model.objects.create_superuser("chef", password="grand-ouvert"))

    response = client.get(reverse("referee:list", args=[table.series.tournament.slug, 1, 1]))

    assert response.status_code == 200


def test_the_dashboard_lists_only_the_users_own_tournaments(client, django_user_model):
    mine = make_table(size=3).series.tournament
    make_table(size=3)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    mine.referees.add(user)
    client.force_login(user)

    response = client.get(reverse("referee:dashboard"))

    assert [t.pk for t in response.context["tournaments"]] == [mine.pk]
    assert response.context["may_create"] is False


def test_the_add_tournament_permission_lets_a_user_create_tournaments(client, django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)

    response = client.get(reverse("referee:dashboard"))

    assert response.context["may_create"] is True


def test_a_list_that_does_not_exist_is_404_for_its_referee_and_403_for_others(
    client, django_user_model, table
):
    slug = table.series.tournament.slug
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    client.force_login(user)
    missing = [
        reverse("referee:list", args=[slug, 1, 9]),
        reverse("referee:list", args=[slug, 7, 1]),
    ]

    assert [client.get(url).status_code for url in missing] == [403, 403]
    assert client.get(reverse("referee:list", args=["kein-turnier", 1, 1])).status_code == 404

    table.series.tournament.referees.add(user)

    assert [client.get(url).status_code for url in missing] == [404, 404]
    assert client.post(missing[0], {"number": "1"}).status_code == 404


# --- seasons: their league table is the league's ----------------------------------------------


@pytest.fixture
def creator(client, django_user_model, table):
    """A referee of ``table``'s tournament who may create tournaments, not change the league."""
    user = django_user_model.objects.create_user("carl", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return user


@pytest.fixture
def season():
    return Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)


def test_a_tournament_creator_cannot_put_a_new_tournament_into_a_season(client, creator, season):
    template = Tournament(
        name="Pokal", date=datetime.date(2026, 11, 21), rules="isko", scoring="seeger"
    )
    response = client.post(
        reverse("referee:tournament-create"), settings_data(template, season=season.pk)
    )

    assert response.status_code == 200 and "season" in response.context["form"].errors
    assert not Tournament.objects.filter(season=season).exists()


def test_a_tournament_creator_cannot_move_a_tournament_into_a_season(
    client, creator, season, table
):
    tournament = table.series.tournament
    url = reverse("referee:tournament-settings", args=[tournament.slug])
    response = client.post(url, settings_data(tournament, season=season.pk))

    assert "season" in response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.season is None


def test_a_tournament_creator_cannot_make_a_team_of_the_season(client, creator, season, table):
    Tournament.objects.filter(pk=table.series.tournament_id).update(season=season)
    url = reverse("referee:team-create", args=[table.series.tournament.slug])
    response = client.post(url, {"name": "Herz Dame", "club": ""})

    assert response.status_code == 403
    assert not Team.objects.exists()


def test_who_may_change_the_league_puts_tournaments_and_teams_into_a_season(
    client, creator, season, table
):
    creator.user_permissions.add(Permission.objects.get(codename="change_player"))
    client.force_login(creator)
    Tournament.objects.filter(pk=table.series.tournament_id).update(season=season)
    url = reverse("referee:team-create", args=[table.series.tournament.slug])
    client.post(url, {"name": "Herz Dame", "club": ""})

    assert Team.objects.filter(season=season).count() == 1

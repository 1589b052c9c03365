"""The league pages: clubs, players, merging, a CSV roster, seasons with teams and match days."""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from skatliga.models import Change, Club, Player, Season, Team, Tournament
from tests.web.factories import make_player


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_superuser("liga", password="x-y-z-123")
    client.force_login(user)
    return user


def test_the_league_pages_need_the_right_to_change_players(client, django_user_model):
    assert client.get(reverse("league:home")).status_code == 302
    client.force_login(django_user_model.objects.create_user("gast"))
    assert client.get(reverse("league:home")).status_code == 403
    assert client.post(reverse("league:players"), {"name": "X"}).status_code == 403
    assert not Player.objects.exists()


def test_a_club_and_a_season_are_created_and_renamed(client, operator):
    response = client.post(reverse("league:home"), {"club-name": "SC Altenburg"})
    assert response.status_code == 302
    club = Club.objects.get()
    response = client.post(reverse("league:home"), {"club-name": "sc altenburg"})
    assert response.status_code == 400
    assert response.context["club_form"].errors.as_data()["name"][0].code == "club_name_taken"
    client.post(reverse("league:club", args=[club.pk]), {"name": "SC Altenburg 1920"})
    assert Club.objects.get().name == "SC Altenburg 1920"

    response = client.post(
        reverse("league:home"), {"season-name": "Liga 2027", "season-year": "2027"}
    )
    assert response.url == reverse("league:season", args=["liga-2027"])


def test_a_player_is_created_edited_and_found(client, operator):
    data = {"name": "Anna Schmidt", "club": "SC Altenburg", "number": "0815", "category": "damen"}
    assert client.post(reverse("league:players"), data).status_code == 302
    anna = Player.objects.get()
    assert (anna.club.name, anna.category) == ("SC Altenburg", "damen")
    taken = client.post(reverse("league:players"), {"name": "Bernd", "number": "0815"})
    assert taken.status_code == 400
    assert taken.context["form"].errors.as_data()["number"][0].code == "player_number_taken"

    client.post(reverse("league:player", args=[anna.pk]), {**data, "category": "senioren"})
    assert Player.objects.get().category == "senioren"
    found = client.get(reverse("league:players"), {"q": "altenburg"})
    assert [p.name for p in found.context["page"]] == ["Anna Schmidt"]


def test_the_league_lists_a_player_by_initials_from_his_page(client, operator, published):
    bernd = Player.objects.get(name="b1")
    page = reverse("league:player", args=[bernd.pk])
    assert 'name="initials_only"' in client.get(page).content.decode()
    client.get(reverse("player", args=[bernd.pk]))  # the public page, cached with his name

    data = {"name": "Bernd Quaschnowitz", "initials_only": "on"}
    assert client.post(page, data).status_code == 302

    assert Player.objects.get(pk=bernd.pk).initials_only
    assert client.get(page).context["form"]["initials_only"].value() is True
    public = client.get(reverse("player", args=[bernd.pk])).content.decode()
    assert "<h1>B. Q.</h1>" in public and "Quaschnowitz" not in public
    client.post(page, {"name": "Bernd Quaschnowitz"})
    assert not Player.objects.get(pk=bernd.pk).initials_only


def test_a_merged_player_keeps_the_initials_either_record_asked_for(client, operator):
    keep = make_player("Anna Schmidt")
    make_player("A. Schmidt", number="0815")
    Player.objects.filter(number="0815").update(initials_only=True)
    client.post(reverse("league:player-merge", args=[keep.pk]), {"other": "0815"})
    assert Player.objects.get().initials_only


def test_a_duplicate_record_is_merged_from_the_player_page(client, operator):
    keep, drop = make_player("Anna Schmidt"), make_player("A. Schmidt", number="0815")
    tournament = Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 1, 1))
    tournament.registrations.create(player=drop)

    response = client.post(reverse("league:player-merge", args=[keep.pk]), {"other": "0815"})

    assert response.status_code == 302
    assert list(Player.objects.values_list("name", "number")) == [("Anna Schmidt", "0815")]
    assert tournament.registrations.get().player == keep
    assert Change.objects.get().action == Change.Action.PLAYERS_MERGED
    unknown = client.post(reverse("league:player-merge", args=[keep.pk]), {"other": "999"})
    assert unknown.status_code == 400
    assert unknown.context["merge_form"].errors.as_data()["other"][0].code == "player_unknown"
    same = client.post(reverse("league:player-merge", args=[keep.pk]), {"other": str(keep.pk)})
    assert same.context["merge_form"].errors.as_data()["__all__"][0].code == "merge_same_player"


def test_a_csv_file_is_imported_and_duplicates_are_listed(client, operator):
    make_player("Anna Schmidt", number="0815")
    upload = SimpleUploadedFile(
        "liste.csv", "Anna S.;SC Altenburg;0815\nBernd Łukasz;SC Altenburg;4711\n".encode()
    )

    response = client.post(reverse("league:roster-import"), {"file": upload})

    assert response.status_code == 200
    assert [p.name for p in response.context["report"].created] == ["Bernd Łukasz"]
    assert response.context["duplicates"] == [(1, "Anna S.", "Mitgliedsnummer schon vergeben")]
    empty = client.post(reverse("league:roster-import"), {"text": " "})
    assert empty.status_code == 400
    assert empty.context["form"].errors.as_data()["__all__"][0].code == "roster_csv_empty"


def test_a_season_gets_teams_and_a_match_day(client, operator):
    season = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    make_player("Anna", number="1")
    make_player("Bernd", number="2")
    url = reverse("league:season", args=["liga-2027"])

    response = client.post(
        url, {"team-name": "Altenburg I", "team-club": "SC Altenburg", "team-players": "Anna\n2"}
    )
    assert response.status_code == 302
    team = Team.objects.get()
    assert sorted(team.players.values_list("name", flat=True)) == ["Anna", "Bernd"]
    bad = client.post(url, {"team-name": "Leipzig", "team-players": "Niemand"})
    assert bad.status_code == 400
    assert bad.context["team_form"].errors.as_data()["players"][0].code == "players_unknown"

    response = client.post(
        url,
        {
            "day-name": "1. Spieltag",
            "day-date": "2027-01-09",
            "day-venue": "Altenburg",
            "day-match_day": "1",
        },
    )
    tournament = Tournament.objects.get()
    assert response.url == reverse("referee:tournament", args=[tournament.slug])
    assert (tournament.season, tournament.match_day) == (season, 1)
    assert list(tournament.referees.all()) == [operator]

    edit = reverse("league:team", args=["liga-2027", team.pk])
    client.post(edit, {"name": "Altenburg I", "club": "SC Altenburg", "players": "1"})
    assert list(team.players.values_list("name", flat=True)) == ["Anna"]
    assert client.get(url).status_code == 200

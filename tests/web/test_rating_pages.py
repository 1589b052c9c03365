"""Where the rating shows (docs/rating.md): the public rating list with its filters, pages
and export, a player's page with his rating, its chart and each tournament's change, the
metric the API and exports read, and a player's choice to keep his rating from the public.

Table 1 of ``small_season`` (tests/web/conftest.py) closed: b1 places 1, a1 2, d1 3, c1 4,
so their ratings order b1 > a1 > d1 > c1 (tests/web/test_rating.py works the figures out).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from skatliga import services
from skatliga.models import Club, League, Player, PlayerRating, Table
from skatliga.standings.metrics import METRICS
from skatliga.standings.rankings import RATINGS

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(small_season):
    services.close_table(Table.objects.get(number=1))
    return small_season


def names(rows):
    return [row.player for row in rows]


def test_the_rating_list_ranks_the_listed_players_highest_first(rated):
    rows = PlayerRating.objects.listed().rows()
    assert names(rows) == ["b1", "a1", "d1", "c1"]
    assert [row.rank for row in rows] == [1, 2, 3, 4]
    assert all(row.provisional and row.lists == 1 for row in rows)


def test_a_player_who_opts_out_leaves_the_list(rated):
    Player.objects.filter(name="a1").update(rating_listed=False)
    assert names(PlayerRating.objects.listed().rows()) == ["b1", "d1", "c1"]


def test_without_the_default_only_players_who_chose_are_listed(rated, settings):
    settings.RATING_LISTED_DEFAULT = False
    Player.objects.filter(name="d1").update(rating_listed=True)
    assert names(PlayerRating.objects.listed().rows()) == ["d1"]


def test_players_shown_by_initials_stay_so(rated):
    Player.objects.filter(name="b1").update(name="Bernd Berg", initials_only=True)
    assert names(PlayerRating.objects.listed().rows())[0] == "B. B."


def test_filters_by_club_league_and_category(rated):
    club = Club.objects.create(name="SC Altenburg")
    Player.objects.filter(name__in=["a1", "c1"]).update(club=club, category="damen")
    league = League.objects.create(name="Bundesliga", slug="bundesliga")
    rated.league = league
    rated.save()
    ratings = PlayerRating.objects.listed()
    assert names(ratings.in_club(club.pk).rows()) == ["a1", "c1"]
    assert names(ratings.in_category("damen").rows()) == ["a1", "c1"]
    assert names(ratings.in_league(league.pk).rows()) == ["b1", "a1", "d1", "c1"]
    other = League.objects.create(name="Landesliga", slug="landesliga")
    assert ratings.in_league(other.pk).rows() == []


def test_the_rating_metric_writes_one_decimal_and_nothing_without_a_rating():
    metric = METRICS["rating"]
    with translation.override("de"):
        assert metric.text({"rating": -1.26}) == "\u22121,3"
        assert metric.text({"rating": 12.04}) == "12,0"
    assert metric.text({"rating": None}) == ""
    assert RATINGS.columns == ("rank", "player", "club", "rating", "lists")


def test_the_rating_list_page_and_its_filters(client, rated):
    club = Club.objects.create(name="SC Altenburg")
    Player.objects.filter(name="c1").update(club=club)
    page = client.get(reverse("ratings"))
    assert page.status_code == 200
    body = page.content.decode()
    assert body.index(">b1<") < body.index(">a1<") < body.index(">d1<") < body.index(">c1<")
    assert "badge provisional" in body
    only = client.get(reverse("ratings"), {"club": club.pk}).content.decode()
    assert ">c1<" in only and ">b1<" not in only


def test_the_rating_list_exports_as_a_spreadsheet(client, rated):
    page = client.get(reverse("ratings"), {"export": "csv"})
    assert page.status_code == 200
    lines = page.content.decode("utf-8-sig").splitlines()
    assert lines[0].split(",")[:4] == ["Platz", "Spieler", "Verein", "Wertungszahl"]
    assert lines[1].split(",")[1] == "b1"
    assert len(lines) == 5


def test_a_players_page_shows_his_rating_its_chart_and_each_tournaments_change(client, rated):
    b1 = Player.objects.get(name="b1")
    body = client.get(reverse("player", args=[b1.pk])).content.decode()
    assert 'id="rating"' in body
    assert "<svg" in body and "<script" not in body.split('id="rating"')[1].split("</section>")[0]
    assert "1. Spieltag" in body and "rise" in body


def test_a_player_who_opts_out_shows_no_rating_on_his_page(client, rated):
    b1 = Player.objects.get(name="b1")
    b1.rating_listed = False
    b1.save()
    body = client.get(reverse("player", args=[b1.pk])).content.decode()
    assert 'id="rating"' not in body


def test_the_api_lists_the_ratings(client, rated):
    Player.objects.filter(name="a1").update(rating_listed=False)
    answer = client.get("/api/v1/ratings").json()
    assert [row["player"] for row in answer["items"]] == ["b1", "d1", "c1"]
    first = answer["items"][0]
    assert first["rank"] == 1 and first["provisional"] is True and first["lists"] == 1
    assert isinstance(first["rating"], float)


def test_the_api_gives_a_players_rating_history(client, rated):
    b1 = Player.objects.get(name="b1")
    answer = client.get(f"/api/v1/players/{b1.pk}/rating").json()
    assert answer["lists"] == 1 and answer["provisional"] is True
    assert [row["tournament"] for row in answer["tournaments"]] == ["spieltag-1"]
    Player.objects.filter(pk=b1.pk).update(rating_listed=False)
    assert client.get(f"/api/v1/players/{b1.pk}/rating").status_code == 404


def test_the_referee_sets_a_players_choice(rated):
    from skatliga.services import rosters

    a1 = Player.objects.get(name="a1")
    rosters.save_player(a1, name="a1", rating_listed=False)
    assert Player.objects.get(pk=a1.pk).rating_listed is False
    rosters.save_player(a1, name="a1")
    assert Player.objects.get(pk=a1.pk).rating_listed is None

"""Team match-point schemes of a season (docs/rules.md section 10.6), worked by hand.

Match day 1 is ``conftest.small_season`` (one series): B 241, A 133, C 38, D −74.
Match day 2 has two series, three 4-tables each (a_i b_i c_i d_i at table i, rounds 1). W(x):
x wins grand with 1 (70 card points) = 2 × 24 = 48, + 50 = 98. L(x): x loses grand with 1
(50 card points) = −96 − 50 = −146, each other player at the table + 30. Dealer of game 1 is
seat 1 (a), who sits out, so a1 declares game 2.

  MD2 S1: table 1 W(a1)                   A 98,   B 0,  C 0,  D 0
  MD2 S2: table 1 L(a1), table 2 W(d2)    A −146, B 30, C 30, D 30 + 98 = 128
  Spielpunkte: A 133 + 98 − 146 = 85, B 241 + 30 = 271, C 38 + 30 = 68, D −74 + 128 = 54

places (n−1 … 0 per series, level teams share their places):
  MD1: B 3:0, A 2:1, C 1:2, D 0:3
  MD2 S1: A 3:0; B, C, D share places 2–4: (2 + 1 + 0) / 3 = 1 each → 1:2
  MD2 S2: D 3:0; B, C share places 2–3: (2 + 1) / 2 = 1½ → 1½:1½; A 0:3
  B 3 + 1 + 1½ = 5½ : 3½, A 2 + 3 + 0 = 5 : 4, D 0 + 1 + 3 = 4 : 5, C 1 + 1 + 1½ = 3½ : 5½
series-points (Wertungspunkte: 2/1/0 per pair of teams in each series) = twice the above:
  B 11:7, A 10:8, D 8:10, C 7:11
pairings (2/1/0 per pair of teams on each match day, by the day's Spielpunkte):
  MD1: B 6:0, A 4:2, C 2:4, D 0:6
  MD2: A 98 − 146 = −48, B 30, C 30, D 128 → D 6:0, B and C level 3:3 (a win and a draw
       each: 2 + 1 = 3), A 0:6
  B 6 + 3 = 9 : 3, D 0 + 6 = 6 : 6, C 2 + 3 = 5 : 7, A 4 + 0 = 4 : 8
"""

from __future__ import annotations

import datetime
import io

import pypdf
import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import ListResult, Player, Registration, Season, Series, Team, Tournament
from skatliga.standings.queries import team_standings
from tests.web.factories import entry, make_table, play, shown_rows

PLACES = [
    (1, "Team B", "5½ : 3½", 271),
    (2, "Team A", "5 : 4", 85),
    (3, "Team D", "4 : 5", 54),
    (4, "Team C", "3½ : 5½", 68),
]
SERIES_POINTS = [
    (1, "Team B", "11 : 7", 271),
    (2, "Team A", "10 : 8", 85),
    (3, "Team D", "8 : 10", 54),
    (4, "Team C", "7 : 11", 68),
]
PAIRINGS = [
    (1, "Team B", "9 : 3", 271),
    (2, "Team D", "6 : 6", 54),
    (3, "Team C", "5 : 7", 68),
    (4, "Team A", "4 : 8", 85),
]


def won(seat):
    return entry(seat, "grand", bid=18, matadors=1, card_points=70, tricks=6)


def lost(seat):
    return entry(seat, "grand", bid=18, matadors=1, card_points=50, tricks=4)


@pytest.fixture
def season(small_season) -> Season:
    day = Tournament.objects.create(
        name="2. Spieltag",
        slug="spieltag-2",
        date=datetime.date(2026, 12, 5),
        season=small_season,
        match_day=2,
        rounds_per_series=1,
    )
    for team in Team.objects.filter(season=small_season):
        for player in team.players.all():
            Registration.objects.create(tournament=day, player=player, team=team)

    def table(series: int, number: int, *games) -> None:
        """The list of table ``number``: ``games``, the rest of its four passed in."""
        players = [Player.objects.get(name=f"{letter}{number}") for letter in "abcd"]
        table = make_table(day, series=series, players=players)
        play(table, *games, *[entry()] * (4 - len(games)))

    table(1, 1, entry(), won(1))
    table(1, 2)
    table(1, 3)
    table(2, 1, entry(), lost(1))
    table(2, 2, won(4))
    table(2, 3)
    return small_season


def rows(season, scheme):
    results = ListResult.objects.for_season(season)
    return [
        (r.rank, r.team, r.match_points_text, r.game_points)
        for r in team_standings(results, scheme)
    ]


def test_places_give_n_minus_one_to_zero_per_series(season):
    assert rows(season, Season.MatchPoints.PLACES) == PLACES
    assert [r.series for r in team_standings(ListResult.objects.for_season(season))] == [3] * 4


def test_series_points_are_two_per_pair_won_in_each_series(season):
    assert rows(season, Season.MatchPoints.SERIES_POINTS) == SERIES_POINTS


def test_pairings_compare_each_pair_of_teams_once_per_match_day(season):
    assert rows(season, Season.MatchPoints.PAIRINGS) == PAIRINGS
    # Three series played each, though the points are given per match day.
    table = team_standings(ListResult.objects.for_season(season), Season.MatchPoints.PAIRINGS)
    assert [r.series for r in table] == [3] * 4


def test_level_teams_share_a_pair_under_every_scheme(season):
    # Match day 2, series 2: B and C level on 30.
    series = season.tournaments.get(match_day=2).series.get(number=2)
    results = ListResult.objects.for_series(series)
    texts = {
        scheme: {r.team: r.match_points_text for r in team_standings(results, scheme)}
        for scheme in Season.MatchPoints.values
    }
    assert texts[Season.MatchPoints.PLACES]["Team B"] == "1½ : 1½"
    assert texts[Season.MatchPoints.SERIES_POINTS]["Team C"] == "3 : 3"
    assert texts[Season.MatchPoints.PAIRINGS]["Team B"] == "3 : 3"
    ranks = [(r.rank, r.team) for r in team_standings(results, Season.MatchPoints.PLACES)]
    # Level on match points and Spielpunkte: the same rank.
    assert ranks == [(1, "Team D"), (2, "Team B"), (2, "Team C"), (4, "Team A")]


def test_a_single_series_season_keeps_its_n_minus_one_table(small_season):
    # The existing numbers stay: B 3:0, A 2:1, C 1:2, D 0:3.
    assert [(t, mp) for _, t, mp, _ in rows(small_season, Season.MatchPoints.PLACES)] == [
        ("Team B", "3 : 0"),
        ("Team A", "2 : 1"),
        ("Team C", "1 : 2"),
        ("Team D", "0 : 3"),
    ]


def page_rows(response):
    return [
        (r.rank, r.team, r.match_points_text, r.game_points)
        for r in shown_rows(response.context["teams"])
    ]


@pytest.mark.parametrize(
    ("scheme", "expected", "heading", "words"),
    [
        ("places", PLACES, "Matchpunkte", "nach Plätzen je Serie"),
        ("series-points", SERIES_POINTS, "Wertungspunkte", "nach Wertungspunkten je Serie"),
        ("pairings", PAIRINGS, "Punkte 2/1/0", "2/1/0 je Paarung"),
    ],
)
def test_the_season_page_api_exports_and_pdf_use_the_seasons_scheme(
    client, season, scheme, expected, heading, words
):
    Season.objects.filter(pk=season.pk).update(match_points=scheme)
    url = reverse("season", args=[season.slug])

    page = client.get(url)
    assert page_rows(page) == expected
    assert words in page.content.decode()

    api = client.get(f"/api/v1/seasons/{season.slug}/teams").json()["items"]
    assert api == []  # the API shows published series only: publish them all first
    for series in Series.objects.filter(tournament__season=season):
        for table in series.tables.all():
            services.close_table(table)
        services.publish_series(series)
    api = client.get(f"/api/v1/seasons/{season.slug}/teams").json()["items"]
    assert [(r["rank"], r["team"], r["match_points_text"], r["game_points"]) for r in api] == (
        expected
    )
    assert {r["scheme"] for r in api} == {scheme}
    assert words in api[0]["scheme_text"]

    csv = client.get(url, {"table": "teams", "export": "csv"}).content.decode("utf-8-sig")
    lines = csv.splitlines()
    assert lines[0].split(",")[4] == heading
    # "5½ : 3½" on the page: the two numbers 5.5 and 3.5 in the spreadsheet.
    first, against = (part.replace("½", ".5") for part in expected[0][2].split(" : "))
    assert lines[1].split(",")[4:6] == [first, against]

    text = pdf_text(client.get(reverse("season-teams-pdf", args=[season.slug])))
    assert words in text
    assert f"{expected[0][1]} 3 {expected[0][2]}" in text  # team, series, match points


def test_a_match_day_page_uses_its_seasons_scheme(client, season):
    Season.objects.filter(pk=season.pk).update(match_points="pairings")

    page = client.get(reverse("standings", args=["spieltag-2"]))

    # Match day 2 alone: D 6:0, B and C 3:3, A 0:6.
    assert [(t, mp) for _, t, mp, _ in page_rows(page)] == [
        ("Team D", "6 : 0"),
        ("Team B", "3 : 3"),
        ("Team C", "3 : 3"),
        ("Team A", "0 : 6"),
    ]
    assert "2/1/0 je Paarung" in page.content.decode()


def pdf_text(response) -> str:
    assert response.status_code == 200
    pages = pypdf.PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)

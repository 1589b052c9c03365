"""Season ranking modes: sum, best N series, average per series played with a minimum.

Four players, five series of one 3-table each (Seeger-Fabian, rounds 1: three games; the
rest passed in). W(x): x wins grand with 1 (70 card points, 6 tricks) = 2 × 24 = 48, + 50
= 98. L(x): x loses grand with 1 (50 card points) = −96, − 50 = −146, the other two +40.

  S1 A B C: W(A)              A 98   B 0    C 0
  S2 A B D: W(D)              A 0    B 0    D 98
  S3 A C D: L(A)              A −146 C 40   D 40
  S4 B C D: W(B)              B 98   C 0    D 0
  S5 A B C: W(C) W(C) W(A)    A 98   B 0    C 196

  A: 98, 0, −146, 98 (4 series) sum 50, best 3 = 98 + 98 + 0 = 196, average 12½
  B: 0, 0, 98, 0 (4) sum 98, best 3 = 98, average 24½
  C: 0, 40, 0, 196 (4) sum 236, best 3 = 236, average 59
  D: 98, 40, 0 (3) sum 138, best 3 = 138, average 46

  sum:              C 236, D 138, B 98, A 50
  best 3 of 5:      C 236, A 196, D 138, B 98
  average, min 4:   C 59, B 24½, A 12½ (D has 3 series)
  average, min 3:   C 59, D 46, B 24½, A 12½
"""

from __future__ import annotations

import datetime
import io
from fractions import Fraction

import pypdf
import pytest
from django.urls import reverse

from skatliga.models import ListResult, Season, Tournament
from skatliga.standings.queries import season_player_standings
from tests.web.factories import entry, make_player, make_table, play, shown_rows


def won(seat):
    return entry(seat, "grand", bid=18, matadors=1, card_points=70, tricks=6)


def lost(seat):
    return entry(seat, "grand", bid=18, matadors=1, card_points=50, tricks=4)


@pytest.fixture
def season(db):
    season = Season.objects.create(name="Clubmeisterschaft", slug="club", year=2026)
    tournament = Tournament.objects.create(
        name="Abende",
        slug="abende",
        date=datetime.date(2026, 1, 9),
        season=season,
        rounds_per_series=1,
    )
    a, b, c, d = (make_player(name) for name in "ABCD")
    sheets = [
        ([a, b, c], [won(1), entry(), entry()]),
        ([a, b, d], [won(3), entry(), entry()]),
        ([a, c, d], [lost(1), entry(), entry()]),
        ([b, c, d], [won(1), entry(), entry()]),
        ([a, b, c], [won(3), won(3), won(1)]),
    ]
    for number, (players, games) in enumerate(sheets, start=1):
        play(make_table(tournament, series=number, players=players), *games)
    return season


def ranking(season):
    rows = season_player_standings(season, ListResult.objects.for_season(season))
    return [(r.rank, r.player, r.total, r.average) for r in rows]


def test_sum_of_all_series(season):
    assert [(rank, player, total) for rank, player, total, _ in ranking(season)] == [
        (1, "C", 236),
        (2, "D", 138),
        (3, "B", 98),
        (4, "A", 50),
    ]


def test_best_three_of_five(season):
    season.ranking, season.ranking_series = Season.Ranking.BEST, 3
    assert [(rank, player, total) for rank, player, total, _ in ranking(season)] == [
        (1, "C", 236),
        (2, "A", 196),
        (3, "D", 138),
        (4, "B", 98),
    ]


def test_average_with_a_minimum_of_four_series(season):
    season.ranking, season.ranking_series = Season.Ranking.AVERAGE, 4
    assert [(rank, player, average) for rank, player, _, average in ranking(season)] == [
        (1, "C", Fraction(59)),
        (2, "B", Fraction(49, 2)),
        (3, "A", Fraction(25, 2)),
    ]


def test_average_with_a_minimum_of_three_series(season):
    season.ranking, season.ranking_series = Season.Ranking.AVERAGE, 3
    assert [player for _, player, _, _ in ranking(season)] == ["C", "D", "B", "A"]
    assert ranking(season)[1][3] == Fraction(46)


def test_the_season_page_and_pdf_say_which_ranking(client, season):
    Season.objects.filter(pk=season.pk).update(ranking="best", ranking_series=3)
    page = client.get(reverse("season", args=["club"]))
    assert page.context["season"].ranking_text == "die besten 3 Serien zählen"
    assert [r.player for r in shown_rows(page.context["players"])] == ["C", "A", "D", "B"]
    assert "die besten 3 Serien zählen" in page.content.decode()
    pdf = client.get(reverse("season-results-pdf", args=["club"]))
    assert pdf.status_code == 200


def test_the_average_pdf_prints_the_average(client, season):
    Season.objects.filter(pk=season.pk).update(ranking="average", ranking_series=4)
    response = client.get(reverse("season-results-pdf", args=["club"]))
    text = " ".join(
        page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.content)).pages
    )
    assert "Durchschnitt je gespielter Serie, ab 4 Serien" in " ".join(text.split())
    cells = " ".join(text.split())
    # rank, player, series, games (won + lost), game points, won, lost, Bilanz (won − lost),
    # others lost, bonus, total, average
    assert "1. C 4 2 96 2 0 2 1 140 236 59,00" in cells
    assert "2. B 4 1 48 1 0 1 0 50 98 24,50" in cells
    assert "3. A 4 3 0 2 1 1 0 50 50 12,50" in cells
    assert " D " not in text.replace("\n", " ")


def test_the_ranking_mode_is_set_on_the_season_page(client, django_user_model, season):
    client.force_login(django_user_model.objects.create_superuser("liga"))
    data = {
        "season-name": "Clubmeisterschaft",
        "season-year": "2026",
        "season-ranking": "best",
        "season-ranking_series": "3",
    }
    assert client.post(reverse("league:season", args=["club"]), data).status_code == 302
    season.refresh_from_db()
    assert (season.ranking, season.ranking_series) == ("best", 3)
    bad = client.post(
        reverse("league:season", args=["club"]), {**data, "season-ranking_series": "0"}
    )
    assert bad.status_code == 400

"""Rankings per category (Damen, Senioren, Junioren) on the season and tournament pages, in
the exports and in the PDFs.

``conftest.small_season`` (one series): b1 128, c2 128, a1 103, b3 83, ..., d2 −104. Here
b1, c2 and d2 are Damen, a1 and b3 Senioren, nobody Junioren:

  Damen:    b1 128 and c2 128 share 1st (as overall), d2 −104 is 3rd
  Senioren: a1 103 1st (3rd overall), b3 83 2nd (4th overall)
"""

from __future__ import annotations

import io

import pypdf
import pytest
from django.urls import reverse

from skatliga.models import Category, ListResult, Player, Season
from tests.web.factories import shown_rows

DAMEN = [(1, "b1", 128), (1, "c2", 128), (3, "d2", -104)]
SENIOREN = [(1, "a1", 103), (2, "b3", 83)]


@pytest.fixture
def season(small_season) -> Season:
    Player.objects.filter(name__in=["b1", "c2", "d2"]).update(category=Category.WOMEN)
    Player.objects.filter(name__in=["a1", "b3"]).update(category=Category.SENIORS)
    return small_season


def ranks(rows):
    return [(r.rank, r.player, r.total) for r in rows]


def test_a_category_is_ranked_in_one_grouped_query(season, django_assert_num_queries):
    results = ListResult.objects.for_season(season)
    with django_assert_num_queries(1):
        damen = results.in_category(Category.WOMEN).standings()
    assert ranks(damen) == DAMEN
    assert ranks(results.in_category(Category.SENIORS).standings()) == SENIOREN
    assert results.in_category(Category.JUNIORS).standings() == []
    assert results.categories() == ["damen", "senioren"]


def sections(response):
    return {
        category: (name, ranks(shown_rows(table)))
        for category, name, table in response.context["categories"]
    }


def test_the_season_page_has_a_ranking_per_category_with_players(client, season):
    page = client.get(reverse("season", args=[season.slug]))

    assert sections(page) == {"damen": ("Damen", DAMEN), "senioren": ("Senioren", SENIOREN)}
    html = page.content.decode()
    assert "Einzelwertung Damen" in html and "Einzelwertung Junioren" not in html
    assert "wie sie jetzt beim Spieler eingetragen ist" in html


def test_the_tournament_page_has_them_too(client, season):
    page = client.get(reverse("standings", args=["spieltag-1"]))

    assert sections(page) == {"damen": ("Damen", DAMEN), "senioren": ("Senioren", SENIOREN)}


def test_a_season_ranked_by_average_ranks_each_category_so(client, season):
    Season.objects.filter(pk=season.pk).update(ranking="average", ranking_series=1)

    page = client.get(reverse("season", args=[season.slug]))

    # One series each: the average is the total.
    assert sections(page)["senioren"] == ("Senioren", SENIOREN)
    assert [str(row.average) for row in shown_rows(page.context["categories"][1][2])] == [
        "103",
        "83",
    ]


def test_no_category_no_section(client, small_season):
    page = client.get(reverse("season", args=[small_season.slug]))

    assert page.context["categories"] == []
    assert "wie sie jetzt beim Spieler eingetragen ist" not in page.content.decode()


def test_the_category_is_read_when_the_ranking_is(client, season):
    url = reverse("season", args=[season.slug])
    assert sections(client.get(url))["senioren"][1] == SENIOREN

    b3 = Player.objects.get(name="b3")
    b3.category = Category.JUNIORS
    b3.save()

    after = sections(client.get(url))
    assert after["senioren"][1] == [(1, "a1", 103)]
    assert after["junioren"] == ("Junioren", [(1, "b3", 83)])


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_a_category_exports_as_a_spreadsheet(client, season, kind):
    response = client.get(
        reverse("season", args=[season.slug]), {"category": "senioren", "export": kind}
    )

    assert response.status_code == 200
    assert f"liga-2026-senioren.{kind}" in response["Content-Disposition"]
    if kind == "csv":
        lines = response.content.decode("utf-8-sig").splitlines()
        assert [line.split(",")[:2] for line in lines[1:]] == [["1", "a1"], ["2", "b3"]]


def test_an_unknown_category_export_is_not_found(client, season):
    for slug, url in [
        ("liga-2026", reverse("season", args=["liga-2026"])),
        ("spieltag-1", reverse("standings", args=["spieltag-1"])),
    ]:
        response = client.get(url, {"category": "kinder", "export": "csv"})
        assert response.status_code == 404, slug
    tournament_csv = client.get(
        reverse("standings", args=["spieltag-1"]), {"category": "damen", "export": "csv"}
    )
    lines = tournament_csv.content.decode("utf-8-sig").splitlines()
    assert [line.split(",")[:2] for line in lines[1:]] == [["1", "b1"], ["1", "c2"], ["3", "d2"]]


def pdf_text(response) -> str:
    assert response.status_code == 200
    pages = pypdf.PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)


@pytest.mark.parametrize(
    "url",
    [
        reverse("season-results-pdf", args=["liga-2026"]),
        reverse("tournament-results-pdf", args=["spieltag-1"]),
    ],
)
def test_the_result_pdfs_have_a_section_per_category(client, season, url):
    text = pdf_text(client.get(url))

    damen = text.index("Einzelwertung Damen")
    senioren = text.index("Einzelwertung Senioren")
    assert damen < senioren
    # Senioren: 1. a1 … 103, 2. b3 … 83 (rank, name, then the figures).
    assert text.index("1. a1", senioren) < text.index("2. b3", senioren)
    assert "3. d2" in text[damen:senioren]
    assert "Junioren" not in text
    assert "wie sie jetzt beim Spieler eingetragen ist" in text

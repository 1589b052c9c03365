"""xlsx and ods exports of the standings beside CSV: the same rows, numbers as numbers, the
same neutralised text cells (``skatliga.export``), read back with openpyxl and tablib."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.core.cache import cache
from django.utils import timezone
from tablib import Dataset

from skatliga.export import excel_csv
from skatliga.models import Player, Series, Table

pytestmark = pytest.mark.django_db

HEADINGS = [
    "Platz",
    "Spieler",
    "Verein",
    "Spiele",
    "Spielpunkte",
    "gew.",
    "verl.",
    "Bilanz",
    "verl. andere",
    "Wertung",
    "Gesamt",
]
FORMULA = '=HYPERLINK("http://example.com","b1")'


def xlsx_rows(response):
    assert response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def test_the_season_xlsx_has_the_pages_rows_with_numbers_as_numbers(client, small_season):
    response = client.get("/seasons/liga-2026/", {"export": "xlsx"})
    assert 'filename="liga-2026.xlsx"' in response["Content-Disposition"]
    rows = xlsx_rows(response)
    assert rows[0] == HEADINGS
    assert len(rows) == 1 + 12
    # b1 (hand-computed, conftest.small_season): 48 game points, 1 won, 0 lost (Bilanz 1),
    # 1 lost by others, 50 + 30 = 80 bonus, 128; shares first place with c2. No club: an
    # empty cell.
    assert rows[1] == [1, "b1", None, 1, 48, 1, 0, 1, 1, 80, 128]
    assert rows[-1] == [12, "d2", None, 1, -54, 0, 1, -1, 0, -50, -104]
    assert all(isinstance(value, int) for value in rows[-1][3:])


def test_the_league_table_xlsx_of_the_season(client, small_season):
    rows = xlsx_rows(client.get("/seasons/liga-2026/", {"export": "xlsx", "table": "teams"}))
    assert rows[0] == [
        "Platz",
        "Mannschaft",
        "Verein",
        "Serien",
        "Matchpunkte",
        "Minuspunkte",
        "Spielpunkte",
    ]
    # "3 : 0" on the page: two numbers here.
    assert rows[1] == [1, "Team B", None, 1, 3, 0, 241]
    assert rows[4] == [4, "Team D", None, 1, 0, 3, -74]


@pytest.mark.parametrize("url", ["/tournaments/spieltag-1/", "/tournaments/spieltag-1/series/1/"])
def test_tournament_and_series_pages_export_players_and_teams(client, small_season, url):
    players = xlsx_rows(client.get(url, {"export": "xlsx"}))
    teams = xlsx_rows(client.get(url, {"export": "xlsx", "table": "teams"}))
    assert [row[1] for row in players[1:4]] == ["b1", "c2", "a1"]
    assert [row[1] for row in teams[1:]] == ["Team B", "Team A", "Team C", "Team D"]


def test_the_ods_has_the_same_rows_with_numbers_as_numbers(client, small_season):
    response = client.get("/tournaments/spieltag-1/", {"export": "ods"})
    assert response["Content-Type"].startswith("application/vnd.oasis.opendocument.spreadsheet")
    data = Dataset().load(response.content, format="ods")
    assert list(data.headers) == HEADINGS
    assert list(data[0]) == [1.0, "b1", "", 1.0, 48.0, 1.0, 0.0, 1.0, 1.0, 80.0, 128.0]
    assert all(isinstance(value, float) for value in data[0][3:])


def test_text_cells_are_neutralised_alike_in_csv_xlsx_and_ods(client, small_season):
    Player.objects.filter(name="b1").update(name=FORMULA)
    csv_rows = list(
        csv.reader(
            io.StringIO(client.get("/seasons/liga-2026/", {"export": "csv"}).content.decode())
        )
    )
    xlsx = xlsx_rows(client.get("/seasons/liga-2026/", {"export": "xlsx"}))
    ods = Dataset().load(client.get("/seasons/liga-2026/", {"export": "ods"}).content, format="ods")
    names = {csv_rows[1][1], xlsx[1][1], ods[0][1]}
    assert names == {"'" + FORMULA}
    # openpyxl stores it as text, not as a formula.
    sheet = openpyxl.load_workbook(
        io.BytesIO(client.get("/seasons/liga-2026/", {"export": "xlsx"}).content)
    ).active
    assert sheet["B2"].data_type == "s"


def test_the_standings_blocks_link_every_format(client, small_season):
    html = client.get("/seasons/liga-2026/").content.decode()
    for link in ("?export=xlsx", "?export=ods", "?table=teams&amp;export=xlsx"):
        assert link in html


def sheet_of(response):
    return openpyxl.load_workbook(io.BytesIO(response.content)).active


def test_a_sheet_is_titled_by_its_scope_and_marked_while_provisional(client, small_season):
    running = sheet_of(client.get("/tournaments/spieltag-1/", {"export": "xlsx"}))
    assert running.title == "1. Spieltag – vorläufig"
    assert running.parent.properties.title == "1. Spieltag · Liga 2026 · 21.11.2026 · vorläufig"
    assert running.oddHeader.center.text == running.parent.properties.title
    Table.objects.update(closed_at=timezone.now())
    Series.objects.update(published_at=timezone.now())
    cache.clear()  # update() passes the revision by
    final = sheet_of(client.get("/tournaments/spieltag-1/", {"export": "xlsx"}))
    assert final.title == "1. Spieltag"
    assert final.parent.properties.title == "1. Spieltag · Liga 2026 · 21.11.2026"
    season = sheet_of(client.get("/seasons/liga-2026/", {"export": "xlsx", "table": "teams"}))
    assert season.title == "Liga 2026"
    series = sheet_of(client.get("/tournaments/spieltag-1/series/1/", {"export": "xlsx"}))
    assert series.title == "1. Spieltag · Serie 1"
    ods = Dataset().load(client.get("/seasons/liga-2026/", {"export": "ods"}).content, "ods")
    assert ods.title == "Liga 2026"


def test_the_csv_for_a_german_excel_has_a_bom_semicolons_and_decimal_commas(client, small_season):
    response = client.get("/seasons/liga-2026/", {"export": "csv-excel", "table": "teams"})
    assert 'filename="liga-2026-teams-excel.csv"' in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbfPlatz;Mannschaft;Verein;")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[1] == ["1", "Team B", "", "1", "3", "0", "241"]
    halves = Dataset(["Team A", 1.5, 19], headers=["Mannschaft", "Matchpunkte", "Spielpunkte"])
    assert excel_csv(halves).splitlines()[1] == "Team A;1,5;19"
    plain = client.get("/seasons/liga-2026/", {"export": "csv", "table": "teams"}).content
    assert plain.startswith(b"Platz,Mannschaft,")


def test_the_standings_offer_the_excel_csv_next_to_the_plain_one(client, small_season):
    html = client.get("/seasons/liga-2026/").content.decode()
    assert '<a href="?export=csv">CSV</a>' in html
    assert '<a href="?export=csv-excel">CSV (Excel)</a>' in html

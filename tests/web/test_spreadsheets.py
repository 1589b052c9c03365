"""xlsx and ods exports of the standings beside CSV: the same rows, numbers as numbers, the
same neutralised text cells (``skatliga.export``), read back with openpyxl and tablib."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from tablib import Dataset

from skatliga.models import Player

pytestmark = pytest.mark.django_db

HEADINGS = [
    "Platz",
    "Spieler",
    "Verein",
    "Spiele",
    "Spielpunkte",
    "gew.",
    "verl.",
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
    # b1 (hand-computed, conftest.small_season): 48 game points, 1 won, 0 lost, 1 lost by
    # others, 50 + 30 = 80 bonus, 128; shares first place with c2. No club: an empty cell.
    assert rows[1] == [1, "b1", None, 1, 48, 1, 0, 1, 80, 128]
    assert rows[-1] == [12, "d2", None, 1, -54, 0, 1, 0, -50, -104]
    assert all(isinstance(value, int) for value in rows[-1][3:])


def test_the_league_table_xlsx_of_the_season(client, small_season):
    rows = xlsx_rows(client.get("/seasons/liga-2026/", {"export": "xlsx", "table": "teams"}))
    assert rows[0] == ["Platz", "Mannschaft", "Verein", "Serien", "Matchpunkte", "Spielpunkte"]
    assert rows[1] == [1, "Team B", None, 1, "3 : 0", 241]
    assert rows[4] == [4, "Team D", None, 1, "0 : 3", -74]


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
    assert list(data[0]) == [1.0, "b1", "", 1.0, 48.0, 1.0, 0.0, 1.0, 80.0, 128.0]
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

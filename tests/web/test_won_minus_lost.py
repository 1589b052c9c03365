"""The "Bilanz" column (games won minus games lost as declarer): one metric class
(``standings.metrics.WonMinusLost``), shown by every output a standing has: the page, the
spreadsheets, the PDF, the API, the hall and the command.

Figures by hand from ``conftest.small_season``: b1 declared one game and won it (1 − 0 = 1),
c1 and d2 one each and lost it (0 − 1 = −1), a3 none (0); b1 and c2 share first place.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.management import call_command
from django.utils import timezone
from pypdf import PdfReader

from skatliga.models import Series, StandingRow, Table
from skatliga.standings.metrics import METRICS, WonMinusLost
from skatliga.standings.rankings import PLAYERS

pytestmark = pytest.mark.django_db

KEY = "won_minus_lost"
BY_HAND = {"b1": 1, "c2": 1, "a1": 1, "b3": 1, "c1": -1, "d2": -1, "a3": 0, "d1": 0}


def test_it_is_games_won_less_games_lost():
    row = StandingRow(1, 7, "Anna", "", 2, 300, 5, 2, 3, 260, 560)
    assert WonMinusLost.key == KEY
    assert METRICS[KEY].value(row) == 3
    assert PLAYERS.columns.index(KEY) == PLAYERS.columns.index("lost") + 1


def cells(html: str, column: int) -> dict[str, str]:
    """Each body row's player (its link's text) and the text of its cell ``column``."""
    found = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        texts = [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        names = re.findall(r'<a href="/players/\d+/">([^<]+)</a>', row)
        if names and len(texts) > column:
            found[names[0]] = texts[column]
    return found


def test_the_page_shows_it_after_lost(client, small_season):
    html = client.get("/tournaments/spieltag-1/").content.decode()
    heads = re.findall(r"<th[^>]*>\s*(?:<a[^>]*>)?([^<]+?)\s*<", html)
    assert heads[heads.index("verl.") + 1] == "Bilanz"
    column = PLAYERS.columns.index(KEY)
    shown = cells(html.split('id="category')[0], column)
    assert {name: shown[name] for name in BY_HAND} == {
        name: str(value).replace("-", "\u2212") for name, value in BY_HAND.items()
    }


def test_the_spreadsheets_carry_it_as_a_number(client, small_season):
    text = client.get("/tournaments/spieltag-1/", {"export": "csv"}).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    at = rows[0].index("Bilanz")
    assert {row[1]: int(row[at]) for row in rows[1:] if row[1] in BY_HAND} == BY_HAND
    english = client.get("/en/tournaments/spieltag-1/", {"export": "csv"}).content.decode()
    assert "Balance" in english.splitlines()[0].split(",")


def test_the_pdf_prints_it(client, small_season):
    response = client.get("/tournaments/spieltag-1/results.pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Bilanz" in text
    assert "\u22121" in text


def test_the_api_answers_it_and_describes_it(client, small_season):
    Table.objects.update(closed_at=timezone.now())
    Series.objects.update(published_at=timezone.now())
    answer = client.get("/api/v1/tournaments/spieltag-1/standings").json()
    assert {
        row["player"]: row[KEY] for row in answer["items"] if row["player"] in BY_HAND
    } == BY_HAND
    document = client.get("/api/v1/openapi.json").json()
    field = document["components"]["schemas"]["StandingRowOut"]["properties"][KEY]
    assert field["type"] == "integer" and "minus" in field["description"]
    assert KEY in document["components"]["schemas"]["StandingRowOut"]["required"]


def test_the_hall_shows_it(client, small_season):
    html = client.get("/tournaments/spieltag-1/hall/").content.decode()
    assert ">Bilanz</th>" in html
    assert re.search(r">d2</td><td[^>]*></td>(?:<td[^>]*>[^<]*</td>){2}<td[^>]*>\u22121</td>", html)


def test_the_command_names_it_by_its_key(small_season, capsys):
    call_command("standings", "spieltag-1", "--format", "json")
    rows = json.loads(capsys.readouterr().out)
    assert {row["player"]: row[KEY] for row in rows if row["player"] in BY_HAND} == BY_HAND
    call_command("standings", "spieltag-1", "--format", "csv")
    assert KEY in capsys.readouterr().out.splitlines()[0].split(",")

"""What the list pages show of each row (``sheet.list_rows``, ``sheet.readonly_list_rows``):
the referee's list and the public one over played, passed, lost, overbid, doubled, Ramsch and
unplayed rows and a substitute's, in German and English."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring import Ramsch
from skatliga import services
from skatliga.entries import plain
from skatliga.models import Table
from skatliga.sheet import build_sheet
from tests.web.factories import entry, make_player, make_table, play

pytestmark = pytest.mark.django_db

LANGUAGES = pytest.mark.parametrize("language", ["de", "en"])
SCHWARZ_ANNOUNCED = {"schneider_announced": True, "schwarz_announced": True}
DOUBLED = {"kontra": True, "re": True, "supra": True}


class Rows(HTMLParser):
    """The body rows of a page's first table (the list): each row's attributes and its
    cells, each cell its attributes, its text and the tags inside it."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self.body = self.done = False
        self.cell: dict | None = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag == "tbody" and not self.done:
            self.body = True
        elif self.body and tag == "tr":
            self.rows.append({"attrs": attrs, "cells": []})
        elif self.body and tag in ("td", "th"):
            self.cell = {"attrs": attrs, "text": "", "inside": []}
            self.rows[-1]["cells"].append(self.cell)
        elif self.cell is not None:
            self.cell["inside"].append((tag, attrs))

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.body, self.done = False, True
        elif tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data


def rows_of(response) -> list[dict]:
    assert response.status_code == 200
    return Rows(response.content.decode()).rows


def texts(row) -> list[str]:
    return [cell["text"] for cell in row["cells"]]


def classes(cell) -> list[str]:
    return cell["attrs"].get("class", "").split()


def sheet_of(table):
    per_list = table.series.tournament.games_per_list(table.size)
    return build_sheet(table, list(table.games.order_by("number")), games_per_list=per_list)


@pytest.fixture
def doubled():
    """A 4-table under Kontra, Re, Supra and Resupra, its second player's name to escape: a
    hand game won, a pass, a null lost, an overbid grand, a Schneider announced, a grand
    with Kontra and Re, a null ouvert won, Schwarz announced and won, Resupra, Supra; the
    rest of the list unplayed."""
    players = [make_player(), make_player("<Kurt & Co>"), make_player(), make_player()]
    table = make_table(players=players, rule_options={"doublings": "kontra-re-supra-resupra"})
    play(
        table,
        entry(2, "clubs", matadors=2, card_points=70, tricks=7, hand=True),
        entry(),
        entry(4, "null", bid=23, won=False),
        entry(1, "grand", bid=50, matadors=1, card_points=70, tricks=7),
        entry(
            2, "hearts", matadors=-1, card_points=95, tricks=9, hand=True, schneider_announced=True
        ),
        entry(3, "grand", matadors=1, card_points=70, tricks=6, kontra=True, re=True),
        entry(4, "null", bid=23, ouvert=True, tricks=0),
        entry(1, "diamonds", 18, 1, card_points=120, tricks=10, hand=True, **SCHWARZ_ANNOUNCED),
        entry(2, "grand", matadors=1, card_points=70, tricks=6, **DOUBLED, resupra=True),
        entry(3, "spades", matadors=1, card_points=70, tricks=6, **DOUBLED),
    )
    return table


@pytest.fixture
def ramsch():
    """A 3-table with Ramsch: a Ramsch, a grand lost by the seat a substitute takes over."""
    table = make_table(size=3, rounds=2, scoring="classic", rule_options={"ramsch": True})
    play(
        table,
        services.GameEntry(ramsch=Ramsch((30, 62, 28), (3, 5, 2))),
        entry(2, "grand", bid=24, matadors=1, card_points=50, tricks=4),
    )
    services.appoint_substitute(table, 2, 2, player=make_player("Emil"))
    return table


@pytest.fixture
def referee(client, django_user_model, doubled, ramsch):
    user = django_user_model.objects.create_user("anna")
    for table in (doubled, ramsch):
        table.series.tournament.referees.add(user)
    client.force_login(user)
    return client


def list_url(table, name="referee:list"):
    return reverse(name, args=[table.series.tournament.slug, table.series.number, table.number])


@LANGUAGES
def test_the_public_list_shows_each_rows_declarer_game_entry_and_totals(
    client, language, doubled, ramsch
):
    for table in (doubled, ramsch):
        with translation.override(language):
            sheet = sheet_of(table)
            rows = rows_of(client.get(list_url(table, "table"), HTTP_ACCEPT_LANGUAGE=language))
            passed = translation.gettext("eingepasst")
        assert len(rows) == len(sheet.rows)
        for row, shown in zip(sheet.rows, rows, strict=True):
            number, declarer, game, value, *totals = shown["cells"]
            assert number["text"] == str(row.number)
            assert value["text"] == row.entry
            assert [cell["text"] for cell in totals] == [
                "" if cell.running is None else plain(cell.running) for cell in row.cells
            ]
            assert [("declarer" in classes(c), "sits-out" in classes(c)) for c in totals] == [
                (cell.declarer, cell.sits_out) for cell in row.cells
            ]
            assert ("empty" in shown["attrs"].get("class", "")) == (row.game is None)
            if row.game is None:
                assert (declarer["text"], game["text"]) == ("", "")
            elif row.game.passed:
                assert (declarer["text"], game["text"], game["inside"]) == (
                    "",
                    passed,
                    [("em", {})],
                )
            else:
                assert game["text"].endswith(row.breakdown)
                assert game["inside"] == [("small", {"class": "breakdown"})]
    doubled_rows = rows_of(client.get(list_url(doubled, "table")))
    assert texts(doubled_rows[0])[1] == "<Kurt & Co>"  # escaped on the page, read back here
    assert texts(rows_of(client.get(list_url(ramsch, "table")))[1])[1] == "Emil"


@LANGUAGES
def test_the_referees_list_shows_each_rows_cells(referee, language, doubled):
    with translation.override(language):
        sheet = sheet_of(doubled)
        words = {word: translation.gettext(word) for word in ("H", "Sw", "S", "O", "Rs", "Su")}
        words |= {word: translation.gettext(word) for word in ("Re", "K", "überreizt")}
        rows = rows_of(referee.get(list_url(doubled), HTTP_ACCEPT_LANGUAGE=language))
    assert len(rows) == len(sheet.rows)
    hand, passed, null_lost, overbid, schneider, kontra_re, ouvert, schwarz, resupra, supra = rows[
        :10
    ]
    # number, dealer, declarer, game, matadors, hand, announced, ouvert, doubled, bid, card
    # points, tricks, result, value, then the four players' running totals
    clubs = "Kreuz" if language == "de" else "Clubs"
    assert texts(hand)[2:14] == [
        *("2", clubs, "+2", words["H"], "", "", ""),
        *("18", "70", "7", "+", sheet.rows[0].entry),
    ]
    assert [classes(cell) for cell in hand["cells"][2:4]] == [["c-declarer"], ["c-game"]]
    assert hand["cells"][3]["inside"] == [
        ("span", {"class": "suit suit-clubs", "aria-hidden": "true"})
    ]
    assert hand["cells"][13]["attrs"]["title"] == sheet.rows[0].breakdown
    assert classes(hand["cells"][13]) == ["c-value", "won"]
    assert classes(passed["cells"][2]) == ["c-passed"]
    assert passed["cells"][2]["attrs"]["colspan"] == "11"
    assert "is-passed" in passed["attrs"]["class"]
    assert "is-lost" in null_lost["attrs"]["class"]
    assert classes(null_lost["cells"][13]) == ["c-value", "lost"]
    assert texts(null_lost)[12].startswith("−")
    assert overbid["cells"][13]["inside"] == [
        ("abbr", {"class": "overbid", "title": words["überreizt"]})
    ]
    assert (texts(schneider)[5], texts(schneider)[6]) == (words["H"], words["S"])
    assert texts(schwarz)[6] == words["Sw"]
    assert texts(ouvert)[7] == words["O"]
    doubled_cells = [texts(row)[8] for row in (kontra_re, resupra, supra, hand)]
    assert doubled_cells == [words["Re"], words["Rs"], words["Su"], ""]
    assert [("is-declarer" in classes(cell)) for cell in hand["cells"][14:]] == [
        False,
        True,
        False,
        False,
    ]
    assert [cell["attrs"]["data-seat"] for cell in hand["cells"][14:]] == ["1", "2", "3", "4"]


def test_the_referees_list_links_saved_rows_while_open_and_marks_the_row_edited(referee, doubled):
    rows = rows_of(referee.get(list_url(doubled) + "?game=3"))
    assert "is-editing" in rows[2]["attrs"]["class"]
    assert rows[2]["attrs"]["data-href"] == "?game=3#entry"
    link = rows[2]["cells"][0]["inside"]
    assert link == [("a", {"href": "?game=3#entry", "title": "Spiel 3 bearbeiten"})]
    assert "data-href" not in rows[10]["attrs"]  # not played yet
    assert "is-empty" in rows[10]["attrs"]["class"]
    assert texts(rows[10])[2:14] == [""] * 12
    Table.objects.filter(pk=doubled.pk).update(closed_at=timezone.now())
    closed = rows_of(referee.get(list_url(doubled)))
    assert ["data-href" in row["attrs"] for row in closed] == [False] * len(closed)
    assert closed[2]["cells"][0]["inside"] == []


def test_the_referees_list_spans_a_ramsch_and_has_no_doubling_column_without_kontra(
    referee, ramsch
):
    sheet = sheet_of(ramsch)
    rows = rows_of(referee.get(list_url(ramsch)))
    first, lost = rows[:2]
    assert classes(first["cells"][2]) == ["c-passed", "c-ramsch"]
    assert first["cells"][2]["attrs"]["colspan"] == "10"
    assert texts(first)[2:4] == [sheet.rows[0].breakdown, sheet.rows[0].entry]
    assert "is-lost" in first["attrs"]["class"]
    assert len(lost["cells"]) == 2 + 11 + 3  # no doubling column
    assert ["sits-out" in classes(cell) for cell in first["cells"][4:]] == [False] * 3

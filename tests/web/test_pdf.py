"""Printed output: score sheets and result lists, read back with pypdf.

The hand-made sheet is table 1 of the ``small_season`` fixture (see conftest): a 4-table,
rounds_per_series 1. 1 (seat 1 deals) b1 grand with 1 won = 48; 2 c1 hearts with 1 lost
= 20 → −40; 3 passed; 4 a1 null won = 23.
  a1 23 + 50 + 30 = 103 · b1 48 + 50 + 30 = 128 · c1 −40 − 50 = −90 · d1 0 + 30 = 30

The published 48-game sheet of docs/rules.md section 5 (game points, won/lost):
A +492 12/0, B +628 12/2, C +660 10/1, D −32 6/5 → 1332, 1308, 1320, 108.
"""

from __future__ import annotations

import datetime
import io
import re
from dataclasses import replace
from fractions import Fraction

import pypdf
import pytest

from skatliga import pdf, printing
from skatliga.models import Season, Series, Tournament
from skatliga.pdf.base import MINUS
from skatliga.standings.queries import TeamRow
from skatliga.standings.rankings import PLAYERS_WITH_LISTS, TEAMS
from tests.web.factories import entry, make_player, make_table, play

NAMES = ("Łukasz Čapek", "Anna Schmidt-Müller", "Jürgen Weiß", "Zofia Wróblewska")


def read(data: bytes) -> list[str]:
    """The text of each page."""
    assert data.startswith(b"%PDF-")
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def flat(text: str) -> str:
    """The text with every run of white space as one space (names may wrap)."""
    return " ".join(text.split())


def tokens(text: str) -> list[str]:
    return text.split()


def ranks(text: str) -> list[str]:
    """The rank column of a result list: each cell comes back as a line of its own."""
    return re.findall(r"^(\d+)\.$", text, re.MULTILINE)


def row(number: int, size: int = 4, **fields: object) -> pdf.SheetRow:
    dealer = (number - 1) % size + 1
    return pdf.SheetRow(number, dealer, (dealer,) if size == 4 else (), **fields)


def hand_made_sheet(**fields: object) -> pdf.SheetData:
    rows = (
        row(1, declarer=2, game="Grand", matadors="m1", levels=frozenset({"game"}), value=48,
            totals=(0, 48, 0, 0)),
        row(2, declarer=3, game="Herz", matadors="m1", levels=frozenset({"game"}), value=-20,
            totals=(0, 48, -40, 0)),
        row(3, game="eingepasst", totals=(0, 48, -40, 0)),
        row(4, declarer=1, game="Null", value=23, totals=(23, 48, -40, 0)),
    )  # fmt: skip
    sheet = pdf.SheetData(
        tournament="Offene Stadtmeisterschaft Altenburg",
        date=datetime.date(2026, 11, 21),
        venue="Skatheim Altenburg",
        series=2,
        table=3,
        rules="ISkO",
        system="Seeger-Fabian",
        players=tuple(pdf.SheetPlayer(name, "SC Altenburg") for name in NAMES),
        rows=rows,
        summary=(
            pdf.SheetSummary(23, 1, 0, 1, 80, 103),
            pdf.SheetSummary(48, 1, 0, 1, 80, 128),
            pdf.SheetSummary(-40, 0, 1, 0, -50, -90),
            pdf.SheetSummary(0, 0, 0, 1, 30, 30),
        ),
        won_bonus=50,
        others_bonus=30,
    )
    return replace(sheet, **fields)


def long_sheet(games: int = 48, size: int = 4) -> pdf.SheetData:
    """A list of ``games`` rows, every declarer winning a grand with 1 (48)."""
    rows = []
    totals = [0] * size
    for number in range(1, games + 1):
        declarer = number % size + 1
        totals[declarer - 1] += 48
        rows.append(
            row(number, size, declarer=declarer, game="Grand", matadors="m1",
                levels=frozenset({"game"}), value=48, totals=tuple(totals))
        )  # fmt: skip
    return hand_made_sheet(players=hand_made_sheet().players[:size], rows=tuple(rows))


# --- score sheets from hand-made rows --------------------------------------------------------


def test_score_sheet_prints_players_games_and_values():
    (text,) = read(pdf.score_sheets_pdf([hand_made_sheet()]))

    for name in NAMES:
        assert name in flat(text)
    words = tokens(text)
    assert {"Grand", "Herz", "eingepasst", "Null", "m1", "+48", f"{MINUS}20", "+23"} <= set(words)
    assert "Offene Stadtmeisterschaft Altenburg" in text
    assert "21. November 2026" in text


def test_score_sheet_prints_running_totals_of_the_declarer():
    words = tokens(read(pdf.score_sheets_pdf([hand_made_sheet()]))[0])

    assert "48" in words
    assert f"{MINUS}40" in words


def test_score_sheet_prints_the_summary_block():
    words = tokens(read(pdf.score_sheets_pdf([hand_made_sheet()]))[0])

    assert {"103", "128", f"{MINUS}90", "30"} <= set(words)
    assert {"+50", f"{MINUS}50", "+30"} <= set(words)
    assert "Gesamt" in words
    assert "Unterschriften" in words


def test_published_48_game_summary_prints_its_totals():
    summary = (
        pdf.SheetSummary(492, 12, 0, 8, 840, 1332),
        pdf.SheetSummary(628, 12, 2, 6, 680, 1308),
        pdf.SheetSummary(660, 10, 1, 7, 660, 1320),
        pdf.SheetSummary(-32, 6, 5, 3, 140, 108),
    )
    sheet = replace(long_sheet(), summary=summary)

    words = tokens(read(pdf.score_sheets_pdf([sheet]))[0])

    assert {"1332", "1308", "1320", "108"} <= set(words)
    assert {"+600", f"{MINUS}100", f"{MINUS}250", "+240", "+90"} <= set(words)


def test_blank_score_sheet_has_names_and_numbers_but_no_results():
    (text,) = read(pdf.score_sheets_pdf([hand_made_sheet()], blank=True))

    for name in NAMES:
        assert name in flat(text)
    words = tokens(text)
    assert "Vordruck" in text
    assert {"1", "2", "3", "4"} <= set(words)
    assert not {"Grand", "Herz", "eingepasst", "+48", "103", "128"} & set(words)


def test_completed_score_sheet_is_not_marked_blank():
    (text,) = read(pdf.score_sheets_pdf([hand_made_sheet()]))

    assert "Vordruck" not in text
    assert "Spielliste" in text


def test_provisional_list_says_so():
    (text,) = read(pdf.score_sheets_pdf([hand_made_sheet(provisional=True)]))

    assert "vorläufig" in text


@pytest.mark.parametrize(("games", "size"), [(48, 4), (36, 3)])
def test_full_series_list_fits_on_one_page(games, size):
    pages = read(pdf.score_sheets_pdf([long_sheet(games, size)]))

    assert len(pages) == 1
    assert str(games) in tokens(pages[0])


def test_longer_list_continues_on_the_next_page():
    pages = read(pdf.score_sheets_pdf([long_sheet(120)]))

    assert len(pages) == 2
    assert "120" in tokens(pages[1])


def test_score_sheets_print_one_list_per_page_with_page_numbers():
    sheets = [hand_made_sheet(table=number) for number in (1, 2, 3)]

    pages = read(pdf.score_sheets_pdf(sheets))

    assert len(pages) == 3
    for number, text in enumerate(pages, start=1):
        assert f"Seite {number} von 3" in text


def test_list_without_bonus_prints_no_bonus_points():
    sheet = hand_made_sheet(won_bonus=None, others_bonus=None)

    words = tokens(read(pdf.score_sheets_pdf([sheet]))[0])

    assert "+50" not in words
    assert "Gesamt" in words


# --- score sheets from the database ----------------------------------------------------------


@pytest.mark.django_db
def test_sheet_data_reads_one_list(small_season):
    table = Series.objects.get().tables.get(number=1)

    sheet = printing.sheet_data(table)

    assert [p.name for p in sheet.players] == ["a1", "b1", "c1", "d1"]
    assert (sheet.series, sheet.table, sheet.tournament) == (1, 1, "1. Spieltag")
    assert sheet.rows == (
        pdf.SheetRow(1, 1, (1,), 2, "Grand", "m1", frozenset({"game"}), 48, (0, 48, 0, 0)),
        pdf.SheetRow(2, 2, (2,), 3, "Herz", "m1", frozenset({"game"}), -40, (0, 48, -40, 0)),
        pdf.SheetRow(3, 3, (3,), None, "eingepasst", totals=(0, 48, -40, 0)),
        pdf.SheetRow(4, 4, (4,), 1, "Null", "", frozenset(), 23, (23, 48, -40, 0)),
    )
    assert [s.total for s in sheet.summary] == [103, 128, -90, 30]
    assert (sheet.won_bonus, sheet.others_bonus) == (50, 30)


@pytest.mark.django_db
def test_sheet_data_shows_levels_reached_and_overbid_games(small_season):
    table = Series.objects.get().tables.get(number=2)

    first, second = printing.sheet_data(table).rows[:2]

    assert (first.game, first.matadors, first.levels, first.value) == (
        "Kreuz",
        "m2",
        frozenset({"game", "schneider"}),
        48,
    )
    assert (second.game, second.matadors, second.value) == ("Karo überreizt", "o1", -54)


@pytest.mark.django_db
def test_sheet_data_has_a_row_for_every_game_of_the_series():
    table = make_table(size=3, rounds=2)
    play(table, entry(1, "grand", bid=18, matadors=1, card_points=70, tricks=6))

    sheet = printing.sheet_data(table)

    assert [r.number for r in sheet.rows] == [1, 2, 3, 4, 5, 6]
    assert [r.dealer for r in sheet.rows] == [1, 2, 3, 1, 2, 3]
    assert {r.sitting_out for r in sheet.rows} == {()}
    assert [r.game for r in sheet.rows[1:]] == [""] * 5
    assert sheet.provisional


@pytest.mark.django_db
def test_sheet_data_names_hand_and_ouvert_of_null_games():
    table = make_table(size=3, rounds=1)
    play(table, entry(1, "null", bid=59, tricks=0, hand=True, ouvert=True))

    first = printing.sheet_data(table).rows[0]

    assert (first.game, first.levels, first.value) == ("Null ouvert Hand", frozenset(), 59)


@pytest.mark.django_db
def test_series_sheets_read_every_table_in_four_queries(small_season, django_assert_num_queries):
    series = Series.objects.get()

    with django_assert_num_queries(4):
        sheets = printing.series_sheets(series)

    assert [s.table for s in sheets] == [1, 2, 3]


@pytest.mark.django_db
def test_series_sheets_equal_each_table_read_alone():
    four = make_table(size=4, rounds=1)
    three = make_table(four.series.tournament, size=3)
    play(four, entry(2, "grand", bid=18, matadors=1, card_points=70, tricks=6))
    play(three, entry(2, "hearts", bid=20, matadors=-2, card_points=40, tricks=3))

    sheets = printing.series_sheets(four.series)

    assert sheets == [printing.sheet_data(four), printing.sheet_data(three)]
    assert [len(s.players) for s in sheets] == [4, 3]
    # Sheets of different shapes in one document each keep their own grid and spans.
    pages = [re.sub(r"Seite \d von 4", "", page) for page in read(pdf.score_sheets_pdf(sheets * 2))]
    assert len(pages) == 4
    assert pages[:2] == pages[2:]
    assert pages[0] != pages[1]


@pytest.mark.django_db
def test_series_score_sheets_print_all_tables_in_one_pdf(small_season):
    pages = read(printing.series_score_sheets_pdf(Series.objects.get()))

    assert len(pages) == 3
    for number, text in enumerate(pages, start=1):
        assert {f"{letter}{number}" for letter in "abcd"} <= set(tokens(text))
        assert f"Seite {number} von 3" in text
    assert {"103", "128", f"{MINUS}90"} <= set(tokens(pages[0]))


@pytest.mark.django_db
def test_series_blank_sheets_print_names_without_results(small_season):
    pages = read(printing.series_score_sheets_pdf(Series.objects.get(), blank=True))

    assert len(pages) == 3
    assert {"a1", "b1", "c1", "d1"} <= set(tokens(pages[0]))
    assert not {"103", "128", "Grand"} & set(tokens(pages[0]))


@pytest.mark.django_db
def test_score_sheet_keeps_diacritics_from_the_database():
    players = [make_player(name) for name in NAMES]
    table = make_table(players=players, rounds=1)

    (text,) = read(printing.series_score_sheets_pdf(table.series))

    for name in NAMES:
        assert name in flat(text)


# --- result lists ----------------------------------------------------------------------------


def standing(rank: int, player: str, total: int, **fields: object) -> dict[str, object]:
    return {
        "rank": rank,
        "player": player,
        "club": "SC Altenburg",
        "lists": 2,
        "games": 12,
        "game_points": total - 100,
        "won": 10,
        "lost": 2,
        "others_lost": 5,
        "bonus": 100,
        "total": total,
        **fields,
    }


class Line:
    def __init__(self, **fields: object) -> None:
        self.__dict__.update(fields)


def test_result_list_prints_every_player_with_diacritics():
    rows = [Line(**standing(n, name, 1000 - n)) for n, name in enumerate(NAMES, start=1)]

    (text,) = read(pdf.standings_pdf("Ergebnisliste", "Serie 1", rows))

    for name in NAMES:
        assert name in flat(text)
    assert {"999", "998", "997", "996"} <= set(tokens(text))


def test_result_list_shows_shared_ranks():
    rows = [
        Line(**standing(1, "Anna", 1500)),
        Line(**standing(2, "Bernd", 1400)),
        Line(**standing(2, "Carla", 1400)),
        Line(**standing(4, "Dieter", 1300)),
    ]

    (text,) = read(pdf.standings_pdf("Ergebnisliste", "Serie 1", rows))

    assert ranks(text) == ["1", "2", "2", "4"]


def test_result_list_numbers_every_page_and_repeats_its_heading():
    rows = [Line(**standing(n, f"Spieler {n}", 5000 - n)) for n in range(1, 151)]

    pages = read(pdf.standings_pdf("Einzelwertung", "Liga 2026", rows, PLAYERS_WITH_LISTS))

    assert len(pages) > 2
    for number, text in enumerate(pages, start=1):
        assert f"Seite {number} von {len(pages)}" in text
        assert "Einzelwertung" in text
        assert "Spielpunkte" in text
    assert "Spieler 150" in pages[-1]


def test_result_list_prints_negative_numbers_with_a_minus():
    rows = [Line(**standing(1, "Anna", -32))]

    (text,) = read(pdf.standings_pdf("Ergebnisliste", "Serie 1", rows))

    assert f"{MINUS}32" in tokens(text)


def test_team_list_prints_match_points_and_game_points():
    rows = [
        TeamRow(1, 1, "Kreuz-Bube Łódź", "", 2, Fraction(6), Fraction(0), 4100),
        TeamRow(2, 2, "Grand Hand", "", 2, Fraction(5, 2), Fraction(7, 2), 3000),
        TeamRow(2, 3, "Null Ouvert", "", 2, Fraction(5, 2), Fraction(7, 2), 3000),
    ]

    (text,) = read(pdf.standings_pdf("Mannschaftswertung", "Liga 2026", rows, TEAMS))

    assert "Kreuz-Bube Łódź" in text
    assert "6 : 0" in text
    assert text.count("2½ : 3½") == 2
    assert "4100" in tokens(text)


def test_generic_result_list_takes_its_columns():
    columns = [
        pdf.Column("Name", lambda r: r["name"], 0.7, "LEFT"),
        pdf.Column("Punkte", lambda r: str(r["points"]), 0.3),
    ]

    (text,) = read(pdf.result_list_pdf("Liste", "Test", columns, [{"name": "Č", "points": 7}]))

    assert {"Name", "Punkte", "Č", "7"} <= set(tokens(text))


@pytest.mark.django_db
def test_series_result_list_from_the_database(small_season):
    (text,) = read(printing.series_result_pdf(Series.objects.get()))

    assert "Ergebnisliste Serie 1" in text
    assert {"a1", "b2", "c3", "d3", "128", f"{MINUS}104"} <= set(tokens(text))
    assert "Seite 1 von 1" in text


@pytest.mark.django_db
def test_tournament_result_list_from_the_database(small_season):
    (text,) = read(printing.tournament_result_pdf(Tournament.objects.get()))

    assert "1. Spieltag" in text
    first = re.search(r"^1\.\n(\S+)", text, re.MULTILINE)
    assert first is not None
    assert first.group(1) in {"b1", "c2"}


@pytest.mark.django_db
def test_season_result_list_from_the_database(small_season):
    (text,) = read(printing.season_result_pdf(Season.objects.get()))

    assert "Liga 2026" in text
    assert len(ranks(text)) == 12


@pytest.mark.django_db
def test_team_result_list_from_the_database(small_season):
    (text,) = read(printing.team_result_pdf(Season.objects.get()))

    assert "Mannschaftswertung" in text
    assert "3 : 0" in text
    assert {"241", "133", "38", f"{MINUS}74"} <= set(tokens(text))
    assert re.search(r"^1\.\nTeam B$", text, re.MULTILINE)

"""What the standings and printouts show, from the field test (issue 10).

The list used for the list entries (item 6), a 3-table with one round, Seeger-Fabian:
  1  seat 2 Grand mit 2, 78 Augen, 7 Stiche: won, 3 × 24 = 72 → entry +72
  2  seat 3 Herz mit 1, 50 Augen, 4 Stiche: lost, 2 × 10 = 20 → entry −2 × 20 = −40
  3  passed in → 0
Entries +72 − 40 + 0 = +32 = Spielpunkte 0 + 72 − 40.
"""

import csv
import io
import re

import pypdf
import pytest
from django.urls import reverse

from skatliga import entries, printing, services
from skatliga.models import Tournament
from skatliga.pdf.base import MINUS
from tests.web.factories import entry, make_player, make_table, play

pytestmark = pytest.mark.django_db


def pdf_text(data: bytes) -> str:
    assert data.startswith(b"%PDF-")
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    client.force_login(user)
    return user


@pytest.fixture
def lost_list(referee):
    table = make_table(size=3, rounds=1)
    table.series.tournament.referees.add(referee)
    play(
        table,
        entry(2, "grand", bid=18, matadors=2, card_points=78, tricks=7),
        entry(3, "hearts", bid=18, matadors=1, card_points=50, tricks=4),
        entry(),
    )
    return table


def args(table):
    return [table.series.tournament.slug, table.series.number, table.number]


# --- item 6: a list entry is shown one way, and the column adds up -------------------------


def test_the_list_entry_of_a_lost_game_counts_double():
    table = make_table(size=3, rounds=1)
    won, lost = play(
        table,
        entry(2, "grand", bid=18, matadors=2, card_points=78, tricks=7),
        entry(3, "hearts", bid=18, matadors=1, card_points=50, tricks=4),
    )
    rows = dict(printing.services.list_rows([won, lost], 3, table.series.tournament.rule_set))

    assert [entries.list_entry_text(rows[g]) for g in (won, lost)] == ["+72", f"{MINUS}40"]
    assert entries.list_entry_text(None) == "0"


def test_the_referees_page_shows_the_list_entries_and_their_sum(client, lost_list):
    html = client.get(reverse("referee:list", args=args(lost_list))).content.decode()

    values = re.findall(r'<td class="c-value[^"]*"[^>]*>([^<]*)', html)
    assert values[:3] == ["+72", f"{MINUS}40", "0"]
    assert re.search(r'id="entries-total"[^>]*>([^<]*)<', html)[1] == "+32"


def test_the_public_list_shows_the_same_entries_and_their_sum(client, lost_list):
    response = client.get(reverse("table", args=args(lost_list)))

    sheet = response.context["sheet"]
    assert [row.entry for row in sheet.rows] == ["+72", f"{MINUS}40", "0"]
    assert sheet.entries_total == "+32"
    assert sum(column.game_points for column in sheet.summary) == 32


def test_the_printed_list_shows_the_same_entries_and_their_sum(client, lost_list):
    data = printing.series_score_sheets_pdf(lost_list.series)

    text = pdf_text(data)
    assert "+72" in text
    assert f"{MINUS}40" in text and f"{MINUS}20" not in text
    assert "Spielpunkte +32" in text


def test_the_preview_gives_the_list_entry_of_the_row_typed(client, referee):
    table = make_table(size=3, rounds=1)
    table.series.tournament.referees.add(referee)
    data = {
        "number": "1",
        "declarer": "2",
        "game": "hearts",
        "matadors": "1",
        "bid": "18",
        "card_points": "50",
        "tricks": "4",
    }

    answer = client.post(reverse("referee:preview", args=args(table)), data).json()

    assert (answer["value"], answer["entry"], answer["entries_total"]) == (
        20,
        f"{MINUS}40",
        f"{MINUS}40",
    )


# --- item 17: formula-like cells are neutralised in every CSV ------------------------------


def test_csv_cells_that_look_like_formulas_are_neutralised_and_numbers_stay(client, lost_list):
    seat = lost_list.seats.get(position=3)
    seat.player.name = '=HYPERLINK("http://böse.example","klick")'
    seat.player.save()
    tournament = lost_list.series.tournament

    response = client.get(reverse("standings", args=[tournament.slug]), {"export": "csv"})

    rows = list(csv.reader(io.StringIO(response.content.decode())))
    by_name = {row[1]: row for row in rows[1:]}
    assert '\'=HYPERLINK("http://böse.example","klick")' in by_name
    assert not any(row[1].startswith("=") for row in rows[1:])
    # Declarer of the lost game: −40 − 50 = −90, a number, not text.
    assert by_name['\'=HYPERLINK("http://böse.example","klick")'][-1] == "-90"


def test_the_standings_command_neutralises_formula_cells_too(lost_list):
    from django.core.management import call_command

    seat = lost_list.seats.get(position=2)
    seat.player.name = "@SUM(A1:A9)"
    seat.player.save()
    out = io.StringIO()

    call_command("standings", lost_list.series.tournament.slug, "--format", "csv", stdout=out)

    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[1][:2] == ["1", "'@SUM(A1:A9)"]
    assert rows[1][-1] == str(72 + 50 + 40)


# --- item 9: logging in from the header returns to the page (or the dashboard) -------------


def header_login(client, path: str) -> str:
    html = client.get(path).content.decode()
    link = re.search(r'class="login-link" href="([^"]+)"', html)[1].replace("&amp;", "&")
    login = client.get(link)
    response = client.post(
        link,
        {"username": "berta", "password": "kreuz-bube-11", "next": login.context["next"]},
    )
    assert response.status_code == 302
    return response.url


def test_logging_in_from_a_page_returns_to_it_with_its_query(client, django_user_model):
    django_user_model.objects.create_user("berta", password="kreuz-bube-11")
    table = make_table(size=3, rounds=1)
    path = reverse("standings", args=[table.series.tournament.slug]) + "?p-sort=club"

    assert header_login(client, path) == path


def test_logging_in_from_the_home_page_lands_on_the_dashboard(client, django_user_model):
    django_user_model.objects.create_user("berta", password="kreuz-bube-11")

    assert header_login(client, reverse("home")) == reverse("referee:dashboard")


# --- item 15: no team result without teams; the chart's labels apart -----------------------


def test_the_team_pdf_of_a_tournament_without_teams_is_404(client, lost_list):
    response = client.get(reverse("tournament-teams-pdf", args=[lost_list.series.tournament.slug]))

    assert response.status_code == 404


def test_the_charts_first_value_starts_right_of_the_axis_labels():
    from skatliga.views.public.players import chart as _chart

    chart = _chart([("01.11. S1", -90), ("01.11. S2", 120), ("08.11. S1", 40)])

    assert [d["anchor"] for d in chart["dots"]] == ["start", "middle", "end"]
    assert chart["dots"][0]["x"] > chart["tick_x"]


# --- item 12: standings of a running tournament say they are provisional -------------------


def two_lists():
    """A tournament with two 3-tables of one round: table 1 complete and closed, 2 open."""
    first = make_table(size=3, rounds=1)
    tournament = first.series.tournament
    second = make_table(tournament, size=3)
    play(first, entry(), entry(), entry())
    services.close_table(first)
    return tournament, second


def test_a_running_tournaments_standings_say_provisional_with_the_lists_closed(client):
    tournament, _ = two_lists()

    html = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    series_html = client.get(reverse("series", args=[tournament.slug, 1])).content.decode()

    for page in (html, series_html):
        note = re.search(r'id="provisional"><strong>([^<]*)<', page)[1]
        assert note.startswith("vorläufig · Stand ")
        assert note.endswith("Uhr · 1 von 2 Listen abgeschlossen")


def test_a_running_tournaments_result_pdfs_say_provisional(client):
    tournament, _ = two_lists()

    for name, extra in (("tournament-results-pdf", []), ("series-results-pdf", [1])):
        data = client.get(reverse(name, args=[tournament.slug, *extra])).content
        text = pdf_text(data)
        assert "vorläufig · Stand" in text
        assert "1 von 2 Listen abgeschlossen" in text


def test_standings_are_final_once_every_list_is_closed(client):
    tournament, second = two_lists()
    play(second, entry(), entry(), entry())
    services.close_table(second)
    # Closed lists are final once the referee publishes their series (issue 14).
    services.publish_series(second.series)

    html = client.get(reverse("standings", args=[tournament.slug])).content.decode()
    data = client.get(reverse("tournament-results-pdf", args=[tournament.slug])).content

    assert "vorläufig" not in html
    assert "vorläufig" not in pdf_text(data)


# --- item 13: the sheets of a series not started are forms to fill in ----------------------


def test_sheets_printed_before_the_series_starts_are_blank_forms(client):
    table = make_table(size=4, rounds=1)
    tournament = table.series.tournament

    text = pdf_text(client.get(reverse("series-sheets-pdf", args=[tournament.slug, 1])).content)
    blank = pdf_text(
        client.get(reverse("series-sheets-pdf", args=[tournament.slug, 1]), {"blank": "1"}).content
    )

    assert "Spielliste · Vordruck" in text
    assert "vorläufig" not in text
    assert not re.search(r"Gesamt\s+0", text)
    assert text == blank


def test_a_started_list_still_prints_provisional(client):
    table = make_table(size=3, rounds=1)
    play(table, entry())

    text = pdf_text(printing.series_score_sheets_pdf(table.series))

    assert "Spielliste · vorläufig" in text


# --- item 14: names sort as a German reader expects ---------------------------------------


def test_standings_sort_clubs_and_names_in_german_dictionary_order(client):
    from skatliga.models import Club

    clubs = ["SV Altenburg", "Skatfreunde Köln", None, "skatclub Ödeme"]
    names = ["Zander", "Łukasz", "Bär", "Bart"]
    players = [
        make_player(name, club=Club.objects.create(name=club) if club else None)
        for name, club in zip(names, clubs, strict=True)
    ]
    table = make_table(players=players, rounds=1)
    slug = table.series.tournament.slug

    def order(**query):
        response = client.get(reverse("standings", args=[slug]), query)
        return [
            (row.record["row"].player, row.record["row"].club)
            for row in response.context["players"].rows
        ]

    assert [club for _, club in order(**{"p-sort": "club"})] == [
        "skatclub Ödeme",
        "Skatfreunde Köln",
        "SV Altenburg",
        "",
    ]
    assert [name for name, _ in order(**{"p-sort": "player"})] == [
        "Bär",
        "Bart",
        "Łukasz",
        "Zander",
    ]


# --- item 11: "Platz" is a rank in standings and a seat at a table -------------------------


def test_english_says_rank_in_standings_and_seat_at_a_table(client, lost_list):
    from django.utils import translation

    from skatliga.forms.players import SwapForm

    slug = lost_list.series.tournament.slug
    # The PDF speaks the tournament's language, the pages the visitor's.
    Tournament.objects.filter(slug=slug).update(language="en")
    with translation.override("en"):
        standings = client.get(reverse("standings", args=[slug])).content.decode()
        csv_head = client.get(reverse("standings", args=[slug]), {"export": "csv"}).content
        hall = client.get(reverse("hall", args=[slug])).content.decode()
        pdf = pdf_text(client.get(reverse("tournament-results-pdf", args=[slug])).content)
        seat_label = str(SwapForm(series=lost_list.series).fields["first"].label)

    assert csv_head.decode().splitlines()[0].startswith("Rank,Player,Club")
    for text in (standings, hall, pdf):
        assert "Rank" in text and "Seat" not in text
    assert seat_label == "Seat"


# --- item 16: every PDF survives the longest names the columns allow -------------------------


def test_every_pdf_prints_the_longest_allowed_names(client):
    from skatliga.models import Club, Season, Team

    season = Season.objects.create(name="S" * 120, slug="lange-saison", year=2026)
    club = Club.objects.create(name="V" * 120)
    players = [
        make_player(("Ł" if n % 2 else "W") * 120, club=club if n % 2 else None) for n in range(4)
    ]
    table = make_table(players=players, rounds=1, season=season, name="T" * 160, venue="O" * 160)
    tournament = table.series.tournament
    team = Team.objects.create(season=season, name="M" * 120, club=club)
    tournament.registrations.update(team=team)
    play(table, entry(2, "grand", bid=18, matadors=1, card_points=61, tricks=5))
    from skatliga import services as s

    s.recompute_results(table)

    urls = [
        reverse("series-sheets-pdf", args=[tournament.slug, 1]),
        reverse("series-sheets-pdf", args=[tournament.slug, 1]) + "?blank=1",
        reverse("series-results-pdf", args=[tournament.slug, 1]),
        reverse("tournament-results-pdf", args=[tournament.slug]),
        reverse("tournament-teams-pdf", args=[tournament.slug]),
        reverse("season-results-pdf", args=[season.slug]),
        reverse("season-teams-pdf", args=[season.slug]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert pdf_text(response.content)

"""A tournament's and a season's language: their printouts, their public pages' default, and
money in their currency; every printout fits in every language."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pypdf
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import pgettext

from skatliga import printing
from skatliga.models import Arrival, Game, Season, Series, Tournament
from skatliga.services import checkin, money
from skatliga.services import rosters as league
from skatliga.services import table_links as table_links
from tests.web.factories import make_table, make_tournament
from tests.web.test_pdf import flat, read

pytestmark = pytest.mark.django_db
PICTURES = Path(__file__).resolve().parents[2] / "docs" / "pdf"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# The result list's heading in each language.
RESULT_LIST = {
    "de": "Ergebnisliste",
    "en": "Results",
    "da": "Resultatliste",
    "sv": "Resultatlista",
    "nl": "Uitslagenlijst",
}


def test_a_visitor_who_chose_no_language_sees_a_tournament_in_its_own(client):
    make_tournament(slug="dsu", language="da")
    url = reverse("standings", args=["dsu"])

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == "/da" + url
    assert "Cookie" in response["Vary"]
    assert client.get(response["Location"]).status_code == 200


def test_a_visitor_who_chose_a_language_keeps_it(client):
    make_tournament(slug="dsu", language="da")
    url = reverse("standings", args=["dsu"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    assert client.get(url).status_code == 200
    with translation.override("en"):
        english = reverse("standings", args=["dsu"])
    assert client.get(english).status_code == 200


def test_a_german_tournament_stays_at_its_address(client):
    make_tournament(slug="isko")

    assert client.get(reverse("standings", args=["isko"])).status_code == 200


def test_a_table_link_without_a_language_opens_in_the_tournaments(client):
    table = make_table()
    Tournament.objects.update(language="da")
    link = table_links.renew_link(table)
    url = reverse("table:entry", args=[link.token])

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == "/da" + url
    assert "Cookie" in response["Vary"]
    assert response["Cache-Control"] == "private, no-store"
    # The device's page follows, in Danish.
    assert client.get(response["Location"])["Location"] == "/da" + url + "device/"


def test_a_table_code_leads_to_the_tournaments_language(client):
    table = make_table()
    Tournament.objects.update(language="sv")
    link = table_links.renew_link(table)

    typed = client.post(reverse("table:code"), {"code": link.code})
    opened = client.get(typed["Location"])

    assert typed["Location"] == reverse("table:entry", args=[link.token])
    assert opened["Location"] == "/sv" + typed["Location"]


def test_a_table_device_that_chose_a_language_keeps_it(client):
    table = make_table()
    Tournament.objects.update(language="da")
    link = table_links.renew_link(table)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    url = reverse("table:entry", args=[link.token])

    assert client.get(url)["Location"] == reverse("table:device", args=[link.token])


def test_a_check_in_link_without_a_language_opens_in_the_tournaments(client):
    tournament = make_tournament(slug="dsu", language="nl")
    url = reverse("checkin:page", args=[checkin.checkin_link(tournament).token])

    response = client.get(url)

    assert response["Location"] == "/nl" + url
    assert client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize(
    ("language", "unpaid", "unsigned", "ouvert"),
    [
        ("en", "unpaid", "not yet signed", "open"),
        ("da", "ubetalt", "mangler", "åben"),
        ("sv", "obetald", "saknas", "öppet"),
        ("nl", "onbetaald", "ontbreekt", "open"),
    ],
)
def test_open_has_a_word_for_each_of_its_meanings(language, unpaid, unsigned, ouvert):
    with translation.override(language):
        assert str(Arrival.Fee.OPEN.label) == unpaid
        assert pgettext("signature", "offen") == unsigned
        assert str(Game._meta.get_field("ouvert").verbose_name) == ouvert


def test_a_season_page_starts_in_the_seasons_language(client):
    league.save_season(None, name="Svenska ligan", year=2026, language="sv")
    url = reverse("season", args=["svenska-ligan"])

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == "/sv" + url
    assert Season.objects.get().language == "sv"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_result_list_prints_in_the_tournaments_language(small_season, language):
    Tournament.objects.update(language=language)
    series = Series.objects.get()

    with translation.override("de"):
        (text,) = read(printing.series_result_pdf(series))

    assert RESULT_LIST[language] in text


def test_the_settlement_is_in_the_purses_currency(client, django_user_model):
    tournament = make_tournament(slug="dsu", language="da")
    money.save_purse(
        tournament,
        entry_fee=Decimal("50"),
        lost_fee=Decimal("2"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("4"),
        prizes=[],
        currency="DKK",
    )
    user = django_user_model.objects.create_user("kasse")
    tournament.referees.add(user)
    client.force_login(user)

    page = client.get(reverse("referee:money", args=["dsu"])).content.decode()
    sheet = client.get(reverse("referee:money-pdf", args=["dsu"])).content
    text = flat(" ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(sheet)).pages))

    assert "0,00&nbsp;kr." in page
    assert "Afregning" in text and "0,00 kr." in text.replace("\xa0", " ")
    assert "21. november 2026" in text


def test_the_tournament_settings_set_its_language(client, django_user_model):
    from skatliga.forms.tournaments import TournamentForm

    tournament = make_tournament(slug="nl")
    form = TournamentForm(instance=tournament)

    assert [code for code, _ in form.fields["language"].choices] == LANGUAGES


# --- every printout fits in every language -----------------------------------------------


def overflowing_words(data: bytes) -> list[str]:
    """Words that run into the next one on their line (pdftotext's word boxes), or past the
    page's edge: text that did not fit its cell."""
    found = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=data, capture_output=True, check=True
    ).stdout
    root = ET.fromstring(found.decode().replace('xmlns="http://www.w3.org/1999/xhtml"', ""))
    bad = []
    for page in root.iter("page"):
        right_edge = float(page.get("width", 0))
        words = [
            (float(w.get("xMin")), float(w.get("xMax")), float(w.get("yMin")), w.text or "")
            for w in page.iter("word")
        ]
        words.sort()
        for i, (x0, x1, y0, text) in enumerate(words):
            if x1 > right_edge or x0 < 0:
                bad.append(text)
            for nx0, _nx1, ny0, ntext in words[i + 1 :]:
                if nx0 >= x1 - 0.5:
                    break
                if abs(ny0 - y0) < 1 and nx0 > x0:
                    bad.append(f"{text}|{ntext}")
    return bad


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext from poppler")
@pytest.mark.parametrize("language", LANGUAGES)
def test_score_sheets_and_result_lists_fit_in_every_language(small_season, language):
    Tournament.objects.update(language=language)
    series = Series.objects.get()
    printed = {
        "score sheets": printing.series_score_sheets_pdf(series),
        "blank sheets": printing.series_score_sheets_pdf(series, blank=True),
        "series result": printing.series_result_pdf(series),
        "tournament result": printing.tournament_result_pdf(Tournament.objects.get()),
        "team result": printing.team_result_pdf(Tournament.objects.get()),
        "seat list": printing.seat_list_pdf(series),
    }

    for name, data in printed.items():
        assert overflowing_words(data) == [], name
        assert "…" not in flat(" ".join(read(data))), name


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm from poppler")
def test_a_danish_score_sheet_as_a_picture(small_season, tmp_path):
    """docs/pdf/score-sheet-da.png with SKATLIGA_SCREENSHOTS=1, else a temporary file."""
    Tournament.objects.update(language="da")
    data = printing.series_score_sheets_pdf(Series.objects.get())
    folder = PICTURES if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "110",
            "-singlefile",
            "-f",
            "1",
            "-l",
            "1",
            "-",
            str(folder / "score-sheet-da"),
        ],
        input=data,
        check=True,
    )
    assert (folder / "score-sheet-da.png").read_bytes().startswith(b"\x89PNG")
    assert "Spilleliste" in read(data)[0]


def test_a_new_tournament_of_a_season_speaks_its_language():
    import datetime

    from skatliga import services

    season = league.save_season(None, name="DSU 2026", year=2026, language="da")
    tournament = services.create_tournament(
        name="Klubaften", date=datetime.date(2026, 11, 27), season=season
    )

    assert tournament.language == "da"


def test_the_home_page_greets_a_new_visitor_in_the_browsers_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="da-DK,da;q=0.9,en;q=0.8")

    assert response.status_code == 302
    assert response["Location"] == "/da/"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de").status_code == 200
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr").status_code == 200
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="da").status_code == 200
    # A visitor who chose Swedish finds it again at the bare address.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="da")["Location"] == "/sv/"


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm from poppler")
def test_a_completed_danish_dsu_sheet_as_a_picture(tmp_path):
    """docs/screenshots/sheet-da.png with SKATLIGA_SCREENSHOTS=1, else a temporary file: a
    DSU list of three rounds, every game entered, signed by all four, closed and published."""
    from skatliga import services
    from tests.web.factories import entry, make_player, make_table, play

    names = ("Jens Kristensen", "Mette Lund", "Søren Holm", "Karen Dahl")
    table = make_table(
        players=[make_player(name) for name in names],
        rounds=3,
        rules="dsu",
        language="da",
        name="Klubaften Odense",
    )
    play(
        table,
        # Seat n deals game n (and every fourth after it) and sits out.
        entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6),
        entry(3, "clubs", bid=18, matadors=-1, card_points=50, tricks=4),
        entry(4, "null", bid=23, won=True),
        entry(),
        entry(2, "spades", bid=22, matadors=2, card_points=95, tricks=9),
        entry(3, "hearts", bid=20, matadors=-2, card_points=62, tricks=5, hand=True),
        entry(4, "null", bid=46, won=False, ouvert=True),
        entry(1, "grand", bid=24, matadors=-2, card_points=88, tricks=8),
        entry(2, "diamonds", bid=18, matadors=1, card_points=58, tricks=5),
        entry(),
        entry(1, "clubs", bid=27, matadors=2, card_points=67, tricks=7),
        entry(2, "grand", bid=20, matadors=-1, card_points=120, tricks=10, hand=True),
    )
    for position in range(1, 5):
        services.sign_list(table, position, state=services.list_state(table))
    services.close_table(table)
    services.publish_series(table.series)
    data = printing.series_score_sheets_pdf(table.series)
    folder = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    folder = folder if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    subprocess.run(
        ["pdftoppm", "-r", "70", "-png", "-singlefile", "-", str(folder / "sheet-da")],
        input=data,
        check=True,
    )

    assert (folder / "sheet-da.png").read_bytes().startswith(b"\x89PNG")
    assert overflowing_words(data) == []
    text = read(data)[0]
    assert "Spilleliste" in text and "Underskrifter" in text and "foreløbig" not in text


def test_the_change_log_speaks_the_referees_language():
    from skatliga.change_log import describe_change
    from skatliga.models import Change
    from tests.web.factories import entry, play

    table = make_table()
    play(table, entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6))
    game = Change.objects.get(action=Change.Action.GAME_RECORDED)
    drawn = Change(
        action=Change.Action.TABLES_DRAWN,
        after={"tables": [[1, 2, 3]], "repeat_pairs": 0, "method": "standings"},
    )
    settings_changed = Change(
        action=Change.Action.TOURNAMENT_CHANGED,
        before={"rounds_per_series": 12},
        after={"rounds_per_series": 3},
    )

    with translation.override("da"):
        assert describe_change(game) == "2: Grand, med 1, reizning 18, 71 kortpoint, 6 stik"
        assert describe_change(drawn) == (
            "Bord 1: #1, #2, #3; gentagne bordmakkere: 0; Lodtrækning: seedet efter stillingen"
        )
        assert describe_change(settings_changed) == "Runder pr. serie: 12 → 3"

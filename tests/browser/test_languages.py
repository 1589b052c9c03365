"""A Danish, Swedish or Dutch evening meets no German word: the referee's list page, the table's
device and the standings, once in each language, on Debian's Chromium.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/table-phone-<language>.png and
standings-phone-<language>.png.
"""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from django.utils import translation

from skatliga.table import services as links
from tests.browser.test_entry import PASSWORD, SCREENSHOTS, four_table
from tests.web.factories import entry, play

pytestmark = pytest.mark.django_db(transaction=True)

GERMAN = {
    "Abmelden",
    "Alleinspieler",
    "Anmelden",
    "Augen",
    "Ergebnis",
    "Felder",
    "Gegenspieler",
    "Geber",
    "Gespeichert",
    "Hand",
    "gewonnen",
    "Punkte",
    "Reizwert",
    "Schneider",
    "Speichern",
    "Spiel",
    "Spiele",
    "Spieler",
    "Spielliste",
    "Spitzen",
    "Stiche",
    "Summe",
    "Tisch",
    "Turnier",
    "Turniere",
    "Turnierleitung",
    "Vorschau",
    "Wertung",
    "Wertungspunkte",
    "angesagt",
    "eingepasst",
    "mit",
    "ohne",
    "offen",
    "überreizt",
    "verloren",
}
"""German words of the referee's list, the table's page and the standings: none of them may
be shown in Danish, Swedish or Dutch (the names of players and tournament aside)."""
# The same word in the other language, or a Skat word its seed document keeps ("Serie",
# "Runde", "Liste" are Danish, Swedish or Dutch words too, and left out above):
KEPT = {
    "da": set(),
    "sv": {"Schneider", "Hand"},
    "nl": {"Schneider", "Hand", "gewonnen", "verloren", "überreizt"},  # the seed says so
}
NAMES = "Anna Schmidt|Bernd Łukasz|Carla Weiß|Dieter Krüger|Herbstturnier Altenburg|Deutsch"


def german_words(text: str, language: str) -> set[str]:
    words = set(re.findall(r"[\wÄÖÜäöüß]+", re.sub(NAMES, " ", text)))
    return (words & GERMAN) - KEPT.get(language, set())


def at(language: str, name: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


@pytest.mark.parametrize("language", ["da", "sv", "nl"])
def test_an_evening_in_danish_swedish_and_dutch(browser, live_server, django_user_model, language):
    table = four_table(2, django_user_model)
    tournament = table.series.tournament
    tournament.language = language
    tournament.save()
    play(table, entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6))
    screenshots = bool(os.environ.get("SKATLIGA_SCREENSHOTS"))

    # The referee's list page, after logging in on the site's page in the language.
    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale=language)
    page = desk.new_page()
    path = at(language, "referee:list", tournament.slug, 1, table.number)
    page.goto(live_server.url + path)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(path) + "$"))
    assert page.locator("html").get_attribute("lang") == language
    assert german_words(page.inner_text("body"), language) == set()
    # The same page in German shows the words the check looks for.
    page.goto(live_server.url + at("de", "referee:list", tournament.slug, 1, table.number))
    assert len(german_words(page.inner_text("body"), language)) > 10
    desk.close()

    # The table's phone, by the link on the printed card.
    links.ensure_links(table.series)
    token = links.active_links(table.series)[table.pk].token
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=language, has_touch=True, is_mobile=True
    )
    phone = device.new_page()
    phone.goto(live_server.url + at(language, "table:entry", token))
    phone.fill("#id_name", "1")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#tap-grid")
    assert german_words(phone.inner_text("body"), language) == set()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if screenshots:
        phone.screenshot(path=str(SCREENSHOTS / f"table-phone-{language}.png"), full_page=True)
    device.close()

    # The standings, for a visitor who chose no language: the tournament's own.
    visitor = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", device_scale_factor=1
    )
    standings = visitor.new_page()
    standings.goto(live_server.url + reverse("standings", args=[tournament.slug]))
    assert standings.url.endswith(at(language, "standings", tournament.slug))
    assert german_words(standings.inner_text("body"), language) == set()
    assert standings.evaluate("document.documentElement.scrollWidth") <= 390
    if screenshots:
        standings.screenshot(
            path=str(SCREENSHOTS / f"standings-phone-{language}.png"), full_page=True
        )
    visitor.close()

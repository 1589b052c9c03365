"""A Danish referee runs a DSU evening from the site's first page to the settlement, on
Debian's Chromium, and meets no German or English word on the way; the table's device and
the standings the same in Swedish and Dutch.

The words looked for are the site's own: every word of four letters or more in the German
msgids and the English msgstrs of locale/*.po, less the words the page's own catalog uses too
("Grand", "Kontra", "Status" …). A page's text is what a person sees or hears of it: the
body's visible text (``innerText``), the title, and the titles, labels and placeholders of
its elements; the language picker names each language in its own name and is left out.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/table-<language>.png (390 px) and
standings-<language>.png (1366 px).
"""

from __future__ import annotations

import ast
import os
import re
from functools import cache
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation

from skatliga.models import Game, Table, Tournament
from skatliga.table import services as links
from tests.browser.test_entry import PASSWORD, SCREENSHOTS, four_table
from tests.browser.test_table_offline import tap
from tests.web.factories import entry, play
from tests.web.test_pdf import read

pytestmark = pytest.mark.django_db(transaction=True)

LOCALE = Path(__file__).resolve().parents[2] / "locale"
WORD = re.compile(r"[^\W\d_]{4,}")
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{[^}]*\}\}|<[^>]*>|&\w+;")
ENTRY = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$')

PLAYERS = (
    "Jens Kristensen",
    "Mette Lund",
    "Søren Holm",
    "Karen Dahl",
    "Ole Bech",
    "Birthe Friis",
    "Niels Krogh",
    "Inger Skov",
)
NAMES = (
    *PLAYERS,
    "Anna Schmidt",
    "Bernd Łukasz",
    "Carla Weiß",
    "Dieter Krüger",
    "Herbstturnier Altenburg",
    "Klubaften Odense",
    "Klubhuset",
    "Bord 2 telefon",
    "anna",
)
HIDDEN_FROM_THE_CHECK = ".language-switch, .user-name"
"""The picker names each language in its own name; the user's name is his."""

TEXT = """(hidden) => {
  const hide = [...document.querySelectorAll(hidden)];
  hide.forEach((element) => { element.dataset.checkDisplay = element.style.display;
                              element.style.display = "none"; });
  const parts = [document.title, document.body.innerText];
  for (const element of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (element.closest(hidden)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      if (element.hasAttribute(name)) parts.push(element.getAttribute(name));
    }
  }
  hide.forEach((element) => { element.style.display = element.dataset.checkDisplay; });
  return parts.join("\\n");
}"""


def catalog(language: str) -> list[dict[str, str]]:
    """The entries of ``locale/<language>/LC_MESSAGES/django.po``: msgid and msgstr(s)."""
    entries: list[dict[str, str]] = []
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        current = ""
        for line in block.splitlines():
            if found := ENTRY.match(line):
                current = found.group(1)
                fields[current] = ast.literal_eval(found.group(2))
            elif line.startswith('"') and current:
                fields[current] += ast.literal_eval(line)
        if fields.get("msgid"):
            entries.append(fields)
    return entries


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(PLACEHOLDERS.sub(" ", text))}


def translated(entries: list[dict[str, str]]) -> str:
    return " ".join(
        value for entry in entries for key, value in entry.items() if key.startswith("msgstr")
    )


@cache
def foreign_words(language: str) -> frozenset[str]:
    """The site's German and English words that ``language``'s own catalog never uses."""
    english = catalog("en")
    source = words(" ".join(e["msgid"] + " " + e.get("msgid_plural", "") for e in english))
    source |= words(translated(english))
    return frozenset(source - words(translated(catalog(language))))


def leaks(page, language: str) -> list[str]:
    """The German and English words on ``page`` (names aside), each once, sorted."""
    text = page.evaluate(TEXT, HIDDEN_FROM_THE_CHECK)
    for name in NAMES:
        text = text.replace(name, " ")
    return sorted(words(text) & foreign_words(language))


def test_the_word_list_finds_german_and_english_and_spares_danish():
    assert {"spieler", "speichern", "player", "save", "tournament"} <= foreign_words("da")
    assert {"grand", "kontra", "spiller", "gemme", "turnering"}.isdisjoint(foreign_words("da"))
    assert {"spieler", "save"} <= foreign_words("sv")
    assert {"spieler", "save"} <= foreign_words("nl")


def test_a_danish_referee_runs_a_dsu_evening_without_a_german_or_english_word(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    user = django_user_model.objects.create_user("anna", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    found: dict[str, list[str]] = {}

    def check(page, where: str) -> None:
        page.wait_for_load_state()
        if leaked := leaks(page, "da"):
            found[where] = leaked

    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="da-DK")
    page = desk.new_page()

    # The first page, in the browser's language; the login page and the dashboard follow it.
    page.goto(live_server.url + "/")
    assert page.url == live_server.url + "/da/"
    check(page, "home")
    page.click(".login-link")
    check(page, "login")
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/da/referee/$"))
    check(page, "dashboard")
    # The same page in German shows the words the check looks for.
    page.goto(live_server.url + reverse("referee:dashboard"))
    assert len(leaks(page, "da")) > 5
    page.go_back()

    # A new tournament: DSU rules, in Danish, one round a series.
    page.click(f"a[href='{at('da', 'referee:tournament-create')}']")
    check(page, "new tournament")
    page.fill("#id_name", "Klubaften Odense")
    page.fill("#id_date", "2026-11-27")
    page.fill("#id_venue", "Klubhuset")
    page.select_option("#id_rules", "dsu")
    page.select_option("#id_language", "da")
    page.fill("#id_rounds_per_series", "1")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(re.compile(r"/da/referee/klubaften-odense[\w-]*/$"))
    tournament = Tournament.objects.get()
    assert (tournament.rules, tournament.language) == ("dsu", "da")
    check(page, "tournament")

    # Eight players pasted, two tables drawn.
    page.click("details.paste summary")
    page.fill("#id_roster", "\n".join(PLAYERS))
    page.click("details.paste button[type=submit]")
    page.wait_for_selector("#players .count:text('8')")
    check(page, "players")
    page.locator("#series form.inline-form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/series/1/$"))
    check(page, "series")
    series_url = page.url

    # Table 1 by the referee: a grand with 1, a lost clubs, a null, a passed-in game.
    page.click(f"a[href='{at('da', 'referee:list', tournament.slug, 1, 1)}']")
    check(page, "list")
    page.select_option("#id_declarer", "2")
    page.select_option("#id_game", "grand")
    page.fill("#id_matadors", "1")
    page.fill("#id_bid", "18")
    page.fill("#id_card_points", "71")
    page.fill("#id_tricks", "11")
    expect(page.locator("[data-error-for='tricks'] [data-code]")).to_be_visible()
    check(page, "list, a problem shown")
    page.fill("#id_tricks", "")
    # DSU: a grand is worth 20 (docs/rules.md section 8), with 1, game 2: 2 × 20 = 40.
    expect(page.locator("#entry-value")).to_have_text("+40")
    check(page, "list, a game typed")
    page.click("#entry-save")
    page.wait_for_selector("#row-1.is-saved")
    page.select_option("#id_declarer", "3")
    page.select_option("#id_game", "clubs")
    page.fill("#id_matadors", "-1")
    page.fill("#id_bid", "18")
    page.fill("#id_card_points", "50")
    page.click("#entry-save")
    page.wait_for_selector("#row-2.is-saved")
    page.select_option("#id_declarer", "4")
    page.select_option("#id_game", "null")
    page.fill("#id_bid", "23")
    page.select_option("#id_won", "won")
    page.click("#entry-save")
    page.wait_for_selector("#row-3.is-saved")
    page.click("#entry-passed")
    page.wait_for_selector("#row-4.is-passed")
    check(page, "list, four games")
    page.click("#close-form button[type=submit]")
    page.wait_for_load_state()
    check(page, "list, closed")

    # Table 2 by its phone, from the link as printed (without a language).
    table = Table.objects.get(series__tournament=tournament, number=2)
    token = links.active_links(table.series)[table.pk].token
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="da-DK", has_touch=True, is_mobile=True
    )
    phone = device.new_page()
    phone.goto(live_server.url + reverse("table:entry", args=[token]))
    assert phone.url.endswith(at("da", "table:device", token))
    check(phone, "table, device name")
    phone.fill("#id_name", "Bord 2 telefon")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#tap-grid")
    check(phone, "table")
    seated = [seat.player.name for seat in table.seats.order_by("position")]
    tap(phone, "declarer", seated[1])
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "med 1")
    tap(phone, "won", "vundet")
    expect(phone.locator("#entry-value")).to_have_text("+40")
    check(phone, "table, a game tapped")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")
    for number in (2, 3, 4):
        phone.click("#entry-passed")
        phone.wait_for_selector(f"#row-{number}.is-passed")
    check(phone, "table, four games")
    phone.click("#sign-list")
    check(phone, "signing")
    for position in (1, 2, 3, 4):
        phone.click(f'.sign-names a[data-seat="{position}"]')
        if position == 1:
            check(phone, "signing, one seat")
        phone.click("#sign-confirm")
        phone.wait_for_selector(f'.sign-names a[data-seat="{position}"].is-signed')
    check(phone, "signed")
    device.close()

    # The referee closes table 2, publishes, and opens the standings and the settlement.
    page.goto(series_url)
    page.click('[data-close-table="2"]')
    page.wait_for_load_state()
    check(page, "series, lists closed")
    page.click(f"form[action='{at('da', 'referee:publish', tournament.slug, 1)}'] button")
    page.wait_for_load_state()
    check(page, "series, published")
    page.goto(live_server.url + at("da", "referee:tournament", tournament.slug))
    page.click(f"a[href='{at('da', 'standings', tournament.slug)}']")
    check(page, "standings")
    page.goto(live_server.url + at("da", "referee:tournament", tournament.slug))
    page.click(f"a[href='{at('da', 'referee:money', tournament.slug)}']")
    check(page, "settlement, empty")
    page.select_option("#id_currency", "DKK")
    page.fill("#id_entry_fee", "50")
    page.fill("#id_lost_fee", "5")
    page.fill("#id_lost_fee_threshold", "3")
    page.fill("#id_lost_fee_later", "10")
    page.fill("#id_prizes", "60%\n40%")
    page.locator("#main form button[type=submit]").last.click()
    page.wait_for_load_state()
    check(page, "settlement")
    assert "DKK" in page.inner_text("main")

    assert Game.objects.filter(table__series__tournament=tournament).count() == 8

    # The other pages of the evening, the referee's and the public's.
    player = tournament.registrations.first().player
    for name, args in (
        ("referee:tournament-settings", [tournament.slug]),
        ("referee:changes", [tournament.slug]),
        ("referee:checkin", [tournament.slug]),
        ("series", [tournament.slug, 1]),
        ("table", [tournament.slug, 1, 2]),
        ("seats", [tournament.slug, 1]),
        ("hall", [tournament.slug]),
        ("player", [player.pk]),
    ):
        page.goto(live_server.url + at("da", name, *args))
        check(page, name)
    page.goto(live_server.url + "/da/ingen-side/")
    check(page, "not found")

    # Its printouts, asked for at their German addresses, speak Danish all the same.
    slug = tournament.slug
    printed = {
        "table cards": reverse("referee:table-cards", args=[slug, 1]),
        "blank sheets": reverse("referee:blank-sheets", args=[slug, 1]),
        "score sheets": reverse("series-sheets-pdf", args=[slug, 1]),
        "series results": reverse("series-results-pdf", args=[slug, 1]),
        "results": reverse("tournament-results-pdf", args=[slug]),
        "seats": reverse("seats-pdf", args=[slug, 1]),
        "settlement": reverse("referee:money-pdf", args=[slug]),
    }
    for name, path in printed.items():
        response = page.request.get(live_server.url + path)
        assert response.ok, name
        text = " ".join(read(response.body()))
        for person in NAMES:
            text = text.replace(person, " ")
        if leaked := sorted(words(text) & foreign_words("da")):
            found[f"{name} (PDF)"] = leaked
    assert found == {}


def at(language: str, name: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


@pytest.mark.parametrize(("language", "rules"), [("da", "dsu"), ("sv", "se"), ("nl", "nl")])
def test_the_table_and_the_standings_speak_danish_swedish_and_dutch(
    browser, live_server, django_user_model, language, rules
):
    table = four_table(2, django_user_model)
    Tournament.objects.update(language=language, rules=rules)
    play(table, entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6))
    play(table, entry(3, "hearts", bid=20, matadors=-2, card_points=40, tricks=3))
    screenshots = bool(os.environ.get("SKATLIGA_SCREENSHOTS"))
    found: dict[str, list[str]] = {}

    # The table's phone, from the printed link, in a browser that speaks the language.
    links.ensure_links(table.series)
    token = links.active_links(table.series)[table.pk].token
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=language, has_touch=True, is_mobile=True
    )
    phone = device.new_page()
    phone.goto(live_server.url + reverse("table:entry", args=[token]))
    phone.fill("#id_name", "1")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#tap-grid")
    assert phone.url.endswith(at(language, "table:entry", token))
    tap(phone, "declarer", "Dieter Krüger")
    tap(phone, "game", "Grand")
    found["table"] = leaks(phone, language)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if screenshots:
        phone.screenshot(path=str(SCREENSHOTS / f"table-{language}.png"), full_page=True)
    phone.goto(live_server.url + at(language, "table:sign", token))
    found["signing"] = leaks(phone, language)
    device.close()

    # The standings, for a visitor who chose no language: the tournament's own.
    visitor = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    standings = visitor.new_page()
    standings.goto(live_server.url + reverse("standings", args=[table.series.tournament.slug]))
    assert standings.url.endswith(at(language, "standings", table.series.tournament.slug))
    found["standings"] = leaks(standings, language)
    if screenshots:
        standings.screenshot(path=str(SCREENSHOTS / f"standings-{language}.png"), full_page=True)
    visitor.close()

    assert {where: words for where, words in found.items() if words} == {}

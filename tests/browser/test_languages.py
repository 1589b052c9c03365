"""No German or English word in Danish, Swedish or Dutch: the table's device and the
standings once in each language, the referee's list page too, on Debian's Chromium (the whole
Danish evening: test_evening_languages.py).

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
from django.urls import reverse
from django.utils import translation

from skatliga.models import Tournament
from skatliga.services import table_links as links
from tests.browser.test_entry import PASSWORD, SCREENSHOTS, four_table
from tests.browser.test_table_offline import tap
from tests.web.factories import entry, play

pytestmark = pytest.mark.django_db(transaction=True)

LOCALE = Path(__file__).resolve().parents[2] / "locale"
WORD = re.compile(r"[^\W\d_]{4,}")
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{[^}]*\}\}|<[^>]*>|&\w+;")
ENTRY = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$')

NAMES = (
    "Jens Kristensen",
    "Mette Lund",
    "Søren Holm",
    "Karen Dahl",
    "Ole Bech",
    "Birthe Friis",
    "Niels Krogh",
    "Inger Skov",
    "Anna Schmidt",
    "Bernd Łukasz",
    "Carla Weiß",
    "Dieter Krüger",
    "Herbstturnier Altenburg",
    "Klubaften Odense",
    "Klubhuset",
    "Bordtelefon2",
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


def at(language: str, name: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


@pytest.mark.parametrize(("language", "rules"), [("da", "dsu"), ("sv", "se"), ("nl", "nl")])
def test_an_evening_in_danish_swedish_and_dutch(
    browser, live_server, django_user_model, language, rules
):
    table = four_table(2, django_user_model)
    Tournament.objects.update(language=language, rules=rules)
    play(table, entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6))
    play(table, entry(3, "hearts", bid=20, matadors=-2, card_points=40, tricks=3))
    tournament = table.series.tournament
    screenshots = bool(os.environ.get("SKATLIGA_SCREENSHOTS"))
    found: dict[str, list[str]] = {}

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
    found["list"] = leaks(page, language)
    # The same page in German shows the words the check looks for.
    page.goto(live_server.url + at("de", "referee:list", tournament.slug, 1, table.number))
    assert len(leaks(page, language)) > 10
    desk.close()

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

    # The standings, for a visitor who chose no language: the tournament's own, on a phone
    # and on a laptop.
    visitor = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    standings = visitor.new_page()
    standings.goto(live_server.url + reverse("standings", args=[tournament.slug]))
    assert standings.url.endswith(at(language, "standings", tournament.slug))
    assert standings.evaluate("document.documentElement.scrollWidth") <= 390
    standings.set_viewport_size({"width": 1366, "height": 900})
    found["standings"] = leaks(standings, language)
    if screenshots:
        standings.screenshot(path=str(SCREENSHOTS / f"standings-{language}.png"), full_page=True)
    visitor.close()

    assert {where: words for where, words in found.items() if words} == {}

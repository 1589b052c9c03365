"""A game on one screen of a 390 × 844 phone (issue 26, item 2): a plain suit game, a grand
and a null, each by taps alone, without a scroll. Every control tapped and the save bar (the
value, "noch nicht gesendet", a conflict) lie inside the screen while the page stays at the
top. The taps per game are counted here and stated in docs/guide.md ("Tasten und Tipps pro
Spiel").

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/entry-phone-suit.png,
entry-phone-grand.png and entry-phone-null.png (the screen as the players see it before the
save), and entry-phone-offline.png (a game waiting on the device, counted in the save bar).

The list: a 4-table, seats 1 Anna, 2 Bernd, 3 Carla, 4 Dieter; seat n + 1 deals game n + 1
and sits out (seat 1 game 1, seat 2 game 2, seat 3 game 3).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga.services import table_links as table_services
from tests.browser.test_entry import four_table
from tests.browser.test_table_offline import open_device, scores

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTH, HEIGHT = 390, 844

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [
    # Game 1: Bernd, clubs with 1, won: (1 + 1) × 12 = 24.
    (
        "suit",
        [("declarer", "Bernd Łukasz"), ("game", "Kreuz"), ("matadors", "1"), ("won", "gewonnen")],
        24,
    ),
    # Game 2: Carla, grand hand with 2, won: (2 + 1 game + 1 hand) × 24 = 96.
    (
        "grand",
        [
            ("declarer", "Carla Weiß"),
            ("game", "Grand"),
            ("matadors", "2"),
            ("levels", "Hand"),
            ("won", "gewonnen"),
        ],
        96,
    ),
    # Game 3: Dieter, null, lost: 23, doubled on the list: −46.
    ("null", [("declarer", "Dieter Krüger"), ("game", "Null"), ("won", "verloren")], -46),
]


def on_screen(phone, locator) -> None:
    """The control lies inside the screen, and the page has not scrolled."""
    box = locator.bounding_box()
    assert box is not None, locator
    assert phone.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (locator, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (locator, box)


def tap_button(phone, group: str, name: str) -> None:
    button = phone.locator(
        f"#tap-grid .tap-{group} button", has_text=re.compile(f"^{re.escape(name)}$")
    )
    on_screen(phone, button)
    button.tap()


def test_each_kind_of_game_is_entered_on_one_phone_screen(
    browser, live_server, django_user_model, hall_line
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    device, phone = open_device(
        browser, live_server.url + reverse("table:entry", args=[link.token]), WIDTH, HEIGHT
    )
    screenshots = bool(os.environ.get("SKATLIGA_SCREENSHOTS"))
    taps = {}
    saved = []
    for number, (kind, buttons, list_score) in enumerate(GAMES, start=1):
        expect(phone.locator(".entry-title")).to_have_text(f"Spiel {number}")
        assert phone.evaluate("window.scrollY") == 0
        for group, name in buttons:
            tap_button(phone, group, name)
        expect(phone.locator("#entry-value")).to_have_text(f"{list_score:+}".replace("-", "−"))
        for part in ("#entry-value", "#entry-save", ".entry-foot"):
            on_screen(phone, phone.locator(part))
        if screenshots:
            phone.screenshot(path=str(SCREENSHOTS / f"entry-phone-{kind}.png"))
        phone.locator("#entry-save").tap()
        phone.wait_for_selector(f"#row-{number}.is-saved")
        taps[kind] = len(buttons) + 1
        saved.append((number, False, list_score))
        assert scores(table) == saved

    # Declarer, game, matadors, result, save; the grand's hand once more; the null no
    # matadors.
    assert taps == {"suit": 5, "grand": 6, "null": 4}

    # Offline, the save bar counts the games still on the device, on the same screen.
    hall_line.down()
    device.set_offline(True)
    # Game 4 (seat 4 deals): Anna, hearts with 1, lost.
    for group, name in [
        ("declarer", "Anna Schmidt"),
        ("game", "Herz"),
        ("matadors", "1"),
        ("won", "verloren"),
    ]:
        tap_button(phone, group, name)
    phone.locator("#entry-save").tap()
    expect(phone.locator("#queue-count")).to_have_text("Noch nicht gesendet: 1")
    expect(phone.locator(".entry-title")).to_have_text("Spiel 5")
    on_screen(phone, phone.locator("#queue-count"))
    if screenshots:
        phone.screenshot(path=str(SCREENSHOTS / "entry-phone-offline.png"))
    hall_line.up()
    device.set_offline(False)
    phone.wait_for_selector("#row-4.is-saved")
    expect(phone.locator("#queue-count")).to_be_hidden()
    device.close()

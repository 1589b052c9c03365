"""The referee enters a list in a real browser (Debian's Chromium driven by Playwright).

Run with SKATLIGA_SCREENSHOTS=1 to write the screenshots to docs/screenshots/entry-phone.png
and entry-laptop.png. Chromium comes from conftest.py (missing: skip, but fail under CI).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga.models import Game, ListResult, Table
from tests.web.factories import entry, make_player, make_table, play

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "kreuz-bube-11"

pytestmark = pytest.mark.django_db(transaction=True)


def four_table(rounds: int, django_user_model) -> Table:
    players = [
        make_player(name)
        for name in ("Anna Schmidt", "Bernd Łukasz", "Carla Weiß", "Dieter Krüger")
    ]
    table = make_table(players=players, rounds=rounds, name="Herbstturnier Altenburg")
    user = django_user_model.objects.create_user("anna", password=PASSWORD)
    table.series.tournament.referees.add(user)
    return table


def log_in(page, live_server, table: Table) -> None:
    tournament = table.series.tournament
    path = reverse("referee:list", args=[tournament.slug, 1, table.number])
    page.goto(live_server.url + path)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(path) + "$"))


def cell(page, number: int, seat: int):
    return page.locator(f"#row-{number} td.c-total[data-seat='{seat}']")


def summary(page, key: str, seat: int):
    return page.locator(f"td[data-summary='{key}'][data-seat='{seat}']")


def test_a_referee_enters_games_and_sees_the_totals_change_as_he_types(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = context.new_page()
    log_in(page, live_server, table)

    # Game 1 (seat 1 deals and sits out): seat 2 plays grand hand with 2, 78 card points.
    # The notation comes first (test_entry_notation.py); one Tab leads to the fields.
    expect(page.locator("#id_notation")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#id_declarer")).to_be_focused()
    page.keyboard.press("2")
    page.keyboard.press("Tab")
    page.keyboard.press("g")
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    page.click("#id_bid")
    page.keyboard.type("18")
    page.keyboard.press("Tab")
    page.keyboard.type("78")
    page.keyboard.press("Tab")
    page.keyboard.type("7")

    expect(page.locator("#entry-value")).to_have_text("+96")
    expect(page.locator("#entry-breakdown")).to_have_text("mit 2, Spiel 3, Hand 4 → 4 × 24 = 96")
    expect(cell(page, 1, 2)).to_have_text("96")
    expect(summary(page, "total", 2)).to_have_text("146")
    assert not Game.objects.exists()

    page.keyboard.press("Enter")
    page.wait_for_selector("#row-1.is-saved")
    assert Game.objects.get(number=1).value == 96

    # Game 2 (seat 2 deals): seat 3 overbids, diamonds without 1 after a bid of 22.
    expect(page.locator("#id_notation")).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("3")
    page.select_option("#id_game", "diamonds")
    page.fill("#id_matadors", "-1")
    page.fill("#id_bid", "22")
    page.select_option("#id_won", "won")

    expect(page.locator("#entry-value")).to_have_text("−54")
    expect(page.locator("#entry-verdict")).to_contain_text("überreizt")
    expect(cell(page, 2, 3)).to_have_text("−54")
    page.click("#entry-save")
    page.wait_for_selector("#row-2.is-saved")

    # Game 3: passed in, with the key p in the declarer field.
    page.focus("#id_declarer")
    page.keyboard.press("p")
    expect(page.locator("#entry-value")).to_have_text("0")
    page.keyboard.press("Enter")
    page.wait_for_selector("#row-3.is-passed")
    assert Game.objects.get(number=3).passed

    # A problem shows at its field, in words, before saving.
    page.focus("#id_declarer")
    page.keyboard.press("1")
    page.select_option("#id_game", "clubs")
    page.fill("#id_matadors", "0")
    expect(
        page.locator("[data-error-for='matadors'] [data-code='matadors_out_of_range']")
    ).to_be_visible()

    # Correct game 1: lost after all; every total after it follows as it is typed.
    page.click("#row-1 td.c-game")
    page.wait_for_url(re.compile(r"\?game=1"))
    expect(page.locator(".entry-title")).to_contain_text("1")
    page.fill("#id_card_points", "50")
    page.fill("#id_tricks", "4")

    expect(page.locator("#entry-value")).to_have_text("−192")
    expect(cell(page, 1, 2)).to_have_text("−192")
    expect(cell(page, 3, 2)).to_have_text("−192")
    expect(summary(page, "total", 2)).to_have_text(f"\u2212{192 + 50 - 30}")
    page.fill("#id_reason", "Augen falsch abgelesen")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/tables/1/$"))

    expect(cell(page, 3, 2)).to_have_text("−192")
    result = ListResult.objects.get(table=table, position=2)
    assert (result.game_points, result.total) == (-192, -192 - 50 + 30)
    expect(page.locator("#history tr[data-action='game_corrected']")).to_contain_text(
        "Augen falsch abgelesen"
    )
    context.close()


def test_the_entry_row_is_a_stacked_form_on_a_phone(browser, live_server, django_user_model):
    table = four_table(12, django_user_model)
    context = browser.new_context(viewport={"width": 375, "height": 812}, locale="de-DE")
    page = context.new_page()
    log_in(page, live_server, table)

    declarer = page.locator("#id_declarer").bounding_box()
    game = page.locator("#id_game").bounding_box()
    sheet = page.locator(".sheet-scroll")

    assert game["y"] > declarer["y"] + declarer["height"] - 1
    assert declarer["height"] >= 40
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert sheet.evaluate("e => e.scrollWidth > e.clientWidth")
    context.close()


def test_screenshots_of_the_entry_page(browser, live_server, django_user_model, tmp_path):
    """The entry page at laptop and phone width, with a typed row previewed.

    The pictures go to docs/screenshots/ with SKATLIGA_SCREENSHOTS=1, else to a temporary
    folder."""
    from playwright.sync_api import expect

    table = four_table(12, django_user_model)
    play(
        table,
        entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6),
        entry(1, "hearts", bid=20, matadors=-1, won=True),
        entry(),
        entry(3, "null", bid=23, tricks=0),
        entry(4, "clubs", bid=24, matadors=2, hand=True, won=True, schneider=True),
        entry(1, "spades", bid=22, matadors=1, card_points=58, tricks=5),
        entry(2, "diamonds", bid=27, matadors=-1, won=True),
        entry(3, "grand", bid=48, matadors=2, card_points=95, tricks=9),
        entry(4, "hearts", bid=18, matadors=1, card_points=64, tricks=6),
        entry(1, "grand", bid=23, matadors=-2, card_points=40, tricks=3),
        entry(2, "clubs", bid=18, matadors=1, card_points=88, tricks=8),
        entry(),
        entry(4, "null", bid=35, hand=True, tricks=1),
        entry(1, "spades", bid=33, matadors=2, card_points=70, tricks=6),
        entry(2, "hearts", bid=30, matadors=-2, card_points=61, tricks=5),
        entry(3, "diamonds", bid=18, matadors=1, card_points=94, tricks=9),
        entry(3, "grand", bid=20, matadors=1, card_points=65, tricks=6),
    )
    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    for name, viewport in (
        ("entry-laptop.png", {"width": 1366, "height": 900}),
        ("entry-phone.png", {"width": 390, "height": 844}),
    ):
        context = browser.new_context(viewport=viewport, locale="de-DE", device_scale_factor=1)
        page = context.new_page()
        log_in(page, live_server, table)
        page.focus("#id_declarer")
        page.keyboard.press("3")
        page.select_option("#id_game", "grand")
        page.fill("#id_matadors", "2")
        page.check("#id_hand")
        page.fill("#id_bid", "24")
        page.fill("#id_card_points", "78")
        page.fill("#id_tricks", "7")
        expect(page.locator("#entry-value")).to_have_text("+96")
        page.focus("#id_tricks")
        page.screenshot(path=str(folder / name))
        context.close()
        assert (folder / name).read_bytes().startswith(b"\x89PNG")

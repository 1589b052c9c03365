"""The referee's one-line notation in a real browser (issue 26, item 3): typed in one field,
read by the server's parser through the live preview, the fields next to it filled in, saved
with Enter. The keystrokes per plain game are counted here and stated in docs/guide.md
("Tasten und Tipps pro Spiel").

The list: a 4-table, seats 1 Anna, 2 Bernd, 3 Carla, 4 Dieter; seat 1 deals game 1 and sits
out. Game 1: Bernd, clubs with 1, 61 card points: (1 + 1) × 12 = 24, won.
"""

from __future__ import annotations

import pytest

from skatliga.models import Game
from tests.browser.test_entry import four_table
from tests.browser.test_entry_keyboard import open_list

pytestmark = pytest.mark.django_db(transaction=True)

PLAIN_GAME_KEYS = [*"2k1 61", "Enter"]
"""A plain suit game by notation: seat, game letter, matadors, a space, card points, Enter."""


def test_a_plain_game_takes_seven_keystrokes_by_notation(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    expect(page.locator("#id_notation")).to_be_focused()
    typed = PLAIN_GAME_KEYS[:-1]
    for key in typed:
        page.keyboard.press(key)
    # The server's reading fills the fields and shows the value before the save.
    expect(page.locator("#entry-value")).to_have_text("+24")
    expect(page.locator("#id_game")).to_have_value("clubs")
    expect(page.locator("#id_declarer")).to_have_value("2")
    expect(page.locator("#id_matadors")).to_have_value("1")
    expect(page.locator("#id_card_points")).to_have_value("61")
    page.keyboard.press(PLAIN_GAME_KEYS[-1])
    page.wait_for_selector("#row-1.is-saved")

    assert len(PLAIN_GAME_KEYS) == 7 <= 9
    game = Game.objects.get(table=table, number=1)
    assert (game.declarer, game.game, game.matadors, game.card_points, game.list_score) == (
        2,
        "clubs",
        1,
        61,
        24,
    )
    # The next row starts at the notation again.
    expect(page.locator("#id_notation")).to_be_focused()
    expect(page.locator("#id_notation")).to_have_value("")
    context.close()


def test_enter_right_after_the_notation_saves_what_the_server_reads(
    browser, live_server, django_user_model
):
    """No wait for the preview: the save reads the notation itself."""
    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.route("**/preview/", lambda route: route.abort())
    page.keyboard.type("3g2h 78")
    page.keyboard.press("Enter")
    page.wait_for_selector("#row-1.is-saved")

    # Carla, grand hand with 2: (2 + 1 + 1) × 24 = 96.
    assert Game.objects.get(table=table, number=1).list_score == 96
    context.close()


def test_a_wrong_notation_says_so_and_loses_nothing(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.keyboard.type("2k1 61")
    expect(page.locator("#entry-value")).to_have_text("+24")
    # A typo: x is no game. The error names it; the fields keep what was read before.
    page.keyboard.press("Home")
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.type("2x")
    error = page.locator("[data-error-for='notation'] [data-code='notation_invalid']")
    expect(error).to_contain_text("Kurzeingabe nicht verstanden bei „x“")
    expect(page.locator("#id_game")).to_have_value("clubs")
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    expect(page.locator("#entry-errors")).to_contain_text("Kurzeingabe nicht verstanden")
    expect(page.locator("#id_notation")).to_have_value("2x1 61")
    expect(page.locator("#id_notation")).to_be_focused()
    assert not Game.objects.exists()
    context.close()


def test_a_field_changed_by_hand_takes_over_from_the_notation(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.keyboard.type("2k1 61")
    expect(page.locator("#entry-value")).to_have_text("+24")
    # Hand, ticked in its field after all: (1 + 1 game + 1 hand) × 12 = 36.
    page.check("#id_hand")
    expect(page.locator("#id_notation")).to_have_value("")
    expect(page.locator("#entry-value")).to_have_text("+36")
    page.click("#entry-save")
    page.wait_for_selector("#row-1.is-saved")
    assert Game.objects.get(table=table, number=1).list_score == 36
    context.close()

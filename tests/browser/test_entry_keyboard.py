"""The entry page by keyboard, as the field test used it (issue 10, items 1-5, 10, 24, 25).

The list: a 4-table ("Herbstturnier Altenburg"), seats 1 Anna, 2 Bernd, 3 Carla, 4 Dieter.
Game 1: seat 1 deals and sits out; seat 2 Grand Hand mit 2, 78 Augen, 7 Stiche = 4 × 24 = 96.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from skatliga.messages import message
from skatliga.models import Game
from tests.browser.test_entry import PASSWORD, four_table
from tests.web.factories import entry, play

pytestmark = pytest.mark.django_db(transaction=True)

GRAND = entry(2, "grand", bid=18, matadors=2, card_points=78, tricks=7, hand=True)


def open_list(browser, live_server, table, viewport=(1366, 900), query=""):
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, locale="de-DE"
    )
    page = context.new_page()
    path = reverse("referee:list", args=[table.series.tournament.slug, 1, table.number])
    page.goto(live_server.url + path)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(path) + "$"))
    if query:
        page.goto(live_server.url + path + query)
    # The first field is focused by the browser (autofocus) before entry.js, loaded
    # with defer, has put its keyboard handlers in place: wait for them before typing.
    page.wait_for_selector("form#entry[data-ready]", state="attached")
    return context, page


# --- item 1: a correction opened from the list takes the keyboard; Esc leaves it -------------


def test_a_correction_opened_from_the_list_focuses_the_first_field(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    play(table, GRAND, entry())
    context, page = open_list(browser, live_server, table)

    page.click("#row-1 th.c-num a")
    page.wait_for_url(re.compile(r"\?game=1#entry$"))

    expect(page.locator(".entry-title")).to_contain_text("Spiel 1 korrigieren")
    expect(page.locator("#id_declarer")).to_be_focused()
    page.keyboard.press("Escape")
    page.wait_for_url(re.compile(r"/tables/1/(#entry)?$"))
    expect(page.locator(".entry-title")).to_have_text("Spiel 3")

    # A click on the row (not its number) and a typed address do the same.
    page.click("#row-2 td.c-passed")
    page.wait_for_url(re.compile(r"\?game=2#entry$"))
    expect(page.locator("#id_declarer")).to_be_focused()
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.wait_for_url(re.compile(r"/tables/1/(#entry)?$"))
    context.close()


# --- items 3 and 24: a failed save is announced and focuses the field in error ---------------


def test_a_failed_save_announces_its_errors_and_focuses_the_first_field_in_error(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.focus("#id_declarer")
    page.keyboard.press("2")
    page.select_option("#id_game", "grand")
    page.fill("#id_matadors", "2")
    page.fill("#id_bid", "18")
    page.fill("#id_card_points", "130")
    page.click("#entry-save")
    page.wait_for_load_state()

    summary = page.locator("#entry-errors[role='alert']")
    expect(summary).to_contain_text("Augen: 0 bis 120.")
    expect(page.locator("#id_card_points")).to_be_focused()
    assert page.get_attribute("#id_card_points", "aria-invalid") == "true"
    described = page.get_attribute("#id_card_points", "aria-describedby").split()
    assert "error-card_points" in described
    assert not Game.objects.exists()
    context.close()


def test_a_missing_result_is_tied_to_card_points_tricks_and_result(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.focus("#id_declarer")
    page.keyboard.press("2")
    page.select_option("#id_game", "grand")
    page.fill("#id_matadors", "2")
    page.fill("#id_bid", "18")
    page.click("#entry-save")
    page.wait_for_load_state()

    expect(page.locator("#entry-errors")).to_contain_text("Ergebnis fehlt")
    for field in ("card_points", "tricks", "won"):
        assert page.get_attribute(f"#id_{field}", "aria-invalid") == "true"
        assert "entry-row-errors" in page.get_attribute(f"#id_{field}", "aria-describedby")
    expect(page.locator("#id_card_points")).to_be_focused()
    context.close()


# --- item 4: the preview names the missing field ---------------------------------------------


def test_the_preview_says_which_required_field_is_missing(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.focus("#id_declarer")
    page.keyboard.press("2")
    page.select_option("#id_game", "grand")
    page.fill("#id_card_points", "78")
    page.fill("#id_tricks", "7")

    expect(page.locator("#entry-value")).to_have_text("–")
    expect(page.locator("#entry-verdict")).to_have_text("Spitzen fehlen (mit 2: 2, ohne 3: -3).")
    # No bid: a paper list has none, and the game reached it.
    page.fill("#id_matadors", "2")
    expect(page.locator("#entry-value")).to_have_text("+72")
    context.close()


# --- item 5: the dealer's seat typed at a 4-table says why nothing happens -------------------


def test_typing_the_dealers_seat_at_a_four_table_says_he_sits_out(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)

    page.focus("#id_declarer")
    page.keyboard.press("1")

    expect(page.locator("[data-error-for='declarer']")).to_have_text(message("declarer_is_dealer"))
    assert page.input_value("#id_declarer") == ""
    page.keyboard.press("2")
    expect(page.locator("[data-error-for='declarer']")).to_have_text("")
    assert page.input_value("#id_declarer") == "2"
    context.close()


# --- item 2: a declared game becomes passed in only with confirmation and a reason -----------


def test_passing_in_a_declared_game_asks_for_confirmation_and_a_reason(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    play(table, GRAND)
    context, page = open_list(browser, live_server, table, query="?game=1#entry")
    dialogs = []

    def dismiss(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.click("#entry-passed")
    assert dialogs == ["Spiel 1 (Grand, +96) wirklich als eingepasst speichern?"]
    assert not Game.objects.get(number=1).passed

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#entry-passed")
    page.wait_for_load_state()
    expect(page.locator("[data-error-for='reason'] [data-code='reason_required']")).to_be_visible()
    assert not Game.objects.get(number=1).passed

    page.fill("#id_reason", "Es wurde eingepasst")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#entry-passed")
    page.wait_for_url(re.compile(r"/tables/1/$"))
    assert Game.objects.get(number=1).passed
    context.close()


def test_the_dealers_reason_stays_when_a_preview_answers_after_the_key(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    context, page = open_list(browser, live_server, table)
    held = []
    page.route("**/preview/", lambda route: held.append(route))

    page.select_option("#id_game", "grand")  # the change asks for a preview: it is held
    expect(page.locator("form#entry")).to_have_class(re.compile(r"\bis-previewing\b"))
    page.focus("#id_declarer")
    page.keyboard.press("1")
    error = page.locator("[data-error-for='declarer']")
    expect(error).to_have_text(message("declarer_is_dealer"))

    for route in held:
        route.continue_()
    expect(page.locator("form#entry")).not_to_have_class(re.compile(r"\bis-previewing\b"))
    expect(error).to_have_text(message("declarer_is_dealer"))
    context.close()

"""Players keep their list at the table: a referee's browser and a table's device, each in
its own browser context (no shared cookies), on Debian's Chromium."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from skatliga.models import Change, Game
from skatliga.services.table_links import renew_link
from tests.browser.test_accessibility import axe
from tests.browser.test_entry import PASSWORD, four_table
from tests.browser.test_security_policy import RECORD_VIOLATIONS

pytestmark = pytest.mark.django_db(transaction=True)


def save_game_1_by_fields(phone) -> None:
    """Game 1 typed into the form's own fields: seat 2, grand hand with 2, bid 18, 78 card
    points and 7 tricks, (2 + 1 + 1) × 24 = +96, saved."""
    from playwright.sync_api import expect

    phone.select_option("#id_declarer", "2")
    phone.select_option("#id_game", "grand")
    phone.fill("#id_matadors", "2")
    phone.check("#id_hand")
    phone.fill("#id_bid", "18")
    phone.fill("#id_card_points", "78")
    phone.fill("#id_tricks", "7")
    expect(phone.locator("#entry-value")).to_have_text("+96")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")


def test_the_table_keeps_its_list_through_the_link_the_referee_printed(
    browser, live_server, django_user_model, axe_source
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    tournament = table.series.tournament
    series_path = reverse("referee:series", args=[tournament.slug, 1])

    # The referee logs in, opens the series page and prints the table cards.
    referee = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    desk = referee.new_page()
    desk.goto(live_server.url + series_path)
    desk.fill("#id_username", "anna")
    desk.fill("#id_password", PASSWORD)
    desk.click("form.login-form button[type=submit]")
    desk.wait_for_url(re.compile(re.escape(series_path) + "$"))
    href = desk.get_by_role("link", name="Tischkarten (PDF)").get_attribute("href")
    cards = desk.request.get(live_server.url + href)
    assert cards.ok and cards.body().startswith(b"%PDF")
    desk.locator("details.table-link summary").first.click()
    link = desk.locator(".table-url").first.get_attribute("href")
    assert re.search(r"/t/[A-Za-z0-9_-]{32}/$", link)

    # The table's phone opens the link without logging in and names itself.
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", has_touch=True, is_mobile=True
    )
    device.add_init_script(RECORD_VIOLATIONS)
    phone = device.new_page()
    phone.goto(link)
    phone.fill("#id_name", "Tisch 1 Handy")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#entry")
    assert phone.evaluate("window.__violations") == []  # the site's Content-Security-Policy
    # axe-core is injected inline: a copy of the device's context that bypasses the policy.
    checker = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="de-DE",
        storage_state=device.storage_state(),
        bypass_csp=True,
    )
    copy = checker.new_page()
    copy.goto(link)
    copy.wait_for_selector("#entry")
    assert axe(copy, axe_source) == []
    checker.close()

    # The form's own fields behind the tap grid (the grid: test_table_offline.py).
    phone.get_by_role("button", name="Felder zeigen").click()

    # Game 1 (seat 1 deals and sits out): seat 2, grand hand with 2, 78 card points.
    save_game_1_by_fields(phone)

    # Game 2: seat 3 overbids, diamonds without 1 (base 9 × 2 = 18) after a bid of 22:
    # lost at 9 × 3 = 27, doubled on the list: −54.
    phone.select_option("#id_declarer", "3")
    phone.select_option("#id_game", "diamonds")
    phone.fill("#id_matadors", "-1")
    phone.fill("#id_bid", "22")
    phone.select_option("#id_won", "won")
    expect(phone.locator("#entry-value")).to_have_text("−54")
    expect(phone.locator("#entry-verdict")).to_contain_text("überreizt")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-2.is-saved")

    # Game 3: passed in.
    phone.click("#entry-passed")
    phone.wait_for_selector("#row-3.is-passed")
    assert phone.evaluate("window.__violations") == []

    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [(g.number, g.passed, g.list_score) for g in games] == [
        (1, False, 96),
        (2, False, -54),
        (3, True, 0),
    ]
    assert {(c.user, c.device) for c in Change.objects.filter(table=table)} == {
        (None, "Tisch 1 Handy")
    }

    # The referee's list shows the rows and, in its history, where they were made.
    list_path = reverse("referee:list", args=[tournament.slug, 1, table.number])
    desk.goto(live_server.url + list_path)
    expect(desk.locator("#row-2")).to_contain_text("−54")
    expect(desk.locator("#history tbody tr").first).to_contain_text("am Tisch (Tisch 1 Handy)")

    # The referee revokes the link: the phone's next request is a plain 404.
    desk.goto(live_server.url + series_path)
    desk.locator("details.table-link summary").first.click()
    desk.get_by_role("button", name="Link sperren").click()
    desk.wait_for_url(re.compile(re.escape(series_path) + "$"))
    assert phone.reload().status == 404


def test_a_save_at_the_table_updates_the_page_in_place(browser, live_server, django_user_model):
    """A new row saved online: the list, its totals and the form move on without a reload."""
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    link = live_server.url + reverse("table:entry", args=[renew_link(table).token])
    device = browser.new_context(viewport={"width": 1024, "height": 900}, locale="de-DE")
    phone = device.new_page()
    phone.goto(link)
    phone.fill("#id_name", "Tisch 1")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#entry[data-ready]")
    phone.evaluate("window.__kept = 'this page'")
    pages = []
    phone.on("request", lambda r: pages.append(r.url) if r.resource_type == "document" else None)
    phone.get_by_role("button", name="Felder zeigen").click()

    # Game 1 (seat 1 deals and sits out): seat 2, grand hand with 2 won, 96 on the list;
    # Seeger-Fabian adds 50 for the game won (docs/rules.md section 5).
    save_game_1_by_fields(phone)
    expect(phone.locator(".flash-success")).to_contain_text("Spiel 1 gespeichert")
    expect(phone.locator("#entry .entry-title")).to_contain_text("2")
    assert phone.input_value("#entry input[name=number]") == "2"

    # Game 2 (seat 2 deals and sits out): seat 3 overbids, diamonds without 1 after a bid of
    # 22, lost at 9 × 3 = 27, doubled: −54, and 50 off; each other player gets 30.
    phone.select_option("#id_declarer", "3")
    phone.select_option("#id_game", "diamonds")
    phone.fill("#id_matadors", "-1")
    phone.fill("#id_bid", "22")
    phone.select_option("#id_won", "won")
    expect(phone.locator("#entry-value")).to_have_text("−54")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-2.is-saved")
    expected = {1: "30", 2: str(96 + 50 + 30), 3: f"\u2212{54 + 50}", 4: "30"}
    for seat, total in expected.items():
        expect(phone.locator(f"tfoot td[data-summary='total'][data-seat='{seat}']")).to_have_text(
            total
        )
        expect(
            phone.locator(f".entry-standings [data-summary='total'][data-seat='{seat}']")
        ).to_have_text(total)
    expect(phone.locator(".sheet-status .badge")).to_have_text("2 / 8 Spiele")
    expect(phone.locator(".flash-success")).to_have_count(1)
    assert phone.input_value("#entry input[name=number]") == "3"

    assert phone.evaluate("window.__kept") == "this page"  # never reloaded
    assert pages == []
    games = Game.objects.filter(table=table).order_by("number")
    assert [(g.number, g.list_score) for g in games] == [(1, 96), (2, -54)]

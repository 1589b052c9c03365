"""Signing at the table and double entry, in Chromium: the referee's dashboard (a browser
context of its own, never reloaded) sees the players sign on the table's device and closes
the list with one click; under double entry the referee's second entry catches one
deliberately different row, closing is refused with both versions side by side, and the
referee picks one with a reason."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Change, Game, Player
from tests.browser.test_accessibility import axe
from tests.browser.test_entry import PASSWORD
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.web.factories import entry, make_table

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Anna Schmidt", "Bernd Łukasz", "Carla Weiß")


def three_table(django_user_model, **fields):
    """A 3-table with one round (3 games) whose referee is "anna"."""
    players = [Player.objects.create(name=name) for name in NAMES]
    table = make_table(players=players, rounds=1, **fields)
    user = django_user_model.objects.get_or_create(username="anna")[0]
    user.set_password(PASSWORD)
    user.save()
    table.series.tournament.referees.add(user)
    return table


def log_in(page, live_server, path):
    page.goto(live_server.url + path)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(path) + "(#.*)?$"))


def checked(browser, context, url, axe_source, width):
    """axe-core's violations on ``url`` in a copy of ``context`` that lets it be injected."""
    checker = browser.new_context(
        viewport={"width": width, "height": 900},
        locale="de-DE",
        storage_state=context.storage_state(),
        bypass_csp=True,
    )
    page = checker.new_page()
    page.goto(url)
    found = axe(page, axe_source)
    checker.close()
    return found


def test_players_sign_at_the_table_and_the_dashboard_closes_the_list(
    browser, live_server, django_user_model, axe_source
):
    from playwright.sync_api import expect

    table = three_table(django_user_model, name="Wintercup Altenburg")
    tournament = table.series.tournament
    series_path = reverse("referee:series", args=[tournament.slug, 1])

    # The referee's dashboard, open before anything is entered.
    referee = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    referee.add_init_script(RECORD_VIOLATIONS)
    desk = referee.new_page()
    log_in(desk, live_server, series_path)
    status = desk.locator('[data-status-table="1"]')
    expect(status).to_contain_text("0 von 3 Spielen")
    desk.evaluate("window.__notReloaded = true")
    desk.locator("details.table-link summary").first.click()
    link = desk.locator(".table-url").first.get_attribute("href")

    # The table's phone enters the whole short list: a grand and two passed-in games.
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", has_touch=True, is_mobile=True
    )
    device.add_init_script(RECORD_VIOLATIONS)
    phone = device.new_page()
    phone.goto(link)
    phone.fill("#id_name", "Tisch 1 Handy")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#entry")
    # The form's own fields behind the tap grid (the grid: test_table_offline.py).
    phone.get_by_role("button", name="Felder zeigen").click()
    # Game 1: seat 2, grand with 2, bid 24, 78 card points in 7 tricks: (2 + 1) × 24 = 72.
    phone.select_option("#id_declarer", "2")
    phone.select_option("#id_game", "grand")
    phone.fill("#id_matadors", "2")
    phone.fill("#id_bid", "24")
    phone.fill("#id_card_points", "78")
    phone.fill("#id_tricks", "7")
    expect(phone.locator("#entry-value")).to_have_text("+72")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")
    for number in (2, 3):
        phone.click("#entry-passed")
        phone.wait_for_selector(f"#row-{number}.is-passed")

    # The dashboard follows by itself: 3 of 3 games, nobody signed yet.
    expect(status).to_contain_text("3 von 3 Spielen", timeout=20_000)
    expect(status).to_contain_text("0 von 3 unterschrieben")

    # Each player taps their own name, sees their total first and signs.
    phone.click("#sign-list")
    assert checked(browser, device, phone.url, axe_source, 390) == []
    assert checked(browser, device, phone.url + "2/", axe_source, 390) == []
    for position, total in ((1, "0"), (2, "122"), (3, "0")):  # Bernd: 72 + 50 won = 122
        phone.click(f'.sign-names a[data-seat="{position}"]')
        first = phone.locator(".sign-totals li").first
        expect(first).to_have_attribute("data-seat", str(position))
        expect(first.locator(".total")).to_have_text(total)
        phone.click("#sign-confirm")
        expect(phone.locator(f'.sign-names a[data-seat="{position}"]')).to_contain_text(
            "✓ unterschrieben"
        )
    assert phone.evaluate("window.__violations") == []

    # The dashboard, never reloaded, shows the table signed and closes it with one click.
    expect(status.locator(".status-signed")).to_have_class(re.compile("is-signed"), timeout=20_000)
    expect(status).to_contain_text("3 von 3 unterschrieben")
    assert desk.evaluate("window.__notReloaded") is True
    assert desk.evaluate("window.__violations") == []
    desk.click('[data-close-table="1"]')
    desk.wait_for_url(re.compile(re.escape(series_path) + "$"))
    expect(status).to_contain_text("abgeschlossen")
    table.refresh_from_db()
    assert table.is_closed
    closed = Change.objects.get(table=table, action=Change.Action.LIST_CLOSED)
    assert (closed.after, closed.reason) == ({"signed": 3, "seats": 3}, "")
    assert Change.objects.filter(table=table, action=Change.Action.LIST_SIGNED).count() == 3


def test_double_entry_catches_one_different_row(
    browser, live_server, django_user_model, axe_source
):
    from playwright.sync_api import expect

    table = three_table(django_user_model, name="Doppelt Altenburg", double_entry=True)
    tournament = table.series.tournament
    # The list as kept: game 1 clubs with 1, bid 18, 61 card points ((1 + 1) × 12 = +24).
    services.record_game(table, 1, entry(1, "clubs", bid=18, matadors=1, card_points=61))
    services.record_game(table, 2, entry())
    services.record_game(table, 3, entry())
    args = [tournament.slug, 1, table.number]
    series_path = reverse("referee:series", args=[tournament.slug, 1])

    referee = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    referee.add_init_script(RECORD_VIOLATIONS)
    desk = referee.new_page()
    second_path = reverse("referee:second-entry", args=args)
    log_in(desk, live_server, second_path)

    # The second entry from the paper, with game 1 typed as spades: one different row.
    desk.select_option("#id_declarer", "1")
    desk.select_option("#id_game", "spades")
    desk.fill("#id_matadors", "1")
    desk.fill("#id_bid", "18")
    desk.fill("#id_card_points", "61")
    desk.click("#second-save")
    desk.wait_for_selector('tr[data-number="1"] >> text=weicht ab')
    for _number in (2, 3):
        desk.click("#second-passed")
    expect(desk.locator('tr[data-number="3"]')).to_contain_text("stimmt")

    # Closing is refused, naming the row and showing both versions side by side.
    desk.goto(live_server.url + reverse("referee:list", args=args))
    desk.click("#close-form button[type=submit]")
    expect(desk.locator(".alert-error[data-code=entries_differ]")).to_contain_text("Spiel 1")
    row = desk.locator("#difference-1")
    expect(row.locator("td.first")).to_contain_text("Kreuz")
    expect(row.locator("td.second")).to_contain_text("Pik")
    table.refresh_from_db()
    assert not table.is_closed
    list_url = live_server.url + reverse("referee:list", args=args)
    assert checked(browser, referee, list_url, axe_source, 1366) == []
    assert checked(browser, referee, live_server.url + second_path, axe_source, 1366) == []
    assert checked(browser, referee, live_server.url + series_path, axe_source, 1366) == []

    # Picking without a reason is an error at the field; with one, the second entry holds.
    row.locator("input[value=second]").check()
    row.get_by_role("button", name="Übernehmen").click()
    expect(desk.locator("#pick-error-1")).to_contain_text("Grund")
    row = desk.locator("#difference-1")
    row.locator("input[value=second]").check()
    row.locator("input[name=reason]").fill("Papier zeigt Pik")
    row.get_by_role("button", name="Übernehmen").click()
    expect(desk.locator("#double-entry")).to_contain_text("stimmt überein")
    # Spades with 1 at 61: (1 + 1) × 11 = +22.
    expect(desk.locator("#row-1 .c-value")).to_contain_text("+22")
    desk.click("#close-form button[type=submit]")
    expect(desk.locator(".sheet-status")).to_contain_text("abgeschlossen")
    assert desk.evaluate("window.__violations") == []

    table.refresh_from_db()
    assert table.is_closed
    assert Game.objects.get(table=table, number=1).game == "spades"
    picked = Change.objects.get(table=table, action=Change.Action.ENTRY_PICKED)
    assert (picked.game_number, picked.reason) == (1, "Papier zeigt Pik")

"""The whole evening of one table, as issue 13's "Done when" lists it, in one flow: the
referee prints the table cards; the table's phone opens the link without login and keeps
the list by taps, with an overbid and a passed-in game; the Wi-Fi drops for two games and a
reload; the games sync; the referee types the paper a second time and the comparison
catches the one row typed differently; the players sign; the referee's live dashboard shows
the table signed without a reload and closes it. The referee and the phone each have their
own browser context."""

from __future__ import annotations

import pytest
from django.urls import reverse

from skatliga.models import Table
from tests.browser.test_entry import four_table
from tests.browser.test_table_offline import (
    back_online,
    first_three_games,
    open_device,
    play,
    print_cards,
    scores,
    two_games_offline_and_a_reload,
)

pytestmark = pytest.mark.django_db(transaction=True)

# The paper list, as the referee types it a second time: (declarer, game, matadors, hand,
# bid, won); None for a passed-in game. Game 2's bid is typed as 18 instead of 22: the
# deliberate difference (won, +18, where the table's entry is an overbid, −54).
PAPER = [
    ("2", "grand", "2", True, "", "won"),
    ("3", "diamonds", "-1", False, "18", "won"),
    None,
    ("1", "hearts", "1", False, "", "lost"),
    ("4", "clubs", "1", False, "", "won"),
    ("3", "spades", "-2", True, "", "won"),
    ("1", "grand", "1", False, "", "won"),
    ("2", "null", "", False, "", "won"),
]


def type_second_entry(desk, rows) -> None:
    for row in rows:
        if row is None:
            desk.click("#second-passed")
        else:
            declarer, game, matadors, hand, bid, won = row
            desk.select_option("#id_declarer", declarer)
            desk.select_option("#id_game", game)
            desk.fill("#id_matadors", matadors)
            if hand:
                desk.check("#id_hand")
            desk.fill("#id_bid", bid)
            desk.select_option("#id_won", won)
            desk.click("#second-save")
        desk.wait_for_load_state()


def test_a_table_keeps_signs_and_closes_its_list_through_a_wifi_drop(
    browser, live_server, django_user_model, monkeypatch, hall_line
):
    from playwright.sync_api import expect

    monkeypatch.setattr("skatliga.views.series.POLL_SECONDS", 1)
    table = four_table(2, django_user_model)
    tournament = table.series.tournament
    tournament.double_entry = True
    tournament.save()

    # The referee prints the cards; the phone opens the link without login.
    referee, desk, link = print_cards(browser, live_server, table)
    device, phone = open_device(browser, link)

    # Games 1-3 by taps (+96, the overbid −54, passed in); games 4 and 5 offline, a reload
    # offline, then back online: they sync in order.
    first_three_games(phone, table)
    two_games_offline_and_a_reload(device, phone, table, hall_line)
    back_online(device, phone, table, hall_line)

    # Games 6-8 finish the list (8 games: 2 rounds at a 4-table).
    # 6: Carla, spades without 2, hand, won: (2 + 1 + 1) × 11 = 44.
    play(
        phone,
        "Carla Weiß",
        "Pik",
        ("matadors", "ohne 2"),
        ("levels", "Hand"),
        ("won", "gewonnen"),
    )
    phone.click("#entry-save")
    phone.wait_for_selector("#row-6.is-saved")
    # 7: Anna, grand with 1, won: (1 + 1) × 24 = 48.
    play(phone, "Anna Schmidt", "Grand", ("matadors", "mit 1"), ("won", "gewonnen"))
    phone.click("#entry-save")
    phone.wait_for_selector("#row-7.is-saved")
    # 8: Bernd, null (23, no matadors to tap), won: 23.
    play(phone, "Bernd Łukasz", "Null", ("won", "gewonnen"))
    expect(phone.locator("#tap-grid .tap-matadors")).to_be_hidden()
    phone.click("#entry-save")
    phone.wait_for_selector("#row-8.is-saved")
    assert [score for _, _, score in scores(table)] == [96, -54, 0, -40, 24, 44, 48, 23]

    # Double entry: the referee types the paper a second time, game 2 with bid 18.
    slug, number = tournament.slug, table.number
    desk.goto(live_server.url + reverse("referee:second-entry", args=[slug, 1, number]))
    type_second_entry(desk, PAPER)
    expect(desk.locator("tr.is-different")).to_have_count(1)
    expect(desk.locator("tr.is-different")).to_have_attribute("data-number", "2")

    # The dashboard names the difference and offers no closing.
    series_path = reverse("referee:series", args=[slug, 1])
    desk.goto(live_server.url + series_path)
    card = desk.locator(f"[data-status-table='{number}']")
    expect(card.locator(".status-differences")).to_contain_text("Spiel 2")
    expect(card.get_by_role("button", name="Liste abschließen")).to_have_count(0)

    # The referee keeps the table's version of game 2, with a reason.
    desk.goto(live_server.url + reverse("referee:list", args=[slug, 1, number]))
    difference = desk.locator("#difference-2")
    expect(difference.locator(".first")).to_contain_text("22")
    expect(difference.locator(".second")).to_contain_text("18")
    difference.get_by_label("Liste").check()
    difference.get_by_label("Grund").fill("Auf dem Papier steht 22, falsch abgetippt")
    difference.get_by_role("button", name="Übernehmen").click()
    desk.wait_for_load_state()
    expect(desk.locator("#double-entry")).to_have_attribute("data-differences", "0")

    # The referee watches the dashboard: no list is signed yet.
    desk.goto(live_server.url + series_path)
    status = card.locator(".status-signed")
    expect(status).to_contain_text("0 von 4 unterschrieben")
    desk.evaluate("window.__watching = true")
    expect(card.get_by_role("button", name="Liste abschließen")).to_have_count(0)

    # The players sign at the table, each on his own name.
    phone.goto(link)
    phone.click("#sign-list")
    for seat in (1, 2, 3, 4):
        phone.click(f"a[data-seat='{seat}']")
        phone.click("#sign-confirm")
        phone.wait_for_selector(f"a[data-seat='{seat}'].is-signed")

    # The dashboard shows it without a reload, and the list closes with one click.
    expect(status).to_contain_text("4 von 4 unterschrieben")
    assert desk.evaluate("window.__watching") is True  # the same page, never reloaded
    close = card.get_by_role("button", name="Liste abschließen")
    expect(close).to_be_visible()
    close.click()
    expect(card.locator(".badge-done")).to_have_text("abgeschlossen")
    assert Table.objects.get(pk=table.pk).is_closed
    assert [score for _, _, score in scores(table)] == [96, -54, 0, -40, 24, 44, 48, 23]

    # The phone now gets the closed list, read-only.
    phone.goto(link)
    expect(phone.locator("#entry")).to_have_count(0)
    device.close()
    referee.close()

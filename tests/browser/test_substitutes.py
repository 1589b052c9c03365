"""The referee records a substitute on the list page, in Chromium, at laptop and phone width;
the page names him above the seat's column and shows each one's share, with no WCAG
violation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from skatliga import services
from tests.browser.test_accessibility import WIDTHS, axe, league, log_in
from tests.web.factories import make_player


@pytest.mark.parametrize("size", list(WIDTHS))
def test_the_referee_records_a_substitute(
    browser, live_server, django_user_model, axe_source, size, tmp_path
):
    from playwright.sync_api import expect

    table, players, _teams = league(django_user_model)
    make_player("Emil Čapek")
    context = browser.new_context(viewport=WIDTHS[size], locale="de-DE", bypass_csp=True)
    page = context.new_page()
    log_in(page, live_server)
    url = live_server.url + reverse("referee:list", args=[table.series.tournament.slug, 1, 1])
    page.goto(url)

    page.select_option("#substitute_seat", "2")
    page.fill("#substitute_name", "Emil Čapek")
    page.fill("#substitute_from_game", "3")
    page.fill("#substitute_reason", "Bernd musste gehen")
    page.click("text=Ersatzspieler eintragen")
    page.wait_for_url(url + "#substitutes")

    expect(page.locator("thead .seat-substitute")).to_have_text("ab Spiel 3: Emil Čapek")
    shares = page.locator("table.shares tbody tr")
    expect(shares).to_have_count(2)
    # Bernd's games 1–2: he won game 1 (grand with 1: 48 + 50) and seat 3 lost game 2 (+30 at
    # a 4-table): 128. Game 3, passed in, is Emil's: 0.
    expect(shares.nth(0)).to_contain_text("Bernd Łukasz")
    expect(shares.nth(0).locator("[data-total]")).to_have_text("128")
    expect(shares.nth(1).locator("[data-total]")).to_have_text("0")
    expect(shares.nth(1)).to_contain_text("ab Spiel 3")
    page.screenshot(path=str(tmp_path / f"substitute-{size}.png"), full_page=True)
    assert axe(page, axe_source) == []

    page.fill("#substitute_from_game", "99")
    page.fill("#substitute_name", "Frieda")
    page.click("text=Ersatzspieler eintragen")
    expect(page.locator('#substitutes [data-code="substitute_game_out_of_range"]')).to_be_visible()
    context.close()
    seat = table.seats.get(position=2)
    assert (seat.substitute.name, seat.substitute_from) == ("Emil Čapek", 3)
    services.remove_substitute(table, 2)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1366])
def test_the_table_device_names_the_substitute_from_his_first_game(
    browser, live_server, django_user_model, quiet_live_server, width, tmp_path
):
    """A 4-table (Anna, Bernd, Carla, Dieter; seat n deals game n and sits out). While the
    device types game 2, the referee appoints Emil for Bernd's seat 2 from game 3. The
    save of game 2 moves the device on to game 3, where the totals bar, the declarer's
    buttons and the dealer's line name who sits there then: Emil."""
    from playwright.sync_api import expect

    from skatliga.services import table_links as table_services
    from tests.browser.test_entry import four_table
    from tests.browser.test_table_offline import open_device, scores, tap

    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    url = live_server.url + reverse("table:entry", args=[link.token])
    device, phone = open_device(browser, url, width, 900)
    bar = phone.locator('.entry-standings li[data-seat="2"]')
    seat_2 = phone.locator('#tap-grid .tap-declarer button[data-value="2"]')
    expect(bar).to_have_attribute("title", "Bernd Łukasz")

    # Game 1: Bernd, clubs with 1, won: (1 + 1) × 12 = 24.
    tap(phone, "declarer", "Bernd Łukasz")
    tap(phone, "game", "Kreuz")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#row-1.is-saved")

    # Game 2 typed (Carla, grand with 1, won: 2 × 24 = 48) as the referee appoints Emil.
    tap(phone, "declarer", "Carla Weiß")
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    with quiet_live_server.between_requests():
        services.appoint_substitute(table, 2, 3, name="Emil Čapek", reason="Bernd musste gehen")
    expect(seat_2).to_have_text("Bernd Łukasz")
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#row-2.is-saved")

    # Game 3 (Carla deals and sits out): seat 2 is Emil's, everywhere on the device.
    expect(phone.locator(".entry-title")).to_have_text("Spiel 3")
    expect(bar).to_have_attribute("title", "Emil Čapek")
    expect(bar.locator(".standing-name")).to_have_text("Emil Č.")
    expect(seat_2).to_have_text("Emil Čapek")
    expect(phone.locator("#id_declarer option[value='2']")).to_contain_text("Emil Čapek")
    # Emil, hearts with 1, won: (1 + 1) × 10 = 20.
    tap(phone, "declarer", "Emil Čapek")
    tap(phone, "game", "Herz")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    expect(phone.locator("#entry-value")).to_have_text("+20")
    phone.screenshot(path=str(tmp_path / f"device-substitute-{width}.png"), full_page=True)
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#row-3.is-saved")
    assert scores(table) == [(1, False, 24), (2, False, 48), (3, False, 20)]

    # Loaded anew at game 4, the page names Emil from the start; a correction of game 1
    # names Bernd, who sat there then.
    phone.goto(url)
    expect(phone.locator(".entry-title")).to_have_text("Spiel 4")
    expect(bar.locator(".standing-name")).to_have_text("Emil Č.")
    expect(seat_2).to_have_text("Emil Čapek")
    phone.goto(url + "?game=1#entry")
    expect(seat_2).to_have_text("Bernd Łukasz")
    expect(bar).to_have_attribute("title", "Bernd Łukasz")
    device.close()

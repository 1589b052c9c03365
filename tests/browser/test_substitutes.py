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

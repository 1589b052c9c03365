"""A player's personal link on his phone (390 px): the page shows his seat once the referee
draws, his games as they are entered, without a reload, and keeps its last state while the
connection is down. Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/my-evening.png."""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Club, Seat
from skatliga.personal import views as personal_views
from skatliga.services import personal
from skatliga.services.money import save_purse
from tests.browser.test_accessibility import axe
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.web.factories import entry, make_player, make_tournament, play

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
NAMES = ["Anna Schmidt", "Bernd Łukasz", "Carla Weiß", "Dieter Krüger", "Emil Ötztal"]


def test_my_evening_shows_the_seat_after_the_draw_without_reload(
    browser, live_server, quiet_live_server, axe_source, monkeypatch, tmp_path
):
    from playwright.sync_api import expect

    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    monkeypatch.setattr(personal_views, "POLL_SECONDS", 1)
    club = Club.objects.create(name="SC Altenburg")
    players = [make_player(name, club=club) for name in NAMES]
    players.append(make_player("Frida Nagel", club=club, initials_only=True))
    tournament = make_tournament(
        players=players, slug="herbstpreisskat", name="Herbstpreisskat", venue="Altenburg"
    )
    save_purse(
        tournament,
        entry_fee=Decimal("10.00"),
        lost_fee=Decimal("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("1.00"),
        prizes=["50%", "30%"],
    )
    carla = tournament.registrations.get(player__name="Carla Weiß")
    url = live_server.url + reverse("personal:page", args=[personal.personal_token(carla)])

    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.goto(url)
    expect(page.locator(".me-waiting")).to_contain_text("Noch nicht ausgelost")
    page.evaluate("window.__loaded = true")  # gone if the page reloads

    # The referee draws: the seat appears without a reload.
    with quiet_live_server.between_requests():
        services.draw_tables(tournament, seed=1)
        seat = Seat.objects.select_related("table").get(player=carla.player)
    where = page.locator(".me-seat-where")
    expect(where).to_have_attribute("data-table", str(seat.table.number), timeout=15_000)
    expect(where).to_have_attribute("data-position", str(seat.position))
    expect(where).to_contain_text(f"Tisch {seat.table.number}")
    assert page.evaluate("window.__loaded") is True
    others = seat.table.seats.exclude(pk=seat.pk)
    if others.filter(player__name="Frida Nagel").exists():
        expect(page.locator(".me-others")).to_contain_text("F. N.")
    expect(page.locator(".me-others")).not_to_contain_text("Frida")

    # Games at her table come in as they are entered; Carla wins a Grand mit 2 (72).
    with quiet_live_server.between_requests():
        table = seat.table
        rows = [entry(seat.position, "grand", bid=20, matadors=2, card_points=78, tricks=7)]
        rows.append(entry(seat.position % 3 + 1, "clubs", bid=18, matadors=1, card_points=70))
        rows.append(entry())
        play(table, *rows)
    expect(page.locator(".me-games tbody tr")).to_have_count(3, timeout=15_000)
    expect(page.locator(".me-games tr.is-mine").first).to_contain_text("+72")
    expect(page.locator('[data-figure="rank"]')).to_contain_text("1. von 6")
    expect(page.locator(".me-standing .provisional")).to_be_visible()
    expect(page.locator('[data-money="entry"]')).to_contain_text("10,00")
    expect(page.locator("#me-offline")).to_be_hidden()
    page.screenshot(path=str(folder / "my-evening.png"), full_page=True)
    assert page.evaluate("window.__violations") == []

    # No connection: the last state stays and says so; back online, the note goes.
    context.set_offline(True)
    expect(page.locator("#me-offline")).to_be_visible(timeout=10_000)
    expect(page.locator(".me-games tbody tr")).to_have_count(3)
    context.set_offline(False)
    expect(page.locator("#me-offline")).to_be_hidden(timeout=10_000)
    # A poll whose answer never comes is given up after ten seconds, and says so.
    page.route("**/status.json", lambda route: None)
    expect(page.locator("#me-offline")).to_be_visible(timeout=20_000)
    page.unroute("**/status.json")
    expect(page.locator("#me-offline")).to_be_hidden(timeout=20_000)
    assert page.evaluate("window.__loaded") is True

    checker = browser.new_context(viewport=PHONE, locale="de-DE", bypass_csp=True)
    check = checker.new_page()
    check.goto(url)
    assert axe(check, axe_source) == []
    checker.close()

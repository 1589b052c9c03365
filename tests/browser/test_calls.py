"""Calling the referee and objecting to a game, in Chromium: the table's phone (390 px)
calls the referee and a seat objects to a game; the referee's dashboard (1366 px, never
reloaded until the referee answers) shows both, the referee acknowledges the call and lets
the game stand; the phone, never reloaded, shows that the call was seen and the decision.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/dashboard-call-dispute.png and
table-call.png.
"""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse

from skatliga.models import Objection, RefereeCall
from skatliga.services import table_links as links
from tests.browser.test_entry import SCREENSHOTS
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.browser.test_table_signing import checked, log_in, three_table
from tests.web.factories import entry, play

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_table_calls_and_objects_and_the_dashboard_answers(
    browser, live_server, django_user_model, axe_source
):
    from playwright.sync_api import expect

    table = three_table(django_user_model, name="Wintercup Altenburg")
    tournament = table.series.tournament
    # Game 1: seat 2, grand with 2, bid 24, 78 card points: (2 + 1) × 24 = 72.
    play(table, entry(2, "grand", bid=24, matadors=2, card_points=78, tricks=7))
    links.ensure_links(table.series)
    token = links.active_links(table.series)[table.pk].token
    series_path = reverse("referee:series", args=[tournament.slug, 1])
    screenshots = bool(os.environ.get("SKATLIGA_SCREENSHOTS"))

    # The referee's dashboard, open before the table asks anything.
    referee = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    referee.add_init_script(RECORD_VIOLATIONS)
    desk = referee.new_page()
    log_in(desk, live_server, series_path)
    status = desk.locator('[data-status-table="1"]')
    expect(status).to_contain_text("1 von 3 Spielen")
    desk.evaluate("window.__notReloaded = true")

    # The table's phone: the list, then the page for the referee.
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", has_touch=True, is_mobile=True
    )
    device.add_init_script(RECORD_VIOLATIONS)
    phone = device.new_page()
    phone.goto(live_server.url + reverse("table:entry", args=[token]))
    phone.fill("#id_name", "Tisch 1 Handy")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#entry")
    phone.click("#table-help")
    phone.wait_for_selector("#call-referee")

    # The call, with its reason; pressing again makes no second call.
    phone.check('input[name=reason][value="dispute"]')
    phone.click("#call-referee")
    expect(phone.locator('[data-call="open"]')).to_contain_text("Streitfall")
    phone.click("#call-referee")
    expect(phone.locator('[data-call="open"]')).to_be_visible()

    # Seat 3 objects to game 1.
    phone.select_option("#id_number", "1")
    phone.check('input[name=seat][value="3"]')
    phone.fill("#id_reason", "Es war ein Handspiel")
    phone.click("#file-objection")
    expect(phone.locator(".flash-success")).to_contain_text("Einspruch zu Spiel 1 eingelegt")
    waiting = phone.locator(".help-objections li").first
    expect(waiting).to_contain_text("wartet auf die Entscheidung")
    assert checked(browser, device, phone.url, axe_source, 390) == []
    phone.evaluate("window.__notReloaded = true")

    # The dashboard follows by itself: the call with its table and time, the objection.
    call = desk.locator('[data-call-table="1"]')
    expect(call).to_contain_text("Tisch 1 ruft", timeout=20_000)
    expect(call).to_contain_text("Streitfall")
    expect(call).to_contain_text(re.compile(r"seit \d\d:\d\d Uhr"))
    objection = status.locator(".table-objection")
    expect(objection).to_contain_text("Einspruch zu Spiel 1")
    expect(objection).to_contain_text("Carla Weiß (Platz 3)")
    expect(objection).to_contain_text("Es war ein Handspiel")
    expect(desk.locator(".table-card.has-call")).to_have_count(1)
    assert desk.evaluate("window.__notReloaded") is True
    assert checked(browser, referee, desk.url, axe_source, 1366) == []
    if screenshots:
        desk.screenshot(path=str(SCREENSHOTS / "dashboard-call-dispute.png"), full_page=True)

    # The referee acknowledges the call, then lets the game stand, with a reason.
    call.get_by_role("button", name="Gesehen").click()
    desk.wait_for_url(re.compile(re.escape(series_path) + "$"))
    expect(desk.locator("[data-call-table]")).to_have_count(0)
    objection = status.locator(".table-objection")
    objection.get_by_label("Begründung").fill("Karten geprüft: kein Handspiel")
    objection.get_by_role("button", name="Spiel bleibt").click()
    desk.wait_for_url(re.compile(re.escape(series_path) + "$"))
    expect(desk.locator(".flash-success")).to_contain_text("das Spiel bleibt")
    expect(status.locator(".table-objection")).to_have_count(0)
    assert desk.evaluate("window.__violations") == []

    # The phone, never reloaded, shows both answers.
    expect(phone.locator('[data-call="seen"]')).to_contain_text("gesehen", timeout=20_000)
    decided = phone.locator(".help-objections li").first
    expect(decided).to_contain_text("Spiel bleibt", timeout=20_000)
    expect(decided).to_contain_text("Karten geprüft: kein Handspiel")
    assert phone.evaluate("window.__notReloaded") is True
    assert phone.evaluate("window.__violations") == []
    if screenshots:
        phone.screenshot(path=str(SCREENSHOTS / "table-call.png"), full_page=True)

    assert RefereeCall.objects.get(table=table).acknowledged_at is not None
    [kept] = Objection.objects.filter(game__table=table)
    assert (kept.seat.position, kept.decision) == (3, Objection.Decision.KEPT)
    assert table.games.get(number=1).value == 72

"""The evening without paper (issue 31), end to end in Chromium: twelve players check in on
their phones (three as guests) and the desk confirms each, the referee marks the fees at the
desk and draws, each player's personal link shows his table, table 1 calls the referee and
objects to a game from its device while a player of table 2 objects from his personal link,
the referee answers all of it from the dashboard, closes the lists and publishes the series
with an objection window, and every personal link shows its player's final rank.

One round per series keeps it short: four games a table. Run with SKATLIGA_SCREENSHOTS=1 to
write docs/screenshots/evening-my-evening-final.png (390 px)."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from django.utils import timezone

from skatliga.checkin import views as checkin_views
from skatliga.entries import plain
from skatliga.models import Objection, RefereeCall, Seat, Series
from skatliga.personal import views as personal_views
from skatliga.services import table_links as links
from tests.browser.test_checkin import (
    PHONE,
    SCREENSHOTS,
    checkin_url,
    confirm_at_desk,
    door,
    draw_from_the_desk,
    mark_fees,
    open_desk,
    personal_link,
    twelve_at_the_door,
)
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.browser.test_table_signing import checked
from tests.web.factories import entry, play

pytestmark = pytest.mark.django_db(transaction=True)

# Each 4-table's list, by seat (docs/rules.md sections 1 and 5; seat n deals game n and sits
# it out): game 1 seat 2 wins, game 2 seat 3 loses, game 3 seat 4 wins, game 4 passed in.
# A won game counts value + 50; a lost one −2 × value − 50 and +30 to each of the other three.
LISTS = {
    # Grand mit 2: 3 × 24 = 72; Kreuz mit 1 lost: 2 × 12 = 24; Pik mit 1: 2 × 11 = 22.
    1: [
        entry(2, "grand", bid=24, matadors=2, card_points=78),
        entry(3, "clubs", bid=18, matadors=1, card_points=50),
        entry(4, "spades", bid=18, matadors=1, card_points=70),
        entry(),
    ],
    # Grand mit 1: 2 × 24 = 48; Herz mit 1 lost: 2 × 10 = 20; Karo mit 1: 2 × 9 = 18.
    2: [
        entry(2, "grand", bid=24, matadors=1, card_points=80),
        entry(3, "hearts", bid=18, matadors=1, card_points=55),
        entry(4, "diamonds", bid=18, matadors=1, card_points=66),
        entry(),
    ],
    # Kreuz mit 2: 3 × 12 = 36; Pik mit 1 lost: 2 × 11 = 22; Herz mit 2: 3 × 10 = 30.
    3: [
        entry(2, "clubs", bid=18, matadors=2, card_points=75),
        entry(3, "spades", bid=18, matadors=1, card_points=45),
        entry(4, "hearts", bid=18, matadors=2, card_points=85),
        entry(),
    ],
}
# Totals by (table, seat): seat 1 +30 everywhere; table 1: 72 + 50 + 30 = 152, −48 − 50 = −98,
# 22 + 50 + 30 = 102; table 2: 128, −90, 98; table 3: 116, −94, 110. Ranked (the three seats 1
# level on 30, no game won or lost, share rank 7):
RANKS = {
    (1, 1): 7,
    (1, 2): 1,
    (1, 3): 12,
    (1, 4): 5,
    (2, 1): 7,
    (2, 2): 2,
    (2, 3): 10,
    (2, 4): 6,
    (3, 1): 7,
    (3, 2): 3,
    (3, 3): 11,
    (3, 4): 4,
}
TOTALS = {
    (1, 1): 30,
    (1, 2): 152,
    (1, 3): -98,
    (1, 4): 102,
    (2, 1): 30,
    (2, 2): 128,
    (2, 3): -90,
    (2, 4): 98,
    (3, 1): 30,
    (3, 2): 116,
    (3, 3): -94,
    (3, 4): 110,
}


def test_the_evening_runs_without_paper(
    browser, live_server, quiet_live_server, axe_source, monkeypatch, tmp_path
):
    from playwright.sync_api import expect

    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    monkeypatch.setattr(personal_views, "POLL_SECONDS", 1)
    monkeypatch.setattr(checkin_views, "POLL_SECONDS", 1)
    tournament = door(rounds=1, objection_minutes=15)
    url = checkin_url(live_server, tournament)
    laptop, desk = open_desk(browser, live_server, tournament)

    # Twelve check in on their own phones; the desk confirms each, and each keeps the
    # personal link his phone then shows.
    personal = {}
    for name, context, page, number in twelve_at_the_door(browser, url):
        confirm_at_desk(desk, number, name)
        personal[name] = personal_link(page, name)
        assert page.evaluate("window.__violations") == []
        context.close()
    assert len(set(personal.values())) == 12

    # The desk sees them, marks the fees and draws three 4-tables; it lands on the dashboard.
    expect(desk.locator('[data-count="here"]')).to_have_text("12", timeout=30_000)
    expect(desk.locator("tr.is-here .badge", has_text="Gast")).to_have_count(3)
    mark_fees(desk)
    draw_from_the_desk(desk)
    with quiet_live_server.between_requests():
        series = Series.objects.get(tournament=tournament)
        where = {
            seat.player.name: (seat.table.number, seat.position)
            for seat in Seat.objects.filter(series=series).select_related("player", "table")
        }
    assert sorted(where.values()) == sorted(RANKS)

    # Each player's personal link shows his table and seat.
    phones = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    mine = phones.new_page()
    for name, link in personal.items():
        mine.goto(link)
        seat = mine.locator(".me-seat-where")
        table, position = where[name]
        expect(seat).to_have_attribute("data-table", str(table))
        expect(seat).to_have_attribute("data-position", str(position))
        expect(seat).to_contain_text(f"Tisch {table}")
    mine.close()

    # The tables play their lists (entered here through the services, as the devices would).
    status = desk.locator('[data-status-table="1"]')
    expect(status).to_contain_text("0 von 4 Spielen")
    with quiet_live_server.between_requests():
        for table in series.tables.all():
            play(table, *LISTS[table.number])
        links.ensure_links(series)
        token = links.active_links(series)[series.tables.get(number=1).pk].token
    expect(status).to_contain_text("4 von 4 Spielen", timeout=20_000)
    desk.evaluate("window.__notReloaded = true")

    # Table 1's phone calls the referee and seat 3 objects to game 2.
    device = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    phone = device.new_page()
    phone.goto(live_server.url + reverse("table:entry", args=[token]))
    phone.fill("#id_name", "Tisch 1 Handy")
    phone.click("#main button[type=submit]")
    # The call for the referee lies on the phone's screen, not cut off beside the device.
    expect(phone.locator("#table-help")).to_be_in_viewport(ratio=1)
    phone.click("#table-help")
    phone.check('input[name=reason][value="dispute"]')
    phone.click("#call-referee")
    expect(phone.locator('[data-call="open"]')).to_contain_text("Streitfall")
    phone.select_option("#id_number", "2")
    phone.check('input[name=seat][value="3"]')
    phone.fill("#id_reason", "Die Augen sind falsch gezählt")
    phone.click("#file-objection")
    expect(phone.locator(".help-objections li").first).to_contain_text(
        "wartet auf die Entscheidung"
    )

    # The player at table 2, seat 3 objects to game 2 from his personal link.
    objector = next(name for name, at in where.items() if at == (2, 3))
    own = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    own.add_init_script(RECORD_VIOLATIONS)
    evening = own.new_page()
    evening.goto(personal[objector])
    evening.get_by_role("link", name="Einspruch gegen Spiel 2").click()
    evening.get_by_label("Grund").fill("Ich hatte 61 Augen")
    assert checked(browser, own, evening.url, axe_source, 390) == []
    evening.click("#file-objection")
    expect(evening.locator(".flash-success")).to_contain_text("Einspruch zu Spiel 2 eingelegt")
    waiting = evening.locator(".me-objections li")
    expect(waiting).to_contain_text("wartet auf die Entscheidung")
    expect(evening.get_by_role("link", name="Einspruch gegen Spiel 2")).to_have_count(0)

    # The dashboard, never reloaded, shows the call and both objections.
    call = desk.locator('[data-call-table="1"]')
    expect(call).to_contain_text("Tisch 1 ruft", timeout=20_000)
    first = status.locator(".table-objection")
    expect(first).to_contain_text("Einspruch zu Spiel 2")
    expect(first).to_contain_text("Die Augen sind falsch gezählt")
    second = desk.locator('[data-status-table="2"] .table-objection')
    expect(second).to_contain_text(f"{objector} (Platz 3)", timeout=20_000)
    expect(second).to_contain_text("Ich hatte 61 Augen")
    assert desk.evaluate("window.__notReloaded") is True

    # The referee acknowledges the call and lets both games stand, with grounds.
    call.get_by_role("button", name="Gesehen").click()
    expect(desk.locator("[data-call-table]")).to_have_count(0)
    for table, grounds in ((1, "Nachgezählt: 50 Augen"), (2, "Nachgezählt: 55 Augen")):
        objection = desk.locator(f'[data-status-table="{table}"] .table-objection')
        objection.get_by_label("Begründung").fill(grounds)
        objection.get_by_role("button", name="Spiel bleibt").click()
        expect(objection).to_have_count(0)
        expect(desk.locator(".flash-success")).to_contain_text("das Spiel bleibt")
    expect(desk.locator(".table-objection")).to_have_count(0)

    # The table's phone and the player's evening show the answers without a reload.
    expect(phone.locator('[data-call="seen"]')).to_be_visible(timeout=20_000)
    expect(phone.locator(".help-objections li").first).to_contain_text("Nachgezählt: 50 Augen")
    decided = evening.locator(".me-objections li")
    expect(decided).to_have_attribute("data-decision", "kept", timeout=15_000)
    expect(decided).to_contain_text("Spiel bleibt")
    expect(decided).to_contain_text("Nachgezählt: 55 Augen")
    device.close()

    # The referee closes the three lists and publishes the series with its objection window.
    for table in (1, 2, 3):
        desk.locator(f'[data-close-table="{table}"]').click()
        expect(desk.locator(f'[data-status-table="{table}"] .badge-done')).to_have_text(
            "abgeschlossen"
        )
    desk.get_by_role("button", name="Ergebnisse veröffentlichen").click()
    expect(desk.locator("#publication .badge-done")).to_have_text("veröffentlicht")
    with quiet_live_server.between_requests():
        until = Series.objects.get(pk=series.pk).objections_until
    assert until is not None
    window = f"Einspruch bis {timezone.localtime(until).strftime('%H:%M')}"
    desk.goto(live_server.url + reverse("standings", args=[tournament.slug]))
    expect(desk.locator('[data-objections="open"]')).to_have_text(window)

    # The objector's evening, never reloaded, turns final; every link shows its final rank.
    expect(evening.locator('[data-figure="rank"]')).to_have_text("10. von 12", timeout=15_000)
    expect(evening.locator(".me-standing .provisional")).to_have_count(0)
    expect(evening.locator('.me-list [data-objections="open"]')).to_have_text(window)
    assert evening.evaluate("window.__violations") == []
    evening.reload()
    expect(evening.locator('[data-figure="rank"]')).to_have_text("10. von 12")
    evening.screenshot(path=str(folder / "evening-my-evening-final.png"), full_page=True)
    assert checked(browser, own, evening.url, axe_source, 390) == []
    own.close()
    mine = phones.new_page()
    for name, link in personal.items():
        mine.goto(link)
        at = where[name]
        expect(mine.locator('[data-figure="rank"]')).to_have_text(f"{RANKS[at]}. von 12")
        expect(mine.locator('[data-figure="total"]')).to_have_text(plain(TOTALS[at]))
        expect(mine.locator(".me-standing .provisional")).to_have_count(0)
    phones.close()

    with quiet_live_server.between_requests():
        assert RefereeCall.objects.get().acknowledged_at is not None
        decisions = Objection.objects.values_list("game__table__number", "decision")
        assert sorted(decisions) == [(1, "kept"), (2, "kept")]

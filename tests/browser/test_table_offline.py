"""The table's device through a Wi-Fi drop: the tap grid, the service worker's copy of the
page, the queue of games not sent yet, and a conflict that loses neither version. The
referee and the device each have their own browser context (no shared cookies).

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/table-phone.png (390 px),
table-tablet.png (820 px) and table-offline-phone.png.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.signals import request_started
from django.urls import reverse

from skatliga.models import Change, Game, Table
from skatliga.services import table_links as table_services
from tests.browser.conftest import HallLine
from tests.browser.test_accessibility import axe
from tests.browser.test_entry import PASSWORD, four_table
from tests.browser.test_security_policy import RECORD_VIOLATIONS

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(browser, live_server, path: str):
    referee = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    desk = referee.new_page()
    desk.goto(live_server.url + path)
    desk.fill("#id_username", "anna")
    desk.fill("#id_password", PASSWORD)
    desk.click("form.login-form button[type=submit]")
    desk.wait_for_url(re.compile(re.escape(path) + "$"))
    return referee, desk


def open_device(browser, url: str, width: int = 390, height: int = 844):
    """The table's phone opens the link without login, names itself, and waits until the
    service worker controls the page (the next load of the list goes through it)."""
    device = browser.new_context(
        viewport={"width": width, "height": height},
        locale="de-DE",
        has_touch=True,
        is_mobile=width < 600,
    )
    device.add_init_script(RECORD_VIOLATIONS)
    phone = device.new_page()
    phone.goto(url)
    phone.fill("#id_name", "Tisch 1 Handy")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#tap-grid")
    # (A promise, not wait_for_function: its polling would need eval, which the CSP refuses.)
    assert phone.evaluate(CONTROLLED) is True
    return device, phone


CONTROLLED = """new Promise((resolve) => {
  const worker = navigator.serviceWorker;
  if (worker.controller) resolve(true);
  else worker.addEventListener("controllerchange", () => resolve(worker.controller !== null));
})"""


def tap(page, group: str, name: str) -> None:
    """Tap the button ``name`` of a group; "mit 2" or "ohne 2" (any language) taps the
    matadors' sign, then their count."""
    signed = re.fullmatch(r"(\S+) (\d+)", name) if group == "matadors" else None
    if signed:
        tap(page, "matadors", signed[1])
        name = signed[2]
    page.locator(
        f"#tap-grid .tap-{group} button", has_text=re.compile(f"^{re.escape(name)}$")
    ).click()


@contextmanager
def requests_reaching_the_server():
    """The paths of every request the live server receives meanwhile."""
    paths: list[str] = []

    def record(sender, environ=None, **kwargs):
        if environ is not None:
            paths.append(environ.get("PATH_INFO", ""))

    request_started.connect(record)
    try:
        yield paths
    finally:
        request_started.disconnect(record)


def scores(table: Table) -> list[tuple[int, bool, int]]:
    return [
        (g.number, g.passed, g.list_score)
        for g in Game.objects.filter(table=table).order_by("number")
    ]


def print_cards(browser, live_server, table: Table):
    """The referee logs in, prints the table cards and reads table 1's link."""
    tournament = table.series.tournament
    series_path = reverse("referee:series", args=[tournament.slug, 1])
    referee, desk = log_in(browser, live_server, series_path)
    href = desk.get_by_role("link", name="Tischkarten (PDF)").get_attribute("href")
    cards = desk.request.get(live_server.url + href)
    assert cards.ok and cards.body().startswith(b"%PDF")
    desk.locator("details.table-link summary").first.click()
    link = desk.locator(".table-url").first.get_attribute("href")
    return referee, desk, link


def play(phone, declarer: str, game: str, *buttons: tuple[str, str]) -> None:
    """A plain game by taps alone: declarer, game, then (group, button) pairs."""
    tap(phone, "declarer", declarer)
    tap(phone, "game", game)
    for group, name in buttons:
        tap(phone, group, name)


def first_three_games(phone, table: Table, screenshot: bool = False) -> None:
    """Games 1 to 3 online, by taps: a +96 grand, an overbid (−54) and a passed-in game."""
    from playwright.sync_api import expect

    # Game 1 (seat 1 deals and sits out, so his button is disabled): Bernd, Grand hand
    # with 2, no bid (it was reached), won: (2 + 1 game + 1 hand) × 24 = 96. The bids are
    # out of the way until "überreizt".
    expect(phone.locator("#tap-grid .tap-declarer button").first).to_be_disabled()
    expect(phone.locator("#tap-grid .tap-bids")).to_be_hidden()
    play(
        phone,
        "Bernd Łukasz",
        "Grand",
        ("matadors", "mit 2"),
        ("levels", "Hand"),
        ("won", "gewonnen"),
    )
    # Pressed: Bernd, Grand, "mit" and 2, Hand, gewonnen.
    expect(phone.locator("#tap-grid button[aria-pressed=true]")).to_have_count(6)
    assert phone.input_value("#id_matadors") == "2" and phone.is_checked("#id_hand")
    expect(phone.locator("#entry-value")).to_have_text("+96")
    if screenshot:
        phone.screenshot(path=str(SCREENSHOTS / "table-phone.png"), full_page=True)
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")

    # Game 2, an overbid: Carla, diamonds without 1 (9 × 2 = 18) after a bid of 22: lost at
    # 9 × 3 = 27, doubled on the list: −54.
    play(
        phone,
        "Carla Weiß",
        "Karo",
        ("matadors", "ohne 1"),
        ("bid", "überreizt"),
        ("bids", "22"),
        ("won", "gewonnen"),
    )
    expect(phone.locator("#entry-value")).to_have_text("−54")
    expect(phone.locator("#entry-verdict")).to_contain_text("überreizt")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-2.is-saved")

    # Game 3: passed in.
    phone.click("#entry-passed")
    phone.wait_for_selector("#row-3.is-passed")
    assert scores(table) == [(1, False, 96), (2, False, -54), (3, True, 0)]


def two_games_offline_and_a_reload(
    device, phone, table: Table, line: HallLine, screenshot: bool = False
):
    """Offline: games 4 and 5 wait on the device, and survive a reload."""
    from playwright.sync_api import expect

    # What the page asked while online (a preview of the new row) has been answered.
    expect(phone.locator("form#entry")).not_to_have_class(re.compile(r"\bis-previewing\b"))
    with requests_reaching_the_server() as reached:
        # The hall's line goes down with the Wi-Fi (conftest.HallLine): no post from the
        # device reaches the server until both are back, whichever fetch sends it.
        line.down()
        device.set_offline(True)
        # The page's own fetches fail.
        assert phone.evaluate("fetch('/t/sw.js').then(() => 'sent', () => 'failed')") == "failed"

        # Game 4 offline (seat 4 deals): Anna, hearts with 1, lost: (1 + 1) × 10 = 20,
        # −40 on the list, once the server has scored it; here the value waits.
        play(phone, "Anna Schmidt", "Herz", ("matadors", "mit 1"))
        tap(phone, "won", "verloren")
        expect(phone.locator("#entry-value")).to_have_text("…")
        phone.click("#entry-save")
        expect(phone.locator("#row-4 .queued-badge")).to_have_text("noch nicht gesendet")
        # The form moves on to game 5, where seat 1 deals and sits out (the page's own list
        # says so: no rule in the script).
        expect(phone.locator(".entry-title")).to_have_text("Spiel 5")
        expect(phone.locator(".entry-dealer")).to_have_text("Geber: Anna Schmidt")
        expect(phone.locator("#tap-grid .tap-declarer button").first).to_be_disabled()

        # Game 5 offline: Dieter, clubs with 1, won: (1 + 1) × 12 = 24.
        play(phone, "Dieter Krüger", "Kreuz", ("matadors", "mit 1"), ("won", "gewonnen"))
        phone.click("#entry-save")
        items = phone.locator("#table-queue-items > li")
        expect(items).to_have_count(2)
        expect(items.nth(0)).to_contain_text("Spiel 4")
        expect(items.nth(0)).to_contain_text("Anna Schmidt")
        expect(items.nth(1)).to_contain_text("Spiel 5")
        expect(phone.locator("#table-offline-note")).to_contain_text("Keine Verbindung")
        if screenshot:
            phone.screenshot(path=str(SCREENSHOTS / "table-offline-phone.png"), full_page=True)

        # A reload without Wi-Fi: the service worker's copy, the queue still there.
        response = phone.reload()
        assert response is not None and response.from_service_worker
        phone.wait_for_selector("#tap-grid")
        expect(phone.locator("#table-queue-items > li")).to_have_count(2)
        expect(phone.locator("#row-4 .queued-badge")).to_have_text("noch nicht gesendet")
        expect(phone.locator("#row-5 .queued-badge")).to_have_text("noch nicht gesendet")
        expect(phone.locator(".entry-title")).to_have_text("Spiel 6")
        # The copy has the rows saved in place and their totals (seat 2's grand and 50 for
        # the game won, 30 to each other player for Carla's lost overbid).
        expect(phone.locator("#row-2 td.c-value")).to_contain_text("−54")
        expect(phone.locator("#row-3")).to_have_class(re.compile(r"\bis-passed\b"))
        totals = phone.locator("tfoot td[data-summary='total']")
        expect(totals).to_have_text(["30", "176", "−104", "30"])
        assert scores(table) == [(1, False, 96), (2, False, -54), (3, True, 0)]
    # Nothing from the table reached the server while the device was offline: no post (the
    # line was down), and no page the offline emulation should have stopped. Only the
    # browser's own update check of the worker script may pass: Chromium makes it outside
    # the page and the worker, where the offline emulation does not reach; it carries no
    # game. (The referee's dashboard, in its own context, keeps polling.)
    worker = reverse("table:service-worker")
    assert [path for path in reached if path.startswith("/t/") and path != worker] == []


def back_online(device, phone, table: Table, line: HallLine) -> None:
    """Back online: the two games go in order, each through the same save."""
    from playwright.sync_api import expect

    line.up()
    device.set_offline(False)
    phone.wait_for_selector("#row-5.is-saved")
    expect(phone.locator("#table-queue")).to_be_hidden()
    assert scores(table) == [
        (1, False, 96),
        (2, False, -54),
        (3, True, 0),
        (4, False, -40),
        (5, False, 24),
    ]
    created = Change.objects.filter(table=table, action=Change.Action.GAME_RECORDED).order_by("pk")
    assert [c.game_number for c in created] == [1, 2, 3, 4, 5]
    assert {c.device for c in created} == {"Tisch 1 Handy"}


def test_a_table_keeps_its_list_through_a_wifi_drop(
    browser, live_server, django_user_model, axe_source, hall_line
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    tournament = table.series.tournament
    screenshots = bool(os.environ.get("SKATLIGA_SCREENSHOTS"))
    referee, desk, link = print_cards(browser, live_server, table)
    device, phone = open_device(browser, link)
    assert phone.evaluate("window.__violations") == []

    # The grid works from the keyboard too: Tab reaches its buttons, Space presses one.
    phone.locator("#tap-grid .tap-game button").first.focus()
    phone.keyboard.press("Space")
    assert phone.input_value("#id_game") == "clubs"
    expect(phone.locator("#tap-grid .tap-game button").first).to_have_attribute(
        "aria-pressed", "true"
    )
    phone.keyboard.press("Tab")
    phone.keyboard.press("Enter")
    assert phone.input_value("#id_game") == "spades"
    phone.keyboard.press("Enter")  # pressed again: off
    assert phone.input_value("#id_game") == ""

    first_three_games(phone, table, screenshot=screenshots)
    two_games_offline_and_a_reload(device, phone, table, hall_line, screenshot=screenshots)
    back_online(device, phone, table, hall_line)
    assert phone.evaluate("window.__violations") == []

    # The referee's list shows them.
    desk.goto(live_server.url + reverse("referee:list", args=[tournament.slug, 1, table.number]))
    expect(desk.locator("#row-4")).to_contain_text("−40")
    expect(desk.locator("#row-5")).to_contain_text("+24")

    if screenshots:
        tablet = browser.new_context(
            viewport={"width": 820, "height": 1180},
            locale="de-DE",
            has_touch=True,
            storage_state=device.storage_state(),
        )
        pad = tablet.new_page()
        pad.goto(link)
        pad.wait_for_selector("#tap-grid")
        tap(pad, "declarer", "Carla Weiß")
        tap(pad, "game", "Pik")
        tap(pad, "matadors", "ohne 2")
        tap(pad, "levels", "Hand")
        tap(pad, "won", "gewonnen")
        expect(pad.locator("#entry-value")).to_have_text("+44")  # (2 + 1 + 1) × 11
        pad.screenshot(path=str(SCREENSHOTS / "table-tablet.png"))
        tablet.close()

    # axe-core over the grid and the queue, in a copy of the device that bypasses the CSP.
    checker = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="de-DE",
        storage_state=device.storage_state(),
        bypass_csp=True,
    )
    copy = checker.new_page()
    copy.goto(link)
    copy.wait_for_selector("#tap-grid")
    assert axe(copy, axe_source) == []
    checker.close()
    device.close()
    referee.close()


def test_a_conflict_after_the_wifi_drop_shows_both_versions_and_loses_neither(
    browser, live_server, django_user_model, hall_line
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    tournament = table.series.tournament
    link = table_services.renew_link(table)
    device, phone = open_device(
        browser, live_server.url + reverse("table:entry", args=[link.token])
    )

    # Game 1 online: Bernd, spades with 1, won: (1 + 1) × 11 = 22.
    tap(phone, "declarer", "Bernd Łukasz")
    tap(phone, "game", "Pik")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")

    # The device opens game 1 for a correction, then loses the Wi-Fi and marks it lost:
    # −44 once sent.
    phone.click("#row-1 th a")
    expect(phone.locator(".entry-title")).to_have_text("Spiel 1 korrigieren")
    # The hall's line goes down with the Wi-Fi: no send from the device can reach the server
    # before the referee's correction.
    hall_line.down()
    device.set_offline(True)
    tap(phone, "won", "verloren")
    phone.click("#entry-save")
    phone.wait_for_selector("#table-queue-items > li")
    expect(phone.locator("#row-1 .queued-badge")).to_have_text("noch nicht gesendet")
    # Still offline, game 2: Carla, grand with 1, won: (1 + 1) × 24 = 48.
    phone.wait_for_selector("#tap-grid")
    play(phone, "Carla Weiß", "Grand", ("matadors", "mit 1"), ("won", "gewonnen"))
    phone.click("#entry-save")
    expect(phone.locator("#row-2 .queued-badge")).to_have_text("noch nicht gesendet")

    # Meanwhile the referee corrects the same row: with 2, (2 + 1) × 11 = 33.
    referee, desk = log_in(
        browser,
        live_server,
        reverse("referee:list", args=[tournament.slug, 1, table.number]),
    )
    desk.click("#row-1 th a")
    desk.fill("#id_matadors", "2")
    desk.click("#entry-save")
    desk.wait_for_selector("#row-1.is-saved")
    assert scores(table) == [(1, False, 33)]

    # Back online: the device's correction meets the newer row; both are shown. The game
    # after it does not wait for the players' decision, and the save bar names the conflict.
    hall_line.up()
    device.set_offline(False)
    item = phone.locator("#table-queue-items > li.is-conflict")
    expect(item).to_contain_text("Konflikt")
    phone.wait_for_selector("#row-2.is-saved")
    expect(phone.locator(".entry-foot #queue-alert")).to_have_text(
        "Konflikt: Spiel 1 wurde inzwischen anders gespeichert"
    )
    expect(phone.locator("#queue-alert")).to_be_in_viewport()
    expect(item.locator(".queue-mine")).to_contain_text("verloren")
    expect(item.locator(".queue-mine")).to_contain_text("mit 1")
    expect(item.locator(".queue-theirs")).to_contain_text("mit 2")
    assert scores(table) == [(1, False, 33), (2, False, 48)]  # the referee's row stands
    # The device's version is still on the device.
    stored = phone.evaluate("JSON.parse(localStorage.getItem(localStorage.key(0)))")
    assert [item["state"] for item in stored] == ["conflict"]
    assert ["won", "lost"] in stored[0]["fields"]

    # The players insist: the device's version is sent again, now against the new row. The
    # referee wrote that row, so the referee's version stands and the table's waits for the
    # referee, on the dashboard and on the list.
    item.get_by_role("button", name="Meine Fassung speichern").click()
    rejected = phone.locator("#table-queue-items > li.is-rejected")
    expect(rejected).to_contain_text("ihre Fassung gilt")
    assert scores(table) == [(1, False, 33), (2, False, 48)]
    desk.goto(live_server.url + reverse("referee:series", args=[tournament.slug, 1]))
    expect(desk.locator(".status-disputes")).to_contain_text("Spiel 1")
    desk.locator(".status-disputes a").click()
    dispute = desk.locator("#dispute-1")
    expect(dispute).to_contain_text("Tisch 1 Handy")
    dispute.get_by_role("button", name="Übernehmen").click()
    desk.wait_for_selector("#row-1.is-lost")
    assert scores(table) == [(1, False, -44), (2, False, 48)]
    rejected.get_by_role("button", name="Meine Fassung verwerfen").click()
    expect(phone.locator("#table-queue")).to_be_hidden()
    assert phone.evaluate("localStorage.length") == 0
    device.close()
    referee.close()


def test_a_save_that_cannot_reach_the_server_waits_on_the_device(
    browser, live_server, django_user_model, hall_line
):
    """The Wi-Fi is up (the browser thinks it is online) but the hall's line is down: the
    service worker hands the posted row back to the page, which keeps it until the server
    answers again."""
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    device, phone = open_device(
        browser, live_server.url + reverse("table:entry", args=[link.token])
    )

    hall_line.down()
    # Game 1: Bernd, grand with 1, won: (1 + 1) × 24 = 48.
    tap(phone, "declarer", "Bernd Łukasz")
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    phone.click("#entry-save")
    expect(phone.locator("#row-1 .queued-badge")).to_have_text("noch nicht gesendet")
    expect(phone.locator("#table-queue-items > li")).to_contain_text("Grand, mit 1")
    assert "unsent" not in phone.url  # the row left the address at once
    assert phone.evaluate("navigator.onLine") is True
    assert scores(table) == []

    hall_line.up()
    phone.wait_for_selector("#row-1.is-saved", timeout=15_000)
    assert scores(table) == [(1, False, 48)]
    device.close()


def test_a_revoked_link_leaves_nothing_on_the_device(
    browser, live_server, django_user_model, quiet_live_server
):
    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    entry = live_server.url + reverse("table:entry", args=[link.token])
    device, phone = open_device(browser, entry)
    phone.goto(entry + "device/")
    phone.goto(entry)  # the list and the device's page are kept now
    with quiet_live_server.between_requests():  # the page's own fetches may still run
        table_services.revoke_link(table)

    assert phone.goto(entry).status == 404
    phone.wait_for_timeout(500)  # the worker forgets in the background
    device.set_offline(True)
    for path in ("", "device/"):
        with pytest.raises(Exception, match="ERR_"):
            phone.goto(entry + path)
    device.close()


# The text of the page the worker keeps for ``path``, with ``[before, after]`` replaced in it
# first when given.
KEPT = """async ([path, change]) => {
  const name = (await caches.keys()).find((name) => name.startsWith("skatliga-table-"));
  const cache = await caches.open(name);
  const kept = (await cache.keys()).find((request) => new URL(request.url).pathname === path);
  if (!kept) return "";
  const old = await cache.match(kept, { ignoreVary: true });
  let text = await old.text();
  if (change) {
    text = text.replace(change[0], change[1]);
    await cache.put(kept, new Response(text, { status: old.status, headers: old.headers }));
  }
  return text;
}"""
KEPT_NUMBER = re.compile(r'<form id="entry"[\s\S]*?name="number" value="(\d+)"')
KEPT_REVISION = re.compile(r'<table class="list[^>]*? data-revision="([^"]*)"')


def kept_page(phone, path: str, until, change=None) -> str:
    """The worker's copy of ``path`` once ``until(text)`` holds (the page keeps it in the
    background)."""
    text = phone.evaluate(KEPT, [path, change])
    for _ in range(50):
        if until(text):
            return text
        phone.wait_for_timeout(100)
        text = phone.evaluate(KEPT, [path, None])
    raise AssertionError(text)


def test_a_save_in_place_keeps_the_workers_copy_of_the_page(
    browser, live_server, django_user_model
):
    """The rows a save answers go into the worker's copy by their ids, with the summary and
    the list's revision; a copy older than the page is kept anew from the server."""
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    path = reverse("table:entry", args=[table_services.renew_link(table).token])
    device, phone = open_device(browser, live_server.url + path)
    kept_page(phone, path, lambda text: 'id="row-1"' in text)

    # Game 1: Bernd, grand with 1, won: (1 + 1) × 24 = 48, and 50 for the game won.
    tap(phone, "declarer", "Bernd Łukasz")
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")
    shown = phone.get_attribute("table.list", "data-revision")
    text = kept_page(phone, path, lambda text: 'class="is-saved' in text)
    # Patched where it was: its form is the one it was kept with, at game 1.
    assert KEPT_NUMBER.search(text)[1] == "1"
    assert KEPT_REVISION.search(text)[1] == shown
    assert 'id="row-2" data-number="2" class="is-empty is-editing"' in text
    assert 'data-summary="total" data-seat="2">98<' in text

    # The copy falls behind the page (as if kept before game 1): the next save keeps it anew.
    kept_page(
        phone,
        path,
        lambda text: KEPT_REVISION.search(text)[1] == "0.0",
        change=[f'data-revision="{shown}"', 'data-revision="0.0"'],
    )
    tap(phone, "declarer", "Carla Weiß")
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "mit 1")
    tap(phone, "won", "gewonnen")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-2.is-saved")
    expect(phone.locator(".entry-title")).to_have_text("Spiel 3")
    text = kept_page(phone, path, lambda text: KEPT_NUMBER.search(text)[1] == "3")
    assert KEPT_REVISION.search(text)[1] == phone.get_attribute("table.list", "data-revision")
    assert 'id="row-2" data-number="2" class="is-saved' in text
    device.close()


# The kept page's "Date" set back by ``hours`` in the worker's cache, as if it had been kept
# then (the worker reads the age of a kept page from it).
AGED = """async ([path, hours]) => {
  const name = (await caches.keys()).find((name) => name.startsWith("skatliga-table-"));
  const cache = await caches.open(name);
  const kept = (await cache.keys()).find((request) => new URL(request.url).pathname === path);
  const old = await cache.match(kept, { ignoreVary: true });
  const headers = new Headers(old.headers);
  headers.set("Date", new Date(Date.now() - hours * 3600 * 1000).toUTCString());
  const body = await old.blob();
  await cache.put(kept, new Response(body, { status: old.status, headers: headers }));
  return Date.parse((await cache.match(kept, { ignoreVary: true })).headers.get("Date"));
}"""


def test_a_page_kept_longer_than_two_days_is_not_shown_offline(
    browser, live_server, django_user_model
):
    """The worker keeps a table's pages for two days (``KEPT_FOR`` in sw.js): an older copy
    is not shown offline, so a forgotten phone does not show a list and its CSRF token days
    after the tournament."""
    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    path = reverse("table:entry", args=[link.token])
    device, phone = open_device(browser, live_server.url + path)
    phone.goto(live_server.url + path)  # kept by the worker now
    device.set_offline(True)

    # Kept 47 hours ago: still shown.
    phone.evaluate(AGED, [path, 47])
    response = phone.reload()
    assert response is not None and response.from_service_worker
    phone.wait_for_selector("#tap-grid")

    # Kept 49 hours ago: gone, offline the page does not open.
    phone.evaluate(AGED, [path, 49])
    with pytest.raises(Exception, match="ERR_"):
        phone.reload()
    device.close()

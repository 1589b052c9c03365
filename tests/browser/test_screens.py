"""Screens of an evening: the hall display on a 1920×1080 projector pages through the whole
ranking by itself, every row inside the screen, a long name on one line beside its club; on a
390 px phone the public list shows every running total, a very long name keeps to two lines
on the table device's buttons, and its conflict buttons look like buttons."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from skatliga.models import Club
from tests.web.factories import entry, make_player, make_table, make_tournament, play

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "Maximilian-Alexander Friedrich von Hohenzollern-Sigmaringen"


def evening(players: int):
    """A tournament of ``players`` at 4-tables, one grand won at each table (a ranking with
    ties); the first player's name very long; two clubs."""
    tournament = make_tournament(rounds=1, slug="abend")
    clubs = [Club.objects.create(name=n) for n in ("Skatfreunde Musterstadt 1958 e. V.", "Herz")]
    people = [
        make_player(LONG if n == 0 else f"Spieler {n + 1:03d}", club=clubs[n % 2])
        for n in range(players)
    ]
    for start in range(0, players, 4):
        table = make_table(tournament, players=people[start : start + 4])
        play(table, entry(2 + start // 4 % 3, "grand", matadors=1, card_points=70))
    return tournament


@pytest.mark.parametrize("players", [40, 120])
def test_the_hall_pages_through_every_rank_within_the_screen(browser, live_server, players):
    tournament = evening(players)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(live_server.url + reverse("hall", args=[tournament.slug]) + "?turn=1")

    seen: set[str] = set()
    deadline = time.monotonic() + 40
    while len(seen) < players and time.monotonic() < deadline:
        shown = page.eval_on_selector_all(
            "#hall-rows tr",
            """rows => rows.filter(r => r.getClientRects().length).map(r => {
                const box = r.getBoundingClientRect();
                const name = r.cells[1];
                return [name.textContent, box.bottom, name.scrollHeight,];
            })""",
        )
        for name, bottom, height in shown:
            assert bottom <= 1080, f"{name} below the screen's edge"
            assert height < 2 * page.evaluate(
                "parseFloat(getComputedStyle(document.body).fontSize) * 1.5"
            )
            seen.add(name)
        time.sleep(0.3)

    assert len(seen) == players
    assert LONG in seen


def test_the_public_list_shows_every_running_total_on_a_phone(browser, live_server):
    from skatliga.models import Table

    tournament = evening(4)
    table = Table.objects.get(series__tournament=tournament)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(live_server.url + reverse("table", args=[tournament.slug, 1, table.number]))

    region = page.locator(".table-scroll")
    widths = region.evaluate("r => [r.scrollWidth, r.clientWidth]")
    right = page.eval_on_selector_all(
        ".list-readonly tr > *",
        "cells => Math.max(...cells.map(c => c.getBoundingClientRect().right))",
    )
    assert widths[0] <= widths[1] and right <= 390


def test_a_very_long_name_keeps_to_two_lines_on_a_phones_buttons(browser, live_server):
    from skatliga.models import Table
    from skatliga.services import table_links as links
    from tests.browser.test_table_offline import open_device

    table = Table.objects.get(series__tournament=evening(4))
    link = links.renew_link(table)
    _device, phone = open_device(
        browser, live_server.url + reverse("table:entry", args=[link.token])
    )

    button = phone.locator("#tap-grid .tap-declarer button", has_text="Maximilian")
    line = button.evaluate("b => parseFloat(getComputedStyle(b).lineHeight)")
    assert button.evaluate("b => b.getBoundingClientRect().height") <= 2 * line + 12
    styles = phone.evaluate(
        """() => {
            const box = document.createElement("p");
            box.className = "queue-actions";
            box.innerHTML = '<button type="button" class="button-primary">a</button>'
                + '<button type="button" class="button-danger">b</button>';
            document.querySelector("main").appendChild(box);
            return [...box.children].map(b => [getComputedStyle(b).borderRadius,
                                               getComputedStyle(b).minHeight]);
        }"""
    )
    assert all(radius != "0px" and height != "auto" for radius, height in styles)

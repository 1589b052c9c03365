"""The referee's settlement of a 13-player evening (tests/web/test_money.py) on a phone and a
laptop: each player's Saldo, what changes hands now, is on screen without scrolling
sideways, with its real minus sign."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from skatliga.models import Registration
from skatliga.services.checkin import mark
from tests.browser.test_accessibility import PASSWORD, WIDTHS, log_in
from tests.web.test_money import evening  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", list(WIDTHS))
def test_the_saldo_is_on_screen_at_phone_and_laptop_width(
    browser,
    live_server,
    evening,  # noqa: F811
    size,
):
    from playwright.sync_api import expect

    for name, fee in (("P13", "cash"), ("P6", "card"), ("P11", "cash")):
        mark(Registration.objects.get(tournament=evening, player__name=name), fee=fee)
    user = get_user_model().objects.create_user("anna", password=PASSWORD)
    evening.referees.add(user)
    context = browser.new_context(viewport=WIDTHS[size], locale="de-DE")
    page = context.new_page()
    log_in(page, live_server)
    page.goto(live_server.url + reverse("referee:money", args=[evening.slug]))

    region = page.locator(".table-scroll").first
    scroll, client = region.evaluate("r => [r.scrollWidth, r.clientWidth]")
    assert scroll <= client
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[size]["width"]
    row = page.locator("table.money tbody tr").filter(
        has=page.get_by_role("cell", name="P11", exact=True)
    )
    expect(row.locator("[data-balance]")).to_have_text("\u22123,50")
    right = row.locator("[data-balance]").evaluate("c => c.getBoundingClientRect().right")
    assert right <= WIDTHS[size]["width"]
    totals = page.locator(".money-totals")
    # Each total on one line with its label: the list of figures is no taller than its rows.
    assert totals.evaluate("d => d.getBoundingClientRect().height") < 9 * 2 * 24
    context.close()

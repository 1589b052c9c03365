"""The division's public page on a phone and a laptop: the table's rank, team, match points
and game points within the screen's width, the provisional figures marked, each group's
tournament a link away."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web import conftest as web

pytestmark = pytest.mark.django_db(transaction=True)

played = web.played
"""The match day of tests/web/conftest.py, its figures worked out by hand there."""


@pytest.mark.parametrize("width", [390, 1366])
def test_the_division_table_fits_the_screen_and_says_it_is_provisional(
    browser, live_server, played, width
):
    from playwright.sync_api import expect

    division, (a, b, *_others) = played
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    page = context.new_page()

    page.goto(live_server.url + reverse("division", args=[division.pk]))

    table = page.locator("#table table.standings")
    expect(table.locator("tbody tr").first).to_contain_text(b.name)
    expect(table.locator("tbody tr").first).to_contain_text("6 : 3")
    expect(page.locator("[data-provisional]")).to_be_visible()
    last = table.locator("thead th:visible").last
    box = last.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    page.locator("#day-1 .group-card").first.get_by_role("link", name="Turnier").click()
    expect(page.locator("h1")).to_contain_text("1. Spieltag")
    context.close()

"""Input the site refuses, as a phone shows it (issue 37, items 3 and 10): a NUL in a guest's
name at check-in is an error at the guest's form that keeps the club, and an outcome no deal
can give (119 card points: no card is worth one point) is an error at the tap grid."""

from __future__ import annotations

import pytest

from tests.browser.test_checkin import checkin_url, door
from tests.browser.test_table_offline import open_device, scores, tap
from tests.browser.test_tap_grid import BROKEN, device_url, four_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [390, 1366])
def test_a_nul_in_a_guests_name_is_an_error_that_keeps_the_club(
    browser, live_server, tmp_path, width
):
    from playwright.sync_api import expect

    url = checkin_url(live_server, door())
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="de-DE")
    page = context.new_page()
    page.goto(url)
    page.fill("#id_club", "SV Nachbarort")
    # A NUL typed or pasted into the name: the browser sends it as it is.
    page.evaluate("document.querySelector('#id_name').value = 'Jens\\u0000 Gast'")
    page.get_by_role("button", name="Als Gast einchecken").click()

    expect(page.get_by_role("alert")).to_have_text("Nullzeichen sind nicht erlaubt.")
    expect(page.locator("#id_club")).to_have_value("SV Nachbarort")
    expect(page.locator("#id_name")).to_have_value("Jens Gast")
    page.screenshot(path=str(tmp_path / f"checkin-nul-{width}.png"), full_page=True)
    context.close()


def test_the_grid_refuses_card_points_no_deal_gives(
    browser, live_server, django_user_model, tmp_path
):
    from playwright.sync_api import expect

    table = four_table(django_user_model)
    device, phone = open_device(browser, device_url(live_server, table))
    tap(phone, "declarer", "Ute Hartmann")
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "mit 1")
    phone.fill("#id_card_points", "119")
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#entry-errors")
    phone.locator("#id_card_points").scroll_into_view_if_needed()
    phone.screenshot(path=str(tmp_path / "grid-impossible-390.png"))

    expect(phone.locator("#entry-errors")).to_contain_text("keine Karte zählt 1 Auge")
    expect(phone.locator('[data-code="card_points_impossible"]').first).to_be_visible()
    assert phone.evaluate(BROKEN) == []
    assert scores(table) == []
    device.close()

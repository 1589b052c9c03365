"""The table's device offline in every language, and on its very first load: the service
worker keeps /t/<token>/ and /en/t/<token>/, and one queue holds the table's games whatever
the page's language."""

from __future__ import annotations

import pytest
from django.urls import reverse

from skatliga.services import table_links as table_services
from tests.browser.test_entry import four_table
from tests.browser.test_table_offline import CONTROLLED, open_device, scores, tap

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_brand_new_phone_reloads_its_first_page_offline(
    browser, live_server, django_user_model, hall_line
):
    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    device, phone = open_device(
        browser, live_server.url + reverse("table:entry", args=[link.token])
    )

    # Nothing typed, nothing saved: the only load of the list is the first one.
    hall_line.down()
    device.set_offline(True)
    response = phone.reload()

    assert response is not None and response.from_service_worker
    phone.wait_for_selector("#tap-grid")
    device.close()


def test_the_english_page_works_offline_and_shares_the_queue_with_the_german(
    browser, live_server, django_user_model, hall_line
):
    from playwright.sync_api import expect

    table = four_table(2, django_user_model)
    link = table_services.renew_link(table)
    german = live_server.url + reverse("table:entry", args=[link.token])
    english = live_server.url + "/en" + reverse("table:entry", args=[link.token])
    assert english.endswith(f"/en/t/{link.token}/")
    device, phone = open_device(browser, german)
    phone.goto(english)
    phone.wait_for_selector("#tap-grid")
    assert phone.evaluate(CONTROLLED) is True

    hall_line.down()
    device.set_offline(True)
    response = phone.reload()
    assert response is not None and response.from_service_worker
    phone.wait_for_selector("#tap-grid")

    # Game 1 offline, in English: Bernd, grand with 1, won: (1 + 1) × 24 = 48.
    tap(phone, "declarer", "Bernd Łukasz")
    tap(phone, "game", "Grand")
    tap(phone, "matadors", "with 1")
    tap(phone, "won", "won")
    phone.click("#entry-save")
    expect(phone.locator("#row-1 .queued-badge")).to_have_text("not sent yet")

    # The German page, still offline, shows the same game waiting.
    response = phone.goto(german)
    assert response is not None and response.from_service_worker
    expect(phone.locator("#row-1 .queued-badge")).to_have_text("noch nicht gesendet")

    hall_line.up()
    device.set_offline(False)
    phone.wait_for_selector("#row-1.is-saved")
    assert scores(table) == [(1, False, 48)]
    device.close()

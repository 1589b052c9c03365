"""A seat signs with its code on the table's phone (issue 27, item 6): the sign page asks for
the seat code from the table card, a wrong one is refused in words with nothing lost, the
right one signs. Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/sign-seat-code.png.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Signature
from skatliga.services import table_links as table_services
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.browser.test_table_offline import SCREENSHOTS
from tests.browser.test_table_signing import checked, three_table
from tests.web.factories import entry

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_seat_signs_with_its_code_on_a_phone(
    browser, live_server, django_user_model, axe_source, tmp_path
):
    from playwright.sync_api import expect

    table = three_table(django_user_model, name="Wintercup Altenburg", seat_codes=True)
    grand = entry(2, "grand", bid=24, matadors=2, hand=True, card_points=78, tricks=7)
    services.record_game(table, 1, grand, device="Tisch 1 Handy")
    for number in (2, 3):
        services.record_game(table, number, entry(), device="Tisch 1 Handy")
    link = table_services.renew_link(table)
    code = table.seats.get(position=2).sign_code
    wrong = "0000" if code != "0000" else "1111"

    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de-DE", has_touch=True, is_mobile=True
    )
    device.add_init_script(RECORD_VIOLATIONS)
    phone = device.new_page()
    phone.goto(live_server.url + reverse("table:entry", args=[link.token]))
    phone.fill("#id_name", "Tisch 1 Handy")
    phone.click("#main button[type=submit]")
    phone.click("#sign-list")
    expect(phone.locator(".sign-page > p").first).to_contain_text("Sitzcode")
    phone.click('.sign-names a[data-seat="2"]')

    # The page asks Bernd for the code of seat 2, with a number pad.
    field = phone.get_by_label("Sitzcode von Platz 2")
    expect(field).to_be_visible()
    assert field.get_attribute("inputmode") == "numeric"
    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    phone.screenshot(path=str(folder / "sign-seat-code.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert checked(browser, device, phone.url, axe_source, 390) == []

    # A wrong code: refused in words, the list still there to sign.
    field.fill(wrong)
    phone.click("#sign-confirm")
    alert = phone.get_by_role("alert")
    expect(alert).to_have_attribute("data-code", "seat_code_wrong")
    expect(alert).to_contain_text("Der Sitzcode stimmt nicht.")
    expect(phone.locator(".sign-totals li").first).to_have_attribute("data-seat", "2")
    assert not Signature.objects.exists()

    # The right one signs, and the list says how.
    phone.get_by_label("Sitzcode von Platz 2").fill(code)
    phone.click("#sign-confirm")
    expect(phone.locator('.sign-names a[data-seat="2"]')).to_contain_text("✓ unterschrieben")
    phone.click("text=Zurück zur Liste")
    expect(phone.locator('#signatures li[data-seat="2"]')).to_contain_text("(mit Sitzcode)")
    assert [(s.position, s.method) for s in Signature.objects.all()] == [(2, "code")]
    assert phone.evaluate("window.__violations") == []
    device.close()

"""The table's tap grid at 390 px (issue 37, items 8 and 11): every button's words fit in
every language, a validation error never takes the grid apart, a won game with schneider
announced is saved as made, and after a save the bar under the grid explains nothing of the
game before.

The list: a 4-table, seats 1 Anna, 2 Ute, 3 Carla, 4 Dieter; seat n deals game n and sits
out, so game 1's declarer is one of seats 2 to 4.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from skatliga.models import Player
from skatliga.services import table_links as table_services
from tests.browser.test_entry import PASSWORD
from tests.browser.test_table_offline import open_device, scores, tap
from tests.web.factories import make_table

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Anna Schmidt", "Ute Hartmann", "Carla Weiß", "Dieter Krüger")
LANGUAGES = ("de", "en", "da", "sv", "nl")

# Every tap button whose words do not fit it: wider than the button, or taller (a name the
# button cuts off after two lines).
OVERFLOWING = """Array.from(document.querySelectorAll('#tap-grid button.tap'))
  .filter((b) => b.offsetParent !== null)
  .filter((b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
  .map((b) => b.textContent)"""

# What breaks a grid: a field the grid covers shown as a raw control, and a shown field whose
# label is cut or missing.
BROKEN = """Array.from(document.querySelectorAll('#entry .f'))
  .filter((f) => f.offsetParent !== null)
  .filter((f) => {
    const label = f.querySelector('label');
    return f.classList.contains('tap-covered') || !label || label.offsetParent === null
      || label.scrollWidth > label.clientWidth + 1;
  })
  .map((f) => f.getAttribute('data-field'))"""


def four_table(django_user_model):
    players = [Player.objects.create(name=name) for name in NAMES]
    table = make_table(players=players, rounds=2, name="Herbstturnier Altenburg")
    user = django_user_model.objects.create_user("anna", password=PASSWORD)
    table.series.tournament.referees.add(user)
    return table


def device_url(live_server, table, language: str = "de") -> str:
    link = table_services.renew_link(table)
    path = reverse("table:entry", args=[link.token])
    return live_server.url + ("" if language == "de" else f"/{language}") + path


def test_every_button_fits_at_390_px_in_every_language(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    table = four_table(django_user_model)
    url = device_url(live_server, table)
    device, phone = open_device(browser, url)
    token = url.rstrip("/").rsplit("/", 1)[1]
    for language in LANGUAGES:
        prefix = "" if language == "de" else f"/{language}"
        phone.goto(f"{live_server.url}{prefix}/t/{token}/")
        phone.wait_for_selector("#tap-grid")
        # Each declarer in turn, pressed (bold), with every group open: the bids too.
        phone.locator("#tap-grid .tap-overbid").click()
        expect(phone.locator("#tap-grid .tap-bids")).to_be_visible()
        for seat in (2, 3, 4):
            phone.locator(f'#tap-grid .tap-declarer button[data-value="{seat}"]').click()
            expect(
                phone.locator(f'#tap-grid .tap-declarer button[data-value="{seat}"]')
            ).to_have_attribute("aria-pressed", "true")
            assert phone.evaluate(OVERFLOWING) == [], (language, seat)
        for value in ("schneider", "schwarz"):
            phone.locator(f'#tap-grid .tap-levels button[data-value="{value}"]').click()
            assert phone.evaluate(OVERFLOWING) == [], (language, value)
    device.close()


def test_won_with_schneider_announced_is_saved_as_made(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    table = four_table(django_user_model)
    device, phone = open_device(browser, device_url(live_server, table))
    # Game 1: Ute, clubs hand with 1, schneider announced, won: with 1, game 2, hand 3,
    # schneider 4, announced 5 → 5 × 12 = 60.
    tap(phone, "declarer", "Ute Hartmann")
    tap(phone, "game", "Kreuz")
    tap(phone, "matadors", "mit 1")
    tap(phone, "levels", "Hand")
    phone.locator('#tap-grid .tap-levels button[data-value="schneider"]').click()
    tap(phone, "won", "gewonnen")
    expect(phone.locator("#entry-value")).to_have_text("+60")
    expect(phone.locator("#entry-breakdown")).to_contain_text("5 × 12 = 60")
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#row-1.is-saved")
    assert scores(table) == [(1, False, 60)]

    # After the save the bar explains nothing of game 1: game 2 has no value yet.
    expect(phone.locator(".entry-title")).to_have_text("Spiel 2")
    expect(phone.locator("#entry-value")).to_have_text("–")
    expect(phone.locator("#entry-verdict")).to_have_text("")
    expect(phone.locator("#entry-breakdown")).to_have_text("")
    device.close()


def test_an_error_leaves_the_grid_a_grid(browser, live_server, django_user_model, tmp_path):
    from playwright.sync_api import expect

    table = four_table(django_user_model)
    device, phone = open_device(browser, device_url(live_server, table))
    # Schneider announced without hand, 85 card points and "won": two errors at two groups
    # of buttons, the announcement (needs hand) and the result (needs the opponents
    # schneider, 90 card points).
    tap(phone, "declarer", "Ute Hartmann")
    tap(phone, "game", "Kreuz")
    tap(phone, "matadors", "mit 1")
    phone.locator('#tap-grid .tap-levels button[data-value="schneider"]').click()
    phone.fill("#id_card_points", "85")
    tap(phone, "won", "gewonnen")
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#entry-errors")
    assert scores(table) == []

    grid = phone.locator("#tap-grid")
    expect(grid).to_be_visible()
    expect(grid.locator(".tap-levels .tap-error [data-code]")).to_have_attribute(
        "data-code", "announcement_requires_hand"
    )
    expect(grid.locator(".tap-won .tap-error [data-code]")).to_have_attribute(
        "data-code", "won_below_announced_schneider"
    )
    expect(grid.locator(".tap-won")).to_have_class(__import__("re").compile("has-error"))
    # Every button keeps its words, no covered field shows, every shown field its label.
    assert grid.locator("button.tap:text-is('')").count() == 0
    assert phone.evaluate(BROKEN) == []
    assert phone.locator("#id_won").is_hidden()
    # The list of errors leads to the groups of buttons.
    assert phone.locator('#entry-errors a[data-field="won"]').get_attribute("href") == (
        "#tap-title-won"
    )
    phone.screenshot(path=str(tmp_path / "grid-error.png"), full_page=True)

    # Hand tapped and 95 card points: saved, 60 (schneider announced and made).
    tap(phone, "levels", "Hand")
    phone.fill("#id_card_points", "95")
    expect(grid.locator(".tap-levels .tap-error")).to_be_empty()
    expect(phone.locator("#entry-value")).to_have_text("+60")
    phone.locator("#entry-save").click()
    phone.wait_for_selector("#row-1.is-saved")
    assert scores(table) == [(1, False, 60)]
    device.close()

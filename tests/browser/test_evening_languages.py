"""A Danish referee runs a DSU evening from the site's first page to the settlement, on
Debian's Chromium, and meets no German or English word on the way, nor in its printouts (the
words looked for: test_languages.py); a Swedish and a Dutch referee the same under their
rules.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from skatliga.models import Game, Table, Tournament
from skatliga.services import table_links as links
from tests.browser.test_entry import PASSWORD
from tests.browser.test_languages import NAMES, at, foreign_words, leaks, words
from tests.browser.test_table_offline import tap
from tests.web.test_pdf import read

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = (
    "Jens Kristensen",
    "Mette Lund",
    "Søren Holm",
    "Karen Dahl",
    "Ole Bech",
    "Birthe Friis",
    "Niels Krogh",
    "Inger Skov",
)


@pytest.mark.parametrize(
    ("language", "rules", "currency", "with_1", "won", "grand"),
    [
        # A grand is worth 20 under DSU rules, 24 elsewhere (docs/rules.md section 8): with
        # 1, game 2, 2 × 20 = 40 and 2 × 24 = 48.
        ("da", "dsu", "DKK", "med 1", "vundet", "+40"),
        ("sv", "se", "SEK", "med 1", "vunnet", "+48"),
        ("nl", "nl", "EUR", "met 1", "gewonnen", "+48"),
    ],
)
def test_a_referee_runs_an_evening_without_a_german_or_english_word(
    browser, live_server, django_user_model, language, rules, currency, with_1, won, grand
):
    from playwright.sync_api import expect

    user = django_user_model.objects.create_user("anna", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    found: dict[str, list[str]] = {}

    def check(page, where: str) -> None:
        page.wait_for_load_state()
        if leaked := leaks(page, language):
            found[where] = leaked

    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale=language)
    page = desk.new_page()

    # The first page, in the browser's language; the login page and the dashboard follow it.
    page.goto(live_server.url + "/")
    assert page.url == f"{live_server.url}/{language}/"
    check(page, "home")
    page.click(".login-link")
    check(page, "login")
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/{language}/referee/$"))
    check(page, "dashboard")
    # The same page in German shows the words the check looks for.
    page.goto(live_server.url + reverse("referee:dashboard"))
    assert len(leaks(page, language)) > 5
    page.go_back()

    # A new tournament: the country's rules, in its language, one round a series.
    page.click(f"a[href='{at(language, 'referee:tournament-create')}']")
    check(page, "new tournament")
    page.fill("#id_name", "Klubaften Odense")
    page.fill("#id_date", "2026-11-27")
    page.fill("#id_venue", "Klubhuset")
    page.select_option("#id_rules", rules)
    page.select_option("#id_language", language)
    page.fill("#id_rounds_per_series", "1")
    page.click("form.stacked-form button[type=submit]")
    page.wait_for_url(re.compile(rf"/{language}/referee/klubaften-odense[\w-]*/$"))
    tournament = Tournament.objects.get()
    assert (tournament.rules, tournament.language) == (rules, language)
    check(page, "tournament")

    # Eight players pasted, two tables drawn.
    page.click("details.paste summary")
    page.fill("#id_roster", "\n".join(PLAYERS))
    page.click("details.paste button[type=submit]")
    page.wait_for_selector("#players .count:text('8')")
    check(page, "players")
    page.locator("#series form.inline-form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/series/1/$"))
    check(page, "series")
    series_url = page.url

    # Table 1 by the referee: a grand with 1, a lost clubs, a null, a passed-in game.
    page.click(f"a[href='{at(language, 'referee:list', tournament.slug, 1, 1)}']")
    check(page, "list")
    page.select_option("#id_declarer", "2")
    page.select_option("#id_game", "grand")
    page.fill("#id_matadors", "1")
    page.fill("#id_bid", "18")
    page.fill("#id_card_points", "71")
    page.fill("#id_tricks", "11")
    expect(page.locator("[data-error-for='tricks'] [data-code]")).to_be_visible()
    check(page, "list, a problem shown")
    page.fill("#id_tricks", "")
    expect(page.locator("#entry-value")).to_have_text(grand)
    check(page, "list, a game typed")
    page.click("#entry-save")
    page.wait_for_selector("#row-1.is-saved")
    page.select_option("#id_declarer", "3")
    page.select_option("#id_game", "clubs")
    page.fill("#id_matadors", "-1")
    page.fill("#id_bid", "18")
    page.fill("#id_card_points", "50")
    page.click("#entry-save")
    page.wait_for_selector("#row-2.is-saved")
    page.select_option("#id_declarer", "4")
    page.select_option("#id_game", "null")
    page.fill("#id_bid", "23")
    page.select_option("#id_won", "won")
    page.click("#entry-save")
    page.wait_for_selector("#row-3.is-saved")
    page.click("#entry-passed")
    page.wait_for_selector("#row-4.is-passed")
    check(page, "list, four games")
    page.click("#close-form button[type=submit]")
    page.wait_for_load_state()
    check(page, "list, closed")

    # Table 2 by its phone, from the link as printed (without a language).
    table = Table.objects.get(series__tournament=tournament, number=2)
    token = links.active_links(table.series)[table.pk].token
    device = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=language, has_touch=True, is_mobile=True
    )
    phone = device.new_page()
    phone.goto(live_server.url + reverse("table:entry", args=[token]))
    assert phone.url.endswith(at(language, "table:device", token))
    check(phone, "table, device name")
    phone.fill("#id_name", "Bordtelefon2")
    phone.click("#main button[type=submit]")
    phone.wait_for_selector("#tap-grid")
    check(phone, "table")
    seated = [seat.player.name for seat in table.seats.order_by("position")]
    tap(phone, "declarer", seated[1])
    tap(phone, "game", "Grand")
    tap(phone, "matadors", with_1)
    tap(phone, "won", won)
    expect(phone.locator("#entry-value")).to_have_text(grand)
    check(phone, "table, a game tapped")
    phone.click("#entry-save")
    phone.wait_for_selector("#row-1.is-saved")
    for number in (2, 3, 4):
        phone.click("#entry-passed")
        phone.wait_for_selector(f"#row-{number}.is-passed")
    check(phone, "table, four games")
    phone.click("#sign-list")
    check(phone, "signing")
    for position in (1, 2, 3, 4):
        phone.click(f'.sign-names a[data-seat="{position}"]')
        if position == 1:
            check(phone, "signing, one seat")
        phone.click("#sign-confirm")
        phone.wait_for_selector(f'.sign-names a[data-seat="{position}"].is-signed')
    check(phone, "signed")
    device.close()

    # The referee closes table 2, publishes, and opens the standings and the settlement.
    page.goto(series_url)
    page.click('[data-close-table="2"]')
    page.wait_for_load_state()
    check(page, "series, lists closed")
    page.click(f"form[action='{at(language, 'referee:publish', tournament.slug, 1)}'] button")
    page.wait_for_load_state()
    check(page, "series, published")
    page.goto(live_server.url + at(language, "referee:tournament", tournament.slug))
    page.click(f"a[href='{at(language, 'standings', tournament.slug)}']")
    check(page, "standings")
    page.goto(live_server.url + at(language, "referee:tournament", tournament.slug))
    page.click(f"a[href='{at(language, 'referee:money', tournament.slug)}']")
    check(page, "settlement, empty")
    page.select_option("#id_currency", currency)
    page.fill("#id_entry_fee", "50")
    page.fill("#id_lost_fee", "5")
    page.fill("#id_lost_fee_threshold", "3")
    page.fill("#id_lost_fee_later", "10")
    page.fill("#id_prizes", "60%\n40%")
    page.locator("#main form button[type=submit]").last.click()
    page.wait_for_load_state()
    check(page, "settlement")
    assert currency in page.inner_text("main")

    assert Game.objects.filter(table__series__tournament=tournament).count() == 8

    # The other pages of the evening, the referee's and the public's.
    player = tournament.registrations.first().player
    for name, args in (
        ("referee:tournament-settings", [tournament.slug]),
        ("referee:changes", [tournament.slug]),
        ("referee:checkin", [tournament.slug]),
        ("series", [tournament.slug, 1]),
        ("table", [tournament.slug, 1, 2]),
        ("seats", [tournament.slug, 1]),
        ("hall", [tournament.slug]),
        ("player", [player.pk]),
    ):
        page.goto(live_server.url + at(language, name, *args))
        check(page, name)
    page.goto(f"{live_server.url}/{language}/ingen-side/")
    check(page, "not found")

    # Its printouts, asked for at their German addresses, speak its language all the same.
    slug = tournament.slug
    printed = {
        "table cards": reverse("referee:table-cards", args=[slug, 1]),
        "blank sheets": reverse("referee:blank-sheets", args=[slug, 1]),
        "score sheets": reverse("series-sheets-pdf", args=[slug, 1]),
        "series results": reverse("series-results-pdf", args=[slug, 1]),
        "results": reverse("tournament-results-pdf", args=[slug]),
        "seats": reverse("seats-pdf", args=[slug, 1]),
        "settlement": reverse("referee:money-pdf", args=[slug]),
    }
    for name, path in printed.items():
        response = page.request.get(live_server.url + path)
        assert response.ok, name
        text = " ".join(read(response.body()))
        for person in NAMES:
            text = text.replace(person, " ")
        if leaked := sorted(words(text) & foreign_words(language)):
            found[f"{name} (PDF)"] = leaked
    assert found == {}

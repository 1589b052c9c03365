"""The door of an evening without paper: 12 players check in on their own phones (9 found
in the roster, 3 as guests), the referee's desk sees them arrive without reloading, marks
the entry fees and draws the first series. Run with SKATLIGA_SCREENSHOTS=1 to write
docs/screenshots/checkin-phone.png and checkin-desk-laptop.png."""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from skatliga.checkin import services as checkin
from skatliga.models import Arrival, Club
from skatliga.money.services import save_purse
from tests.browser.test_accessibility import axe
from tests.browser.test_entry import PASSWORD
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.web.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
BY_NAME = [
    "Anna Schmidt",
    "Bernd Łukasz",
    "Carla Weiß",
    "Dieter Krüger",
    "Emil Ötztal",
    "Frida Nagel",
]
BY_NUMBER = {"Gustav Kranz": "7001", "Hanna Berg": "7002", "Ida Stein": "7003"}
GUESTS = [("Jens Gast", "SV Nachbarort"), ("Karla Neu", ""), ("Lutz Besuch", "SC Altenburg")]


def door(**fields):
    """The club's roster (the nine of BY_NAME and BY_NUMBER, and a second "Anna Schm…"),
    the tournament (``fields`` as ``make_tournament`` takes them) with a purse of 10,00 €
    entry, and its referee "anna"."""
    club = Club.objects.create(name="SC Altenburg")
    for name in BY_NAME:
        make_player(name, club=club)
    for name, number in BY_NUMBER.items():
        make_player(name, club=club, number=number)
    make_player("Anna Schmitz", club=club)
    fields = {"slug": "herbstpreisskat", "name": "Herbstpreisskat", "venue": "Altenburg", **fields}
    tournament = make_tournament(**fields)
    save_purse(
        tournament,
        entry_fee=Decimal("10.00"),
        lost_fee=Decimal("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("1.00"),
        prizes=["50%"],
    )
    user = get_user_model().objects.create_user("anna", password=PASSWORD)
    tournament.referees.add(user)
    return tournament


def checkin_url(live_server, tournament):
    return live_server.url + reverse("checkin:page", args=[checkin.checkin_link(tournament).token])


def open_desk(browser, live_server, tournament):
    """The referee's check-in desk on the laptop, logged in: its context and page."""
    laptop = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    desk = laptop.new_page()
    desk_path = reverse("referee:checkin", args=[tournament.slug])
    desk.goto(live_server.url + desk_path)
    desk.fill("#id_username", "anna")
    desk.fill("#id_password", PASSWORD)
    desk.click("form.login-form button[type=submit]")
    desk.wait_for_url(re.compile(re.escape(desk_path) + "$"))
    return laptop, desk


def on_phone(browser, url):
    """A player's own phone (390 px) on the check-in page: its context and page."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.goto(url)
    return context, page


def check_in_as(page, typed, name, *, found=None):
    """Type ``typed`` (part of the name or the membership number), pick ``name`` among the
    players found and see the confirmation; ``found(page)`` runs while the choice shows."""
    from playwright.sync_api import expect

    page.locator("#id_q").press_sequentially(typed, delay=20)
    choice = page.locator(".found-player", has_text=name)
    expect(choice).to_be_visible()
    if found is not None:
        found(page)
    choice.click()
    expect(page.locator(".checked-in")).to_contain_text(name)


def check_in_as_guest(page, name, club_name):
    from playwright.sync_api import expect

    page.fill("#id_name", name)
    page.fill("#id_club", club_name)
    page.get_by_role("button", name="Als Gast einchecken").click()
    expect(page.locator(".checked-in")).to_contain_text(name)
    expect(
        page.get_by_text("Startgeld 10,00 € bitte an der Turnierleitung bezahlen.")
    ).to_be_visible()


def mark_fees(desk):
    """Cash for the first six on the desk's list, card for three, later for one: 9 paid."""
    from playwright.sync_api import expect

    plan = ["cash"] * 6 + ["card"] * 3 + ["later"]
    names = desk.locator("tr.is-here").evaluate_all("rows => rows.map(r => r.dataset.player)")
    for name, fee in zip(names, plan, strict=False):
        row = desk.locator(f'tr[data-player="{name}"]')
        row.locator(f'button[data-fee="{fee}"]').click()
        expect(
            desk.locator(f'tr[data-player="{name}"] button[data-fee="{fee}"]')
        ).to_have_attribute("aria-pressed", "true")
    expect(desk.locator('[data-count="paid"]')).to_have_text("9")


def draw_from_the_desk(desk):
    """Ready: the desk goes on to the draw of the first series, and to its dashboard."""
    desk.get_by_role("button", name="Tische der ersten Serie auslosen").click()
    desk.wait_for_url(re.compile(r"/series/1/$"))


def test_twelve_players_check_in_on_their_phones_and_the_desk_sees_them(
    browser, live_server, axe_source, tmp_path
):
    from playwright.sync_api import expect

    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    tournament = door()
    url = checkin_url(live_server, tournament)

    # The referee opens the desk on the laptop.
    laptop, desk = open_desk(browser, live_server, tournament)
    assert desk.locator(".checkin-url").get_attribute("href") == url
    expect(desk.locator('[data-count="here"]')).to_have_text("0")

    def first(page):
        expect(page.locator(".found-player")).to_have_count(2)  # Anna Schmidt, Anna Schmitz
        page.screenshot(path=str(folder / "checkin-phone.png"), full_page=True)
        assert page.evaluate("window.__violations") == []

    # Six find themselves by typing part of their name, three by their membership number.
    for index, name in enumerate(BY_NAME):
        context, page = on_phone(browser, url)
        check_in_as(page, name.split()[1][:5], name, found=first if index == 0 else None)
        context.close()
    for name, number in BY_NUMBER.items():
        context, page = on_phone(browser, url)
        check_in_as(page, number, name)
        context.close()
    for index, (name, club_name) in enumerate(GUESTS):
        context, page = on_phone(browser, url)
        check_in_as_guest(page, name, club_name)
        if index == 0:
            checker = browser.new_context(
                viewport=PHONE,
                locale="de-DE",
                storage_state=context.storage_state(),
                bypass_csp=True,
            )
            check = checker.new_page()
            check.goto(url)
            assert axe(check, axe_source) == []
            check.goto(page.url)
            assert axe(check, axe_source) == []
            checker.close()
        context.close()

    # The desk sees all twelve arrive without a reload, guests marked.
    expect(desk.locator('[data-count="here"]')).to_have_text("12", timeout=30_000)
    expect(desk.locator("tr.is-here")).to_have_count(12)
    expect(desk.locator("tr.is-here .badge", has_text="Gast")).to_have_count(3)

    # The referee marks fees: cash for the first six on the list, card for three, later for one.
    mark_fees(desk)
    assert Arrival.objects.filter(fee__in=["cash", "card"]).count() == 9
    desk.screenshot(path=str(folder / "checkin-desk-laptop.png"), full_page=True)
    checker = browser.new_context(
        viewport={"width": 1366, "height": 900},
        locale="de-DE",
        storage_state=laptop.storage_state(),
        bypass_csp=True,
    )
    check = checker.new_page()
    check.goto(desk.url)
    assert axe(check, axe_source) == []
    checker.close()

    # Ready: the desk goes on to the draw, three 4-tables.
    draw_from_the_desk(desk)
    assert tournament.series.get().tables.count() == 3

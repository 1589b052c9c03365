"""The door of an evening without paper: 12 players check in on their own phones (6 on the
referee's list, 3 who played here before, 3 guests); each phone shows a number and waits,
the referee's desk sees the claims arrive without reloading, confirms each with one tap when
its player stands there, and only then does the phone show the player's personal link. The
desk marks the entry fees and draws the first series. Run with SKATLIGA_SCREENSHOTS=1 to
write docs/screenshots/checkin-phone.png, checkin-claim-phone.png and
checkin-desk-laptop.png."""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from skatliga.checkin import views as checkin_views
from skatliga.models import Arrival, Club, Registration
from skatliga.services import checkin
from skatliga.services.money import save_purse
from tests.browser.test_accessibility import axe
from tests.browser.test_entry import PASSWORD
from tests.browser.test_security_policy import RECORD_VIOLATIONS
from tests.web.factories import make_player, make_table, make_tournament

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
REGULARS = ["Gustav Kranz", "Hanna Berg", "Ida Stein"]
"""Not on the referee's list, but on the public results of an earlier evening."""
GUESTS = [("Jens Gast", "SV Nachbarort"), ("Karla Neu", ""), ("Lutz Besuch", "SC Altenburg")]


def door(**fields):
    """The tournament (``fields`` as ``make_tournament`` takes them) with a purse of 10,00 €
    entry, its referee "anna", and the six of BY_NAME on its list. The three REGULARS and a
    second "Anna Schm…" played an earlier evening whose results are public."""
    club = Club.objects.create(name="SC Altenburg")
    earlier = [make_player(name, club=club) for name in [*REGULARS, "Anna Schmitz"]]
    make_table(players=earlier, slug="sommerpreisskat")
    fields = {"slug": "herbstpreisskat", "name": "Herbstpreisskat", "venue": "Altenburg", **fields}
    tournament = make_tournament(**fields)
    for name in BY_NAME:
        Registration.objects.create(tournament=tournament, player=make_player(name, club=club))
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


def waiting_number(page, name):
    """The number the phone shows while its claim waits for the desk; nothing private yet."""
    from playwright.sync_api import expect

    expect(page.locator(".claim-who")).to_contain_text(name)
    expect(page.locator(".personal-url")).to_have_count(0)
    return int(page.locator("[data-number]").get_attribute("data-number"))


def claim_as(page, typed, name, *, found=None):
    """Type ``typed`` (part of the name), pick ``name`` among the players found and see the
    claim wait for the desk: its number. ``found(page)`` runs while the choice shows."""
    from playwright.sync_api import expect

    page.locator("#id_q").press_sequentially(typed, delay=20)
    choice = page.locator(".found-player", has_text=name)
    expect(choice).to_be_visible()
    if found is not None:
        found(page)
    choice.click()
    return waiting_number(page, name)


def claim_as_guest(page, name, club_name):
    from playwright.sync_api import expect

    page.fill("#id_name", name)
    page.fill("#id_club", club_name)
    page.get_by_role("button", name="Als Gast einchecken").click()
    expect(
        page.get_by_text("Startgeld 10,00 € bitte an der Turnierleitung bezahlen.")
    ).to_be_visible()
    return waiting_number(page, name)


def confirm_at_desk(desk, number, name):
    """The player of claim ``number`` stands at the desk: one tap confirms it."""
    from playwright.sync_api import expect

    row = desk.locator(f'tr[data-claim="{number}"]')
    expect(row).to_contain_text(name, timeout=20_000)  # the desk's poll brings it in
    row.get_by_role("button", name="Bestätigen").click()
    expect(desk.locator(f'tr[data-claim="{number}"]')).to_have_count(0)
    expect(desk.locator(f'tr.is-here[data-player="{name}"]')).to_have_count(1)


def personal_link(page, name):
    """The personal link the phone shows once the desk confirmed its claim."""
    from playwright.sync_api import expect

    expect(page.locator(".checked-in")).to_contain_text(name, timeout=20_000)
    return page.locator(".personal-url").get_attribute("href")


def mark_fees(desk):
    """Cash for the first six on the desk's list, card for three, later for one: 9 paid."""
    from playwright.sync_api import expect

    plan = ["cash"] * 6 + ["card"] * 3 + ["later"]
    names = desk.locator("tr.is-here").evaluate_all("rows => rows.map(r => r.dataset.player)")
    for name, fee in zip(names, plan, strict=False):
        row = desk.locator(f'tr.is-here[data-player="{name}"]')
        row.locator(f'button[data-fee="{fee}"]').click()
        expect(
            desk.locator(f'tr.is-here[data-player="{name}"] button[data-fee="{fee}"]')
        ).to_have_attribute("aria-pressed", "true")
    expect(desk.locator('[data-count="paid"]')).to_have_text("9")


def draw_from_the_desk(desk):
    """Ready: the desk goes on to the draw of the first series, and to its dashboard."""
    desk.get_by_role("button", name="Tische der ersten Serie auslosen").click()
    desk.wait_for_url(re.compile(r"/series/1/$"))


def twelve_at_the_door(browser, url, *, first=None):
    """The twelve on their phones, each waiting with its number: (name, phone's context,
    page, number) in the order they came. ``first(page)`` runs on the first phone while the
    players found show."""
    phones = []
    for index, name in enumerate(BY_NAME + REGULARS):
        context, page = on_phone(browser, url)
        number = claim_as(page, name.split()[1][:5], name, found=first if index == 0 else None)
        phones.append((name, context, page, number))
    for name, club_name in GUESTS:
        context, page = on_phone(browser, url)
        phones.append((name, context, page, claim_as_guest(page, name, club_name)))
    return phones


def test_twelve_players_claim_on_their_phones_and_the_desk_confirms_them(
    browser, live_server, axe_source, tmp_path, monkeypatch
):
    from playwright.sync_api import expect

    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path
    monkeypatch.setattr(checkin_views, "POLL_SECONDS", 1)
    tournament = door()
    url = checkin_url(live_server, tournament)

    # The referee opens the desk on the laptop: it says when it last asked.
    laptop, desk = open_desk(browser, live_server, tournament)
    assert desk.locator(".checkin-url").get_attribute("href") == url
    expect(desk.locator('[data-count="here"]')).to_have_text("0")
    stamp = desk.locator("#desk-time")
    expect(stamp).to_have_text(re.compile(r"^\d\d:\d\d:\d\d$"))
    shown = stamp.text_content()
    expect(stamp).not_to_have_text(shown, timeout=10_000)  # the poll's answer, seconds later

    def first(page):
        expect(page.locator(".found-player")).to_have_count(2)  # Anna Schmidt, Anna Schmitz
        page.screenshot(path=str(folder / "checkin-phone.png"), full_page=True)
        assert page.evaluate("window.__violations") == []

    phones = twelve_at_the_door(browser, url, first=first)
    assert (
        not Arrival.objects.exists()
        and not Registration.objects.filter(
            player__name__in=REGULARS, tournament=tournament
        ).exists()
    )
    name, context, page, number = phones[-3]  # the first guest
    page.screenshot(path=str(folder / "checkin-claim-phone.png"), full_page=True)
    checker = browser.new_context(
        viewport=PHONE, locale="de-DE", storage_state=context.storage_state(), bypass_csp=True
    )
    check = checker.new_page()
    check.goto(url)
    assert axe(check, axe_source) == []
    check.goto(page.url)
    assert axe(check, axe_source) == []
    checker.close()

    # The desk sees the twelve claims without a reload, guests marked, none here yet.
    expect(desk.locator("tr[data-claim]")).to_have_count(12, timeout=30_000)
    expect(desk.locator('[data-count="waiting"]')).to_have_text("12")
    expect(desk.locator("tr[data-claim] .badge", has_text="Gast")).to_have_count(3)
    desk.screenshot(path=str(folder / "checkin-desk-claims-laptop.png"), full_page=True)

    # Each player comes to the desk; one tap each, and his phone shows his personal link.
    links = set()
    for name, context, page, number in phones:
        confirm_at_desk(desk, number, name)
        links.add(personal_link(page, name))
        assert page.evaluate("window.__violations") == []
        context.close()
    assert len(links) == 12 and all("/me/" in link for link in links)
    expect(desk.locator('[data-count="here"]')).to_have_text("12")
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


def test_a_stranger_claiming_a_player_gets_nothing_and_the_desk_refuses_it(
    browser, live_server, monkeypatch
):
    """A stranger photographs the poster and claims Anna from his own phone before she
    arrives. The desk sees two claims of Anna marked, confirms the one whose number Anna's
    phone shows and refuses the stranger's, whose phone never sees her link."""
    from playwright.sync_api import expect

    monkeypatch.setattr(checkin_views, "POLL_SECONDS", 1)
    tournament = door()
    url = checkin_url(live_server, tournament)
    _laptop, desk = open_desk(browser, live_server, tournament)
    _stranger, theirs = on_phone(browser, url)
    stolen = claim_as(theirs, "Schmidt", "Anna Schmidt")
    _anna, hers = on_phone(browser, url)
    own = claim_as(hers, "Schmidt", "Anna Schmidt")

    expect(desk.locator("tr[data-claim] .badge", has_text="mehrfach gemeldet")).to_have_count(
        2, timeout=20_000
    )
    confirm_at_desk(desk, own, "Anna Schmidt")
    assert "/me/" in personal_link(hers, "Anna Schmidt")
    desk.locator(f'tr[data-claim="{stolen}"]').get_by_role("button", name="Ablehnen").click()
    expect(desk.locator("tr[data-claim]")).to_have_count(0)
    expect(theirs.locator('[data-state="refused"]')).to_be_visible(timeout=20_000)
    expect(theirs.locator(".personal-url")).to_have_count(0)
    assert "/me/" not in theirs.content()


def test_the_desk_marks_a_player_here_in_its_own_colour_not_the_warning_red(browser, live_server):
    """ "ist da" and "pünktlich" are no removal: unlike "Neuen Link ausgeben" and
    "Ablehnen", they are not written in the warning red."""
    from playwright.sync_api import expect

    tournament = door()
    laptop, desk = open_desk(browser, live_server, tournament)
    red = desk.locator(".desk-side button.link-button").evaluate("b => getComputedStyle(b).color")
    here = desk.locator("#arrivals button.link-button", has_text="ist da").first

    assert here.evaluate("b => getComputedStyle(b).color") != red
    here.click()
    on_time = desk.locator("#arrivals button.link-button", has_text="pünktlich").first
    expect(on_time).to_be_visible()
    assert on_time.evaluate("b => getComputedStyle(b).color") != red
    laptop.close()


def test_the_desk_on_a_phone_shows_the_fee_and_late_buttons_without_scrolling(browser, live_server):
    """A referee at the door with only a phone (390 px): every arrival's fee buttons and
    the late toggle are on screen; the club gives way, as in the list of claims."""
    from playwright.sync_api import expect

    tournament = door()
    laptop, desk = open_desk(browser, live_server, tournament)
    desk.locator("#arrivals button.link-button", has_text="ist da").first.click()
    expect(desk.locator("#arrivals .fee")).to_have_count(1)
    desk.set_viewport_size({"width": 390, "height": 844})

    region = desk.locator(".desk-arrivals .table-scroll")
    scroll, client = region.evaluate("r => [r.scrollWidth, r.clientWidth]")
    assert scroll <= client
    for button in [
        *desk.locator("#arrivals .fee button").all(),
        desk.locator("#arrivals button.link-button", has_text="pünktlich"),
    ]:
        assert button.evaluate("b => b.getBoundingClientRect().right") <= 390
    laptop.close()

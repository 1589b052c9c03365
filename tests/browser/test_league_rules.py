"""The league's rules and its catalogue of fines edited by its official in Chromium (390 and
1366 px), and a team withdrawn at its third absence: proposed on the fines page, confirmed,
last in the public table with its results annulled.

With SKATLIGA_SHOTS set to a folder, the test writes rules-phone.png, rules-desktop.png,
withdrawal.png and withdrawn-table.png there."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from skatliga.models import FineKind, LeagueRules, MatchGroup, Withdrawal
from skatliga.services import fixtures, matchdays
from tests.browser.test_league_report import shoot
from tests.web.factories import make_division

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pik-sieben-7"
DAYS = [datetime.date(2026, 3, 21), datetime.date(2026, 4, 25), datetime.date(2026, 5, 30)]


def log_in(context, url: str, user: str):
    page = context.new_page()
    page.goto(url)
    page.get_by_label("Benutzername").fill(user)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    return page


def test_the_official_sets_the_rules_and_withdraws_a_team(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    division = make_division(8, clubs=8, series=2)
    fixtures.generate_schedule(division, DAYS)
    fixtures.publish_schedule(division)
    official = django_user_model.objects.create_user("ligaleiter", password=PASSWORD)
    division.season.league.officials.add(official)
    division.officials.add(official)
    rules_url = live_server.url + reverse("league:rules", args=[division.season.slug])

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = log_in(
        phone, live_server.url + reverse("league:division", args=[division.pk]), "ligaleiter"
    )
    page.get_by_role("link", name="Ligaordnung und Strafenkatalog").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ligaordnung")
    shoot(page, "rules-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    phone.close()

    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = log_in(desk, rules_url, "ligaleiter")
    page.get_by_label("Ergebnisse einer zurückgezogenen Mannschaft").select_option("annul")
    row = page.locator("#catalogue tbody tr").first
    row.get_by_label("Anlass").select_option("absent")
    row.get_by_label("Bezeichnung").fill("Nichtantreten")
    row.get_by_label("Betrag").fill("60.00")
    row.get_by_label("verhängt von").fill("Schatzmeister")
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_text("Ligaordnung und Strafenkatalog gespeichert.")).to_be_visible()
    shoot(page, "rules-desktop.png")
    league = division.season.league
    assert LeagueRules.objects.get(league=league).withdrawn_results == "annul"
    kind = FineKind.objects.get(league=league)
    assert (kind.code, kind.amount, kind.set_by) == ("absent", Decimal("60.00"), "Schatzmeister")

    # Team 1 misses its three match days; every other team lines up.
    team = division.teams.order_by("name")[0]
    for group in MatchGroup.objects.filter(match_day__division=division):
        group = matchdays.set_up_group(group)
        for other in group.teams.exclude(pk=team.pk):
            players = [e.player for e in other.roster.order_by("position")][:4]
            matchdays.set_line_up(group, other, 1, players)
    page.goto(live_server.url + reverse("league:fines", args=[division.pk]))
    row = page.locator("#withdrawals tbody tr", has_text=team.name)
    expect(row).to_contain_text("3 (3. Spieltag)")
    shoot(page, "withdrawal.png")
    row.get_by_role("button", name="Zurückziehen").click()
    expect(page.get_by_text("Mannschaft zurückgezogen.")).to_be_visible()
    assert Withdrawal.objects.get(team=team).annulled

    page.goto(live_server.url + reverse("division", args=[division.pk]))
    expect(page.locator("#table tbody tr").last).to_contain_text(f"{team.name} (zurückgezogen)")
    shoot(page, "withdrawn-table.png")
    desk.close()

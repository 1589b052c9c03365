"""The match report in Chromium (issue 41, items 1 and 2): after a group's match day two
captains confirm the report on their phones (390 px), a third objects with a reason, the
official (1366 px) decides the objection and releases the report; with the clock moved to
14 days after the match day it is binding. A team absent from the other group gets a
proposed fine that the official confirms; unpaid after its date, the club's statement shows
the bar. The figures are those of tests/web/league_play.py.

With SKATLIGA_SHOTS set to a folder, the test writes report-phone.png, report-release.png,
report-statement.png and report.pdf there."""

from __future__ import annotations

import datetime
import os
from decimal import Decimal
from pathlib import Path
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from skatliga.models import Fine, FineCode, FineKind, LeagueRules, MatchGroup, ReportAnswer
from skatliga.services import fixtures, matchdays, reports
from tests.web.factories import make_division
from tests.web.league_play import play_group

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("SKATLIGA_SHOTS")
DAY = datetime.date(2026, 3, 21)


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


class Clock:
    """``timezone.now`` for the test and the live server's thread, moved by the test."""

    def __init__(self, day: datetime.date) -> None:
        self.set(day)

    def set(self, day: datetime.date) -> None:
        self.now = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))

    def __call__(self) -> datetime.datetime:
        return self.now


@pytest.fixture
def clock():
    moved = Clock(DAY + datetime.timedelta(days=1))
    with mock.patch("django.utils.timezone.now", side_effect=moved):
        yield moved


@pytest.fixture
def match_day(django_user_model, clock):
    division = make_division(8, clubs=8, series=2)
    official = django_user_model.objects.create_user("staffel", password="pik-sieben-7")
    division.officials.add(official)
    fixtures.generate_schedule(division, [DAY, datetime.date(2026, 4, 25)])
    fixtures.publish_schedule(division)
    league = division.season.league
    FineKind.objects.create(
        league=league, code=FineCode.ABSENT, name="Nichtantreten", amount=Decimal("60.00")
    )
    LeagueRules.objects.update_or_create(league=league, defaults={"bar_unpaid": True})
    first, second = MatchGroup.objects.filter(match_day__number=1, match_day__division=division)
    teams = play_group(first)
    second = matchdays.set_up_group(second)
    absent = second.teams.order_by("name")[3]
    for team in second.teams.order_by("name")[:3]:
        matchdays.set_line_up(
            second, team, 1, [e.player for e in team.roster.order_by("position")][:4]
        )
    return division, first, teams, absent


def test_captains_answer_the_official_decides_and_the_report_binds(
    browser, live_server, match_day, clock, settings
):
    from playwright.sync_api import expect

    settings.SESSION_COOKIE_AGE = 365 * 24 * 3600  # the official stays logged in as days pass

    division, group, (a, b, c, d), absent = match_day
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = phone.new_page()
    for team in (a, b, c):
        page.goto(live_server.url + reverse("team:page", args=[matchdays.team_link(team).token]))
        page.get_by_role("link", name="Bestätigen").click()
        expect(page.get_by_role("heading", name="Spielbericht")).to_be_visible()
        expect(page.get_by_text("vorläufig")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if team == a:
            expect(page.locator(".report-table").first).to_contain_text("512")
            shoot(page, "report-phone.png")
        if team == c:
            page.get_by_label("Begründung des Einspruchs").fill("Tisch 2 in Serie 2 falsch")
            page.get_by_role("button", name="Einspruch einlegen").click()
            expect(page.get_by_text("Einspruch eingelegt")).to_be_visible()
        else:
            page.get_by_role("button", name="Spielbericht bestätigen").click()
            expect(page.get_by_text("Spielbericht bestätigt.", exact=True)).to_be_visible()
    answers = dict(ReportAnswer.objects.values_list("team__name", "answer"))
    assert answers == {a.name: "confirmed", b.name: "confirmed", c.name: "objected"}

    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    office = desk.new_page()
    office.goto(
        live_server.url
        + reverse("login")
        + "?next="
        + reverse("league:reports", args=[division.pk])
    )
    office.get_by_label("Benutzername").fill("staffel")
    office.get_by_label("Passwort").fill("pik-sieben-7")
    office.get_by_role("button", name="Anmelden").click()
    expect(office.get_by_role("heading", name="Spielberichte")).to_be_visible()
    expect(office.locator(".state-objected")).to_have_text("Einspruch offen")
    shoot(office, "report-release.png")

    office.get_by_role("link", name=f"Gruppe {group.number}").click()
    office.get_by_label("Entscheidung mit Begründung").fill("Liste geprüft: richtig addiert.")
    office.get_by_role("button", name="Entscheiden").click()
    expect(office.get_by_text("Gespeichert.")).to_be_visible()
    office.get_by_role("button", name="Spielbericht freigeben").click()
    expect(office.locator(".report-list tbody tr").first).to_contain_text("freigegeben")

    pdf = desk.request.get(
        live_server.url
        + reverse("league:report-pdf", args=[division.pk, reports.reports_of(division)[0].pk])
    )
    assert pdf.body().startswith(b"%PDF")
    if SHOTS:
        (Path(SHOTS) / "report.pdf").write_bytes(pdf.body())

    clock.set(DAY + datetime.timedelta(days=13))
    office.reload()
    expect(office.locator(".report-list tbody tr").first).to_contain_text("freigegeben")
    clock.set(DAY + datetime.timedelta(days=14))
    office.reload()
    expect(office.locator(".report-list tbody tr").first).to_contain_text("verbindlich")
    page.goto(
        live_server.url
        + reverse(
            "team:report", args=[matchdays.team_link(d).token, reports.reports_of(division)[0].pk]
        )
    )
    expect(page.get_by_text("Der Spielbericht ist verbindlich.")).to_be_visible()

    # The absent team's fine: proposed, confirmed on 22 March, due 5 April, unpaid on 6 April.
    clock.set(DAY + datetime.timedelta(days=1))
    office.goto(live_server.url + reverse("league:fines", args=[division.pk]))
    row = office.locator("#proposed tbody tr", has_text=absent.name)
    expect(row).to_contain_text("60,00")
    row.get_by_role("button", name="Verhängen").click()
    expect(office.get_by_text("Strafe verhängt.")).to_be_visible()
    fine = Fine.objects.get(team=absent)
    assert (fine.state, fine.due_on) == ("confirmed", datetime.date(2026, 4, 5))
    clock.set(datetime.date(2026, 4, 6))
    office.goto(live_server.url + reverse("league:statement", args=[division.pk, absent.club_id]))
    expect(office.locator(".statement-barred")).to_contain_text("2. Spieltag")
    shoot(office, "report-statement.png")
    page.goto(live_server.url + reverse("team:statement", args=[matchdays.team_link(absent).token]))
    expect(page.locator(".statement-barred")).to_be_visible()

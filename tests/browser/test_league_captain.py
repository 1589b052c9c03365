"""A captain sets his team's line-up on a 390 px phone from the team link (issue 40, item 3):
he types the team's code, opens the next series, ticks four players; a player who has moved to
another club is refused with the reason, and nothing is saved until the line-up is eligible.
The official's schedule editor renders at 1366 px with the meetings of every pair.

With SKATLIGA_SHOTS set to a folder, the test writes league-line-up-phone.png,
league-line-up-refused.png and league-schedule-editor.png there."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga.models import Club, LineUp, MatchGroup
from skatliga.services import fixtures, leagues, matchdays
from tests.web.factories import make_division

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("SKATLIGA_SHOTS")


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


@pytest.fixture
def league_day(django_user_model):
    division = make_division(8)
    official = django_user_model.objects.create_user("staffel", password="pik-sieben-7")
    division.officials.add(official)
    today = datetime.date.today()
    fixtures.generate_schedule(
        division, [today + datetime.timedelta(days=7), today + datetime.timedelta(days=21)]
    )
    fixtures.publish_schedule(division)
    team = division.teams.order_by("name")[0]
    group = matchdays.set_up_group(MatchGroup.objects.get(match_day__number=1, teams=team))
    entries = list(team.roster.select_related("player").order_by("position"))
    moved = entries[4].player  # the substitute, gone to another club today
    leagues.record_transfer(moved, Club.objects.create(name="SC Weg"), today)
    return division, team, group, matchdays.team_link(team), entries, moved


def test_the_captain_sets_a_line_up_on_his_phone(browser, live_server, league_day):
    from playwright.sync_api import expect

    division, team, group, link, entries, moved = league_day
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = phone.new_page()

    page.goto(live_server.url + reverse("team:code"))
    page.get_by_label("Mannschafts-Code").fill(link.code[:4].lower() + "-" + link.code[4:])
    page.get_by_role("button", name="Mannschaft öffnen").click()
    expect(page.get_by_role("heading", name=team.name)).to_be_visible()
    page.get_by_role("link", name="Aufstellen").first.click()
    expect(page.get_by_role("heading", name="Aufstellung Serie 1")).to_be_visible()

    for entry in entries[:3]:
        page.get_by_label(entry.player.name).check()
    page.get_by_label(moved.name).check()
    page.get_by_role("button", name="Aufstellung speichern").click()

    refusal = page.locator('[data-code="player_not_in_club"]')
    expect(refusal).to_contain_text(moved.name)
    expect(refusal).to_contain_text(team.club.name)
    assert not LineUp.objects.filter(group=group).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(page, "league-line-up-refused.png")

    page.get_by_label(moved.name).uncheck()
    page.get_by_label(entries[3].player.name).check()
    shoot(page, "league-line-up-phone.png")
    page.get_by_role("button", name="Aufstellung speichern").click()

    expect(page.get_by_text("Aufstellung gespeichert.")).to_be_visible()
    line_up = LineUp.objects.get(group=group, team=team, series=1)
    assert line_up.via == LineUp.Via.CAPTAIN
    assert [e.player_id for e in line_up.entries.order_by("position")] == [
        e.player_id for e in entries[:4]
    ]
    expect(page.get_by_text(entries[3].player.name)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_schedule_editor_shows_the_meetings(browser, live_server, league_day):
    from playwright.sync_api import expect

    division, *_ = league_day
    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = desk.new_page()
    page.goto(
        live_server.url
        + reverse("login")
        + "?next="
        + reverse("league:division", args=[division.pk])
    )
    page.get_by_label("Benutzername").fill("staffel")
    page.get_by_label("Passwort").fill("pik-sieben-7")
    page.get_by_role("button", name="Anmelden").click()

    expect(page.get_by_role("heading", name="Oberliga · Nord")).to_be_visible()
    expect(page.locator("table.meetings tbody tr")).to_have_count(8)
    expect(page.get_by_text("Jedes Paar trifft 0- bis 2-mal aufeinander.")).to_be_visible()
    shoot(page, "league-schedule-editor.png")

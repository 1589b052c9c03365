"""One run from the last match day to the next season in Chromium (issue 41, "done when"):
in the Oberliga (8 teams, this season's only match day its last), two captains of group 1
confirm the report on their phones, the third objects and the official decides and releases;
14 days on the report is binding. Group 2's absent team gets a proposed fine that the
official confirms; unpaid after its date, the club's statement bars it. At the season's end
the league's official sees the Landesliga's seconds compared (Ost 1 and West 3, level on
4 : 2 and 592, tests/web/test_season_end.py), sends West 3 up, and the next season exists with
the Oberliga's two last down and three teams up. Figures: tests/web/league_play.py."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from unittest import mock

import pytest
from django.urls import reverse

from skatliga.models import (
    Division,
    Fine,
    FineCode,
    FineKind,
    Job,
    LeagueRules,
    MatchGroup,
    Season,
    Team,
)
from skatliga.services import fines, fixtures, matchdays, reports
from skatliga.tasks import jobs
from skatliga.tasks.seasons import _roll_over
from tests.browser.test_league_report import DAY, Clock
from tests.web.factories import make_two_levels
from tests.web.league_play import play_group
from tests.web.test_season_end import play_landesliga

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pik-sieben-7"


@pytest.fixture
def clock():
    moved = Clock(DAY + datetime.timedelta(days=1))
    with mock.patch("django.utils.timezone.now", side_effect=moved):
        yield moved


def log_in(page, url: str, user: str) -> None:
    page.goto(url)
    page.get_by_label("Benutzername").fill(user)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()


def test_a_division_from_its_last_match_day_to_the_next_season(
    browser, live_server, django_user_model, clock, settings, quiet_live_server
):
    from playwright.sync_api import expect

    settings.SESSION_COOKIE_AGE = 365 * 24 * 3600
    season = make_two_levels()
    top = Division.objects.get(season=season, level__name="Oberliga")
    top.level.series = 2
    top.level.save()
    play_landesliga(season)
    official = django_user_model.objects.create_user("ligaleiter", password=PASSWORD)
    season.league.officials.add(official)
    top.officials.add(official)
    fixtures.generate_schedule(top, [DAY])
    fixtures.publish_schedule(top)
    league = season.league
    FineKind.objects.create(
        league=league, code=FineCode.ABSENT, name="Nichtantreten", amount=Decimal("60.00")
    )
    LeagueRules.objects.update_or_create(league=league, defaults={"bar_unpaid": True})
    first, second = MatchGroup.objects.filter(match_day__division=top).order_by("number")
    a, b, c, d = play_group(first)
    second = matchdays.set_up_group(second)
    absent = second.teams.order_by("name")[3]
    for team in second.teams.order_by("name")[:3]:
        players = [e.player for e in team.roster.order_by("position")][:4]
        matchdays.set_line_up(second, team, 1, players)

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = phone.new_page()
    for team in (a, b, c):
        page.goto(live_server.url + reverse("team:page", args=[matchdays.team_link(team).token]))
        page.get_by_role("link", name="Bestätigen").click()
        expect(page.get_by_role("heading", name="Spielbericht")).to_be_visible()
        if team == c:
            page.get_by_label("Begründung des Einspruchs").fill("Serie 2 falsch addiert")
            page.get_by_role("button", name="Einspruch einlegen").click()
            expect(page.get_by_text("Einspruch eingelegt")).to_be_visible()
        else:
            page.get_by_role("button", name="Spielbericht bestätigen").click()
            expect(page.get_by_text("Spielbericht bestätigt.", exact=True)).to_be_visible()

    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    office = desk.new_page()
    log_in(office, live_server.url + reverse("league:reports", args=[top.pk]), "ligaleiter")
    expect(office.locator(".state-objected")).to_have_text("Einspruch offen")
    office.get_by_role("link", name=f"Gruppe {first.number}").click()
    office.get_by_label("Entscheidung mit Begründung").fill("Liste geprüft: richtig.")
    office.get_by_role("button", name="Entscheiden").click()
    expect(office.get_by_text("Gespeichert.")).to_be_visible()
    office.get_by_role("button", name="Spielbericht freigeben").click()
    expect(office.locator(".report-list tbody tr").first).to_contain_text("freigegeben")
    clock.set(DAY + datetime.timedelta(days=14))
    office.reload()
    expect(office.locator(".report-list tbody tr").first).to_contain_text("verbindlich")
    assert reports.reports_of(top)[0].released_at is not None

    clock.set(DAY + datetime.timedelta(days=1))
    office.goto(live_server.url + reverse("league:fines", args=[top.pk]))
    row = office.locator("#proposed tbody tr", has_text=absent.name)
    row.get_by_role("button", name="Verhängen").click()
    expect(office.get_by_text("Strafe verhängt.")).to_be_visible()
    assert Fine.objects.get(team=absent).due_on == datetime.date(2026, 4, 5)
    clock.set(datetime.date(2026, 4, 6))
    office.goto(live_server.url + reverse("league:statement", args=[top.pk, absent.club_id]))
    expect(office.locator("main")).to_contain_text("60,00")
    assert fines.is_barred(absent)  # no match day of this season is left to bar it from

    office.goto(live_server.url + reverse("league:season-end", args=[season.slug]))
    expect(office.get_by_role("alert")).to_contain_text("Ligaleitung entscheidet")
    expect(office.get_by_label("Ost 1 steigt auf")).to_be_checked()
    office.get_by_label("Ost 1 steigt auf").uncheck()
    office.get_by_label("West 3 steigt auf").check()
    office.fill("#id_name", "Liga 2027")
    office.click("button:has-text('Neue Saison anlegen')")
    office.wait_for_url(re.compile(r"/jobs/[0-9a-f-]+/$"))
    job = Job.objects.get(kind="roll_over")
    with quiet_live_server.between_requests():
        jobs.run(str(job.pk), _roll_over)
    office.wait_for_url(re.compile(r"/league/divisions/$"))
    expect(office.get_by_text("Die neue Saison ist angelegt")).to_be_visible()
    desk.close()
    phone.close()

    new = Season.objects.get(name="Liga 2027")
    oberliga = set(
        Team.objects.filter(season=new, division__level__name="Oberliga").values_list(
            "name", flat=True
        )
    )
    # Group 1: A 5:1, C and D 3:3, B 1:5; group 2 without results: the last two by name.
    assert {"Ost 2", "West 1", "West 3"} <= oberliga and "Ost 1" not in oberliga
    assert {a.name, c.name, d.name} <= oberliga
    assert len(oberliga) == 8 - 2 + 3

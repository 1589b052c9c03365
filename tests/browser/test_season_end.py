"""A league official at the season's end in Chromium: the proposal with each division's
table and the comparison of the seconds (level, so he decides), his ticks, the next season
written in the background with its progress page, and the teams moved.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/season-end-<device>.png."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from skatliga.models import Job, Season, Team
from skatliga.tasks import jobs
from skatliga.tasks.seasons import _roll_over
from tests.browser.test_entry import PASSWORD
from tests.web.factories import make_two_levels
from tests.web.test_season_end import play_landesliga

pytestmark = pytest.mark.django_db(transaction=True)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_the_official_ends_the_season_and_the_next_one_exists(
    browser, live_server, django_user_model, tmp_path, quiet_live_server
):
    from playwright.sync_api import expect

    season = make_two_levels()
    play_landesliga(season)
    official = django_user_model.objects.create_user("ligaleiter", password=PASSWORD)
    season.league.officials.add(official)
    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else tmp_path

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = phone.new_page()
    page.goto(f"{live_server.url}/league/seasons/{season.slug}/end/")
    page.fill("#id_username", "ligaleiter")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Saisonende")
    expect(page.get_by_role("alert")).to_contain_text("Ligaleitung entscheidet")
    page.screenshot(path=str(folder / "season-end-phone.png"), full_page=True)
    phone.close()

    wide = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = wide.new_page()
    page.goto(f"{live_server.url}/league/seasons/{season.slug}/end/")
    page.fill("#id_username", "ligaleiter")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    # The winners are ticked; of the level seconds the official sends West 3 up, not Ost 1.
    expect(page.get_by_label("Ost 2 steigt auf")).to_be_checked()
    expect(page.get_by_label("West 1 steigt auf")).to_be_checked()
    page.get_by_label("Ost 1 steigt auf").uncheck()
    page.get_by_label("West 3 steigt auf").check()
    page.screenshot(path=str(folder / "season-end-desktop.png"), full_page=True)
    page.fill("#id_name", "Liga 2027")
    page.click("button:has-text('Neue Saison anlegen')")
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f-]+/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Neue Saison anlegen")

    job = Job.objects.get(kind="roll_over")
    with quiet_live_server.between_requests():
        jobs.run(str(job.pk), _roll_over)  # the task worker's part
    new = Season.objects.get(name="Liga 2027")
    page.wait_for_url(re.compile(r"/league/divisions/$"))
    expect(page.get_by_text("Liga 2027").first).to_be_visible()
    expect(page.get_by_text("Die neue Saison ist angelegt")).to_be_visible()
    wide.close()

    oberliga = set(
        Team.objects.filter(season=new, division__level__name="Oberliga").values_list(
            "name", flat=True
        )
    )
    assert {"Ost 2", "West 1", "West 3"} <= oberliga and "Ost 1" not in oberliga
    assert len(oberliga) == 8 - 2 + 3

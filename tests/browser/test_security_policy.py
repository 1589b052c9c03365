"""The site's own scripts and styles satisfy its Content-Security-Policy: real Chromium
reports no violation on the public pages, the error pages and the referee's entry page.

Run with SKATLIGA_SCREENSHOTS=1 to write docs/screenshots/not-found-{phone,laptop}.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga.models import Player, Season, Series, Table, Team, Tournament
from tests.browser.test_entry import PASSWORD, SCREENSHOTS
from tests.web import conftest as web_conftest

pytestmark = pytest.mark.django_db(transaction=True)
small_season = web_conftest.small_season

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


def public_paths(season: Season) -> list[str]:
    tournament = Tournament.objects.get(season=season)
    series = Series.objects.get(tournament=tournament)
    table = Table.objects.filter(series=series).first()
    player = Player.objects.get(name="b1")
    team = Team.objects.get(name="Team B")
    slug = tournament.slug
    return [
        reverse("home"),
        reverse("tournaments"),
        reverse("standings", args=[slug]),
        reverse("hall", args=[slug]),
        reverse("series", args=[slug, series.number]),
        reverse("table", args=[slug, series.number, table.number]),
        reverse("season", args=[season.slug]),
        reverse("player", args=[player.pk]),
        reverse("team", args=[team.pk]),
        reverse("login"),
        reverse("admin:login"),
        "/en/",
        "/keine-seite/",
    ]


def visit(page, url: str) -> tuple[int, list[str]]:
    """Open ``url``; its status and every CSP violation or console error on the way."""
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    response = page.goto(url)
    page.wait_for_load_state("load")
    violations = page.evaluate("window.__violations")
    csp_console = [text for text in console if "Content Security Policy" in text]
    return response.status, violations + csp_console


def test_no_page_breaks_the_content_security_policy(browser, live_server, small_season):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    seen = {}

    for path in public_paths(small_season):
        status, problems = visit(page, live_server.url + path)
        seen[path] = (status, problems)

    context.close()
    assert {path: problems for path, (_, problems) in seen.items() if problems} == {}
    assert seen["/keine-seite/"][0] == 404
    assert all(status == 200 for path, (status, _) in seen.items() if path != "/keine-seite/")


def test_the_hall_display_sizes_its_rows_by_script_not_by_an_inline_style(
    browser, live_server, small_season
):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + reverse("hall", args=["spieltag-1"]))

    rows = page.evaluate("getComputedStyle(document.body).getPropertyValue('--rows')")

    context.close()
    assert rows.strip() == "12"


def test_the_entry_page_keeps_the_policy_while_a_referee_types(
    browser, live_server, small_season, django_user_model
):
    tournament = Tournament.objects.get(slug="spieltag-1")
    referee = django_user_model.objects.create_user("anna", password=PASSWORD)
    tournament.referees.add(referee)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    path = reverse("referee:list", args=["spieltag-1", 1, 3])
    page.goto(live_server.url + path)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(live_server.url + path)

    page.keyboard.type("3")
    page.keyboard.press("Tab")
    page.keyboard.press("g")
    page.wait_for_timeout(300)
    status, problems = visit(page, live_server.url + reverse("referee:dashboard"))
    entry_problems = problems
    page.goto(live_server.url + path)
    violations = page.evaluate("window.__violations")

    context.close()
    assert status == 200
    assert entry_problems == violations == []


@pytest.mark.parametrize(("name", "width"), [("phone", 390), ("laptop", 1366)])
def test_screenshot_of_the_not_found_page(browser, live_server, tmp_path, name, width):
    folder = SCREENSHOTS if os.environ.get("SKATLIGA_SCREENSHOTS") else Path(tmp_path)
    context = browser.new_context(viewport={"width": width, "height": 700}, locale="de-DE")
    page = context.new_page()
    response = page.goto(live_server.url + "/keine-seite/")

    page.screenshot(path=str(folder / f"not-found-{name}.png"), full_page=True)
    heading = page.locator("h1").inner_text()
    context.close()
    assert response.status == 404
    assert heading == "Seite nicht gefunden"

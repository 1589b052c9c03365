"""axe-core (WCAG 2.1 A and AA) over the public and the referee's pages, at a phone's and a
laptop's width; the keyboard paths the field test walked by hand (issue 10, items 23-26)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from skatliga.models import Season, Team
from tests.web.factories import entry, make_player, make_table, play

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "kreuz-bube-11"
WIDTHS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 900}}
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def league(django_user_model):
    """A season's tournament with teams, a 4-table with games and the referee ``anna``."""
    season = Season.objects.create(name="Verbandsliga 2026", slug="verbandsliga-2026", year=2026)
    names = ("Anna Schmidt", "Bernd Łukasz", "Carla Weiß", "Dieter Krüger")
    players = [make_player(name) for name in names]
    table = make_table(players=players, rounds=2, season=season, name="1. Spieltag")
    tournament = table.series.tournament
    teams = [Team.objects.create(season=season, name=f"Team {n}") for n in "AB"]
    for index, registration in enumerate(tournament.registrations.order_by("pk")):
        registration.team = teams[index % 2]
        registration.save()
    play(
        table,
        entry(2, "grand", bid=18, matadors=1, card_points=71, tricks=6),
        entry(3, "hearts", bid=20, matadors=-1, card_points=50, tricks=4),
        entry(),
    )
    user = django_user_model.objects.create_user("anna", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    tournament.referees.add(user)
    return table, players, teams


def pages(table, players, teams) -> dict[str, str]:
    tournament = table.series.tournament
    slug = tournament.slug
    return {
        "home": reverse("home"),
        "tournaments": reverse("tournaments"),
        "standings": reverse("standings", args=[slug]),
        "series": reverse("series", args=[slug, 1]),
        "table": reverse("table", args=[slug, 1, 1]),
        "hall": reverse("hall", args=[slug]),
        "player": reverse("player", args=[players[1].pk]),
        "team": reverse("team", args=[teams[0].pk]),
        "season": reverse("season", args=[tournament.season.slug]),
        "login": reverse("login"),
        "dashboard": reverse("referee:dashboard"),
        "referee-tournament": reverse("referee:tournament", args=[slug]),
        "referee-series": reverse("referee:series", args=[slug, 1]),
        "entry": reverse("referee:list", args=[slug, 1, 1]),
        "correction": reverse("referee:list", args=[slug, 1, 1]) + "?game=1#entry",
        "settings": reverse("referee:tournament-settings", args=[slug]),
        "import": reverse("referee:archive-upload"),
        "new": reverse("referee:tournament-create"),
    }


def log_in(page, live_server) -> None:
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_load_state()


def axe(page, source: str) -> list[dict]:
    page.add_script_tag(content=source)
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
    ]


@pytest.mark.parametrize("size", list(WIDTHS))
def test_no_wcag_violation_on_public_and_referee_pages(
    browser, live_server, django_user_model, axe_source, size
):
    table, players, teams = league(django_user_model)
    context = browser.new_context(viewport=WIDTHS[size], locale="de-DE")
    page = context.new_page()
    found = {}
    urls = pages(table, players, teams)
    for name, path in urls.items():
        if name == "dashboard":
            log_in(page, live_server)
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        violations = axe(page, axe_source)
        if violations:
            found[name] = violations
    context.close()
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)


# --- item 23: the hall display refreshes the ranking in place --------------------------------


def test_the_hall_display_refreshes_its_ranking_without_reloading(
    browser, live_server, django_user_model
):
    from playwright.sync_api import expect

    table, players, _ = league(django_user_model)
    slug = table.series.tournament.slug
    context = browser.new_context(viewport=WIDTHS["laptop"], locale="de-DE")
    page = context.new_page()
    page.goto(live_server.url + reverse("hall", args=[slug]) + "?every=5")
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
    page.evaluate("window.stillHere = true")
    first = page.locator("#hall-rows tr").first
    expect(first).to_contain_text("Bernd Łukasz")

    # Game 4 (seat 4 deals and sits out): seat 1 wins a grand with 4 = 5 × 24 = 120.
    play(table, entry(1, "grand", bid=18, matadors=4, card_points=90, tricks=9))

    expect(first).to_contain_text("Anna Schmidt", timeout=12_000)
    assert page.evaluate("window.stillHere") is True
    context.close()

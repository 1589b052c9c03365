"""A league referee in a real browser: a season with two teams from the roster pages, a match
day with a withdrawal after series 1, both series published, the result PDF and the
settlement PDF read back.

The games themselves are entered through the services (the entry page has its own browser
test); everything a league referee does around them happens in Chromium.
"""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Registration, Seat, Series, Team, Tournament
from tests.browser.test_entry import PASSWORD
from tests.web.factories import entry, make_player, play

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anna Schmidt",
    "Bernd Łukasz",
    "Carla Weiß",
    "Dieter Krüger",
    "Emil Čapek",
    "Frieda Nowak",
    "Gustav Hahn",
    "Hanna Vogt",
]


def finish(series: Series) -> None:
    """Every list of the series passed in to the end (rounds 1) and closed."""
    for table in series.tables.all():
        play(table, *[entry() for _ in range(table.size)])
        services.close_table(table)


def test_a_league_referee_runs_a_match_day_with_a_withdrawal_and_publishes_it(
    browser,
    live_server,
    django_user_model,
):
    from playwright.sync_api import expect

    django_user_model.objects.create_superuser("liga", password=PASSWORD)
    for number, name in enumerate(NAMES, start=1):
        make_player(name, number=str(number))
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = context.new_page()
    page.goto(live_server.url + reverse("league:home"))
    page.fill("#id_username", "liga")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(reverse("league:home")) + "$"))

    # A season and its two teams.
    page.fill("#id_season-name", "Bezirksliga 2027")
    page.fill("#id_season-year", "2027")
    page.click("text=Saison anlegen")
    page.wait_for_url(re.compile("/league/seasons/bezirksliga-2027/$"))
    for name, club, numbers in (
        ("Altenburg", "SC Altenburg", "1\n2\n3\n4"),
        ("Leipzig", "", "5\n6\n7\n8"),
    ):
        page.fill("#id_team-name", name)
        page.fill("#id_team-club", club)
        page.fill("#id_team-players", numbers)
        page.click("text=Mannschaft anlegen")
        expect(page.locator("#teams")).to_contain_text(name)
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Altenburg", "Leipzig"]

    # The season's rule set, with the settings page's house-rule fields: its match days' start.
    page.select_option("#id_season-rules", "isko-kontra")
    page.select_option("#id_season-option_revolution", label="92")
    page.click("#season-settings button[type=submit]")
    expect(page.locator("#season-settings .season-rules")).to_contain_text(
        "ISkO mit Kontra und Re mit Hausregeln"
    )

    # A match day: its referee page, where the players are entered and series 1 drawn.
    page.fill("#id_day-name", "1. Spieltag")
    page.fill("#id_day-date", "2027-01-09")
    page.fill("#id_day-match_day", "1")
    page.click("text=Spieltag anlegen")
    page.wait_for_url(re.compile("/referee/1-spieltag-2027-01-09/$"))
    tournament = Tournament.objects.get()
    assert (tournament.rules, tournament.rule_options) == ("isko-kontra", {"revolution": 92})
    Tournament.objects.filter(pk=tournament.pk).update(rounds_per_series=1)
    page.click("#players summary")
    page.fill("#id_roster", "\n".join(NAMES))
    page.click("text=Alle eintragen")
    expect(page.locator("#players .count").first).to_have_text("8")
    teams = {team.name: team for team in Team.objects.all()}
    services.assign_teams(
        tournament,
        {
            r.pk: teams["Altenburg" if int(r.player.number) <= 4 else "Leipzig"]
            for r in Registration.objects.select_related("player")
        },
    )
    page.click("text=Tische der nächsten Serie auslosen")
    page.wait_for_url(re.compile("/referee/1-spieltag-2027-01-09/"))
    finish(Series.objects.get(number=1))

    # Hanna Vogt leaves after series 1: series 2 seats the other seven at a 4- and a 3-table.
    page.goto(live_server.url + reverse("referee:tournament", args=[tournament.slug]))
    page.click("button[aria-label='Hanna Vogt zurückziehen']")
    expect(page.locator("#players")).to_contain_text("zurückgezogen nach Serie 1")
    page.click("text=Tische der nächsten Serie auslosen")
    page.wait_for_url(re.compile("/referee/1-spieltag-2027-01-09/"))
    second = Series.objects.get(number=2)
    assert sorted(second.tables.values_list("size", flat=True)) == [3, 4]
    assert not Seat.objects.filter(series=second, player__name="Hanna Vogt").exists()
    finish(second)

    # Publishing: provisional until the referee publishes each series.
    public = live_server.url + reverse("standings", args=[tournament.slug])
    page.goto(public)
    expect(page.locator("[data-provisional]")).to_be_visible()
    for number in (1, 2):
        page.goto(live_server.url + reverse("referee:series", args=[tournament.slug, number]))
        page.click("text=Ergebnisse veröffentlichen")
        expect(page.locator("#publication")).to_contain_text("veröffentlicht")
    page.goto(public)
    expect(page.locator("[data-provisional]")).to_have_count(0)
    expect(page.locator("tr", has_text="Hanna Vogt")).to_contain_text("zurückgezogen")

    response = page.request.get(
        live_server.url + reverse("tournament-results-pdf", args=[tournament.slug])
    )
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.body())).pages)
    assert "Ergebnisliste" in text and "vorläufig" not in text
    assert "Hanna Vogt" in text and "Bernd Łukasz" in text

    # The evening's money: 8 × 5.00 entry fees, no game lost (every game was passed in).
    page.goto(live_server.url + reverse("referee:money", args=[tournament.slug]))
    page.fill("#id_entry_fee", "5,00")
    page.fill("#id_prizes", "25\n15")
    page.click("#purse button[type=submit]")
    expect(page.locator("[data-total=pot]")).to_contain_text("40,00")
    response = page.request.get(
        live_server.url + reverse("referee:money-pdf", args=[tournament.slug])
    )
    text = " ".join(
        " ".join(p.extract_text().split())
        for p in pypdf.PdfReader(io.BytesIO(response.body())).pages
    )
    assert "Abrechnung" in text
    assert "Topf 40,00" in text and "Preise 40,00" in text and "Rest 0,00" in text
    context.close()

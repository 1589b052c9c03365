"""A league official's season start to finish (issue 40, "Done when"): a division of 8 teams
from two clubs, two series a match day. The official generates the schedule in his page at
1366 px, publishes it and sets up both match days' groups; a captain sets his team's line-up
on a 390 px phone from the team link, and a substitute who has moved to another club is
refused with the reason; the games are entered through the services, the lists closed and
the series published; the public division page, the embeddable table and the API then give
the table worked out here by hand.

The schedule the pairing table makes for teams 1 to 8 (the number their name ends in; odd
numbers of the first club, even of the second), checked by the test:

- day 1: group 1 = 1, 5, 6, 8; group 2 = 2, 3, 4, 7
- day 2: group 1 = 1, 3, 4, 8; group 2 = 2, 5, 6, 7

The teams' sums per series (their four players' points added) and the match points of each
series by the rank of the sums in the group, 3 2 1 0, shared when level (one tie: day 1,
series 2, teams 1 and 5 level at the top share 3 + 2, 2½ each):

====== ======== ======== ======== ======== ===================== ======
team   d1 s1    d1 s2    d2 s1    d2 s2    match points          game
====== ======== ======== ======== ======== ===================== ======
1      500 (3)  300 (2½) 400 (3)  200 (1)  9½ : 2½               1400
2      450 (3)  150 (0)  100 (0)  250 (2)  5 : 7                 950
3      350 (2)  250 (1)  300 (2)  100 (0)  5 : 7                 1000
4      250 (1)  350 (2)  200 (1)  400 (3)  7 : 5                 1200
5      400 (2)  300 (2½) 200 (1)  150 (1)  6½ : 5½               1050
6      300 (1)  200 (1)  300 (2)  350 (3)  7 : 5                 1150
7      150 (0)  450 (3)  400 (3)  50 (0)   6 : 6                 1050
8      200 (0)  100 (0)  100 (0)  300 (2)  2 : 10                700
====== ======== ======== ======== ======== ===================== ======

(Against: 3 a series less the match points, four series: 12 less the match points.) The
table by match points, then game points: 1, 4 (7, 1200), 6 (7, 1150), 5, 7, 3 (5, 1000),
2 (5, 950), 8.

With SKATLIGA_SHOTS set to a folder, the test writes league-season-schedule-editor.png,
league-season-line-up-phone.png, league-season-division-390.png and
league-season-division-1366.png there."""

from __future__ import annotations

import datetime
import os
import re
from fractions import Fraction
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga.models import Club, Division, LineUp, MatchGroup, Team
from skatliga.services import leagues, matchdays
from tests.web.factories import make_division, score_series

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("SKATLIGA_SHOTS")

GROUPS = {(1, 1): (1, 5, 6, 8), (1, 2): (2, 3, 4, 7), (2, 1): (1, 3, 4, 8), (2, 2): (2, 5, 6, 7)}
"""The schedule's groups, (day, group): the teams' numbers."""
SUMS = {
    (1, 1): ({1: 500, 5: 400, 6: 300, 8: 200}, {1: 300, 5: 300, 6: 200, 8: 100}),
    (1, 2): ({2: 450, 3: 350, 4: 250, 7: 150}, {2: 150, 3: 250, 4: 350, 7: 450}),
    (2, 1): ({1: 400, 3: 300, 4: 200, 8: 100}, {1: 200, 3: 100, 4: 400, 8: 300}),
    (2, 2): ({2: 100, 5: 200, 6: 300, 7: 400}, {2: 250, 5: 150, 6: 350, 7: 50}),
}
"""Each group's two series: the teams' sums (the docstring's table)."""
TABLE = [
    (1, 1, Fraction(19, 2), 1400),
    (2, 4, Fraction(7), 1200),
    (3, 6, Fraction(7), 1150),
    (4, 5, Fraction(13, 2), 1050),
    (5, 7, Fraction(6), 1050),
    (6, 3, Fraction(5), 1000),
    (7, 2, Fraction(5), 950),
    (8, 8, Fraction(2), 700),
]
"""The division's table by hand: rank, team, match points, game points."""


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


def half(value: Fraction) -> str:
    """Match points as the page prints them: 9½."""
    whole = int(value)
    return f"{whole}½" if value - whole else str(whole)


def number(team: Team) -> int:
    return int(team.name.rsplit(" ", 1)[1])


def test_a_league_officials_season(browser, live_server, django_user_model):
    from playwright.sync_api import expect

    division = make_division(8, series=2)
    official = django_user_model.objects.create_user("staffel", password="pik-sieben-7")
    division.officials.add(official)
    teams = {number(team): team for team in division.teams.all()}
    today = datetime.date.today()
    dates = [today + datetime.timedelta(days=7), today + datetime.timedelta(days=21)]

    # The official: the schedule generated, looked at, published, the groups set up.
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
    page.locator("#id_schedule-dates").fill(", ".join(d.strftime("%d.%m.%Y") for d in dates))
    page.get_by_role("button", name="Spielplan erzeugen").click()
    expect(page.locator("#schedule .match-day")).to_have_count(2)
    expect(page.locator("table.meetings tbody tr")).to_have_count(8)
    groups = {
        (g.match_day.number, g.number): g
        for g in MatchGroup.objects.filter(match_day__division=division).select_related("match_day")
    }
    assert {
        key: tuple(sorted(number(t) for t in group.teams.all())) for key, group in groups.items()
    } == GROUPS
    shoot(page, "league-season-schedule-editor.png")
    page.get_by_role("button", name="Spielplan veröffentlichen").click()
    expect(page.get_by_role("button", name="Erneut veröffentlichen")).to_be_visible()
    assert Division.objects.get(pk=division.pk).published_at is not None
    for left in range(4, 0, -1):
        expect(page.get_by_role("button", name="Spieltag anlegen")).to_have_count(left)
        page.get_by_role("button", name="Spieltag anlegen").first.click()
        expect(page.get_by_role("button", name="Spieltag anlegen")).to_have_count(left - 1)
    groups = {key: MatchGroup.objects.get(pk=group.pk) for key, group in groups.items()}
    assert all(group.tournament_id for group in groups.values())
    desk.close()

    # Team 1's captain on his phone: a substitute gone to another club is refused.
    team = teams[1]
    entries = list(team.roster.select_related("player").order_by("position"))
    moved = entries[4].player
    leagues.record_transfer(moved, Club.objects.create(name="SC Weg"), today)
    link = matchdays.team_link(team)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = phone.new_page()
    page.goto(live_server.url + reverse("team:code"))
    page.get_by_label("Mannschafts-Code").fill(link.code)
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
    assert not LineUp.objects.filter(team=team).exists()
    page.get_by_label(moved.name).uncheck()
    page.get_by_label(entries[3].player.name).check()
    shoot(page, "league-season-line-up-phone.png")
    page.get_by_role("button", name="Aufstellung speichern").click()
    expect(page.get_by_text("Aufstellung gespeichert.")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    line_up = LineUp.objects.get(group=groups[1, 1], team=team, series=1)
    assert line_up.via == LineUp.Via.CAPTAIN
    phone.close()

    # The games: each series played to the sums, its lists closed and published.
    for key, series in SUMS.items():
        for index, sums in enumerate(series, start=1):
            score_series(groups[key], index, {teams[n]: total for n, total in sums.items()})

    # The public division page at both widths, the embed and the API: the same table.
    expected = [
        (rank, teams[n].name, half(points), half(12 - points), game)
        for rank, n, points, game in TABLE
    ]
    for width in (390, 1366):
        context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
        page = context.new_page()
        page.goto(live_server.url + reverse("division", args=[division.pk]))
        rows = page.locator("#table table.standings tbody tr")
        expect(rows).to_have_count(8)
        expect(page.locator("[data-provisional]")).to_have_count(0)
        for row, (rank, name, points, against, game) in zip(rows.all(), expected, strict=True):
            text = row.inner_text()
            assert text.split()[0] == f"{rank}.", text
            assert name in text and f"{points} : {against}" in text, text
            assert re.search(rf"\b{game}\b", text.replace(".", "")), text
        shoot(page, f"league-season-division-{width}.png")
        context.close()

    page = browser.new_page()
    page.goto(live_server.url + reverse("division-embed", args=[division.pk]))
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    for row, (rank, name, points, against, _game) in zip(rows.all(), expected, strict=True):
        text = row.inner_text()
        assert text.split()[0] == f"{rank}." and name in text, text
        assert f"{points} : {against}" in text, text
    body = page.request.get(f"{live_server.url}/api/v1/divisions/{division.pk}/table").json()
    page.close()
    assert body["provisional"] is False
    assert [
        (r["rank"], r["team"], r["match_points"], r["match_points_against"], r["game_points"])
        for r in body["items"]
    ] == [
        (rank, teams[n].name, float(points), float(12 - points), game)
        for rank, n, points, game in TABLE
    ]

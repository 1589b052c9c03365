"""The league in public: the league's, the division's and a team's pages, the embeddable
table and the API, all from one read model (``standings.league``): the figures of
the ``played`` fixture (tests/web/conftest.py), worked out by hand there."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from skatliga.models import MatchGroup, Player
from tests.web.factories import score_series
from tests.web.test_api_contract import check

API = "/api/v1"


def page(client, name, *args, language="de"):
    with translation.override(language):
        url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_division_page_shows_the_table_the_schedule_and_the_groups_tournaments(client, played):
    division, (a, b, c, d, e, f, g, h) = played

    html = page(client, "division", division.pk)

    table = html[html.index('id="table"') : html.index('id="schedule"')]
    assert [table.index(t.name) for t in (b, a, c, d, e)] == sorted(
        table.index(t.name) for t in (b, a, c, d, e)
    )
    assert "6 : 3" in table and "5½ : 3½" in table
    assert 'data-provisional="1"' in html
    tournament = MatchGroup.objects.get(match_day__division=division, match_day__number=1, number=1)
    assert reverse("standings", args=[tournament.tournament.slug]) in html
    assert "1½:1½ · 3:0 · 1:2" in html  # A's series in the match day's table


@pytest.mark.parametrize("language", ["de", "en", "da", "sv", "nl"])
def test_the_league_pages_answer_in_every_language(client, played, language):
    division, teams = played
    league = division.season.league
    assert division.name in page(client, "league", league.slug, language=language)
    assert teams[0].name in page(client, "division", division.pk, language=language)
    assert teams[0].name in page(client, "team", teams[0].pk, language=language)


def test_the_team_page_shows_roster_results_line_ups_and_initials_where_asked(client, played):
    division, (a, *_others) = played
    first = a.roster.order_by("position")[0].player
    Player.objects.filter(pk=first.pk).update(initials_only=True, name="Anna Berg")

    html = page(client, "team", a.pk)

    assert "Anna Berg" not in html and "A. B." in html
    assert "5½ : 3½" in html and "2500" in html  # its match day: 5½:3½, 2500 game points
    assert 'id="line-ups"' in html and 'id="roster"' in html


def test_the_division_page_follows_a_new_series(client, played):
    division, (a, b, c, d, e, f, g, h) = played
    before = page(client, "division", division.pk)
    group = MatchGroup.objects.get(match_day__division=division, match_day__number=1, number=2)

    score_series(group, 2, {e: 0, f: 900, g: 100, h: 50}, publish=False)

    after = page(client, "division", division.pk)
    assert after != before
    assert "4½ : 1½" in after  # F: 1½:1½ and 3:0


def test_the_embed_may_be_framed_by_the_allowed_sites_alone(client, played, settings):
    division, _teams = played
    settings.EMBED_SITES = ["https://verein.example"]

    response = client.get(reverse("division-embed", args=[division.pk]))

    assert response.status_code == 200
    assert "frame-ancestors https://verein.example" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response
    assert "6 : 3" in response.content.decode()
    other = client.get(reverse("division", args=[division.pk]))
    assert "frame-ancestors 'none'" in other["Content-Security-Policy"]


def test_the_api_gives_the_same_table_as_the_page(client, played):
    division, (a, b, c, d, e, f, g, h) = played
    document = client.get(API + "/openapi.json").json()

    response = client.get(f"{API}/divisions/{division.pk}/table")

    check(document, "/api/v1/divisions/{pk}/table", response)
    body = response.json()
    assert body["provisional"] is True and body["tie_rule"] == "shared"
    assert [
        (r["rank"], r["team"], r["match_points"], r["match_points_against"]) for r in body["items"]
    ] == [
        (1, b.name, 6, 3),
        (2, a.name, 5.5, 3.5),
        (3, c.name, 3.5, 5.5),
        (4, d.name, 3, 6),
        (5, e.name, 3, 0),
        (6, f.name, 1.5, 1.5),
        (6, g.name, 1.5, 1.5),
        (8, h.name, 0, 3),
    ]


def test_the_api_describes_leagues_divisions_schedules_and_rosters(client, played):
    division, (a, *_others) = played
    document = client.get(API + "/openapi.json").json()
    slug = division.season.league.slug
    for path, url in [
        ("/api/v1/leagues", f"{API}/leagues"),
        ("/api/v1/leagues/{slug}", f"{API}/leagues/{slug}"),
        ("/api/v1/divisions/{pk}", f"{API}/divisions/{division.pk}"),
        ("/api/v1/divisions/{pk}/schedule", f"{API}/divisions/{division.pk}/schedule"),
        ("/api/v1/teams/{pk}", f"{API}/teams/{a.pk}"),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        check(document, path, response)
    day_one = client.get(f"{API}/divisions/{division.pk}/schedule").json()[0]
    first = day_one["groups"][0]
    assert first["state"] == "final" and first["teams"][0]["team"] == played[1][1].name
    assert [s["match_points"] for s in first["teams"][0]["series_results"]] == [3, 2, 1]
    team = client.get(f"{API}/teams/{a.pk}").json()
    assert team["division"] == division.pk and len(team["roster"]) == 5
    assert team["roster"][0]["position"] == 1 and team["roster"][-1]["substitute"] is True

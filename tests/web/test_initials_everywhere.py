"""A player listed by initials only is never named in full where the public looks: every
public page (the hall display and a table's list too), every public PDF, every spreadsheet
and every API path. The walk is built from the URL patterns and from ``openapi.json``, so
that a new public page or API path is walked as soon as it exists."""

from __future__ import annotations

import io
import subprocess
import zipfile
from collections.abc import Iterator

import openpyxl
import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from skatliga import services
from skatliga.models import Club, Player, PlayerRating, Season, Series, Table, Team, Tournament
from skatliga.services import checkin
from skatliga.urls import public_patterns
from tests.web.factories import make_division

pytestmark = pytest.mark.django_db

SURNAMES = ("Quaschnowitz", "Zwirbelmeyer")
"""The surnames of the two players listed by initials: the one seated and his substitute."""

EXPORTS = ("csv", "csv-excel", "xlsx", "ods")


@pytest.fixture
def private_players(small_season: Season) -> dict[str, int]:
    """``small_season``'s b1 as "Bernd Quaschnowitz" of a club, by initials, leaving table 1
    after game 2 to "Zora Zwirbelmeyer" (by initials too); the list signed by all."""
    club = Club.objects.create(name="SC Herz")
    Player.objects.filter(name="b1").update(
        name="Bernd Quaschnowitz", initials_only=True, club=club
    )
    table = Table.objects.get(series__number=1, number=1)
    b1 = Player.objects.get(name="Bernd Quaschnowitz")
    table_day = table.series.tournament.date
    zora = Player.objects.create(name="Zora Zwirbelmeyer", initials_only=True, club=club)
    services.appoint_substitute(table, 2, 3, player=zora)
    state = services.list_state(table)
    for position in (1, 2, 3, 4):
        services.sign_list(table, position, state=state)
    services.sign_list(table, 2, state=state, substitute=True)
    for pk, rating in ((b1.pk, 12.5), (zora.pk, 3.25)):  # in the rating list, both
        PlayerRating.objects.create(
            player_id=pk, mu=30.0, sigma=5.0, rating=rating, lists=12, last_played=table_day
        )
    division = make_division(4)
    league_team = division.teams.order_by("name")[0]
    Player.objects.filter(pk=league_team.captain_id).update(
        name="Berta Quaschnowitz", initials_only=True
    )
    return {
        "player": Player.objects.get(name="Bernd Quaschnowitz").pk,
        "substitute": zora.pk,
        "club": club.pk,
        "team": Team.objects.get(name="Team B").pk,
        "division": division.pk,
        "league_team": league_team.pk,
        "league": division.season.league.slug,
    }


def public_urls(ids: dict[str, int]) -> Iterator[str]:
    """Every public page and PDF of the fixture, one per URL pattern (each pattern needs its
    arguments here: a new one fails this test until it is walked)."""
    tournament, season = "spieltag-1", "liga-2026"
    arguments: dict[str, list[list[object]]] = {
        "tournaments": [[]],
        "standings": [[tournament]],
        "hall": [[tournament]],
        "tournament-results-pdf": [[tournament]],
        "tournament-teams-pdf": [[tournament]],
        "series": [[tournament, 1]],
        "series-results-pdf": [[tournament, 1]],
        "series-sheets-pdf": [[tournament, 1]],
        "table": [[tournament, 1, 1]],
        "seats": [[tournament, 1]],
        "seats-pdf": [[tournament, 1]],
        "season": [[season]],
        "season-results-pdf": [[season]],
        "season-teams-pdf": [[season]],
        "player": [[ids["player"]], [ids["substitute"]]],
        "ratings": [[]],
        "team": [[ids["team"]], [ids["league_team"]]],
        "league": [[ids["league"]]],
        "division": [[ids["division"]]],
        "division-embed": [[ids["division"]]],
        "imprint": [[]],
        "privacy": [[]],
    }
    assert {pattern.name for pattern in public_patterns} == set(arguments)
    for name, calls in arguments.items():
        for args in calls:
            yield reverse(name, args=args)
            yield reverse(name, args=args).replace("/", "/en/", 1)


def spreadsheet_urls() -> Iterator[str]:
    """Every spreadsheet of the standings: players and teams, in every format."""
    for page in (
        "/tournaments/spieltag-1/",
        "/tournaments/spieltag-1/series/1/",
        "/seasons/liga-2026/",
        "/ratings/",
    ):
        for kind in EXPORTS:
            yield f"{page}?export={kind}"
            if page != "/ratings/":
                yield f"{page}?export={kind}&table=teams"


def checkin_urls(ids: dict[str, int]) -> Iterator[str]:
    """The check-in page at the door (its poster hangs in the hall) searched by first name
    (which finds nobody shown by initials) and by initials, and
    the player's claim while it waits for the desk and once the desk confirmed it."""
    tournament = Tournament.objects.get(slug="spieltag-1")
    token = checkin.checkin_link(tournament).token
    player = Player.objects.get(pk=ids["player"])
    waiting = checkin.claim(tournament, player=player)
    yield reverse("checkin:page", args=[token]) + "?q=Bernd"
    yield reverse("checkin:search", args=[token]) + "?q=Bernd"
    yield reverse("checkin:search", args=[token]) + "?q=B+Q"
    yield reverse("checkin:claim", args=[token, waiting.token])
    confirmed = checkin.claim(tournament, player=player)
    checkin.confirm_claim(tournament, confirmed.pk)
    yield reverse("checkin:claim", args=[token, confirmed.token])


def api_urls(client, ids: dict[str, int]) -> Iterator[str]:
    """Every GET path of ``openapi.json`` with the fixture's slugs and ids, and the query
    parameters that add rows of names."""
    document = client.get("/api/v1/openapi.json").json()
    for path, operations in document["paths"].items():
        if "get" not in operations or path.endswith("openapi.json"):
            continue
        if path.startswith("/api/v1/seasons"):
            path = path.replace("{slug}", "liga-2026")
        if path.startswith("/api/v1/leagues"):
            path = path.replace("{slug}", ids["league"])
        path = path.replace("{slug}", "spieltag-1").replace("{number}", "1")
        path = path.replace("{table}", "1")
        if "{pk}" in path:
            kind = path.split("/")[3]
            pks = {
                "players": [ids["player"], ids["substitute"]],
                "clubs": [ids["club"]],
                "teams": [ids["team"], ids["league_team"]],
                "divisions": [ids["division"]],
            }[kind]
            for pk in pks:
                yield path.replace("{pk}", str(pk))
                if path.endswith("/lists"):
                    yield path.replace("{pk}", str(pk)) + "?games=true"
        else:
            assert "{" not in path, path
            yield path
    yield "/api/v1/players?season=liga-2026"
    yield "/api/v1/players?tournament=spieltag-1"


def readable(response) -> str:
    """The text of an answer as a reader sees it: a PDF through pdftotext, a workbook's every
    cell through openpyxl, an OpenDocument sheet's content, else the body."""
    kind = response["Content-Type"]
    if kind.startswith("application/pdf"):
        return subprocess.run(
            ["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True
        ).stdout.decode()
    if "spreadsheetml" in kind:
        book = openpyxl.load_workbook(io.BytesIO(response.content))
        return "\n".join(
            str(cell.value)
            for sheet in book.worksheets
            for row in sheet.iter_rows()
            for cell in row
            if cell.value is not None
        )
    if "opendocument" in kind:
        return zipfile.ZipFile(io.BytesIO(response.content)).read("content.xml").decode()
    return response.content.decode("utf-8-sig")


@pytest.mark.parametrize("published", [True, False], ids=["published", "running"])
def test_a_player_listed_by_initials_is_never_named_in_full(client, private_players, published):
    if published:
        Series.objects.update(published_at=timezone.now())
    Tournament.objects.update(hide_unpublished=False)
    cache.clear()
    seen: dict[str, str] = {}
    leaks = []
    for url in [
        *public_urls(private_players),
        *spreadsheet_urls(),
        *checkin_urls(private_players),
        *api_urls(client, private_players),
    ]:
        response = client.get(url)
        if url.startswith("/api/") and not published and response.status_code == 404:
            continue  # the API shows published series only
        assert response.status_code == 200, url
        text = readable(response)
        leaks += [(url, surname) for surname in SURNAMES if surname in text]
        seen[url] = text
    assert leaks == [], leaks
    shown = [url for url, text in seen.items() if "B. Q." in text]
    assert "/tournaments/spieltag-1/hall/" in shown
    assert "/tournaments/spieltag-1/series/1/tables/1/" in shown
    assert "/tournaments/spieltag-1/series/1/sheets.pdf" in shown
    assert "/seasons/liga-2026/?export=xlsx" in shown
    assert {"/ratings/", "/ratings/?export=xlsx", "/api/v1/ratings"} <= set(shown)
    assert f"/players/{private_players['player']}/" in shown
    assert any(url.startswith("/c/") and url.endswith("?q=B+Q") for url in shown)
    assert not any(url.startswith("/c/") and url.endswith("?q=Bernd") for url in shown)
    if published:
        assert f"/api/v1/clubs/{private_players['club']}" in shown
        assert f"/api/v1/teams/{private_players['team']}" in shown
        assert "/api/v1/tournaments/spieltag-1/series/1/tables/1" in shown
    league_team = f"/teams/{private_players['league_team']}/"
    assert league_team in [url for url, text in seen.items() if "B. Q." in text]
    substitute = [url for url, text in seen.items() if "Z. Z." in text]
    assert "/tournaments/spieltag-1/series/1/tables/1/" in substitute
    assert "/tournaments/spieltag-1/series/1/sheets.pdf" in substitute


def test_the_referee_keeps_the_full_names(admin_client, private_players):
    html = admin_client.get("/referee/spieltag-1/series/1/tables/1/").content.decode()
    assert "Bernd Quaschnowitz" in html and "Zora Zwirbelmeyer" in html

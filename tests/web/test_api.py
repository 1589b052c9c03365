"""The read-only API under /api/v1/ over the hand-computed season of ``conftest.small_season``:
the same rows and ranks as the pages, publishing, games, pages, filters, ETags, the rate limit
and the OpenAPI document."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.utils import timezone
from openapi_spec_validator import validate

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.models import Player, Seat, Series, Table, Tournament
from skatliga.standings.metrics import WonMinusLost

pytestmark = pytest.mark.django_db

API = "/api/v1"


def get(client, url, **params):
    response = client.get(API + url, params)
    assert response.status_code == 200, response.content
    return response.json()


def rows_of(table):
    """The rows a page's django-tables2 table shows (each record's row)."""
    return [record["row"] for record in table.data.data]


def player_rows(rows):
    return [
        {
            **dataclasses.asdict(row),
            "games": row.won + row.lost,
            WonMinusLost.key: row.won - row.lost,
        }
        for row in rows
    ]


def team_rows(rows):
    return [
        {
            "rank": r.rank,
            "team_id": r.team_id,
            "team": r.team,
            "club": r.club,
            "series": r.series,
            "match_points": float(r.match_points),
            "match_points_against": float(r.match_points_against),
            "match_points_text": r.match_points_text,
            "game_points": r.game_points,
            "scheme": r.scheme,
            "scheme_text": r.scheme_text,
        }
        for r in rows
    ]


# --- the same rows as the pages ---------------------------------------------------------------


def test_season_standings_are_the_season_page_rows(client, published):
    page = client.get("/seasons/liga-2026/")
    answer = get(client, "/seasons/liga-2026/standings")
    assert answer["count"] == 12
    assert answer["items"] == player_rows(rows_of(page.context["players"]))
    # Hand-computed (conftest.small_season): b1 and c2 share first place with 128.
    assert [(r["player"], r["rank"], r["total"]) for r in answer["items"][:4]] == [
        ("b1", 1, 128),
        ("c2", 1, 128),
        ("a1", 3, 103),
        ("b3", 4, 83),
    ]
    assert answer["items"][-1] == {
        **answer["items"][-1],
        "player": "d2",
        "rank": 12,
        "total": -104,
        "game_points": -54,
        "bonus": -50,
    }


def test_season_team_table_is_the_season_page_league_table(client, published):
    page = client.get("/seasons/liga-2026/")
    answer = get(client, "/seasons/liga-2026/teams")
    assert answer["items"] == team_rows(rows_of(page.context["teams"]))
    assert [
        (r["rank"], r["team"], r["match_points"], r["match_points_text"], r["game_points"])
        for r in answer["items"]
    ] == [
        (1, "Team B", 3.0, "3 : 0", 241),
        (2, "Team A", 2.0, "2 : 1", 133),
        (3, "Team C", 1.0, "1 : 2", 38),
        (4, "Team D", 0.0, "0 : 3", -74),
    ]


def test_tournament_standings_and_teams_are_the_tournament_page_rows(client, published):
    page = client.get("/tournaments/spieltag-1/")
    players = get(client, "/tournaments/spieltag-1/standings")
    teams = get(client, "/tournaments/spieltag-1/teams")
    assert players["items"] == player_rows(rows_of(page.context["players"]))
    assert teams["items"] == team_rows(rows_of(page.context["teams"]))
    assert players["count"] == 12 and teams["count"] == 4


def test_series_standings_and_teams_are_the_series_page_rows(client, published):
    page = client.get("/tournaments/spieltag-1/series/1/")
    players = get(client, "/tournaments/spieltag-1/series/1/standings")
    teams = get(client, "/tournaments/spieltag-1/series/1/teams")
    assert players["items"] == player_rows(rows_of(page.context["players"]))
    assert teams["items"] == team_rows(rows_of(page.context["teams"]))


def test_table_results_are_the_list_page_summary(client, published):
    page = client.get("/tournaments/spieltag-1/series/1/tables/1/")
    answer = get(client, "/tournaments/spieltag-1/series/1/tables/1")
    assert [
        {k: v for k, v in r.items() if k not in ("position", "player")} for r in answer["results"]
    ] == [column.to_json() for _, column in page.context["summary"]]
    # a1 23 + 50 + 30 = 103 · b1 48 + 50 + 30 = 128 · c1 −40 − 50 = −90 · d1 0 + 30 = 30
    assert [(r["player"]["name"], r["total"]) for r in answer["results"]] == [
        ("a1", 103),
        ("b1", 128),
        ("c1", -90),
        ("d1", 30),
    ]


def test_table_standings_rank_the_players_of_one_list(client, published):
    answer = get(client, "/tournaments/spieltag-1/series/1/tables/1/standings")
    assert [(r["rank"], r["player"], r["total"]) for r in answer] == [
        (1, "b1", 128),
        (2, "a1", 103),
        (3, "d1", 30),
        (4, "c1", -90),
    ]


# --- games ---------------------------------------------------------------------------------


def test_a_table_gives_its_games_as_in_the_archive_with_the_engines_numbers(client, published):
    answer = get(client, "/tournaments/spieltag-1/series/1/tables/1")
    ids = {seat["player"]["name"]: seat["player"]["id"] for seat in answer["seats"]}
    first, second, passed, null = answer["games"]
    # 1: b1 grand with 1, 70 card points: 2 × 24 = 48, won.
    assert first == {
        "number": 1,
        "declarer": ids["b1"],
        "game": "grand",
        "bid": 18,
        "matadors": 1,
        "card_points": 70,
        "tricks": 6,
        "computed": {
            "value": 48,
            "won": True,
            "overbid": False,
            "list_score": 48,
            "points": [0, 48, 0, 0],
            "running": [0, 48, 0, 0],
        },
    }
    # 2: c1 hearts with 1 lost: 2 × 10 = 20, counted double on the list: −40.
    assert second["computed"] | {} == {
        "value": 20,
        "won": False,
        "overbid": False,
        "list_score": -40,
        "points": [0, 0, -40, 0],
        "running": [0, 48, -40, 0],
    }
    assert passed == {
        "number": 3,
        "passed": True,
        "computed": {"points": [0, 0, 0, 0], "running": [0, 48, -40, 0]},
    }
    assert null["computed"]["value"] == 23 and null["computed"]["running"] == [23, 48, -40, 0]


def test_an_overbid_game_shows_the_charged_value(client, published):
    answer = get(client, "/tournaments/spieltag-1/series/1/tables/2")
    # d2 diamonds without 1 at bid 22: 2 × 9 = 18 < 22, charged 27, lost double: −54.
    overbid = answer["games"][1]["computed"]
    assert (overbid["value"], overbid["won"], overbid["overbid"], overbid["points"]) == (
        27,
        False,
        True,
        [0, 0, 0, -54],
    )


# --- publishing ----------------------------------------------------------------------------


def test_unpublished_series_are_not_in_the_api(client, small_season):
    assert get(client, "/seasons/liga-2026/standings")["items"] == []
    assert get(client, "/seasons/liga-2026/teams")["items"] == []
    assert get(client, "/tournaments/spieltag-1/standings")["count"] == 0
    assert get(client, "/tournaments/spieltag-1/series") == []
    assert get(client, "/tournaments/spieltag-1")["series"] == []
    assert get(client, "/players")["count"] == 0
    for url in (
        "/tournaments/spieltag-1/series/1",
        "/tournaments/spieltag-1/series/1/standings",
        "/tournaments/spieltag-1/series/1/teams",
        "/tournaments/spieltag-1/series/1/tables/1",
        "/tournaments/spieltag-1/series/1/tables/1/standings",
        f"/players/{Player.objects.get(name='b1').pk}",
    ):
        assert client.get(API + url).status_code == 404, url


def test_standings_count_published_series_only(client, published):
    """A second, unpublished series changes the page but not the API."""
    tournament = Tournament.objects.get()
    series = Series.objects.create(tournament=tournament, number=2)
    table = Table.objects.create(series=series, number=1, size=4)
    for position, name in enumerate(("a1", "b1", "c1", "d1"), start=1):
        Seat.objects.create(
            table=table, series=series, position=position, player=Player.objects.get(name=name)
        )
    entry = services.GameEntry(2, Declaration(GameType.GRAND, 18, 1), Outcome(70, 6))
    services.record_game(table, 1, entry)
    before = get(client, "/seasons/liga-2026/standings")["items"]
    page = rows_of(client.get("/seasons/liga-2026/").context["players"])
    # b1 wins a grand with 1 in series 2: 48 + 50, nobody else lost.
    assert next(r.total for r in page if r.player == "b1") == 128 + 48 + 50
    assert next(r["total"] for r in before if r["player"] == "b1") == 128
    assert get(client, "/tournaments/spieltag-1")["series"] == [1]
    assert client.get(API + "/tournaments/spieltag-1/series/2").status_code == 404

    series.published_at = timezone.now()
    series.save()
    cache.clear()
    after = get(client, "/seasons/liga-2026/standings")["items"]
    assert after == player_rows(page)


def test_players_have_public_fields_only(client, published):
    Player.objects.filter(name="a1").update(number="0815")
    answer = get(client, "/players", name="a1")
    assert answer["items"] == [{"id": Player.objects.get(name="a1").pk, "name": "a1", "club": ""}]
    assert b"0815" not in client.get(API + "/tournaments/spieltag-1/series/1/tables/1").content


# --- pages, filters, errors ----------------------------------------------------------------


def test_standings_come_a_page_at_a_time(client, published):
    first = get(client, "/seasons/liga-2026/standings", page_size=5)
    last = get(client, "/seasons/liga-2026/standings", page_size=5, page=3)
    assert first["count"] == last["count"] == 12
    assert [r["player"] for r in first["items"]] == ["b1", "c2", "a1", "b3", "a2"]
    assert [r["player"] for r in last["items"]] == ["c1", "d2"]


def test_tournaments_are_filtered_by_season_date_and_status(client, published):
    Tournament.objects.create(name="Pokal", slug="pokal", date=datetime.date(2026, 12, 5))

    def slugs(**params):
        return [t["slug"] for t in get(client, "/tournaments", **params)["items"]]

    assert slugs() == ["pokal", "spieltag-1"]
    assert slugs(season="liga-2026") == ["spieltag-1"]
    assert slugs(date="2026-11-21") == ["spieltag-1"]
    assert slugs(date_from="2026-11-22") == ["pokal"]
    assert slugs(date_to="2026-11-21") == ["spieltag-1"]
    assert slugs(status="planned") == ["pokal"]
    assert slugs(status="running") == ["spieltag-1"]
    assert slugs(status="finished") == []


def test_a_tournament_names_its_rules_list_system_and_status(client, published):
    answer = get(client, "/tournaments/spieltag-1")
    assert {k: answer[k] for k in ("rules", "list_system", "status", "series", "season")} == {
        "rules": "isko",
        "list_system": "seeger-fabian",
        "status": "running",
        "series": [1],
        "season": "liga-2026",
    }


def test_a_bad_parameter_is_a_clear_error_in_the_users_language(client, published):
    german = client.get(API + "/tournaments", {"status": "kaputt", "date": "gestern"})
    assert german.status_code == 422
    body = german.json()
    assert body["detail"] == "Ungültige Parameter in der Anfrage."
    assert sorted(e["field"] for e in body["errors"]) == ["date", "status"]
    assert all(e["code"] for e in body["errors"])
    english = client.get(API + "/tournaments", {"page": "0"}, headers={"accept-language": "en"})
    assert english.status_code == 422
    assert english.json()["detail"] == "Invalid parameters in the request."


def test_an_unknown_tournament_is_404_in_the_users_language(client, published):
    german = client.get(API + "/tournaments/gibt-es-nicht")
    assert german.status_code == 404
    assert german.json() == {"detail": "Nicht gefunden (oder noch nicht veröffentlicht)."}
    english = client.get(API + "/seasons/nope/standings", headers={"accept-language": "en"})
    assert english.json() == {"detail": "Not found (or not published yet)."}
    assert (german["Content-Language"], english["Content-Language"]) == ("de", "en")


# --- caching and the rate limit ------------------------------------------------------------


def test_a_repeated_request_with_the_etag_is_304(client, published):
    first = client.get(API + "/seasons/liga-2026/standings")
    etag = first["ETag"]
    again = client.get(API + "/seasons/liga-2026/standings", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert "no-cache" in first["Cache-Control"]


def test_the_etag_changes_when_a_game_changes(client, published):
    etag = client.get(API + "/seasons/liga-2026/standings")["ETag"]
    table = Table.objects.get(number=3)
    # b3's game lost instead, as in test_standings: b3 −116, the others +30 each.
    services.record_game(
        table,
        1,
        services.GameEntry(2, Declaration(GameType.SPADES, 18, 1, hand=True), Outcome(60, 5)),
        expected_version=1,
    )
    changed = client.get(API + "/seasons/liga-2026/standings", headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert next(r["total"] for r in changed.json()["items"] if r["player"] == "b3") == -116


def test_too_many_requests_from_one_address_are_refused(client, published, settings):
    settings.API_RATE = "3/m"
    for _ in range(3):
        assert client.get(API + "/seasons").status_code == 200
    refused = client.get(API + "/seasons")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert refused.json()["detail"].startswith("Zu viele Anfragen von dieser Adresse")
    assert client.get(API + "/seasons", REMOTE_ADDR="10.0.0.9").status_code == 200


def test_the_rate_is_counted_where_every_worker_sees_it(client, published, settings):
    from django.core.cache import cache

    settings.API_RATE = "2/m"
    for _ in range(2):
        assert client.get(API + "/seasons").status_code == 200
        cache.clear()  # the next request lands on a worker whose local memory is empty
    refused = client.get(API + "/seasons")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60


# --- the description -----------------------------------------------------------------------


def test_the_openapi_document_validates(client):
    document = get(client, "/openapi.json")
    validate(document)
    assert "/api/v1/seasons/{slug}/standings" in document["paths"]


def test_the_docs_page_loads_nothing_from_a_cdn(client):
    page = client.get(API + "/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower() and "https://" not in html
    assert finders.find("ninja/swagger-ui-bundle.js") is not None


def test_answers_may_be_read_from_another_site(client, published):
    response = client.get(API + "/seasons/liga-2026/standings", headers={"origin": "http://x.org"})
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    again = client.get(
        API + "/seasons/liga-2026/standings", headers={"if-none-match": response["ETag"]}
    )
    assert again.status_code == 304 and again["Access-Control-Allow-Origin"] == "*"


def test_season_standings_are_one_grouped_query(client, published, django_assert_num_queries):
    get(client, "/seasons")  # this address's rate count has begun
    with django_assert_num_queries(4):  # the rate count (add one, read), season, standings
        get(client, "/seasons/liga-2026/standings")


def test_behind_one_proxy_the_forwarded_address_is_limited(client, published, settings):
    settings.API_RATE = "2/m"
    settings.NINJA_NUM_PROXIES = 1
    for _ in range(2):
        assert client.get(API + "/seasons", HTTP_X_FORWARDED_FOR="1.2.3.4").status_code == 200
    assert client.get(API + "/seasons", HTTP_X_FORWARDED_FOR="1.2.3.4").status_code == 429
    assert client.get(API + "/seasons", HTTP_X_FORWARDED_FOR="5.6.7.8").status_code == 200


@pytest.mark.parametrize(
    ("name", "value"), [("SKATLIGA_API_RATE", "viele"), ("SKATLIGA_PROXY_COUNT", "-1")]
)
def test_bad_api_settings_are_named_at_start(run_manage, name, value):
    result = run_manage("check", env={name: value})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and name in result.stderr

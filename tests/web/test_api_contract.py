"""Every path of the API and every error it gives, checked against its own ``openapi.json`` by
a JSON Schema validator: what a client generated from the description may rely on."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.utils import timezone
from jsonschema import Draft202012Validator

from skatliga.models import Club, Division, League, Player, Series, Team

pytestmark = pytest.mark.django_db

API = "/api/v1"
FILLED = {"slug": "spieltag-1", "number": "1", "table": "1"}


@pytest.fixture
def document(client):
    return client.get(API + "/openapi.json").json()


@pytest.fixture
def published(small_season):
    Series.objects.update(published_at=timezone.now())
    club = Club.objects.create(name="SC Herz")
    Player.objects.filter(name="a1").update(club=club)
    Team.objects.filter(name="Team A").update(club=club)
    return small_season


def check(document, path, response):
    """``response`` is one the description declares for ``path``, and its body fits."""
    declared = document["paths"][path]["get"]["responses"]
    status = str(response.status_code)
    assert status in declared, f"{path} answers {status}, declares {sorted(declared)}"
    content = declared[status]["content"]
    if "application/json" not in content:
        (kind,) = content
        assert response["Content-Type"].startswith(kind)
        return
    fits(document, content["application/json"]["schema"], response)


def fits(document, schema, response):
    assert response["Content-Type"] == "application/json; charset=utf-8"
    validator = Draft202012Validator({**schema, "components": document["components"]})
    problems = [e.message for e in validator.iter_errors(response.json())]
    assert not problems, problems


def address(path, **values):
    filled = {**FILLED, **values}
    if path.startswith(API + "/seasons"):
        filled["slug"] = values.get("slug", "liga-2026")
    first = {"players": Player, "clubs": Club, "teams": Team, "divisions": Division}
    for prefix, model in first.items():
        if path.startswith(f"{API}/{prefix}/"):
            found = model.objects.order_by("pk").first()
            filled["pk"] = values.get("pk", str(found.pk if found else 999999))
    if path.startswith(API + "/leagues/"):
        found = League.objects.order_by("pk").first()
        filled["slug"] = values.get("slug", found.slug if found else "nope")
    return re.sub(r"\{(\w+)\}", lambda m: filled[m.group(1)], path)


def data_paths(document):
    return [p for p in document["paths"] if not p.endswith("openapi.json")]


def test_every_path_answers_what_it_declares(client, published, document):
    for path in data_paths(document):
        check(document, path, client.get(address(path)))


def test_every_error_is_declared_where_it_occurs(client, published, document, settings):
    for path in data_paths(document):
        declared = document["paths"][path]["get"]["responses"]
        params = {p["name"] for p in document["paths"][path]["get"].get("parameters", ())}
        assert "429" in declared
        if "{" in path:
            unknown = address(path, slug="nope", number="9", table="9", pk="999999")
            check(document, path, client.get(unknown))
        if "page" in params:
            check(document, path, client.get(address(path), {"page": "0"}))
        if "{number}" in path:
            check(document, path, client.get(address(path, number="eins")))
    settings.API_RATE = "1/m"
    cache.clear()
    for path in data_paths(document):
        client.get(address(path))
        check(document, path, client.get(address(path)))
        cache.clear()


def test_page_sizes_are_described(document):
    parameters = document["paths"][API + "/seasons/{slug}/standings"]["get"]["parameters"]
    page_size = next(p for p in parameters if p["name"] == "page_size")["schema"]
    assert (page_size["default"], page_size["maximum"]) == (100, 1000)
    players = document["paths"][API + "/players"]["get"]["parameters"]
    assert next(p for p in players if p["name"] == "page_size")["schema"]["default"] == 50


def test_the_description_says_what_the_figures_mean_and_whose_data_it_is(document):
    row = document["components"]["schemas"]["StandingRowOut"]["properties"]
    for name in ("withdrawn", "average", "won", "lost", "others_lost", "bonus"):
        assert row[name].get("description"), name
    errors = document["components"]["schemas"]["ErrorOut"]["properties"]["errors"]
    assert "ParameterErrorOut" in str(errors)
    assert document["info"]["license"]["url"] and document["info"]["contact"]["name"]


@pytest.mark.parametrize(
    "url", [API + "/gibt-es-nicht", API + "/seasons/", API + "/seasons/liga-2026/", API]
)
def test_unknown_addresses_and_a_trailing_slash_are_a_json_404(client, document, url):
    response = client.get(url, headers={"accept-language": "en"})
    assert response.status_code == 404
    fits(document, {"$ref": "#/components/schemas/ErrorOut"}, response)
    assert response.json()["detail"] == "Not found (or not published yet)."
    assert response["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_writing_is_a_json_405(client, document, published, method):
    response = getattr(client, method)(API + "/seasons")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, OPTIONS"
    fits(document, {"$ref": "#/components/schemas/ErrorOut"}, response)


def test_an_internal_error_is_a_json_500(client, document, published, monkeypatch, caplog):
    def broken(slug):
        raise RuntimeError("kaputt")

    monkeypatch.setattr("skatliga.api.views.season_named", broken)
    response = client.get(API + "/seasons/liga-2026")
    assert response.status_code == 500
    fits(document, {"$ref": "#/components/schemas/ErrorOut"}, response)
    assert "kaputt" not in response.content.decode()
    assert "kaputt" in caplog.text


def test_head_answers_like_get_without_a_body(client, published):
    got = client.get(API + "/seasons/liga-2026/standings")
    head = client.head(API + "/seasons/liga-2026/standings")
    assert head.status_code == 200 and head.content == b""
    assert head["ETag"] == got["ETag"]
    assert head["Content-Length"] == str(len(got.content))
    assert client.head(API + "/seasons/nope").status_code == 404


def test_a_cors_preflight_allows_conditional_requests(client):
    response = client.options(
        API + "/seasons",
        headers={
            "origin": "https://club.example",
            "access-control-request-method": "GET",
            "access-control-request-headers": "if-none-match",
        },
    )
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "if-none-match" in response["Access-Control-Allow-Headers"].lower()
    assert "GET" in response["Access-Control-Allow-Methods"]

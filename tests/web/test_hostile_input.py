"""Hostile values in every parameter of every URL: a clear 4xx or a form error, never a 5xx.

Every URL pattern of the site and the API is requested with its path filled from a small
season (as a visitor, as a logged-in referee, at the table), first to learn which query
parameters and form fields the view reads, then with each hostile value in all of them at once
and in each path parameter, and then with a NUL (which PostgreSQL refuses in any text) in each
field alone, so that no field is hidden behind another one's error: a guest's name at
check-in, the reason of a referee's decision. Each request runs in a transaction rolled back
afterwards, so one request's changes (or a database error) never hide the next one's answer.
The walk runs on SQLite and, with ``DATABASE_URL`` naming one, on PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.db import transaction
from django.http import QueryDict
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from skatliga.api.urls import api  # with every operation joined (calendar, players)
from skatliga.models import Club, Game, Player, Registration, Season, Seat, Series, Team
from skatliga.services import calls, checkin
from skatliga.services.table_links import renew_link

HOSTILE = {
    "nul": "a\x00b",
    "superscript": "²",
    "huge": str(10**20),
    "nan": "NaN",
    "infinity": "Infinity",
    "long": "x" * 10_000,
    "rtl": "\u202eabc\u202c",
    "zero-width": "1\u200b",
}
SKIPPED = ("admin/", "logout/", "i18n/")  # Django's own; logging out ends the walk's session
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def routes(patterns=None, prefix: str = "") -> Iterator[str]:
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and not route.startswith(SKIPPED):
            yield route


def api_query_parameters() -> dict[str, list[str]]:
    """The API's query parameters per route, from its OpenAPI document."""
    schema = api.get_openapi_schema(path_prefix="")
    found = {}
    for path, operations in schema["paths"].items():
        names = [p["name"] for p in operations["get"].get("parameters", ()) if p["in"] == "query"]
        found["api/v1" + re.sub(r"\{(\w+)\}", r"<\1>", path)] = names
    return found


class Reading:
    """Records which keys a view reads from request.GET or request.POST."""

    def __init__(self, monkeypatch) -> None:
        self.keys: set[str] = set()
        for method in ("get", "getlist", "__getitem__", "__contains__"):
            original = getattr(QueryDict, method)

            def record(data, key, *args, _original=original, **kwargs):
                self.keys.add(key)
                return _original(data, key, *args, **kwargs)

            monkeypatch.setattr(QueryDict, method, record)


@pytest.fixture
def site(small_season, django_user_model):
    season = Season.objects.get()
    series = Series.objects.get()
    tournament = series.tournament
    tournament.hide_unpublished = False
    link = renew_link(series.tables.get(number=1))
    player = Player.objects.first()
    player.club = Club.objects.create(name="SC Herz")
    player.save()
    referee = django_user_model.objects.create_superuser("chef", password="x")
    tournament.referees.add(referee)
    game = Game.objects.filter(table__series=series, table__number=1).order_by("number").first()
    seat = Seat.objects.filter(table=game.table).first()
    call = calls.call_referee(game.table, "rule")
    objection = calls.file_objection(game, seat, "Falsch gezählt")
    door = checkin.checkin_link(tournament)
    return {
        "season": season.slug,
        "tournament": tournament.slug,
        "token": link.token,
        "c/": door.token,
        "calls": call.pk,
        "objections": objection.pk,
        "registrations": Registration.objects.first().pk,
        "referees": referee.pk,
        "players": player.pk,
        "teams": Team.objects.first().pk,
        "clubs": player.club.pk,
        "user": referee,
    }


def filled(route: str, site: dict, hostile: tuple[str, str] | None = None) -> str:
    """``route`` with each path parameter a real one, or ``hostile`` (name, value) in one."""

    def value(found: re.Match) -> str:
        name = found[1]
        if hostile and name == hostile[0]:
            return hostile[1]
        before = route[: found.start()].rstrip("/").rsplit("/", 1)[-1]
        if name == "slug":
            return site["season" if before == "seasons" else "tournament"]
        if name == "pk":
            return str(site.get(before, 1))  # a room without a row here: a plain 404
        if name == "token" and route.startswith("c/"):
            return site["c/"]
        return site["token"] if name == "token" else "1"

    return "/" + PARAMETER.sub(value, route)


def request(client: Client, method: str, path: str, data: dict) -> int:
    with transaction.atomic():
        response = getattr(client, method)(path, data)
        transaction.set_rollback(True)
    return response.status_code


def walk(client: Client, route: str, site: dict, api_keys: list[str] | None) -> list[str]:
    failures = []
    for name in PARAMETER.findall(route):
        for label, value in HOSTILE.items():
            path = filled(route, site, (name, value.replace("\x00", "%00")))
            status = request(client, "get", path, {})
            if status >= 500:
                failures.append(f"GET {route} <{name}>={label}: {status}")
    path = filled(route, site)
    for method in ("get",) if api_keys is not None else ("get", "post"):
        if api_keys is None:
            with pytest.MonkeyPatch.context() as patch:
                reading = Reading(patch)
                request(client, method, path, {"_": "1"})
            keys = sorted(key for key in reading.keys if isinstance(key, str))
        else:
            keys = api_keys
        for label, value in HOSTILE.items():
            status = request(client, method, path, {"_": "1", **dict.fromkeys(keys, value)})
            if status >= 500:
                failures.append(f"{method.upper()} {route} {', '.join(keys)}={label}: {status}")
        if method == "post":
            # Each field alone: one field's error must not hide another's.
            for key in keys:
                status = request(client, method, path, {key: HOSTILE["nul"]})
                if status >= 500:
                    failures.append(f"POST {route} {key}=nul alone: {status}")
    return failures


@pytest.mark.parametrize("role", ["visitor", "referee"])
def test_no_hostile_value_in_any_parameter_answers_a_server_error(site, role):
    client = Client(raise_request_exception=False)
    if role == "referee":
        client.force_login(site["user"])
    api_routes = api_query_parameters()
    failures = []
    for route in routes():
        for_referees = route.startswith(("referee/", "league/"))
        if for_referees != (role == "referee"):
            continue
        failures += walk(client, route, site, api_routes.get(route.rstrip("/")))
    assert failures == [], "\n".join(failures)

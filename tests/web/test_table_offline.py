"""The table page offline: its service worker, and what the page gives the tap grid and the
queue. The queue itself posts to the same save as online (tests/web/test_table_links.py and
tests/browser/test_table_offline.py)."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.templatetags.static import static
from django.test import override_settings
from django.urls import reverse

from skatliga.services import table_links as links
from skatliga.table import views as table_views
from tests.web.factories import make_table

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "skatliga" / "static"


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def link():
    return links.renew_link(make_table(size=4, rounds=1))


@pytest.fixture
def device(client, link):
    client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})
    return client


def test_the_service_worker_is_served_under_t_for_every_table_link(client):
    response = client.get("/t/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"  # a changed worker reaches the device
    assert response["Service-Worker-Allowed"] == "/t/"
    assert "Content-Security-Policy" in response  # the worker runs under the site's policy
    assert "Set-Cookie" not in response
    body = response.content.decode()
    files = json.loads(re.search(r"var STATIC = (\[.*?\]);", body)[1])
    assert files == [static(name) for name in table_views.OFFLINE_FILES]
    assert "<" not in body  # no template text escaped into the script


def test_the_worker_keeps_the_files_the_table_page_loads(device, link):
    page = device.get(reverse("table:entry", args=[link.token])).content.decode()
    worker = device.get("/t/sw.js").content.decode()

    for url in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        assert f'"{url}"' in worker


def test_the_workers_cache_is_named_after_the_files_contents(client, tmp_path):
    before = table_views.offline_version()
    (tmp_path / "skatliga").mkdir()
    for name in table_views.OFFLINE_FILES:
        source = STATIC / name
        (tmp_path / name).write_bytes(source.read_bytes())
    (tmp_path / "skatliga" / "table-queue.js").write_bytes(b"// another version\n")

    with override_settings(STATICFILES_DIRS=[tmp_path]):
        after = table_views.offline_version()

    assert before != after
    assert f"skatliga-table-{before}" in client.get("/t/sw.js").content.decode()


def test_the_worker_is_only_read(client):
    assert client.head("/t/sw.js").status_code == 200
    assert client.post("/t/sw.js").status_code == 405


def test_the_table_page_loads_the_grid_and_the_queue(device, link):
    response = device.get(reverse("table:entry", args=[link.token]))

    content = response.content.decode()
    assert 'id="table-queue"' in content
    assert "skatliga/table-grid.js" in content and "skatliga/table-queue.js" in content
    assert 'data-worker="/t/sw.js"' in content and 'data-scope="/t/"' in content
    # The rule set says how many matadors a game can have: ISkO counts up to 11 in a suit
    # game (jacks and the suit's seven cards) and 4 in a grand (jacks only).
    assert json.loads(response.context["most_matadors"]) == {
        "clubs": 11,
        "spades": 11,
        "hearts": 11,
        "diamonds": 11,
        "grand": 4,
    }


def test_a_rule_set_that_counts_jacks_only_gives_four_everywhere(device, link):
    tournament = link.table.series.tournament
    tournament.rules = "dsu"
    tournament.save()

    response = device.get(reverse("table:entry", args=[link.token]))

    assert set(json.loads(response.context["most_matadors"]).values()) == {4}


def test_the_referees_page_has_no_grid_and_no_worker(client, link, django_user_model):
    user = django_user_model.objects.create_user("ref", password="x")
    tournament = link.table.series.tournament
    tournament.referees.add(user)
    client.force_login(user)

    content = client.get(
        reverse("referee:list", args=[tournament.slug, 1, link.table.number])
    ).content.decode()

    assert "table-queue" not in content and "table-grid.js" not in content

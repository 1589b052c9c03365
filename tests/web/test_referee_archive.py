"""The archive on the referee's pages: download a tournament, upload one as a new tournament."""

import json

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from skatliga.models import Game, Tournament
from tests.web.factories import entry, make_table, play
from tests.web.test_tasks import run_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


@pytest.fixture
def table(referee):
    table = make_table(size=3, rounds=1)
    table.series.tournament.referees.add(referee)
    play(table, entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7), entry())
    return table


def upload(client, content: bytes, **data: str):
    return client.post(
        reverse("referee:archive-upload"),
        {"file": SimpleUploadedFile("turnier.json", content, "application/json"), **data},
    )


def test_the_archive_downloads_as_a_json_attachment(client, table):
    slug = table.series.tournament.slug

    response = client.get(reverse("referee:archive-download", args=[slug]))

    data = json.loads(response.content)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="{slug}.json"'
    assert data["format"] == "skatliga-archive/1"
    assert len(data["series"][0]["tables"][0]["games"]) == 2


def after_the_import(client, uploaded):
    """The job's page once the task worker has run the upload's import (skatliga.tasks)."""
    assert uploaded.status_code == 302
    run_tasks()
    return client.get(uploaded.url)


@pytest.mark.django_db(transaction=True)
def test_an_uploaded_archive_becomes_a_new_tournament_of_the_uploader(client, referee, table):
    exported = client.get(reverse("referee:archive-download", args=[table.series.tournament.slug]))

    response = after_the_import(client, upload(client, exported.content, again="on"))

    imported = Tournament.objects.exclude(pk=table.series.tournament.pk).get()
    assert response.status_code == 302
    assert response.url == reverse("referee:tournament", args=[imported.slug])
    assert list(imported.referees.all()) == [referee]
    assert Game.objects.filter(table__series__tournament=imported).count() == 2


@pytest.mark.django_db(transaction=True)
def test_an_archive_with_errors_lists_them_with_their_paths_and_saves_nothing(
    client, referee, table
):
    exported = client.get(reverse("referee:archive-download", args=[table.series.tournament.slug]))
    data = json.loads(exported.content)
    data["series"][0]["tables"][0]["games"][0]["bid"] = 19
    del data["tournament"]["name"]

    response = after_the_import(client, upload(client, json.dumps(data).encode()))

    problems = {(p["path"], p["code"]) for p in response.context["problems"]}
    assert response.status_code == 200
    assert ("tournament.name", "required") in problems
    assert ("series[0].tables[0].games[0].bid", "bid_not_legal") in problems
    assert all(p["message"] for p in response.context["problems"])
    assert Tournament.objects.count() == 1


def test_a_file_that_is_not_json_is_refused(client, referee):
    response = upload(client, b"{nicht json")

    errors = response.context["form"].errors.as_data()["file"]
    assert [e.code for e in errors] == ["archive_not_json"]
    assert not Tournament.objects.exists()

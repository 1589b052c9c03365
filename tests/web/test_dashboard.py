"""The referee's live dashboard: status.json answers 304 until something changes, and only
the tournament's referees may read it."""

import re

import pytest
from django.urls import reverse

from skatliga import services
from tests.web.factories import entry, make_table, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, django_user_model):
    """A 3-table with one round (3 games) whose referee is logged in."""
    table = make_table(size=3, rounds=1)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return table


def status_url(table):
    return reverse(
        "referee:series-status", args=[table.series.tournament.slug, table.series.number]
    )


def test_the_status_answers_200_with_an_etag_then_304(client, table):
    first = client.get(status_url(table))

    assert first.status_code == 200
    assert first["ETag"]
    again = client.get(status_url(table), headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    assert again.content == b""


def test_a_save_changes_the_etag_and_the_figures(client, table):
    before = client.get(status_url(table))

    services.record_game(table, 1, entry(), device="Tablet")
    after = client.get(status_url(table), headers={"if-none-match": before["ETag"]})

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    [status] = after.json()["tables"]
    assert (status["games"], status["expected"], status["closed"]) == (1, 3, False)
    assert status["kept_at_table"] is True
    assert status["last_activity"] is not None
    assert "1 von 3 Spielen" in status["html"]


def test_the_status_counts_signatures_and_differences(client, table):
    tournament = table.series.tournament
    tournament.double_entry = True
    tournament.save()
    play(table, entry(), entry(), entry())
    services.record_second_entry(table, 1, entry())
    services.sign_list(table, 2, state=services.list_state(table))

    [status] = client.get(status_url(table)).json()["tables"]

    assert (status["signed"], status["seats"]) == (1, 3)
    assert status["differences"] == [2, 3]  # rows 2 and 3 have no second entry yet
    assert "2 Abweichungen (Spiel 2, 3)" in status["html"]


def test_a_signed_complete_list_offers_one_click_closing(client, table):
    play(table, entry(), entry(), entry())
    for position in (1, 2, 3):
        services.sign_list(table, position, state=services.list_state(table))

    [status] = client.get(status_url(table)).json()["tables"]

    assert 'name="next" value="series"' in status["html"]
    response = client.post(
        reverse(
            "referee:close", args=[table.series.tournament.slug, table.series.number, table.number]
        ),
        {"next": "series"},
    )
    assert response.url == reverse(
        "referee:series", args=[table.series.tournament.slug, table.series.number]
    )


def test_the_series_page_polls_the_status_without_inline_script(client, table):
    response = client.get(
        reverse("referee:series", args=[table.series.tournament.slug, table.series.number])
    )

    content = response.content.decode()
    assert f'data-live-status="{status_url(table)}"' in content
    assert content.count("skatliga/dashboard") == 1
    assert "<script" not in content.split("</title>")[0]
    assert "<script>" not in content


def test_anonymous_users_are_sent_to_login(table):
    from django.test import Client

    response = Client().get(status_url(table))

    assert response.status_code == 302
    assert "/login/" in response.url


def test_other_referees_get_403(client, table, django_user_model):
    client.force_login(django_user_model.objects.create_user("bernd", password="x-y-z-1234"))

    assert client.get(status_url(table)).status_code == 403


def test_the_status_reads_a_fixed_number_of_queries_however_many_tables(
    client, table, django_assert_max_num_queries
):
    client.get(status_url(table))  # the session and the user, once
    # series_status: the tables with their figures, the disputes, the open calls and objections.
    with django_assert_max_num_queries(14) as one:
        client.get(status_url(table))
    for _ in range(3):
        make_table(table.series.tournament, size=3)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = client.get(status_url(table))

    assert len(response.json()["tables"]) == 4


def test_each_referee_gets_the_close_form_with_his_own_token(table, django_user_model):
    from django.test import Client

    play(table, entry(), entry(), entry())
    for position in (1, 2, 3):
        services.sign_list(table, position, state=services.list_state(table))
    close = reverse(
        "referee:close", args=[table.series.tournament.slug, table.series.number, table.number]
    )
    browsers = []
    for name in ("bernd", "clara"):
        user = django_user_model.objects.create_user(name, password="kreuz-bube-11")
        table.series.tournament.referees.add(user)
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(user)
        [status] = browser.get(status_url(table)).json()["tables"]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', status["html"])[1]
        browsers.append((browser, token))

    answers = [
        browser.post(close, {"csrfmiddlewaretoken": token, "next": "series"}).status_code
        for browser, token in browsers
    ]

    assert answers == [302, 409]  # both past the CSRF check; the second finds it closed


def test_a_block_shown_before_follows_the_next_save(client, table):
    [before] = client.get(status_url(table)).json()["tables"]
    client.get(status_url(table))

    services.record_game(table, 1, entry(), device="Tablet")
    [after] = client.get(status_url(table)).json()["tables"]

    assert "0 von 3 Spielen" in before["html"]
    assert "1 von 3 Spielen" in after["html"]


def test_the_status_of_an_unknown_series_is_404(client, table):
    url = reverse("referee:series-status", args=[table.series.tournament.slug, 9])

    assert client.get(url).status_code == 404

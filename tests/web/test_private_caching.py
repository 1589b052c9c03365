"""What a shared browser may keep: nothing a logged-in user was sent, nothing behind a
capability link (issue 37, item 4: a hall PC kept the referee's pages after the logout)."""

import re
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.cache import get_max_age

from skatliga.models import Registration, Seat
from skatliga.services import checkin, personal
from skatliga.services import table_links as links
from tests.web.factories import entry, make_table, play

pytestmark = pytest.mark.django_db

STAFF_NAMESPACES = ("referee", "league")
"""The areas behind a login: the referee's pages and exports, the league official's."""


def patterns(resolver=None, prefix="", namespace=None):
    """Every URL pattern of the site: (namespace, name, route)."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            yield from patterns(pattern, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield namespace, pattern.name, prefix + str(pattern.pattern)


def directives(response):
    return {part.strip().split("=")[0] for part in response.get("Cache-Control", "").split(",")}


def kept_out_of_caches(response):
    return {"private", "no-store"} <= directives(response)


@pytest.fixture
def table():
    table = make_table(size=4, rounds=1)
    play(table, entry(2, "grand", bid=18, matadors=1, won=True))
    return table


def staff_urls(table):
    """Every staff URL (from the URL configuration), its arguments filled from ``table``."""
    tournament = table.series.tournament
    registration = tournament.registrations.first()
    values = {
        "slug": tournament.slug,
        "series": table.series.number,
        "table": table.number,
        "pk": registration.pk,
        "job_id": uuid.uuid4(),
        "group_pk": 1,
        "team_pk": 1,
        "club_pk": 1,
        "report_pk": 1,
    }
    urls = []
    for namespace, name, route in patterns():
        if namespace not in STAFF_NAMESPACES:
            continue
        names = re.findall(r"<(?:\w+:)?(\w+)>", route)
        urls.append(reverse(f"{namespace}:{name}", kwargs={n: values[n] for n in names}))
    return urls


def test_every_staff_url_is_sent_private_and_never_stored(client, django_user_model, table):
    client.force_login(django_user_model.objects.create_superuser("chef", password="grand-ouvert"))
    urls = staff_urls(table)
    answered = {}
    for url in urls:
        response = client.get(url)
        answered[url] = response.status_code
        assert kept_out_of_caches(response), (url, response.get("Cache-Control"))
        assert get_max_age(response) == 0, url
    assert len(urls) > 60
    # The crawl reaches the pages themselves, not only redirects and refusals.
    assert sum(status == 200 for status in answered.values()) > 20, answered


def test_the_archive_and_the_pdfs_of_a_referee_are_never_stored(client, django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    slug, series = table.series.tournament.slug, table.series.number
    for name, args in [
        ("referee:archive-download", [slug]),
        ("referee:money-pdf", [slug]),
        ("referee:blank-sheets", [slug, series]),
        ("referee:list", [slug, series, table.number]),
    ]:
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
        assert kept_out_of_caches(response), (name, response.get("Cache-Control"))


def test_a_public_page_seen_by_a_logged_in_user_is_not_stored(client, django_user_model, table):
    client.force_login(django_user_model.objects.create_user("anna", password="kreuz-bube-11"))

    response = client.get(reverse("standings", args=[table.series.tournament.slug]))

    assert response.status_code == 200
    assert kept_out_of_caches(response)


def test_an_anonymous_public_page_stays_cacheable(table):
    response = Client().get(reverse("standings", args=[table.series.tournament.slug]))

    assert response.status_code == 200
    assert "no-store" not in directives(response)


def test_after_the_logout_the_pages_answer_a_login_not_the_data(client, django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    url = reverse("referee:archive-download", args=[table.series.tournament.slug])
    assert kept_out_of_caches(client.get(url))

    client.post(reverse("logout"))

    assert client.get(url).status_code == 302


def test_capability_links_are_never_stored(table):
    """The table, personal and check-in links and their polls carry private data too."""
    tournament = table.series.tournament
    registration = Registration.objects.get(
        tournament=tournament, player=Seat.objects.filter(table=table).first().player
    )
    table_token = links.renew_link(table).token
    me = personal.personal_token(registration)
    door = checkin.checkin_link(tournament).token
    device = Client()
    device.post(reverse("table:device", args=[table_token]), {"name": "Tablet 1"})
    for url in [
        reverse("table:entry", args=[table_token]),
        reverse("table:help", args=[table_token]),
        reverse("table:help-status", args=[table_token]),
        reverse("table:sign", args=[table_token]),
        reverse("personal:page", args=[me]),
        reverse("personal:status", args=[me]),
        reverse("checkin:page", args=[door]),
    ]:
        response = (device if url.startswith("/t/") else Client()).get(url)
        assert response.status_code == 200, url
        assert kept_out_of_caches(response), (url, response.get("Cache-Control"))

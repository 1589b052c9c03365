"""The referee's tournament settings in a real browser: the start time is typed into the
browser's own time field, laid out like the date field beside it, and saved."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from skatliga.models import Tournament
from tests.browser.test_entry import PASSWORD
from tests.web.factories import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_referee_sets_the_start_time_and_the_address(browser, live_server, django_user_model):
    user = django_user_model.objects.create_user("anna", password=PASSWORD)
    tournament = make_tournament(date=datetime.date(2026, 11, 21))
    tournament.referees.add(user)
    url = live_server.url + reverse("referee:tournament-settings", args=[tournament.slug])
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="de-DE")
    page = context.new_page()
    page.goto(url)
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.click("form.login-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(url) + "$"))

    start, date = page.locator("#id_starts_at"), page.locator("#id_date")
    assert start.get_attribute("type") == "time"
    start_box, date_box = start.bounding_box(), date.bounding_box()
    assert start_box is not None and date_box is not None
    assert (round(start_box["width"]), round(start_box["height"])) == (
        round(date_box["width"]),
        round(date_box["height"]),
    )
    start.fill("19:30")
    page.fill("#id_address", "Hauptstr. 1, 53111 Bonn")
    page.click("main form.stacked-form button[type=submit]")
    page.wait_for_url(re.compile(re.escape(reverse("referee:tournament", args=[tournament.slug]))))
    context.close()

    saved = Tournament.objects.get(pk=tournament.pk)
    assert (saved.starts_at, saved.address) == (datetime.time(19, 30), "Hauptstr. 1, 53111 Bonn")

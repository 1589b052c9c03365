"""The report's pages: a captain answers through his team link, the official's release page
and report, the PDF; only the division's officials open them."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from skatliga.models import MatchGroup, ReportAnswer
from skatliga.services import fixtures, matchdays, reports
from tests.web.factories import make_division
from tests.web.league_play import play_group

DAY = datetime.date(2026, 3, 21)


@pytest.fixture
def played(db, django_user_model):
    division = make_division(8, series=2)
    fixtures.generate_schedule(division, [DAY, datetime.date(2026, 4, 4)])
    fixtures.publish_schedule(division)
    group = MatchGroup.objects.filter(match_day__division=division, match_day__number=1)[0]
    teams = play_group(group)
    official = django_user_model.objects.create_user("staffel", password="pik-sieben-7")
    division.officials.add(official)
    moment = timezone.make_aware(datetime.datetime(2026, 3, 22, 12))
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield division, teams, official


def test_a_captain_confirms_and_another_objects_on_the_team_link(client, played):
    division, (a, b, c, d), _official = played
    page = client.get(reverse("team:page", args=[matchdays.team_link(a).token]))
    report = reports.reports_of(division)[0]
    assert page.status_code == 200
    assert reverse("team:report", args=[matchdays.team_link(a).token, report.pk]) in page.text

    shown = client.get(reverse("team:report", args=[matchdays.team_link(a).token, report.pk]))
    assert shown.status_code == 200
    assert "512" in shown.text and "5:1" in shown.text
    assert "−360" in shown.text and "-360" not in shown.text  # one minus sign
    client.post(
        reverse("team:report", args=[matchdays.team_link(a).token, report.pk]),
        {"answer": "confirm"},
    )
    refused = client.post(
        reverse("team:report", args=[matchdays.team_link(c).token, report.pk]),
        {"answer": "object", "reason": ""},
    )
    assert refused.status_code == 400
    assert 'data-code="objection_needs_reason"' in refused.text
    client.post(
        reverse("team:report", args=[matchdays.team_link(c).token, report.pk]),
        {"answer": "object", "reason": "Tisch 3 falsch"},
    )

    answers = dict(ReportAnswer.objects.values_list("team__name", "answer"))
    assert answers == {a.name: "confirmed", c.name: "objected"}


def test_the_release_page_is_the_officials_alone(client, played, django_user_model):
    division, _teams, official = played
    client.force_login(django_user_model.objects.create_user("fremd"))
    assert client.get(reverse("league:reports", args=[division.pk])).status_code == 403

    client.force_login(official)
    page = client.get(reverse("league:reports", args=[division.pk]))
    assert page.status_code == 200
    report = reports.reports_of(division)[0]
    assert 'class="badge state-waiting"' in page.text

    released = client.post(
        reverse("league:report", args=[division.pk, report.pk]), {"action": "release"}
    )
    assert released.status_code == 302
    report.refresh_from_db()
    assert report.released_by == official


def test_the_report_prints_as_a_pdf(client, played):
    division, (a, *_rest), official = played
    client.force_login(official)
    client.get(reverse("league:reports", args=[division.pk]))
    report = reports.reports_of(division)[0]

    pdf = client.get(reverse("league:report-pdf", args=[division.pk, report.pk]))
    captain = client.get(reverse("team:report-pdf", args=[matchdays.team_link(a).token, report.pk]))

    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert captain.content.startswith(b"%PDF")

"""A result list printed while the objection window runs says so, with its end."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone, translation

from skatliga import printing, services
from skatliga.models import Series, Tournament
from tests.web.test_pdf import flat, read


@pytest.fixture
def published_with_window(small_season) -> Series:
    series = Series.objects.get(tournament__slug="spieltag-1", number=1)
    Tournament.objects.filter(pk=series.tournament_id).update(objection_minutes=15)
    series.tournament.refresh_from_db()
    for table in series.tables.all():
        services.close_table(table)
    return services.publish_series(series)


def until_text(series: Series) -> str:
    assert series.objections_until is not None
    return timezone.localtime(series.objections_until).strftime("%H:%M")


def test_series_and_tournament_results_say_the_window_is_open(published_with_window):
    series = published_with_window
    line = f"vorläufig — Einspruch möglich bis {until_text(series)}"

    assert line in flat(read(printing.series_result_pdf(series))[0])
    assert line in flat(read(printing.tournament_result_pdf(series.tournament))[0])


def test_the_window_is_said_in_the_tournaments_language(published_with_window):
    series = published_with_window
    Tournament.objects.filter(pk=series.tournament_id).update(language="en")
    series.tournament.refresh_from_db()

    text = flat(read(printing.series_result_pdf(series))[0])

    assert f"objections possible until {until_text(series)}" in text


def test_a_closed_window_prints_no_such_line(published_with_window):
    series = published_with_window
    Series.objects.filter(pk=series.pk).update(
        objections_until=timezone.now() - datetime.timedelta(minutes=1)
    )
    series.refresh_from_db()

    with translation.override("de"):
        text = flat(read(printing.series_result_pdf(series))[0])
    assert "Einspruch" not in text

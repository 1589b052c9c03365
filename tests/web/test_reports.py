"""The match report (issue 41, item 1): written when a group's match day is complete, with
its series, line-ups, substitutions, game and match points and lost-game fees worked out by
hand (tests/web/league_play.py); the captains' answers, the official's release, binding
14 days after the match day unless an objection is open."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.utils import timezone

from skatliga.models import Change, LeagueRules, MatchGroup, ReportAnswer
from skatliga.services import ServiceError, fixtures, matchdays, reports
from tests.web.factories import make_division
from tests.web.league_play import play_group

DAY = datetime.date(2026, 3, 21)


@pytest.fixture
def group(db):
    division = make_division(8, series=2)
    fixtures.generate_schedule(division, [DAY, datetime.date(2026, 4, 4)])
    return MatchGroup.objects.filter(match_day__division=division, match_day__number=1).order_by(
        "number"
    )[0]


@pytest.fixture
def played(group):
    teams = play_group(group)
    group.refresh_from_db()
    return group, teams


def at(day: datetime.date):
    """The clock moved to noon of ``day``: ``timezone.now`` as every service reads it."""
    moment = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))
    return mock.patch("django.utils.timezone.now", return_value=moment)


def test_a_group_not_played_to_its_end_has_no_report(group):
    matchdays.set_up_group(group)

    with pytest.raises(ServiceError) as error:
        reports.write_report(group)

    assert error.value.code == "match_day_not_complete"
    assert reports.write_due_reports(group.match_day.division) == []


def test_the_report_has_the_hand_worked_figures(played):
    group, (a, b, c, d) = played

    report = reports.write_report(group)

    content = report.content
    totals = {t["name"]: (t["game_points"], t["won"], t["lost"]) for t in content["totals"]}
    assert totals == {
        a.name: (512, 10, 2),
        b.name: (-360, 2, 10),
        c.name: (120, 6, 6),
        d.name: (120, 6, 6),
    }
    assert [t["name"] for t in content["totals"]] == [a.name, c.name, d.name, b.name]
    one, two = content["series"]
    assert [(t["game_points"], t["won"], t["lost"]) for t in one["teams"]] == [
        (392, 6, 0),
        (0, 2, 4),
        (0, 2, 4),
        (0, 2, 4),
    ]
    assert [(t["game_points"], t["won"], t["lost"]) for t in two["teams"]] == [
        (120, 4, 2),
        (-360, 0, 6),
        (120, 4, 2),
        (120, 4, 2),
    ]
    assert [len(t["players"]) for t in one["teams"]] == [4, 4, 4, 4]
    assert [(t["series"], t["lost"], t["fee"]) for t in content["tables"]] == [
        (1, 0, "0.00"),
        (1, 0, "0.00"),
        (1, 0, "0.00"),
        (1, 0, "0.00"),
        (2, 1, "0.50"),
        (2, 1, "0.50"),
        (2, 1, "0.50"),
        (2, 1, "0.50"),
    ]
    assert content["fees"] == "2.00"
    assert content["fees_to"] == "host"
    assert content["fees_to_name"] == group.host.name
    assert report.binding_on == datetime.date(2026, 4, 4)


def test_the_fees_go_to_the_official_where_the_league_says_so(played):
    group, _teams = played
    league = group.match_day.division.season.league
    LeagueRules.objects.update_or_create(
        league=league,
        defaults={"lost_fees_to": LeagueRules.FeesTo.OFFICIAL, "binding_days": 7},
    )

    report = reports.write_report(group)

    assert (report.content["fees_to"], report.content["fees_to_name"]) == ("official", "")
    assert report.binding_on == datetime.date(2026, 3, 28)


def test_a_substitution_between_series_is_on_the_report(group):
    group = matchdays.set_up_group(group)
    team = group.teams.order_by("name")[0]
    roster = [e.player for e in team.roster.order_by("position")]
    matchdays.set_line_up(group, team, 1, roster[:4])
    matchdays.set_line_up(group, team, 2, [*roster[:3], roster[4]])

    content = reports.report_content(group)

    row = content["series"][1]["teams"][0]
    assert row["came_in"] == [roster[4].name]
    assert row["went_out"] == [roster[3].name]
    assert row["players"][3] == {"name": roster[4].name, "substitute": True}


def test_captains_confirm_one_objects_and_the_official_decides(played, django_user_model):
    group, (a, b, c, d) = played
    official = django_user_model.objects.create_user("staffel")
    report = reports.write_due_reports(group.match_day.division)[0]
    clock = at(DAY + datetime.timedelta(days=1))
    clock.start()

    reports.answer_report(report, a, confirm=True)
    reports.answer_report(report, b, confirm=True)
    with pytest.raises(ServiceError) as error:
        reports.answer_report(report, c, confirm=False, reason="  ")
    assert error.value.code == "objection_needs_reason"
    objection = reports.answer_report(report, c, confirm=False, reason="Tisch 2 falsch addiert")

    assert reports.state_of(report, DAY) == reports.State.OBJECTED
    with pytest.raises(ServiceError) as error:
        reports.release_report(report, user=official)
    assert error.value.code == "objection_open"
    with pytest.raises(ServiceError) as error:
        reports.answer_report(report, a, confirm=False, reason="doch nicht")
    assert error.value.code == "report_answered"

    reports.decide_objection(objection, "Liste geprüft, richtig addiert.", user=official)
    reports.release_report(report, user=official)

    report.refresh_from_db()
    assert report.released_by == official
    assert reports.state_of(report, DAY) == reports.State.RELEASED
    actions = list(
        Change.objects.filter(tournament=group.tournament)
        .filter(action__in=["report_objection", "objection_decided", "report_released"])
        .order_by("at", "id")
        .values_list("action", flat=True)
    )
    assert actions == ["report_objection", "objection_decided", "report_released"]
    clock.stop()


def test_the_report_turns_binding_14_days_after_the_match_day(played):
    group, (a, b, c, d) = played
    report = reports.write_report(group)

    with at(datetime.date(2026, 4, 3)):
        assert not reports.is_binding(report)
        assert reports.state_of(report) == reports.State.WAITING
    with at(datetime.date(2026, 4, 4)):
        assert reports.is_binding(report)
        assert reports.state_of(report) == reports.State.BINDING
        with pytest.raises(ServiceError) as error:
            reports.answer_report(report, d, confirm=False, reason="zu spät")
        assert error.value.code == "report_binding"


def test_an_open_objection_keeps_the_report_from_binding(played):
    group, (a, b, c, d) = played
    report = reports.write_report(group)
    with at(datetime.date(2026, 3, 22)):
        reports.answer_report(report, d, confirm=False, reason="Serie 2 fehlt ein Spiel")

    with at(datetime.date(2026, 6, 1)):
        assert not reports.is_binding(report)
        assert reports.state_of(report) == reports.State.OBJECTED
    answer = ReportAnswer.objects.get(report=report, team=d)
    reports.decide_objection(answer, "abgewiesen")
    with at(datetime.date(2026, 6, 1)):
        assert reports.is_binding(report)


def test_the_official_rewrites_a_binding_report_with_a_reason(played, django_user_model):
    group, _teams = played
    official = django_user_model.objects.create_user("staffel")
    report = reports.write_report(group)
    with pytest.raises(ServiceError) as error:
        reports.rewrite_report(report, "", user=official)
    assert error.value.code == "decision_needs_reason"

    reports.rewrite_report(report, "Liste von Tisch 1 berichtigt", user=official)

    change = Change.objects.get(tournament=group.tournament, action="report_amended")
    assert change.reason == "Liste von Tisch 1 berichtigt"
    assert change.user == official
    assert change.after["totals"][0]["game_points"] == 512


def test_the_results_are_provisional_until_released_or_binding(played, django_user_model):
    group, _teams = played
    assert reports.is_provisional(group, DAY)
    report = reports.write_report(group)
    assert reports.is_provisional(group, DAY)
    assert not reports.is_provisional(group, datetime.date(2026, 4, 4))

    with at(DAY):
        reports.release_report(report)

    assert not reports.is_provisional(group, DAY)

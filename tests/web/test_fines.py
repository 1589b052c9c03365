"""Fines (issue 41, item 2): skatliga proposes what a match day shows (a team absent, one
short of players, a late line-up, a report its captain left unanswered) at the catalogue's
amounts; the official confirms or waives, adds his own; the club's statement and the bar of
a club that has not paid after the date. Figures by hand in each test."""

from __future__ import annotations

import datetime
from decimal import Decimal
from unittest import mock

import pytest
from django.utils import timezone

from skatliga.models import Fine, FineCode, FineKind, LeagueRules, MatchGroup
from skatliga.services import ServiceError, fines, fixtures, matchdays, reports
from tests.web.factories import make_division
from tests.web.league_play import play_group

DAY = datetime.date(2026, 3, 21)
NEXT = datetime.date(2026, 4, 25)


def at(day: datetime.date, hour: int = 12):
    moment = timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))
    return mock.patch("django.utils.timezone.now", return_value=moment)


@pytest.fixture
def division(db):
    division = make_division(8, clubs=8, series=2)
    fixtures.generate_schedule(division, [DAY, NEXT])
    league = division.season.league
    for code, name, amount in [
        (FineCode.ABSENT, "Nichtantreten", "60.00"),
        (FineCode.INCOMPLETE, "Unvollständig angetreten", "30.00"),
        (FineCode.LATE_LINE_UP, "Aufstellung verspätet", "5.00"),
        (FineCode.LATE_REPORT, "Spielbericht nicht bestätigt", "10.00"),
    ]:
        FineKind.objects.create(league=league, code=code, name=name, amount=Decimal(amount))
    return division


def group_of(division, number: int = 1) -> MatchGroup:
    return MatchGroup.objects.filter(match_day__division=division, match_day__number=number)[0]


def roster(team):
    return [e.player for e in team.roster.order_by("position")]


def test_an_absent_and_an_incomplete_team_are_proposed_once(division):
    group = matchdays.set_up_group(group_of(division))
    a, b, c, d = group.teams.order_by("name")
    with at(DAY, 9):
        for team in (a, b):
            matchdays.set_line_up(group, team, 1, roster(team)[:4])
        matchdays.set_line_up(group, c, 1, roster(c)[:3])

    made = fines.propose_fines(group, today=DAY + datetime.timedelta(days=1))

    assert sorted((f.team.name, f.code, f.amount) for f in made) == [
        (c.name, "incomplete", Decimal("30.00")),
        (d.name, "absent", Decimal("60.00")),
    ]
    assert fines.propose_fines(group, today=DAY + datetime.timedelta(days=1)) == []
    assert Fine.objects.get(team=c).reason == "Unvollständig angetreten (1. Spieltag, Serie 1)"


def test_a_line_up_after_the_start_is_late(division):
    group = group_of(division)
    MatchGroup.objects.filter(pk=group.pk).update(starts_at=datetime.time(11))
    group = matchdays.set_up_group(group)
    a, b, *_ = group.teams.order_by("name")
    with at(DAY, 10):
        matchdays.set_line_up(group, a, 1, roster(a)[:4])
    with at(DAY, 12):
        matchdays.set_line_up(group, b, 1, roster(b)[:4])

    made = fines.propose_fines(group, today=DAY)

    assert [(f.team, f.code) for f in made if f.code != "absent"] == [(b, "late_line_up")]


def test_a_report_unanswered_past_its_deadline_is_proposed(division):
    group = group_of(division)
    a, b, c, d = play_group(group)
    report = reports.write_report(group)
    with at(DAY + datetime.timedelta(days=1)):
        for team in (a, b, c):
            reports.answer_report(report, team, confirm=True)

    assert fines.propose_fines(group, today=DAY + datetime.timedelta(days=2)) == []
    made = fines.propose_fines(group, today=DAY + datetime.timedelta(days=3))
    assert [(f.team, f.code, f.amount) for f in made] == [(d, "late_report", Decimal("10.00"))]


def test_the_statement_and_the_bar_of_a_club_that_does_not_pay(division, django_user_model):
    """D's club: 60.00 for absence confirmed on 22 March, payable by 5 April (14 days); 20.00
    paid on 24 March leaves 40.00; on 6 April 40.00 is overdue; with the league's bar the
    club's team may not line up for the next match day; paying 40.00 lifts it."""
    official = django_user_model.objects.create_user("staffel")
    group = matchdays.set_up_group(group_of(division))
    a, b, c, d = group.teams.order_by("name")
    league = division.season.league
    with at(DAY, 9):
        for team in (a, b, c):
            matchdays.set_line_up(group, team, 1, roster(team)[:4])
    proposed = fines.propose_fines(group, today=DAY)
    assert [f.code for f in proposed] == ["absent"]
    with at(DAY + datetime.timedelta(days=1)):
        fine = fines.decide_fine(proposed[0], confirm=True, user=official)
        with pytest.raises(ServiceError) as error:
            fines.decide_fine(fine, confirm=False, user=official)
        assert error.value.code == "fine_decided"
    assert fine.due_on == datetime.date(2026, 4, 5)
    fines.record_payment(
        league, d.club, Decimal("20.00"), datetime.date(2026, 3, 24), "Überweisung"
    )

    on_date = fines.statement(league, d.club, today=datetime.date(2026, 4, 5))
    assert [(ln.charge, ln.payment, ln.balance) for ln in on_date.lines] == [
        (Decimal("60.00"), None, Decimal("60.00")),
        (None, Decimal("20.00"), Decimal("40.00")),
    ]
    assert (on_date.balance, on_date.overdue, on_date.barred) == (
        Decimal("40.00"),
        Decimal("0.00"),
        False,
    )
    late = fines.statement(league, d.club, today=datetime.date(2026, 4, 6))
    assert (late.overdue, late.barred) == (Decimal("40.00"), False)

    LeagueRules.objects.filter(league=league).update(bar_unpaid=True)
    assert fines.statement(league, d.club, today=datetime.date(2026, 4, 6)).barred
    assert not fines.statement(league, a.club, today=datetime.date(2026, 4, 6)).barred
    next_group = matchdays.set_up_group(MatchGroup.objects.get(match_day__date=NEXT, teams=d))
    with at(datetime.date(2026, 4, 20)):
        with pytest.raises(ServiceError) as error:
            matchdays.set_line_up(next_group, d, 1, roster(d)[:4])
        assert error.value.code == "team_barred"
        fines.record_payment(league, d.club, Decimal("40.00"), datetime.date(2026, 4, 20))
        matchdays.set_line_up(next_group, d, 1, roster(d)[:4])


def test_a_waived_fine_is_not_on_the_statement_and_an_own_fine_needs_a_reason(division):
    group = matchdays.set_up_group(group_of(division))
    proposed = fines.propose_fines(group, today=DAY)[0]  # every team absent: none lined up
    league = division.season.league
    fines.decide_fine(proposed, confirm=False, today=DAY)
    with pytest.raises(ServiceError) as error:
        fines.add_fine(league, proposed.club, Decimal("25.00"), " ")
    assert error.value.code == "fine_needs_reason"
    fines.add_fine(league, proposed.club, Decimal("25.00"), "Keine Einladung verschickt", today=DAY)

    found = fines.statement(league, proposed.club, today=DAY)
    assert [(ln.text, ln.charge) for ln in found.lines] == [
        ("Keine Einladung verschickt", Decimal("25.00"))
    ]
    assert found.lines[0].due_on == datetime.date(2026, 4, 4)

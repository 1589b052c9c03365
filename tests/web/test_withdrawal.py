"""A team's third absence withdraws it (issue 41, item 2): skatliga proposes the withdrawal
at the league's ``withdraw_after``-th absence, the official confirms or waives it, and the
division's table ranks the team last, marked, its results kept or annulled. Figures by hand.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest

from skatliga.models import GroupTeam, LeagueRules, MatchGroup, Withdrawal
from skatliga.services import ServiceError, fines, fixtures, matchdays
from skatliga.standings.league import division_table
from tests.web.factories import make_division
from tests.web.league_play import play_group

DAYS = [datetime.date(2026, 3, 21), datetime.date(2026, 4, 25), datetime.date(2026, 5, 30)]


@pytest.fixture
def division(db):
    division = make_division(8, clubs=8, series=2)
    fixtures.generate_schedule(division, DAYS)
    return division


def group_of(team, number: int) -> MatchGroup:
    return GroupTeam.objects.get(team=team, match_day__number=number).group


def miss(team, number: int) -> MatchGroup:
    """The team's group of match day ``number`` set up, every other team lined up."""
    group = matchdays.set_up_group(group_of(team, number))
    for other in group.teams.exclude(pk=team.pk):
        players = [e.player for e in other.roster.order_by("position")][:4]
        matchdays.set_line_up(group, other, 1, players)
    return group


def test_the_third_absence_proposes_the_withdrawal_and_the_official_confirms(
    division, django_user_model
):
    official = django_user_model.objects.create_user("staffel")
    rules = LeagueRules.objects.create(
        league=division.season.league, withdrawn_results=LeagueRules.WithdrawnResults.ANNUL
    )
    team = division.teams.order_by("name")[0]

    for number in (1, 2):
        day_after = DAYS[number - 1] + datetime.timedelta(days=1)
        fines.propose_fines(miss(team, number), today=day_after)
        assert len(fines.absences(team, today=day_after)) == number
    assert not Withdrawal.objects.filter(team=team).exists()

    third = miss(team, 3)
    fines.propose_fines(third, today=DAYS[2] + datetime.timedelta(days=1))
    withdrawal = Withdrawal.objects.get(team=team)
    assert (withdrawal.state, withdrawal.absences, withdrawal.group) == ("proposed", 3, third)
    assert [w.team for w in Withdrawal.objects.all()] == [team]

    withdrawal = fines.decide_withdrawal(withdrawal, confirm=True, user=official)
    assert (withdrawal.state, withdrawal.annulled, withdrawal.decided_by) == (
        "confirmed",
        True,
        official,
    )
    with pytest.raises(ServiceError) as error:
        fines.decide_withdrawal(withdrawal, confirm=False)
    assert error.value.code == "withdrawal_decided"
    assert rules.withdraw_after == 3


def test_a_league_that_never_withdraws_and_a_waived_proposal(division):
    league = division.season.league
    LeagueRules.objects.create(league=league, withdraw_after=0)
    team, other = division.teams.order_by("name")[:2]
    after = DAYS[2] + datetime.timedelta(days=1)
    for number in (1, 2, 3):
        fines.propose_fines(miss(team, number), today=after)
    assert not Withdrawal.objects.exists()

    LeagueRules.objects.filter(league=league).update(withdraw_after=2)
    proposed = fines.propose_withdrawal(team, today=after)
    assert proposed is not None and proposed.absences == 3
    assert proposed.group == group_of(team, 2)
    waived = fines.decide_withdrawal(proposed, confirm=False)
    assert waived.state == "waived"
    assert fines.propose_withdrawal(team, today=after) == waived
    assert division_table(division).rows[-1].withdrawn is False


def confirm(team, annul: bool) -> None:
    Withdrawal.objects.create(
        team=team,
        absences=3,
        state=Withdrawal.State.CONFIRMED,
        annulled=annul,
        created_at=datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC),
    )


def figures(division):
    return [
        (row.rank, row.team, row.match_points, row.match_points_against, row.game_points)
        for row in division_table(division).rows
    ]


def test_a_withdrawn_team_with_its_results_kept_ranks_last(division):
    """tests.web.league_play: A 512, 5:1 · C 120, 3:3 · D 120, 3:3 · B −360, 1:5; the other
    four 0:0. A withdrawn, kept: C and D share the top, B third, the four 0:0 fourth, A last
    with its figures."""
    group = MatchGroup.objects.filter(match_day__division=division, match_day__number=1)[0]
    a, b, c, d = play_group(group)
    confirm(a, annul=False)
    others = sorted(t.name for t in division.teams.exclude(pk__in=[a.pk, b.pk, c.pk, d.pk]))

    f = Fraction
    assert figures(division) == [
        (1, c.name, f(3), f(3), 120),
        (1, d.name, f(3), f(3), 120),
        (3, b.name, f(1), f(5), -360),
        *[(4, name, f(0), f(0), 0) for name in others],
        (8, f"{a.name} (zurückgezogen)", f(5), f(1), 512),
    ]
    assert [row.withdrawn for row in division_table(division).rows][-2:] == [False, True]


def test_a_withdrawn_team_with_its_results_annulled(division):
    """B withdrawn, annulled: each series counted without B. Series 1: A 392, C 0, D 0 →
    A 2:0, C and D draw ½:1½ each. Series 2: A, C, D 120 each → 1:1 each. A 3:1, 512 ·
    C, D 1½:2½, 120 · B last with nothing. The match day's table keeps B's series."""
    group = MatchGroup.objects.filter(match_day__division=division, match_day__number=1)[0]
    a, b, c, d = play_group(group)
    confirm(b, annul=True)
    others = sorted(t.name for t in division.teams.exclude(pk__in=[a.pk, b.pk, c.pk, d.pk]))

    f = Fraction
    assert figures(division) == [
        (1, a.name, f(3), f(1), 512),
        (2, c.name, f(3, 2), f(5, 2), 120),
        (2, d.name, f(3, 2), f(5, 2), 120),
        *[(4, name, f(0), f(0), 0) for name in others],
        (8, f"{b.name} (zurückgezogen)", f(0), f(0), 0),
    ]
    day = division_table(division).match_days[0]
    rows = {row.team: row for row in day.groups[0].rows}
    assert (rows[b.name].match_points, rows[a.name].match_points) == (f(1), f(5))

"""Eligibility (docs/rules.md section 11.4): each rule refuses a roster or a line-up with its
code, and nothing is written."""

from __future__ import annotations

import datetime

import pytest

from skatliga.models import Club, League, MatchGroup, RosterEntry, Season
from skatliga.services import ServiceError, fixtures, leagues, matchdays
from tests.web.factories import make_division, make_player

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 3, 21)


def refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        call()
    return error.value


def roster(team):
    return [entry.player for entry in team.roster.order_by("position")]


def other_level_team(division, club, name="Zweite"):
    """A team of ``club`` in a lower level of the same league and season."""
    level = leagues.add_level(division.level.league, "Landesliga", series=2)
    lower = leagues.create_division(division.season, level, "Süd")
    return leagues.add_team(lower, name, club)


def test_a_player_plays_for_one_team_per_season_and_level():
    division = make_division(4)
    first, second = division.teams.order_by("name")[:2]
    player = roster(first)[0]
    second.club = first.club
    second.save()

    error = refused(lambda: leagues.set_roster(second, [*roster(second)[:4], player]))

    assert (error.code, error.params["team"]) == ("player_in_other_team", first.name)
    assert not RosterEntry.objects.filter(team=second, player=player).exists()


def test_another_division_of_the_same_level_counts_too():
    division = make_division(4)
    first = division.teams.order_by("name")[0]
    parallel = leagues.create_division(division.season, division.level, "Süd")
    team = leagues.add_team(parallel, "Parallel", first.club)

    error = refused(lambda: leagues.set_roster(team, [roster(first)[0]]))

    assert error.code == "player_in_other_team"


def test_a_lower_level_of_the_same_club_is_allowed():
    division = make_division(4)
    first = division.teams.order_by("name")[0]
    lower = other_level_team(division, first.club)

    leagues.set_roster(lower, [roster(first)[0]], today=DAY)

    assert lower.roster.count() == 1


def test_a_player_plays_for_one_club_per_calendar_year():
    division = make_division(4)
    first = division.teams.order_by("name")[0]
    player = roster(first)[0]
    elsewhere = Club.objects.create(name="SC Anderswo")
    leagues.record_transfer(player, elsewhere, datetime.date(2026, 6, 1))
    lower = other_level_team(division, elsewhere)

    error = refused(lambda: leagues.set_roster(lower, [player], today=datetime.date(2026, 7, 1)))

    assert (error.code, error.params["club"], error.params["year"]) == (
        "player_other_club_this_year",
        first.club.name,
        2026,
    )


def test_after_a_transfer_the_next_year_is_free():
    division = make_division(4)
    first = division.teams.order_by("name")[0]
    player = roster(first)[0]
    elsewhere = Club.objects.create(name="SC Anderswo")
    leagues.record_transfer(player, elsewhere, datetime.date(2026, 12, 1))
    season = Season.objects.create(
        name="2027", slug="liga-2027", year=2027, league=division.season.league
    )
    next_division = leagues.create_division(season, division.level, "Nord")
    team = leagues.add_team(next_division, "Anderswo 1", elsewhere)

    leagues.set_roster(team, [player], today=datetime.date(2027, 1, 10))

    assert list(team.players.all()) == [player]


def test_a_player_plays_for_his_club_on_the_day():
    division = make_division(4)
    team = division.teams.order_by("name")[0]
    stranger = make_player("Fremder", club=Club.objects.create(name="SC Fremd"))

    error = refused(lambda: leagues.set_roster(team, [*roster(team), stranger], today=DAY))

    assert (error.code, error.params["club"]) == ("player_not_in_club", team.club.name)


def test_a_line_up_before_the_transfer_date_is_refused_and_after_it_allowed():
    division = make_division(4)
    fixtures.generate_schedule(division, [DAY, datetime.date(2026, 5, 2)])
    team = division.teams.order_by("name")[0]
    newcomer = make_player("Neu", club=Club.objects.create(name="SC Alt"))
    leagues.record_transfer(newcomer, team.club, datetime.date(2026, 4, 1))
    leagues.set_roster(
        team, roster(team)[:4], [*roster(team)[4:], newcomer], today=datetime.date(2026, 4, 10)
    )
    first, second = (
        matchdays.set_up_group(MatchGroup.objects.get(match_day__number=n, teams=team))
        for n in (1, 2)
    )

    error = refused(lambda: matchdays.set_line_up(first, team, 1, [*roster(team)[:3], newcomer]))
    matchdays.set_line_up(second, team, 1, [*roster(team)[:3], newcomer])

    assert (error.code, error.params["day"]) == ("player_not_in_club", "2026-03-21")
    assert not first.line_ups.exists()
    assert second.line_ups.get().players.count() == 4


def test_a_womens_league_takes_only_women():
    division = make_division(4)
    League.objects.filter(pk=division.season.league_id).update(category="damen")
    team = division.teams.order_by("name")[0]
    anna = make_player("Anna", club=team.club, category="damen")
    bernd = make_player("Bernd", club=team.club)

    error = refused(lambda: leagues.set_roster(team, [anna, bernd], today=DAY))

    assert (error.code, error.params["player"]) == ("player_category_not_allowed", "Bernd")
    leagues.set_roster(team, [anna], today=DAY)
    assert list(team.players.all()) == [anna]


def test_a_captain_is_on_the_roster():
    division = make_division(4)
    first, second = division.teams.order_by("name")[:2]

    error = refused(
        lambda: leagues.set_roster(first, roster(first), captain=roster(second)[0], today=DAY)
    )

    assert error.code == "captain_not_on_roster"

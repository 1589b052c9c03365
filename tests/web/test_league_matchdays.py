"""A division's match day: the schedule written from the pairing table, a group's tournament
with the level's series, line-ups checked against the roster and eligibility, and the draw
seating one player of each team at every table (docs/rules.md section 11)."""

from __future__ import annotations

import datetime
from collections import Counter

import pytest

from skatliga import services
from skatliga.models import LineUp, MatchGroup, Registration, Seat
from skatliga.services import ServiceError, fixtures, matchdays
from tests.web.factories import make_division

DATES = [datetime.date(2026, 3, 21), datetime.date(2026, 4, 4), datetime.date(2026, 5, 2)]


@pytest.fixture
def division(db):
    division = make_division(8)
    fixtures.generate_schedule(division, DATES, central=[3])
    return division


def first_group(division) -> MatchGroup:
    group = MatchGroup.objects.filter(match_day__division=division).order_by(
        "match_day__number", "number"
    )[0]
    return matchdays.set_up_group(group)


def roster(team):
    return [entry.player for entry in team.roster.order_by("position")]


def test_the_schedule_has_each_team_once_a_match_day(division):
    days = list(division.match_days.order_by("number"))

    assert [d.date for d in days] == DATES
    for day in days:
        seated = Counter(t.pk for g in day.groups.all() for t in g.teams.all())
        assert sorted(seated.values()) == [1] * 8
        assert [g.teams.count() for g in day.groups.all()] == [4, 4]
        if day.central:
            assert {g.host for g in day.groups.all()} == {None}
        else:
            assert all(g.host in g.teams.all() for g in day.groups.all())
    assert days[2].central and not days[0].central


def test_a_group_plays_the_levels_series_with_one_player_of_each_team_a_table(division):
    group = first_group(division)
    teams = list(group.teams.order_by("name"))
    for series in (1, 2, 3):
        for team in teams:
            matchdays.set_line_up(group, team, series, roster(team)[:4])
        drawn = services.draw_tables(group.tournament, despite_open_lists=True, seed=series)
        team_of = dict(
            Registration.objects.filter(tournament=group.tournament).values_list(
                "player_id", "team_id"
            )
        )
        for table in drawn.tables.all():
            seated = [team_of[s.player_id] for s in table.seats.all()]
            assert sorted(seated) == sorted(t.pk for t in teams)

    met = Counter()
    tables = set(
        Seat.objects.filter(series__tournament=group.tournament).values_list("table_id", flat=True)
    )
    for table in tables:
        players = sorted(Seat.objects.filter(table_id=table).values_list("player_id", flat=True))
        met.update((a, b) for i, a in enumerate(players) for b in players[i + 1 :])
    assert max(met.values()) == 1  # three series, the same line-ups: nobody meets twice
    with pytest.raises(ServiceError) as error:
        services.draw_tables(group.tournament, despite_open_lists=True)
    assert error.value.code == "series_out_of_range"


def test_a_series_without_every_line_up_is_not_drawn(division):
    group = first_group(division)
    team = group.teams.order_by("name")[0]
    matchdays.set_line_up(group, team, 1, roster(team)[:4])

    with pytest.raises(ServiceError) as error:
        services.draw_tables(group.tournament)

    assert error.value.code == "line_ups_missing"


@pytest.mark.parametrize(
    ("pick", "code"),
    [
        (lambda r: r[:2], "line_up_too_few"),
        (lambda r: r, "line_up_too_many"),
        (lambda r: [r[0], r[0], r[1], r[2]], "player_twice_in_line_up"),
    ],
)
def test_a_line_up_of_the_wrong_size_is_refused(division, pick, code):
    group = first_group(division)
    team = group.teams.order_by("name")[0]

    with pytest.raises(ServiceError) as error:
        matchdays.set_line_up(group, team, 1, pick(roster(team)))

    assert error.value.code == code
    assert not LineUp.objects.filter(group=group).exists()


def test_a_player_of_another_team_is_not_on_the_roster(division):
    group = first_group(division)
    team, other = group.teams.order_by("name")[:2]

    with pytest.raises(ServiceError) as error:
        matchdays.set_line_up(group, team, 1, [*roster(team)[:3], roster(other)[0]])

    assert (error.value.code, error.value.params["player"]) == (
        "player_not_on_roster",
        roster(other)[0].name,
    )


def test_more_substitutes_than_the_level_allows_are_refused(division):
    group = first_group(division)
    team = group.teams.order_by("name")[0]
    level = division.level
    level.substitutes = 0
    level.save()

    with pytest.raises(ServiceError) as error:
        matchdays.set_line_up(group, team, 1, [*roster(team)[:3], roster(team)[4]])

    assert error.value.code == "line_up_too_many_substitutes"


def test_a_drawn_series_keeps_its_line_ups(division):
    group = first_group(division)
    for team in group.teams.all():
        matchdays.set_line_up(group, team, 1, roster(team)[:4])
    services.draw_tables(group.tournament)
    team = group.teams.order_by("name")[0]

    with pytest.raises(ServiceError) as error:
        matchdays.set_line_up(group, team, 1, roster(team)[1:5])

    assert error.value.code == "line_up_series_drawn"


def test_the_read_model_gives_each_teams_game_points_per_series(small_season):
    """The match day worked out by hand in tests/web/conftest.py: A 133, B 241, C 38, D −74
    Spielpunkte in series 1, so B 3:0, A 2:1, C 1:2, D 0:3."""
    from scoring import series_match_points
    from skatliga.models import ListResult, Team

    found = ListResult.objects.for_season(small_season).team_series_points()

    (key,) = found
    names = dict(Team.objects.values_list("pk", "name"))
    points = {names[team]: value for team, value in found[key].items()}
    assert key[1] == 1
    assert points == {"Team A": 133, "Team B": 241, "Team C": 38, "Team D": -74}
    won = {names[t]: str(w) for t, (w, _lost) in series_match_points(found[key]).items()}
    assert won == {"Team B": "3", "Team A": "2", "Team C": "1", "Team D": "0"}

"""A division's table and its match days' tables (docs/rules.md section 11.6), checked
against figures worked out by hand from the rule: per series the teams of a group ranked by
their summed game points get 3:0, 2:1, 1:2, 0:3, teams level sharing their places' points.
The match day played is the ``played`` fixture of tests/web/conftest.py, its figures there."""

from __future__ import annotations

from fractions import Fraction as F

from skatliga.models import League
from skatliga.standings.league import State, division_table


def test_the_division_table_ranks_by_match_points_then_game_points(played):
    division, (a, b, c, d, e, f, g, h) = played

    table = division_table(division)

    got = [
        (row.rank, row.team, row.match_points, row.match_points_against, row.game_points)
        for row in table.rows
    ]
    assert got == [
        (1, b.name, F(6), F(3), 2600),
        (2, a.name, F(11, 2), F(7, 2), 2500),
        (3, c.name, F(7, 2), F(11, 2), 2300),
        (4, d.name, F(3), F(6), 1900),  # level with E on match points, more game points
        (5, e.name, F(3), F(0), 300),
        (6, f.name, F(3, 2), F(3, 2), 200),  # F and G level on both: they share the place
        (6, g.name, F(3, 2), F(3, 2), 200),
        (8, h.name, F(0), F(3), -50),
    ]
    assert [row.match_points_text for row in table.rows[:2]] == ["6 : 3", "5½ : 3½"]
    assert [(row.match_days, row.series) for row in table.rows[:5]] == [(1, 3)] * 4 + [(1, 1)]


def test_the_match_days_table_shows_each_series_and_what_is_provisional(played):
    division, (a, b, c, d, e, f, g, h) = played

    day_one, day_two = division_table(division).match_days

    first, second = day_one.groups
    assert first.state == State.FINAL and second.state == State.PROVISIONAL
    assert day_one.provisional and day_two.state == State.PLANNED
    assert [
        (row.rank, row.team, [(s.match_points, s.match_points_against) for s in row.scores])
        for row in first.rows
    ] == [
        (1, b.name, [(3, 0), (2, 1), (1, 2)]),
        (2, a.name, [(F(3, 2), F(3, 2)), (3, 0), (1, 2)]),
        (3, c.name, [(F(3, 2), F(3, 2)), (1, 2), (1, 2)]),
        (4, d.name, [(0, 3), (0, 3), (3, 0)]),
    ]
    assert [s.game_points for s in first.rows[0].scores] == [1300, 800, 500]
    assert division_table(division).provisional


def test_the_head_to_head_rule_separates_teams_level_on_both(played):
    """F and G are level (1½:1½, 200); in the one series they met they drew: still level.
    Under fewer match points against they stay level too; the rule is asked for by name."""
    division, teams = played
    League.objects.filter(pk=division.season.league_id).update(tie_rule=League.TieRule.HEAD_TO_HEAD)

    table = division_table(division)

    level = [(row.rank, row.head_to_head) for row in table.rows if row.match_points == F(3, 2)]
    assert level == [(6, F(1, 2)), (6, F(1, 2))]
    assert table.ranking.precedence[-1] == "head_to_head"


def test_a_division_table_reads_a_bounded_number_of_statements(
    played, django_assert_max_num_queries
):
    division, _teams = played
    with django_assert_max_num_queries(5):
        table = division_table(division)
    assert len(table.rows) == 8


def test_head_to_head_counts_the_series_between_the_level_teams_alone():
    """X and Y level on 4:2 and 1000; in their one series together X beat Y, in another
    series X and Y drew: X 1½, Y ½. Z, not level with them, counts nowhere."""
    from skatliga.standings.league import DivisionRow, _head_to_head

    def row(team, mp, gp):
        return DivisionRow(0, team, f"T{team}", "", 1, 2, F(mp), F(6 - mp), gp)

    rows = [row(1, 4, 1000), row(2, 4, 1000), row(3, 1, 500)]
    played = [{1: {1: 600, 2: 400, 3: 0}, 2: {1: 300, 2: 300, 3: 500}}]

    found = {r.team_id: r.head_to_head for r in _head_to_head(rows, played)}

    assert found == {1: F(3, 2), 2: F(1, 2), 3: 0}

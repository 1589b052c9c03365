"""The draw of a league group's series (docs/rules.md section 11.5), as properties: no table
seats two players of one team (with up to four teams of equal line-ups, one of each team at
every table), every line-up player sits once, and the same line-ups meet nobody twice in
four series."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatliga.services import ServiceError
from skatliga.services.partners import pairs_of
from skatliga.services.seating import league_tables


def line_ups_of(sizes: list[int]) -> list[list[int]]:
    return [[10 * t + p for p in range(size)] for t, size in enumerate(sizes)]


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(3, 4), min_size=3, max_size=5),
    earlier=st.lists(st.tuples(st.integers(0, 49), st.integers(0, 49)), max_size=30),
    series=st.integers(0, 3),
    seed=st.integers(0, 1000),
)
def test_no_table_seats_two_of_one_team(sizes, earlier, series, seed):
    line_ups = line_ups_of(sizes)
    met = {(min(a, b), max(a, b)) for a, b in earlier if a != b}
    try:
        tables = league_tables(line_ups, series, met=met, rng=random.Random(seed))
    except ServiceError as error:
        assert error.code == "players_cannot_be_seated"
        # Only where tables of three and four cannot hold them: a team of four needs four
        # tables, which then need at least twelve players.
        assert max(sizes) * 3 > sum(sizes)
        return
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(p for players in line_ups for p in players)
    assert all(3 <= len(table) <= 4 for table in tables)
    for table in tables:
        teams = [p // 10 for p in table]
        assert len(teams) == len(set(teams)), "two of one team at a table"
    if len(set(sizes)) == 1 and len(sizes) <= 4:
        assert all(len(table) == len(sizes) for table in tables)


@pytest.mark.parametrize("teams", [3, 4, 5])
def test_the_same_line_ups_meet_nobody_twice_in_four_series(teams):
    line_ups = line_ups_of([4] * teams)
    met: set[tuple[int, int]] = set()
    counts: Counter[tuple[int, int]] = Counter()
    for series in range(4):
        tables = league_tables(line_ups, series, met=met, rng=random.Random(series))
        pairs = pairs_of(tables)
        counts.update(pairs)
        met |= pairs

    assert max(counts.values()) == 1
    # Four teams of four: each player meets three new players a series, twelve in four.
    if teams == 4:
        assert len(counts) == 16 * 12 // 2


@settings(max_examples=20, deadline=None)
@given(changed=st.integers(0, 3), seed=st.integers(0, 100))
def test_a_substitute_does_not_bring_back_a_meeting(changed, seed):
    """Series 2 with one player replaced by a substitute: still nobody meets twice."""
    line_ups = line_ups_of([4, 4, 4, 4])
    first = league_tables(line_ups, 0, met=set(), rng=random.Random(seed))
    line_ups[changed][changed] = 99
    second = league_tables(line_ups, 1, met=pairs_of(first), rng=random.Random(seed))

    assert not pairs_of(first) & pairs_of(second)

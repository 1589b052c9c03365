"""Match points per series (docs/rules.md section 11.3), worked out by hand from the rule:
of n teams the best gets n−1 : 0 … the last 0 : n−1, level teams share their places."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import series_match_points

H = Fraction(1, 2)


def points(
    won: dict[str, tuple[Fraction | int, Fraction | int]],
) -> dict[str, tuple[Fraction, Fraction]]:
    return {team: (Fraction(a), Fraction(b)) for team, (a, b) in won.items()}


@pytest.mark.parametrize(
    ("game_points", "expected"),
    [
        # Four teams, all different: 3:0, 2:1, 1:2, 0:3.
        (
            {"A": 4102, "B": 3950, "C": 2011, "D": -340},
            {"A": (3, 0), "B": (2, 1), "C": (1, 2), "D": (0, 3)},
        ),
        # Order of the mapping does not matter: D best.
        (
            {"A": 10, "B": 20, "C": 30, "D": 40},
            {"D": (3, 0), "C": (2, 1), "B": (1, 2), "A": (0, 3)},
        ),
        # Two level for first: places 1 and 2 are 3 + 2 = 5, shared 2½ : ½ each.
        (
            {"A": 500, "B": 500, "C": 300, "D": 100},
            {"A": (2 + H, H), "B": (2 + H, H), "C": (1, 2), "D": (0, 3)},
        ),
        # Two level for second: (2 + 1) / 2 = 1½ : 1½.
        (
            {"A": 900, "B": 500, "C": 500, "D": 100},
            {"A": (3, 0), "B": (1 + H, 1 + H), "C": (1 + H, 1 + H), "D": (0, 3)},
        ),
        # Three level for last: (2 + 1 + 0) / 3 = 1 : 2 each.
        ({"A": 900, "B": 0, "C": 0, "D": 0}, {"A": (3, 0), "B": (1, 2), "C": (1, 2), "D": (1, 2)}),
        # All four level: (3 + 2 + 1 + 0) / 4 = 1½ : 1½.
        ({"A": 7, "B": 7, "C": 7, "D": 7}, {t: (1 + H, 1 + H) for t in "ABCD"}),
        # Two pairs level: 2½ : ½ and ½ : 2½.
        (
            {"A": 8, "B": 8, "C": 1, "D": 1},
            {"A": (2 + H, H), "B": (2 + H, H), "C": (H, 2 + H), "D": (H, 2 + H)},
        ),
        # A group of three: 2:0, 1:1, 0:2.
        ({"A": 1, "B": 2, "C": 3}, {"C": (2, 0), "B": (1, 1), "A": (0, 2)}),
        # A group of five: 4:0 … 0:4.
        (
            {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1},
            {"A": (4, 0), "B": (3, 1), "C": (2, 2), "D": (1, 3), "E": (0, 4)},
        ),
    ],
)
def test_match_points_by_hand(game_points, expected):
    assert series_match_points(game_points) == points(expected)


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=6))
def test_every_series_gives_out_n_times_n_minus_one_over_two(values):
    teams = {n: value for n, value in enumerate(values)}
    found = series_match_points(teams)
    n = len(teams)
    assert sum(won for won, _ in found.values()) == Fraction(n * (n - 1), 2)
    assert all(won + lost == n - 1 for won, lost in found.values())
    for a in teams:
        for b in teams:
            if teams[a] > teams[b]:
                assert found[a][0] > found[b][0]
            if teams[a] == teams[b]:
                assert found[a] == found[b]

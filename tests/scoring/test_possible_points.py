"""Card points against tricks, checked exactly (docs/rules.md 10.2, issue of 28 impossible pairs).

The cases come from the card values (tests/scoring/deals.py), not from the engine.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    Declaration,
    GameType,
    InvalidGame,
    Outcome,
    Problem,
    card_points_possible,
    check_game,
    score_game,
)
from tests.scoring.deals import declarer_points, possible_pairs

SUIT = Declaration(GameType.CLUBS, bid=18, matadors=1)
GRAND = Declaration(GameType.GRAND, bid=24, matadors=1)
ALL_PAIRS = [(points, tricks) for tricks in range(11) for points in range(121)]
IMPOSSIBLE = sorted(set(ALL_PAIRS) - possible_pairs())


def codes(declaration, outcome):
    return [p.code for p in check_game(declaration, outcome) if not p.warning]


def test_the_independent_count_knows_the_ends_of_the_rule():
    # With no trick the declarer has the skat alone; with ten he has all 120.
    assert max(declarer_points(0)) == 22
    assert declarer_points(10) == {120}
    assert min(declarer_points(8)) == 56
    assert sum(len(declarer_points(t)) for t in range(11)) == len(possible_pairs())


@pytest.mark.parametrize(
    ("points", "tricks"),
    [
        pytest.param(61, 8, id="grand 61 in 8 tricks: six cards cannot hold 59"),
        pytest.param(119, 7, id="119: no card is worth 1"),
        pytest.param(9, 0, id="9 with no trick: no two cards make 9"),
        *(pytest.param(1, t, id=f"1 point, {t} tricks") for t in range(11)),
        *(pytest.param(p, 0, id=f"{p} with 0 tricks") for p in range(16, 20)),
        *(pytest.param(p, 1, id=f"{p} with 1 trick") for p in (49, 50)),
        *(pytest.param(p, 2, id=f"{p} with 2 tricks") for p in range(79, 84)),
        *(pytest.param(p, 7, id=f"{p} with 7 tricks") for p in (35, 37)),
        *(pytest.param(p, 8, id=f"{p} with 8 tricks") for p in range(59, 62)),
        *(pytest.param(p, 9, id=f"{p} with 9 tricks") for p in range(91, 94)),
        *(pytest.param(119, t, id=f"119 with {t} tricks") for t in range(6, 11)),
    ],
)
def test_the_issues_examples_are_impossible(points, tricks):
    assert (points, tricks) not in possible_pairs()
    for declaration in (SUIT, GRAND):
        outcome = Outcome(card_points=points, tricks=tricks)
        assert codes(declaration, outcome) == ["card_points_contradict_tricks"]
        with pytest.raises(InvalidGame):
            score_game(declaration, outcome)


def test_every_pair_is_judged_as_the_cards_allow():
    possible = possible_pairs()
    wrong = [
        pair
        for pair in ALL_PAIRS
        if card_points_possible(*pair) != (pair in possible)
        or ("card_points_contradict_tricks" in codes(SUIT, Outcome(*pair))) == (pair in possible)
    ]
    assert wrong == []
    # Within the old bounds (the most and least the cards can hold) lie these gaps.
    assert len(IMPOSSIBLE) > 0


@settings(max_examples=300, deadline=None, database=None)
@given(st.sampled_from(sorted(possible_pairs())))
def test_a_possible_pair_scores(pair):
    points, tricks = pair
    scored = score_game(GRAND, Outcome(card_points=points, tricks=tricks))
    assert scored.won == (points >= 61)


@pytest.mark.parametrize("points", range(121))
def test_card_points_alone_are_refused_only_where_no_deal_gives_them(points):
    given_by_a_deal = any((points, t) in possible_pairs() for t in range(11))
    outcome = Outcome(card_points=points)
    problems = check_game(SUIT, outcome)
    impossible = Problem("card_points_impossible", "card_points") in problems
    assert impossible == (not given_by_a_deal)
    assert given_by_a_deal == (points not in (1, 119))

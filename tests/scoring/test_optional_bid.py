"""A game without a bid reached it (docs/rules.md section 3.2); a given bid is checked."""

import pytest

from scoring import Declaration, GameType, Outcome, check_game, score_game
from scoring.shape import game_to_json, parse_game


@pytest.mark.parametrize(
    ("declaration", "outcome", "won", "value", "list_score"),
    [
        # Diamonds without 1, 70 card points: 2 x 9 = 18, won; at a bid of 22 it is overbid.
        (Declaration(GameType.DIAMONDS, matadors=-1), Outcome(card_points=70), True, 18, 18),
        (
            Declaration(GameType.DIAMONDS, bid=22, matadors=-1),
            Outcome(card_points=70),
            False,
            27,
            -54,
        ),
        # A null game without a bid is not below it.
        (Declaration(GameType.NULL), Outcome(tricks=0), True, 23, 23),
        # Grand hand with 2, 78 points: 4 x 24 = 96.
        (Declaration(GameType.GRAND, matadors=2, hand=True), Outcome(won=True), True, 96, 96),
    ],
)
def test_a_game_without_a_bid_is_not_overbid(declaration, outcome, won, value, list_score):
    scored = score_game(declaration, outcome)
    assert (scored.won, scored.value, scored.list_score) == (won, value, list_score)
    assert scored.overbid is (declaration.bid is not None)


def test_a_given_bid_is_still_checked():
    problems = check_game(Declaration(GameType.HEARTS, bid=19, matadors=1), Outcome(won=True))
    assert [p.code for p in problems] == ["bid_not_legal"]
    assert check_game(Declaration(GameType.HEARTS, matadors=1), Outcome(won=True)) == []


def test_the_archive_shape_leaves_a_missing_bid_out():
    declaration, outcome = parse_game({"game": "clubs", "matadors": 1, "won": True})
    assert declaration.bid is None
    assert game_to_json(declaration, outcome) == {"game": "clubs", "matadors": 1, "won": True}

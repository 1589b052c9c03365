"""Game values, levels and the won/lost verdict (docs/rules.md sections 1-4).

Every expected number below is worked out by hand from docs/rules.md; the
arithmetic is in the test id or a comment.  Bid 18 never overbids a suit,
grand or null game, so these tests are about the value alone.
"""

import pytest

from scoring import (
    Declaration,
    GameType,
    Outcome,
    score_game,
)

D, H, S, C, G, N = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
    GameType.NULL,
)


def decl(game, bid=18, **kw):
    return Declaration(game=game, bid=bid, **kw)


def pts(card_points, tricks):
    return Outcome(card_points=card_points, tricks=tricks)


def flags(won, schneider=False, schwarz=False):
    return Outcome(won=won, schneider=schneider, schwarz=schwarz)


# --- base x (matadors + game) for every base and every matador count ---------

# value of "with/without n" played plainly (not hand, won 70:50): base x (n + 1)
PLAIN_VALUES = {
    D: [18, 27, 36, 45, 54, 63, 72, 81, 90, 99, 108],  # 9 x 2 .. 9 x 12
    H: [20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120],  # 10 x 2 .. 10 x 12
    S: [22, 33, 44, 55, 66, 77, 88, 99, 110, 121, 132],  # 11 x 2 .. 11 x 12
    C: [24, 36, 48, 60, 72, 84, 96, 108, 120, 132, 144],  # 12 x 2 .. 12 x 12
    G: [48, 72, 96, 120],  # 24 x 2 .. 24 x 5
}
BASES = {D: 9, H: 10, S: 11, C: 12, G: 24}


def _plain_cases():
    for game, values in PLAIN_VALUES.items():
        for n, value in enumerate(values, start=1):
            for sign, word in ((1, "with"), (-1, "without")):
                yield pytest.param(
                    game,
                    sign * n,
                    value,
                    id=f"{game.value} {word} {n}: {n + 1}x{BASES[game]}={value}",
                )


@pytest.mark.parametrize(("game", "matadors", "value"), list(_plain_cases()))
def test_plain_value_is_base_times_matadors_plus_game(game, matadors, value):
    scored = score_game(decl(game, matadors=matadors), pts(70, 6))
    assert (scored.won, scored.value, scored.list_score) == (True, value, value)


@pytest.mark.parametrize(
    ("game", "matadors", "base", "level"),
    [
        pytest.param(D, -1, 9, 2, id="diamonds without 1: base 9, level 2"),
        pytest.param(H, 3, 10, 4, id="hearts with 3: base 10, level 4"),
        pytest.param(S, -5, 11, 6, id="spades without 5: base 11, level 6"),
        pytest.param(C, 11, 12, 12, id="clubs with 11: base 12, level 12"),
        pytest.param(G, -4, 24, 5, id="grand without 4: base 24, level 5"),
    ],
)
def test_base_and_level_are_reported(game, matadors, base, level):
    scored = score_game(decl(game, matadors=matadors), pts(70, 6))
    assert (scored.base, scored.level) == (base, level)


# --- every further level ------------------------------------------------------

LEVEL_CASES = [
    pytest.param(decl(H, matadors=1), pts(70, 6), 20, id="hearts with 1, game 2 -> 2x10=20"),
    pytest.param(
        decl(H, matadors=1, hand=True),
        pts(70, 6),
        30,
        id="hearts with 1, game 2, hand 3 -> 3x10=30",
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(90, 8),
        30,
        id="hearts with 1, game 2, schneider 3 (declarer 90) -> 30",
    ),
    pytest.param(
        decl(H, matadors=1), pts(89, 7), 20, id="hearts with 1, declarer 89 is not schneider -> 20"
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(120, 10),
        40,
        id="hearts with 1, game 2, schneider 3, schwarz 4 -> 40",
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(120, 9),
        30,
        id="hearts with 1, 120 points in 9 tricks: schneider 3, no schwarz -> 30",
    ),
    pytest.param(
        decl(H, matadors=1, hand=True),
        pts(120, 10),
        50,
        id="hearts with 1, game 2, hand 3, schneider 4, schwarz 5 -> 50",
    ),
    pytest.param(
        decl(G, matadors=1), pts(100, 8), 72, id="grand with 1, game 2, schneider 3 -> 3x24=72"
    ),
    pytest.param(
        decl(G, matadors=-4, hand=True),
        pts(70, 6),
        144,
        id="grand without 4, game 5, hand 6 -> 6x24=144",
    ),
    pytest.param(
        decl(H, matadors=-2, hand=True, schneider_announced=True),
        pts(95, 8),
        60,
        id="hearts without 2, game 3, hand 4, schneider 5, announced 6 -> 60",
    ),
    pytest.param(
        decl(H, matadors=-2, hand=True, schneider_announced=True),
        pts(120, 10),
        70,
        id="hearts without 2, hand, schneider announced, schwarz 7 -> 70",
    ),
    pytest.param(
        decl(S, matadors=1, hand=True, schwarz_announced=True),
        pts(120, 10),
        77,
        id="spades with 1, game 2, hand 3, schneider 4, ann. 5, schwarz 6, ann. 7 -> 77",
    ),
    pytest.param(
        decl(S, matadors=1, hand=True, schneider_announced=True, schwarz_announced=True),
        pts(120, 10),
        77,
        id="schwarz announced with explicit schneider announced: still 7x11=77",
    ),
    pytest.param(
        decl(C, matadors=2, hand=True, ouvert=True),
        pts(120, 10),
        108,
        id="ISkO: clubs ouvert with 2 -> 2+1+hand+schn+ann+schw+ann+ouvert=9x12=108",
    ),
    pytest.param(
        decl(
            C, matadors=2, hand=True, ouvert=True, schneider_announced=True, schwarz_announced=True
        ),
        pts(120, 10),
        108,
        id="clubs ouvert with 2, announcements also flagged: never counted twice -> 108",
    ),
    pytest.param(
        decl(G, matadors=4, hand=True, ouvert=True),
        pts(120, 10),
        264,
        id="ISkO: grand ouvert with 4 -> 11x24=264",
    ),
    pytest.param(
        decl(C, matadors=11, hand=True, ouvert=True),
        pts(120, 10),
        216,
        id="clubs ouvert with 11 -> 11+7=18x12=216",
    ),
    pytest.param(decl(D, matadors=1), pts(61, 5), 18, id="lowest: diamonds with 1 -> 2x9=18"),
    pytest.param(decl(D, matadors=-1), pts(61, 5), 18, id="lowest: diamonds without 1 -> 2x9=18"),
]


@pytest.mark.parametrize(("declaration", "outcome", "value"), LEVEL_CASES)
def test_won_game_value(declaration, outcome, value):
    scored = score_game(declaration, outcome)
    assert (scored.won, scored.overbid, scored.value) == (True, False, value)


LOST_CASES = [
    pytest.param(
        decl(H, matadors=1),
        pts(60, 5),
        20,
        -40,
        id="hearts with 1 at 60:60 is lost: 2x10=20 -> -40",
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(31, 3),
        20,
        -40,
        id="hearts with 1, declarer 31: no schneider -> 20 -> -40",
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(30, 3),
        30,
        -60,
        id="hearts with 1, declarer 30: schneider 3 -> 30 -> -60",
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(0, 1),
        30,
        -60,
        id="hearts with 1, 0 points but 1 trick: schneider, no schwarz -> 30 -> -60",
    ),
    pytest.param(
        decl(H, matadors=1),
        pts(10, 0),
        40,
        -80,
        id="hearts with 1, no trick (10 in skat): schneider 3, schwarz 4 -> 40 -> -80",
    ),
    pytest.param(
        decl(G, matadors=2),
        pts(0, 0),
        120,
        -240,
        id="grand with 2, no trick: 2+1+1+1=5x24=120 -> -240",
    ),
    pytest.param(
        decl(H, matadors=1, hand=True),
        pts(50, 4),
        30,
        -60,
        id="hearts with 1 hand lost: 3x10=30 -> -2x30=-60 (hand doubled too)",
    ),
    pytest.param(
        decl(H, matadors=1, hand=True, schneider_announced=True),
        pts(89, 7),
        50,
        -100,
        id="hearts with 1 hand, schneider announced, 89: 1+1+1+1+1=5x10=50 -> -100",
    ),
    pytest.param(
        decl(H, matadors=1, hand=True, schneider_announced=True),
        pts(20, 2),
        50,
        -100,
        id="hand, schneider announced, declarer 20: schneider once, 50 -> -100",
    ),
    pytest.param(
        decl(S, matadors=1, hand=True, schwarz_announced=True),
        pts(120, 9),
        77,
        -154,
        id="spades with 1 hand, schwarz announced, 120 in 9 tricks: 7x11=77 -> -154",
    ),
    pytest.param(
        decl(C, matadors=2, hand=True, ouvert=True),
        pts(110, 9),
        108,
        -216,
        id="clubs ouvert with 2, 9 tricks: lost 9x12=108 -> -216",
    ),
    pytest.param(
        decl(C, matadors=2, hand=True, ouvert=True),
        pts(0, 0),
        108,
        -216,
        id="clubs ouvert with 2, no trick: levels never twice -> 108 -> -216",
    ),
]


@pytest.mark.parametrize(("declaration", "outcome", "value", "list_score"), LOST_CASES)
def test_lost_game_value_and_list_score(declaration, outcome, value, list_score):
    scored = score_game(declaration, outcome)
    assert (scored.won, scored.overbid, scored.value, scored.list_score) == (
        False,
        False,
        value,
        list_score,
    )


def test_decision_lost_grand_hand_with_4_schneider_announced_declarer_89():
    # docs/rules.md section 3.2, Decision: with 4, game 5, hand 6, schneider 7,
    # schneider announced 8 -> 8 x 24 = 192, list -2 x 192 = -384
    scored = score_game(decl(G, matadors=4, hand=True, schneider_announced=True), pts(89, 7))
    assert (scored.won, scored.level, scored.value, scored.list_score) == (
        False,
        8,
        192,
        -384,
    )


# --- which levels were reached --------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "schneider", "schwarz"),
    [
        pytest.param(pts(89, 7), False, False, id="won 89: neither"),
        pytest.param(pts(90, 8), True, False, id="won 90: schneider"),
        pytest.param(pts(120, 9), True, False, id="120 points in 9 tricks: schneider only"),
        pytest.param(pts(120, 10), True, True, id="all 10 tricks: schneider and schwarz"),
        pytest.param(pts(31, 3), False, False, id="lost 31: neither"),
        pytest.param(pts(30, 3), True, False, id="lost 30: declarer schneider"),
        pytest.param(pts(0, 1), True, False, id="0 points in 1 trick: no schwarz"),
        pytest.param(pts(10, 0), True, True, id="no trick: schneider and schwarz"),
    ],
)
def test_schneider_by_points_schwarz_by_tricks(outcome, schneider, schwarz):
    scored = score_game(decl(H, matadors=1), outcome)
    assert (scored.schneider, scored.schwarz) == (schneider, schwarz)


# --- won / lost verdict ------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "won"),
    [
        pytest.param(decl(C, matadors=1), pts(61, 5), True, id="61 wins"),
        pytest.param(decl(C, matadors=1), pts(60, 5), False, id="60:60 is lost"),
        pytest.param(
            decl(C, matadors=1, hand=True, schneider_announced=True),
            pts(89, 7),
            False,
            id="schneider announced, 89: lost",
        ),
        pytest.param(
            decl(C, matadors=1, hand=True, schneider_announced=True),
            pts(90, 8),
            True,
            id="schneider announced, 90: won",
        ),
        pytest.param(
            decl(C, matadors=1, hand=True, schwarz_announced=True),
            pts(120, 9),
            False,
            id="schwarz announced, 120 in 9 tricks: lost",
        ),
        pytest.param(
            decl(C, matadors=1, hand=True, schwarz_announced=True),
            pts(120, 10),
            True,
            id="schwarz announced, 10 tricks: won",
        ),
        pytest.param(
            decl(G, matadors=1, hand=True, ouvert=True),
            pts(115, 9),
            False,
            id="grand ouvert, 9 tricks: lost",
        ),
        pytest.param(
            decl(G, matadors=1, hand=True, ouvert=True),
            pts(120, 10),
            True,
            id="grand ouvert, 10 tricks: won",
        ),
    ],
)
def test_won_or_lost(declaration, outcome, won):
    assert score_game(declaration, outcome).won is won


# --- null ---------------------------------------------------------------------------

NULL_KINDS = [
    pytest.param({}, 23, id="null 23"),
    pytest.param({"hand": True}, 35, id="null hand 35"),
    pytest.param({"ouvert": True}, 46, id="null ouvert 46"),
    pytest.param({"hand": True, "ouvert": True}, 59, id="null ouvert hand 59"),
]


@pytest.mark.parametrize(("kind", "value"), NULL_KINDS)
def test_null_won_without_a_trick(kind, value):
    scored = score_game(decl(N, **kind), Outcome(tricks=0))
    assert (scored.won, scored.value, scored.base, scored.level, scored.list_score) == (
        True,
        value,
        value,
        None,
        value,
    )


@pytest.mark.parametrize(("kind", "value"), NULL_KINDS)
def test_null_lost_with_one_trick_counts_double(kind, value):
    scored = score_game(decl(N, **kind), Outcome(tricks=1))
    assert (scored.won, scored.value, scored.list_score) == (False, value, -2 * value)


# --- the flag form of the outcome --------------------------------------------------

FLAG_CASES = [
    pytest.param(decl(H, matadors=1), flags(True), pts(70, 6), True, 20, 20, id="won: 2x10=20"),
    pytest.param(
        decl(H, matadors=1),
        flags(True, schneider=True),
        pts(95, 8),
        True,
        30,
        30,
        id="won schneider: 3x10=30",
    ),
    pytest.param(
        decl(H, matadors=1),
        flags(True, True, True),
        pts(120, 10),
        True,
        40,
        40,
        id="won schneider schwarz: 4x10=40",
    ),
    pytest.param(
        decl(H, matadors=1), flags(False), pts(50, 4), False, 20, -40, id="lost: 20 -> -40"
    ),
    pytest.param(
        decl(H, matadors=1),
        flags(False, schneider=True),
        pts(20, 2),
        False,
        30,
        -60,
        id="lost schneider: 30 -> -60",
    ),
    pytest.param(
        decl(H, matadors=1),
        flags(False, True, True),
        pts(10, 0),
        False,
        40,
        -80,
        id="lost schwarz: 40 -> -80",
    ),
    pytest.param(
        decl(H, matadors=-2, hand=True, schneider_announced=True),
        flags(True, schneider=True),
        pts(95, 8),
        True,
        60,
        60,
        id="hand, schneider announced, won: 6x10=60",
    ),
    pytest.param(decl(N), flags(True), Outcome(tricks=0), True, 23, 23, id="null won 23"),
    pytest.param(decl(N), flags(False), Outcome(tricks=2), False, 23, -46, id="null lost -46"),
]


@pytest.mark.parametrize(
    ("declaration", "flag_outcome", "exact_outcome", "won", "value", "list_score"),
    FLAG_CASES,
)
def test_flag_form_scores_like_card_points(
    declaration, flag_outcome, exact_outcome, won, value, list_score
):
    by_flags = score_game(declaration, flag_outcome)
    by_points = score_game(declaration, exact_outcome)
    expected = (won, value, list_score)
    assert (by_flags.won, by_flags.value, by_flags.list_score) == expected
    assert (by_points.won, by_points.value, by_points.list_score) == expected


def test_both_outcome_forms_given_and_agreeing():
    outcome = Outcome(card_points=95, tricks=8, won=True, schneider=True, schwarz=False)
    scored = score_game(decl(H, matadors=1), outcome)  # schneider 3 x 10 = 30
    assert (scored.won, scored.value) == (True, 30)

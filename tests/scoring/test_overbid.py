"""Overbid games (docs/rules.md section 3, ISkO 5.4) and the null-below-bid DECISION."""

import pytest

from scoring import (
    Declaration,
    GameType,
    Outcome,
    Problem,
    check_game,
    matadors_from_cards,
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


def decl(game, bid, **kw):
    return Declaration(game=game, bid=bid, **kw)


def pts(card_points, tricks):
    return Outcome(card_points=card_points, tricks=tricks)


NULL_BELOW_BID = Problem(code="null_below_bid", field="bid", warning=True)


# --- suit and grand -----------------------------------------------------------------

OVERBID_CASES = [
    pytest.param(
        decl(D, 22, matadors=-1),
        pts(70, 6),
        False,
        True,
        27,
        -54,
        id="rules example: diamonds without 1 (18) bid 22 -> charged 3x9=27 -> -54",
    ),
    pytest.param(
        decl(D, 22, matadors=-1),
        pts(89, 7),
        False,
        True,
        27,
        -54,
        id="diamonds without 1 bid 22, 89 points: still overbid -> 27 -> -54",
    ),
    pytest.param(
        decl(D, 22, matadors=-1),
        pts(40, 4),
        False,
        True,
        27,
        -54,
        id="diamonds without 1 bid 22, lost in play too -> 27 -> -54",
    ),
    pytest.param(
        decl(D, 22, matadors=-1),
        pts(95, 8),
        True,
        False,
        27,
        27,
        id="schneider rescues: without 1, game 2, schneider 3 = 27 >= 22 -> won +27",
    ),
    pytest.param(
        decl(D, 22, matadors=-1),
        pts(120, 10),
        True,
        False,
        36,
        36,
        id="schwarz rescues: 1+1+1+1 = 4x9=36 >= 22 -> won +36",
    ),
    pytest.param(
        decl(D, 27, matadors=2),
        pts(70, 6),
        True,
        False,
        27,
        27,
        id="value equal to the bid is not overbid: with 2 = 3x9=27, bid 27",
    ),
    pytest.param(
        decl(H, 33, matadors=1, hand=True),
        pts(70, 6),
        False,
        True,
        40,
        -80,
        id="hearts with 1 hand (30) bid 33 -> charged 4x10=40 -> -80",
    ),
    pytest.param(
        decl(G, 50, matadors=1),
        pts(80, 7),
        False,
        True,
        72,
        -144,
        id="grand with 1 (48) bid 50 -> charged 3x24=72 -> -144",
    ),
    pytest.param(
        decl(D, 22, matadors=-1),
        pts(25, 2),
        False,
        False,
        27,
        -54,
        id="declarer schneider counts: 1+1+1=3x9=27 >= 22 -> lost, not overbid, -54",
    ),
]


@pytest.mark.parametrize(
    ("declaration", "outcome", "won", "overbid", "value", "list_score"), OVERBID_CASES
)
def test_overbid(declaration, outcome, won, overbid, value, list_score):
    scored = score_game(declaration, outcome)
    assert (scored.won, scored.overbid, scored.value, scored.list_score) == (
        won,
        overbid,
        value,
        list_score,
    )


@pytest.mark.parametrize(
    ("outcome", "won", "value", "list_score"),
    [
        pytest.param(
            Outcome(won=True), False, 27, -54, id="play won, but 18 < 22 -> lost, charged 27 -> -54"
        ),
        pytest.param(
            Outcome(won=True, schneider=True),
            True,
            27,
            27,
            id="play won with schneider -> 27 >= 22 -> won +27",
        ),
    ],
)
def test_overbid_with_flag_outcome(outcome, won, value, list_score):
    scored = score_game(decl(D, 22, matadors=-1), outcome)
    assert (scored.won, scored.value, scored.list_score) == (won, value, list_score)


def test_overbid_suit_game_is_not_a_problem():
    assert check_game(decl(D, 22, matadors=-1), pts(70, 6)) == []


# --- a hand game shortened by a jack in the skat -------------------------------------

# The declarer holds the diamond jack but not the club, spade or heart jack:
# "without 3" on the hand.  The club jack lies in the skat, so with the skat
# he is "with 1" (docs/rules.md section 1.1: matadors count hand + skat, also in hand games).
HAND = ["DJ", "SA", "S10", "SK", "SQ", "S9", "HA", "H10", "CA", "C10"]
SKAT_WITH_CLUB_JACK = ["CJ", "D7"]


def test_jack_in_skat_turns_without_3_into_with_1():
    assert matadors_from_cards(HAND, SKAT_WITH_CLUB_JACK, S) == 1
    assert matadors_from_cards(HAND, ["D8", "D7"], S) == -3


def test_hand_game_overbid_by_a_jack_in_the_skat():
    # bid 55 (hoped for without 3, game 4, hand 5 x 11 = 55);
    # with 1, game 2, hand 3 -> 3 x 11 = 33 < 55 -> lost, charged 5 x 11 = 55 -> -110
    scored = score_game(decl(S, 55, matadors=1, hand=True), pts(75, 6))
    assert (scored.won, scored.overbid, scored.value, scored.list_score) == (
        False,
        True,
        55,
        -110,
    )


# --- the charge is the smallest multiple of the base that reaches the bid -------------

CHARGE_CASES = [
    pytest.param(D, -1, 20, 27, id="diamonds 18 bid 20 -> 3x9=27"),
    pytest.param(D, 1, 23, 27, id="diamonds 18 bid 23 -> 27"),
    pytest.param(H, 1, 22, 30, id="hearts 20 bid 22 -> 3x10=30"),
    pytest.param(H, 1, 24, 30, id="hearts 20 bid 24 -> 30"),
    pytest.param(H, -2, 33, 40, id="hearts 30 bid 33 -> 4x10=40"),
    pytest.param(S, 1, 23, 33, id="spades 22 bid 23 -> 3x11=33"),
    pytest.param(S, -1, 24, 33, id="spades 22 bid 24 -> 33"),
    pytest.param(C, 1, 27, 36, id="clubs 24 bid 27 -> 3x12=36"),
    pytest.param(C, 1, 30, 36, id="clubs 24 bid 30 -> 36"),
    pytest.param(C, 1, 264, 264, id="clubs 24 bid 264 -> 22x12=264"),
    pytest.param(G, 1, 50, 72, id="grand 48 bid 50 -> 3x24=72"),
    pytest.param(G, -2, 96, 96, id="grand 72 bid 96 -> 4x24=96"),
    pytest.param(G, 1, 264, 264, id="grand 48 bid 264 -> 11x24=264"),
]


@pytest.mark.parametrize(("game", "matadors", "bid", "charged"), CHARGE_CASES)
def test_overbid_charge_reaches_the_bid(game, matadors, bid, charged):
    scored = score_game(decl(game, bid, matadors=matadors), pts(70, 6))
    assert (scored.won, scored.overbid, scored.value, scored.list_score) == (
        False,
        True,
        charged,
        -2 * charged,
    )
    assert scored.value >= bid


# --- null below the bid (DECISION) ----------------------------------------------------

NULL = {}
NULL_HAND = {"hand": True}
NULL_OUVERT = {"ouvert": True}
NULL_OUVERT_HAND = {"hand": True, "ouvert": True}

NULL_BELOW_CASES = [
    pytest.param(NULL, 24, 35, id="null 23 bid 24 -> 35 -> -70"),
    pytest.param(NULL, 30, 35, id="null 23 bid 30 -> 35 -> -70"),
    pytest.param(NULL, 36, 46, id="null 23 bid 36 -> 46 -> -92"),
    pytest.param(NULL, 48, 59, id="null 23 bid 48 -> 59 -> -118"),
    pytest.param(NULL_HAND, 40, 46, id="null hand 35 bid 40 -> 46 -> -92"),
    pytest.param(NULL_OUVERT, 48, 59, id="null ouvert 46 bid 48 -> 59 -> -118"),
    pytest.param(NULL, 60, 69, id="null 23 bid 60 -> 3x23=69 -> -138"),
    pytest.param(NULL, 264, 276, id="null 23 bid 264 -> 12x23=276 -> -552"),
    pytest.param(NULL_HAND, 72, 105, id="null hand 35 bid 72 -> 3x35=105 -> -210"),
    pytest.param(NULL_OUVERT, 60, 92, id="null ouvert 46 bid 60 -> 2x46=92 -> -184"),
    pytest.param(NULL_OUVERT_HAND, 60, 118, id="null ouvert hand 59 bid 60 -> 2x59=118 -> -236"),
    pytest.param(NULL_OUVERT_HAND, 264, 295, id="null ouvert hand 59 bid 264 -> 5x59=295 -> -590"),
]


@pytest.mark.parametrize(("kind", "bid", "charged"), NULL_BELOW_CASES)
@pytest.mark.parametrize("tricks", [0, 1], ids=["no trick", "one trick"])
def test_null_below_bid_is_lost_and_charged(kind, bid, charged, tricks):
    scored = score_game(decl(N, bid, **kind), Outcome(tricks=tricks))
    assert (scored.won, scored.overbid, scored.value, scored.list_score) == (
        False,
        True,
        charged,
        -2 * charged,
    )


@pytest.mark.parametrize(("kind", "bid", "charged"), NULL_BELOW_CASES)
def test_null_below_bid_warns_in_check(kind, bid, charged):
    assert check_game(decl(N, bid, **kind), Outcome(tricks=0)) == [NULL_BELOW_BID]


def test_null_below_bid_warning_is_kept_on_the_scored_game():
    scored = score_game(decl(N, 24), Outcome(tricks=0))
    assert scored.warnings == (NULL_BELOW_BID,)


@pytest.mark.parametrize(
    ("kind", "bid", "value"),
    [
        pytest.param(NULL, 23, 23, id="null 23 at bid 23"),
        pytest.param(NULL, 18, 23, id="null 23 at bid 18"),
        pytest.param(NULL_HAND, 35, 35, id="null hand 35 at bid 35"),
        pytest.param(NULL_OUVERT, 46, 46, id="null ouvert 46 at bid 46"),
        pytest.param(NULL_OUVERT_HAND, 59, 59, id="null ouvert hand 59 at bid 59"),
    ],
)
def test_null_reaching_the_bid_is_won_without_warning(kind, bid, value):
    declaration = decl(N, bid, **kind)
    scored = score_game(declaration, Outcome(tricks=0))
    assert check_game(declaration, Outcome(tricks=0)) == []
    assert (scored.won, scored.overbid, scored.value, scored.warnings) == (
        True,
        False,
        value,
        (),
    )

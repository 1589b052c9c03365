"""Named rule sets (docs/rules.md section 8)."""

import pytest

from scoring import (
    Declaration,
    GameType,
    ListSystem,
    Outcome,
    Problem,
    check_game,
    get_rules,
    row_scores,
    score_game,
    seeger_fabian,
)

D, H, S, C, G, N, R = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
    GameType.NULL,
    GameType.REVOLUTION,
)


def decl(game, bid=18, **kw):
    return Declaration(game=game, bid=bid, **kw)


def pts(card_points, tricks):
    return Outcome(card_points=card_points, tricks=tricks)


WON, LOST = pts(70, 6), pts(50, 4)


def scored_in(rules, declaration, outcome):
    return score_game(declaration, outcome, get_rules(rules))


# --- isko-kontra ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "won", "value", "list_score"),
    [
        pytest.param(decl(C, matadors=1), WON, True, 24, 24, id="no kontra: 2x12=24"),
        pytest.param(decl(C, matadors=1, kontra=True), WON, True, 48, 48, id="kontra: 24x2=48"),
        pytest.param(
            decl(C, matadors=1, kontra=True, re=True), WON, True, 96, 96, id="re: 24x4=96"
        ),
        pytest.param(
            decl(C, matadors=1, kontra=True), LOST, False, 48, -96, id="kontra lost: 48 -> -96"
        ),
        pytest.param(
            decl(C, matadors=1, kontra=True, re=True),
            LOST,
            False,
            96,
            -192,
            id="re lost: 96 -> -192",
        ),
        pytest.param(
            decl(G, matadors=2, hand=True, kontra=True),
            WON,
            True,
            192,
            192,
            id="grand hand with 2 kontra: 4x24=96, x2=192",
        ),
    ],
)
def test_isko_kontra_doubles_the_value(declaration, outcome, won, value, list_score):
    scored = scored_in("isko-kontra", declaration, outcome)
    assert (scored.won, scored.value, scored.list_score) == (won, value, list_score)


@pytest.mark.parametrize(
    ("declaration", "outcome", "table_size", "expected"),
    [
        pytest.param(
            decl(C, matadors=1, kontra=True), WON, 3, (98, 0), id="kontra won 48 -> 48+50=98"
        ),
        pytest.param(
            decl(C, matadors=1, kontra=True, re=True), WON, 3, (146, 0), id="re won 96 -> 96+50=146"
        ),
        pytest.param(
            decl(C, matadors=1, kontra=True),
            LOST,
            3,
            (-146, 40),
            id="kontra lost 48 -> -96-50=-146, others 40",
        ),
        pytest.param(
            decl(C, matadors=1, kontra=True),
            LOST,
            4,
            (-146, 30),
            id="kontra lost at a 4-table -> -146, others 30",
        ),
    ],
)
def test_isko_kontra_seeger_fabian_bonus_not_doubled(declaration, outcome, table_size, expected):
    scored = scored_in("isko-kontra", declaration, outcome)
    assert seeger_fabian(scored, table_size) == expected


@pytest.mark.parametrize(
    ("declaration", "field"),
    [
        pytest.param(decl(C, matadors=1, kontra=True), "kontra", id="kontra"),
        pytest.param(decl(C, matadors=1, kontra=True, re=True), "kontra", id="kontra and re"),
    ],
)
def test_doubling_not_allowed_under_isko(declaration, field):
    problems = check_game(declaration, WON, get_rules("isko"))
    assert Problem(code="doubling_not_allowed", field=field) in problems


# --- pre1999 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "won", "value", "list_score"),
    [
        pytest.param(
            decl(H, matadors=1, hand=True),
            LOST,
            False,
            30,
            -30,
            id="lost hand: 3x10=30 -> -30 single",
        ),
        pytest.param(
            decl(H, matadors=1), LOST, False, 20, -40, id="lost, skat taken: 2x10=20 -> -40"
        ),
        pytest.param(decl(H, matadors=1, hand=True), WON, True, 30, 30, id="won hand: +30"),
        pytest.param(
            decl(N, hand=True), Outcome(tricks=1), False, 35, -35, id="lost null hand 35 -> -35"
        ),
        pytest.param(
            decl(H, bid=33, matadors=1, hand=True),
            WON,
            False,
            40,
            -40,
            id="overbid hand: 30 < bid 33, charged 4x10=40 -> -40 single",
        ),
        pytest.param(decl(N), Outcome(tricks=1), False, 23, -46, id="lost null 23 -> -46"),
    ],
)
def test_pre1999_lost_hand_games_count_single(declaration, outcome, won, value, list_score):
    scored = scored_in("pre1999", declaration, outcome)
    assert (scored.won, scored.value, scored.list_score) == (won, value, list_score)


# --- grand20 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "base", "value", "list_score"),
    [
        pytest.param(decl(G, matadors=1), WON, 20, 40, 40, id="grand with 1: 2x20=40"),
        pytest.param(decl(G, matadors=-3), WON, 20, 80, 80, id="grand without 3: 4x20=80"),
        pytest.param(
            decl(G, matadors=4, hand=True, ouvert=True),
            pts(120, 10),
            20,
            220,
            220,
            id="grand ouvert with 4: 11x20=220",
        ),
        pytest.param(
            decl(G, matadors=4, hand=True, schneider_announced=True),
            pts(89, 7),
            20,
            160,
            -320,
            id="grand hand with 4 schneider announced at 89: 8x20=160",
        ),
        pytest.param(decl(C, matadors=1), WON, 12, 24, 24, id="suits unchanged: clubs 2x12=24"),
    ],
)
def test_grand20(declaration, outcome, base, value, list_score):
    scored = scored_in("grand20", declaration, outcome)
    assert (scored.base, scored.value, scored.list_score) == (base, value, list_score)


# --- dsu --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "won", "value"),
    [
        pytest.param(decl(G, matadors=1), WON, True, 40, id="grand with 1: 2x20=40"),
        pytest.param(
            decl(
                G,
                matadors=4,
                hand=True,
                ouvert=True,
                schneider_announced=True,
                schwarz_announced=True,
            ),
            pts(120, 10),
            True,
            220,
            id="highest: with 4, game, bordet, hand, skr., sort, 2 ann. = 11x20=220",
        ),
        pytest.param(
            decl(H, matadors=1, ouvert=True),
            WON,
            True,
            30,
            id="paa bordet without hand, 70 points wins: (1+1+1)x10=30",
        ),
        pytest.param(
            decl(H, matadors=1, ouvert=True, hand=True),
            WON,
            True,
            40,
            id="paa bordet and af haand: (1+1+1+1)x10=40",
        ),
        pytest.param(
            decl(H, matadors=1),
            pts(90, 8),
            True,
            20,
            id="declarer 90 is not schneider in dsu: 2x10=20",
        ),
        pytest.param(
            decl(H, matadors=1), pts(91, 8), True, 30, id="declarer 91 is schneider: 3x10=30"
        ),
        pytest.param(
            decl(H, matadors=1),
            pts(30, 3),
            False,
            30,
            id="declarer 30 is schneider when lost: 3x10=30",
        ),
        pytest.param(
            decl(H, matadors=1), pts(31, 3), False, 20, id="declarer 31 is not schneider: 20"
        ),
        pytest.param(
            decl(H, matadors=1, hand=True, schneider_announced=True),
            pts(90, 8),
            False,
            50,
            id="schneider announced needs 91 in dsu: 90 lost, 5x10=50",
        ),
        pytest.param(
            decl(H, matadors=1, hand=True, schneider_announced=True),
            pts(91, 8),
            True,
            50,
            id="schneider announced, 91: won, 5x10=50",
        ),
        pytest.param(decl(N), Outcome(tricks=0), True, 23, id="nolo 23"),
        pytest.param(decl(N, ouvert=True), Outcome(tricks=0), True, 46, id="nolovert 46"),
        pytest.param(
            decl(N, ouvert=True, hand=True), Outcome(tricks=0), True, 69, id="nolodaekker 69"
        ),
        pytest.param(
            decl(N, ouvert=True, hand=True), Outcome(tricks=1), False, 69, id="nolodaekker lost 69"
        ),
    ],
)
def test_dsu_values(declaration, outcome, won, value):
    scored = scored_in("dsu", declaration, outcome)
    assert (scored.won, scored.value) == (won, value)


def test_dsu_ouvert_needs_no_hand():
    assert check_game(decl(H, matadors=1, ouvert=True), WON, get_rules("dsu")) == []


def test_dsu_has_no_null_hand():
    problems = check_game(decl(N, hand=True), Outcome(tricks=0), get_rules("dsu"))
    assert Problem(code="null_game_not_in_rules", field="hand") in problems


# --- nl ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "won", "value", "list_score", "opponents"),
    [
        pytest.param(
            decl(H, matadors=1), WON, True, 20, 20, 0, id="won hearts with 1: +20, opponents 0"
        ),
        pytest.param(
            decl(H, matadors=1),
            LOST,
            False,
            20,
            0,
            40,
            id="lost, skat taken: declarer 0, each opponent 2x20=40",
        ),
        pytest.param(
            decl(H, matadors=1, hand=True),
            LOST,
            False,
            30,
            0,
            30,
            id="lost hand: 3x10=30, each opponent 30",
        ),
        pytest.param(
            decl(D, bid=22, matadors=-1),
            WON,
            False,
            22,
            0,
            44,
            id="overbid diamonds without 1 bid 22, skat taken: bid x2 = 44",
        ),
        pytest.param(
            decl(H, bid=33, matadors=1, hand=True),
            WON,
            False,
            33,
            0,
            33,
            id="overbid hearts with 1 hand (30) bid 33: the bid once = 33 (isko: 40)",
        ),
        pytest.param(
            decl(N), Outcome(tricks=1), False, 23, 0, 46, id="lost null 23, skat taken: 46"
        ),
        pytest.param(decl(R), Outcome(tricks=0), True, 92, 92, 0, id="revolution won 92"),
    ],
)
def test_nl(declaration, outcome, won, value, list_score, opponents):
    scored = scored_in("nl", declaration, outcome)
    assert (scored.won, scored.value, scored.list_score, scored.opponents_list_score) == (
        won,
        value,
        list_score,
        opponents,
    )


def test_nl_row_gives_each_opponent_the_loss():
    # 3-table, seat 1 loses hearts with 1 with the skat taken: each opponent +2x20
    scored = scored_in("nl", decl(H, matadors=1), LOST)
    row = row_scores(scored, declarer=1, dealer=0, table_size=3, system=ListSystem.CLASSIC)
    assert row == (40, 0, 40)


@pytest.mark.parametrize("rules", ["isko", "isko-kontra", "pre1999", "grand20", "dsu"])
def test_revolution_only_under_nl(rules):
    problems = check_game(decl(R), Outcome(tricks=0), get_rules(rules))
    assert Problem(code="game_not_in_rules", field="game") in problems


@pytest.mark.parametrize("rules", ["isko", "isko-kontra", "pre1999", "grand20", "dsu"])
def test_opponents_list_score_is_zero_outside_nl(rules):
    scored = scored_in(rules, decl(H, matadors=1), LOST)
    assert scored.opponents_list_score == 0

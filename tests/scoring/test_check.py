"""check_game: every error code of engine-api.md from a minimal bad input."""

import pytest

from scoring import (
    ISKO,
    RULE_SETS,
    Declaration,
    GameType,
    InvalidGame,
    Outcome,
    Problem,
    check_game,
    get_rules,
    score_game,
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


WON = pts(70, 6)

# (declaration, outcome, rule set, expected code, expected field, other codes tolerated)
ERROR_CASES = [
    pytest.param(
        decl(R),
        Outcome(tricks=0),
        "isko",
        "game_not_in_rules",
        "game",
        set(),
        id="revolution under isko",
    ),
    pytest.param(
        decl(C), WON, "isko", "matadors_missing", "matadors", set(), id="clubs without matadors"
    ),
    pytest.param(
        decl(G), WON, "isko", "matadors_missing", "matadors", set(), id="grand without matadors"
    ),
    pytest.param(
        decl(C, matadors=0),
        WON,
        "isko",
        "matadors_out_of_range",
        "matadors",
        set(),
        id="with/without 0 does not exist",
    ),
    pytest.param(
        decl(C, matadors=12),
        WON,
        "isko",
        "matadors_out_of_range",
        "matadors",
        set(),
        id="suit with 12",
    ),
    pytest.param(
        decl(D, matadors=-12),
        WON,
        "isko",
        "matadors_out_of_range",
        "matadors",
        set(),
        id="suit without 12",
    ),
    pytest.param(
        decl(G, matadors=5),
        WON,
        "isko",
        "matadors_out_of_range",
        "matadors",
        set(),
        id="grand with 5",
    ),
    pytest.param(
        decl(G, matadors=-5),
        WON,
        "isko",
        "matadors_out_of_range",
        "matadors",
        set(),
        id="grand without 5",
    ),
    pytest.param(
        decl(G, matadors=0),
        WON,
        "isko",
        "matadors_out_of_range",
        "matadors",
        set(),
        id="grand with 0",
    ),
    pytest.param(
        decl(N, matadors=1),
        Outcome(tricks=0),
        "isko",
        "matadors_not_allowed",
        "matadors",
        set(),
        id="null with matadors",
    ),
    pytest.param(
        decl(R, matadors=1),
        Outcome(tricks=0),
        "nl",
        "matadors_not_allowed",
        "matadors",
        set(),
        id="revolution with matadors",
    ),
    pytest.param(
        decl(H, matadors=1, schneider_announced=True),
        pts(95, 8),
        "isko",
        "announcement_requires_hand",
        "schneider_announced",
        set(),
        id="schneider announced without hand",
    ),
    pytest.param(
        decl(H, matadors=1, schwarz_announced=True),
        pts(120, 10),
        "isko",
        "announcement_requires_hand",
        "schwarz_announced",
        set(),
        id="schwarz announced without hand",
    ),
    pytest.param(
        decl(C, matadors=2, ouvert=True),
        pts(120, 10),
        "isko",
        "ouvert_requires_hand",
        "ouvert",
        set(),
        id="clubs ouvert without hand",
    ),
    pytest.param(
        decl(G, matadors=2, ouvert=True),
        pts(120, 10),
        "isko",
        "ouvert_requires_hand",
        "ouvert",
        set(),
        id="grand ouvert without hand",
    ),
    pytest.param(
        decl(N, hand=True, schneider_announced=True),
        Outcome(tricks=0),
        "isko",
        "announcement_not_for_null",
        "schneider_announced",
        set(),
        id="null hand, schneider announced",
    ),
    pytest.param(
        decl(N, hand=True, schwarz_announced=True),
        Outcome(tricks=0),
        "isko",
        "announcement_not_for_null",
        "schwarz_announced",
        set(),
        id="null hand, schwarz announced",
    ),
    pytest.param(
        decl(N, hand=True),
        Outcome(tricks=0),
        "dsu",
        "null_game_not_in_rules",
        "hand",
        set(),
        id="dsu: null hand",
    ),
    pytest.param(
        decl(C, matadors=1, kontra=True),
        WON,
        "isko",
        "doubling_not_allowed",
        "kontra",
        set(),
        id="kontra under isko",
    ),
    pytest.param(
        decl(C, matadors=1, re=True),
        WON,
        "isko-kontra",
        "doubling_out_of_order",
        "re",
        set(),
        id="re without kontra",
    ),
    pytest.param(
        decl(C, bid=19, matadors=1), WON, "isko", "bid_not_legal", "bid", set(), id="bid 19"
    ),
    pytest.param(
        decl(C, bid=17, matadors=1), WON, "isko", "bid_not_legal", "bid", set(), id="bid 17"
    ),
    pytest.param(
        decl(G, bid=265, matadors=4, hand=True, ouvert=True),
        pts(120, 10),
        "isko",
        "bid_not_legal",
        "bid",
        set(),
        id="bid 265",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(121, 9),
        "isko",
        "card_points_out_of_range",
        "card_points",
        {"card_points_contradict_tricks"},
        id="card points 121",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(-1, 0),
        "isko",
        "card_points_out_of_range",
        "card_points",
        {"card_points_contradict_tricks"},
        id="card points -1",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(120, 11),
        "isko",
        "tricks_out_of_range",
        "tricks",
        {"card_points_contradict_tricks"},
        id="11 tricks",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(10, -1),
        "isko",
        "tricks_out_of_range",
        "tricks",
        {"card_points_contradict_tricks"},
        id="-1 tricks",
    ),
    pytest.param(
        decl(N),
        Outcome(tricks=11),
        "isko",
        "tricks_out_of_range",
        "tricks",
        set(),
        id="null with 11 tricks",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(119, 10),
        "isko",
        "card_points_contradict_tricks",
        "card_points",
        set(),
        id="10 tricks need 120, not 119",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(23, 0),
        "isko",
        "card_points_contradict_tricks",
        "card_points",
        set(),
        id="0 tricks allow at most 22, not 23",
    ),
    pytest.param(
        decl(C, matadors=1),
        pts(120, 0),
        "isko",
        "card_points_contradict_tricks",
        "card_points",
        set(),
        id="0 tricks but 120",
    ),
    pytest.param(
        decl(C, matadors=1), Outcome(), "isko", "outcome_missing", None, set(), id="empty outcome"
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=120),
        "isko",
        "tricks_missing",
        "tricks",
        set(),
        id="120 card points without tricks: schwarz in question",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(tricks=6),
        "isko",
        "card_points_missing",
        "card_points",
        set(),
        id="clubs: tricks without card points",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=70, tricks=6, won=False),
        "isko",
        "outcome_contradiction",
        "won",
        set(),
        id="70 points but flag lost",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=50, tricks=4, won=True),
        "isko",
        "outcome_contradiction",
        "won",
        set(),
        id="50 points but flag won",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=95, tricks=8, won=True, schneider=False),
        "isko",
        "outcome_contradiction",
        "schneider",
        set(),
        id="95 points but flag no schneider",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=20, tricks=2, won=False, schneider=False),
        "isko",
        "outcome_contradiction",
        "schneider",
        set(),
        id="declarer 20 but flag no schneider",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=120, tricks=10, won=True, schneider=True, schwarz=False),
        "isko",
        "outcome_contradiction",
        "schwarz",
        set(),
        id="10 tricks but flag no schwarz",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=120, tricks=9, won=True, schneider=True, schwarz=True),
        "isko",
        "outcome_contradiction",
        "schwarz",
        set(),
        id="9 tricks but flag schwarz",
    ),
    pytest.param(
        decl(N),
        Outcome(tricks=1, won=True),
        "isko",
        "outcome_contradiction",
        "won",
        set(),
        id="null: 1 trick but flag won",
    ),
    pytest.param(
        decl(C, matadors=1, hand=True, schneider_announced=True),
        Outcome(won=True, schneider=False),
        "isko",
        "won_contradicts_announcement",
        "won",
        set(),
        id="schneider announced, flag won, flag not schneider",
    ),
    pytest.param(
        decl(C, matadors=1, hand=True, schwarz_announced=True),
        Outcome(won=True, schneider=True, schwarz=False),
        "isko",
        "won_contradicts_announcement",
        "won",
        set(),
        id="schwarz announced, flag won, flag not schwarz",
    ),
    pytest.param(
        decl(G, matadors=1, hand=True, ouvert=True),
        Outcome(won=True, schneider=True, schwarz=False),
        "isko",
        "won_contradicts_announcement",
        "won",
        set(),
        id="ouvert, flag won, flag not schwarz",
    ),
]


@pytest.mark.parametrize(
    ("declaration", "outcome", "rules", "code", "field", "tolerated"), ERROR_CASES
)
def test_error_is_reported_with_its_field(declaration, outcome, rules, code, field, tolerated):
    problems = check_game(declaration, outcome, get_rules(rules))
    assert Problem(code=code, field=field, warning=False) in problems


@pytest.mark.parametrize(
    ("declaration", "outcome", "rules", "code", "field", "tolerated"), ERROR_CASES
)
def test_minimal_bad_input_reports_no_unrelated_problem(
    declaration, outcome, rules, code, field, tolerated
):
    problems = check_game(declaration, outcome, get_rules(rules))
    assert {p.code for p in problems} <= {code} | tolerated


@pytest.mark.parametrize(
    ("declaration", "outcome", "rules", "code", "field", "tolerated"), ERROR_CASES
)
def test_score_game_refuses_an_invalid_game(declaration, outcome, rules, code, field, tolerated):
    with pytest.raises(InvalidGame) as info:
        score_game(declaration, outcome, get_rules(rules))
    assert code in {p.code for p in info.value.problems}


def test_schwarz_flag_without_schneider_flag():
    problems = check_game(decl(C, matadors=1), Outcome(won=True, schneider=False, schwarz=True))
    # engine-api.md names the code but not its field; it is one of the two flags
    [problem] = [p for p in problems if p.code == "schwarz_without_schneider"]
    assert (problem.field in {"schwarz", "schneider"}, problem.warning) == (True, False)


def test_null_below_bid_is_a_warning_not_an_error():
    assert check_game(decl(N, bid=24), Outcome(tricks=0)) == [
        Problem(code="null_below_bid", field="bid", warning=True)
    ]


@pytest.mark.parametrize("rules", ["isko", "pre1999", "grand20", "dsu", "nl"])
def test_doubling_not_allowed_outside_isko_kontra(rules):
    problems = check_game(decl(C, matadors=1, kontra=True), WON, get_rules(rules))
    assert Problem(code="doubling_not_allowed", field="kontra") in problems


# --- valid games ------------------------------------------------------------------------

VALID_CASES = [
    pytest.param(decl(C, matadors=1), WON, "isko", id="clubs with 1"),
    pytest.param(decl(D, matadors=-11), pts(61, 5), "isko", id="diamonds without 11"),
    pytest.param(
        decl(G, matadors=4, hand=True, ouvert=True), pts(120, 10), "isko", id="grand ouvert with 4"
    ),
    pytest.param(
        decl(G, matadors=4, hand=True, schneider_announced=True),
        pts(89, 7),
        "isko",
        id="grand hand schneider announced, lost at 89",
    ),
    pytest.param(
        decl(H, matadors=1, hand=True, schwarz_announced=True),
        pts(120, 9),
        "isko",
        id="schwarz announced, 120 in 9 tricks (lost)",
    ),
    pytest.param(decl(C, matadors=1), pts(22, 0), "isko", id="no trick, 22 in skat"),
    pytest.param(decl(C, matadors=1), pts(0, 1), "isko", id="a trick worth 0"),
    pytest.param(decl(D, bid=22, matadors=-1), WON, "isko", id="overbid is no problem"),
    pytest.param(decl(N), Outcome(tricks=0), "isko", id="null"),
    pytest.param(
        decl(N, hand=True, ouvert=True), Outcome(tricks=3), "isko", id="null ouvert hand lost"
    ),
    pytest.param(decl(C, matadors=1), Outcome(won=True), "isko", id="flags: won"),
    pytest.param(
        decl(C, matadors=1),
        Outcome(won=False, schneider=True, schwarz=True),
        "isko",
        id="flags: lost schwarz",
    ),
    pytest.param(
        decl(C, matadors=1),
        Outcome(card_points=95, tricks=8, won=True, schneider=True, schwarz=False),
        "isko",
        id="both forms agreeing",
    ),
    pytest.param(
        decl(C, matadors=1, kontra=True, re=True),
        WON,
        "isko-kontra",
        id="kontra and re under isko-kontra",
    ),
    pytest.param(decl(H, matadors=1, ouvert=True), WON, "dsu", id="dsu: ouvert without hand"),
    pytest.param(decl(N, ouvert=True, hand=True), Outcome(tricks=0), "dsu", id="dsu: nolodaekker"),
    pytest.param(decl(R), Outcome(tricks=0), "nl", id="nl: revolution"),
]


@pytest.mark.parametrize(("declaration", "outcome", "rules"), VALID_CASES)
def test_valid_game_has_no_problems(declaration, outcome, rules):
    assert check_game(declaration, outcome, get_rules(rules)) == []


# --- several problems at once ---------------------------------------------------------


def test_check_collects_every_problem():
    declaration = decl(C, bid=19, matadors=0, schneider_announced=True)
    problems = check_game(declaration, pts(121, 11))
    assert {(p.code, p.field) for p in problems} >= {
        ("bid_not_legal", "bid"),
        ("matadors_out_of_range", "matadors"),
        ("announcement_requires_hand", "schneider_announced"),
        ("card_points_out_of_range", "card_points"),
        ("tricks_out_of_range", "tricks"),
    }


def test_invalid_game_carries_every_error():
    declaration = decl(G, bid=19, matadors=5, ouvert=True)
    with pytest.raises(InvalidGame) as info:
        score_game(declaration, Outcome(card_points=120))
    assert {p.code for p in info.value.problems} >= {
        "bid_not_legal",
        "matadors_out_of_range",
        "ouvert_requires_hand",
        "tricks_missing",
    }


def test_invalid_game_carries_no_warnings():
    # null with matadors (error) whose value 23 is below the bid 24 (warning)
    with pytest.raises(InvalidGame) as info:
        score_game(decl(N, bid=24, matadors=1), Outcome(tricks=0))
    assert [p.code for p in info.value.problems if p.warning] == []
    assert "matadors_not_allowed" in {p.code for p in info.value.problems}


# --- rule set lookup ------------------------------------------------------------------


def test_rule_set_names():
    assert set(RULE_SETS) == {"isko", "isko-kontra", "pre1999", "grand20", "dsu", "se", "nl"}
    assert all(RULE_SETS[name].name == name for name in RULE_SETS)


def test_isko_is_the_default_rule_set():
    assert get_rules("isko") == ISKO


def test_unknown_rule_set_raises_key_error():
    with pytest.raises(KeyError):
        get_rules("skatclub-hinterhof")

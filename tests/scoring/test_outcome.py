"""Won or lost (docs/rules.md section 3): card points alone decide, tricks only where schwarz is in
question, contradictions are errors. Every expectation is worked out by hand from the rule."""

import pytest

from scoring import (
    RULE_SETS,
    Declaration,
    GameType,
    InvalidGame,
    Outcome,
    Problem,
    bid_values,
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


def decl(game, bid=18, **kw):
    return Declaration(game=game, bid=bid, **kw)


def errors(declaration, outcome, rules="isko"):
    return [p for p in check_game(declaration, outcome, RULE_SETS[rules]) if not p.warning]


def result(declaration, outcome, rules="isko"):
    g = score_game(declaration, outcome, RULE_SETS[rules])
    return g.won, g.value, g.list_score


# --- card points alone decide the verdict and schneider ------------------------------------


@pytest.mark.parametrize(
    ("card_points", "expected"),
    [
        # "{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 70} scores: won, 24"
        pytest.param(70, (True, 24, 24), id="the rule's example: 70 -> won, with 1 game 2 x 12"),
        pytest.param(61, (True, 24, 24), id="61 wins"),
        pytest.param(60, (False, 24, -48), id="60:60 is lost (ISkO 5.2.2)"),
        pytest.param(89, (True, 24, 24), id="89 is not schneider"),
        pytest.param(90, (True, 36, 36), id="90: schneider, 3 x 12"),
        pytest.param(118, (True, 36, 36), id="118: schneider, not schwarz with points out"),
        pytest.param(31, (False, 24, -48), id="31: lost, not schneider"),
        pytest.param(30, (False, 36, -72), id="30: lost schneider, 3 x 12 -> -72"),
        pytest.param(23, (False, 36, -72), id="23: the skat cannot hold 23, so not schwarz"),
    ],
)
def test_card_points_without_tricks_decide(card_points, expected):
    assert result(decl(C, matadors=1), Outcome(card_points=card_points)) == expected


@pytest.mark.parametrize("card_points", [0, 2, 22, 120])
def test_tricks_are_asked_for_only_where_schwarz_is_in_question(card_points):
    # "declarer card points 0..22 (the skat alone may hold them) or 120"
    assert errors(decl(C, matadors=1), Outcome(card_points=card_points)) == [
        Problem("tricks_missing", "tricks")
    ]


@pytest.mark.parametrize(
    ("card_points", "tricks", "expected"),
    [
        # with 1, game 2, schneider 3, schwarz 4 -> 48; lost -> -96
        pytest.param(0, 0, (False, 48, -96), id="0 points 0 tricks: schwarz, 4 x 12 lost"),
        pytest.param(0, 1, (False, 36, -72), id="a trick of 7-8-9 breaks schwarz: 3 x 12 lost"),
        pytest.param(22, 0, (False, 48, -96), id="the skat's 22 points, no trick: schwarz"),
        pytest.param(22, 1, (False, 36, -72), id="22 points and a trick: schneider only"),
        pytest.param(120, 10, (True, 48, 48), id="all tricks: schwarz, 4 x 12"),
        pytest.param(120, 9, (True, 36, 36), id="120 points, opponents' trick of 7-8-9: 3 x 12"),
    ],
)
def test_tricks_decide_schwarz_by_tricks_not_points(card_points, tricks, expected):
    outcome = Outcome(card_points=card_points, tricks=tricks)
    assert result(decl(C, matadors=1), outcome) == expected


def test_flag_settles_schwarz_where_the_points_do_not():
    # 120 card points and "schwarz": true from a paper list: with 1, game, schneider, schwarz
    assert result(decl(C, matadors=1), Outcome(card_points=120, schwarz=True)) == (True, 48, 48)
    assert result(decl(C, matadors=1), Outcome(card_points=120, schwarz=False)) == (True, 36, 36)
    assert result(decl(C, matadors=1), Outcome(card_points=10, schwarz=False)) == (
        False,
        36,
        -72,
    )


@pytest.mark.parametrize(
    ("declaration", "outcome", "expected"),
    [
        # "Schneider announced needs >= 90"; grand hand with 1, schneider announced:
        # with 1, game 2, hand 3, schneider 4, announced 5 -> 5 x 24 = 120
        pytest.param(
            decl(G, matadors=1, hand=True, schneider_announced=True),
            Outcome(card_points=89),
            (False, 120, -240),
            id="schneider announced, 89: lost, 5 x 24",
        ),
        pytest.param(
            decl(G, matadors=1, hand=True, schneider_announced=True),
            Outcome(card_points=90),
            (True, 120, 120),
            id="schneider announced, 90: won, 5 x 24",
        ),
        # the rule's DECISION: grand hand with 4, schneider announced, declarer 89:
        # level 4+1+1+1+1 = 8, value 192, list entry -384
        pytest.param(
            decl(G, matadors=4, hand=True, schneider_announced=True),
            Outcome(card_points=89),
            (False, 192, -384),
            id="the rule's example: 8 x 24 = 192 -> -384",
        ),
        # schwarz announced: with 1, game 2, hand 3, schneider 4, ann. 5, schwarz 6, ann. 7
        pytest.param(
            decl(G, matadors=1, hand=True, schwarz_announced=True),
            Outcome(card_points=120, tricks=10),
            (True, 168, 168),
            id="schwarz announced, all tricks: 7 x 24",
        ),
        pytest.param(
            decl(G, matadors=1, hand=True, schwarz_announced=True),
            Outcome(card_points=120, tricks=9),
            (False, 168, -336),
            id="schwarz announced, 9 tricks: lost, 7 x 24",
        ),
        pytest.param(
            decl(G, matadors=1, hand=True, schwarz_announced=True),
            Outcome(card_points=100),
            (False, 168, -336),
            id="schwarz announced, 100 points: lost without asking for tricks",
        ),
        # "Examples from the ISkO: clubs ouvert with 2 = 9 x 12 = 108"
        pytest.param(
            decl(C, matadors=2, hand=True, ouvert=True),
            Outcome(card_points=120, tricks=10),
            (True, 108, 108),
            id="clubs ouvert with 2 = 108",
        ),
        # "grand ouvert with 4 = 11 x 24 = 264, the highest value in the game"
        pytest.param(
            decl(G, bid=264, matadors=4, hand=True, ouvert=True),
            Outcome(card_points=120, tricks=10),
            (True, 264, 264),
            id="grand ouvert with 4 = 264",
        ),
        # "Lowest value: 18 (diamonds with/without 1)"
        pytest.param(
            decl(D, matadors=-1), Outcome(card_points=61), (True, 18, 18), id="lowest value 18"
        ),
    ],
)
def test_announcements_need_their_level(declaration, outcome, expected):
    assert result(declaration, outcome) == expected


# --- null games need tricks only -------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "tricks", "expected"),
    [
        pytest.param(decl(N), 0, (True, 23, 23), id="null 23"),
        pytest.param(decl(N, bid=35, hand=True), 0, (True, 35, 35), id="null hand 35"),
        pytest.param(decl(N, bid=46, ouvert=True), 1, (False, 46, -92), id="null ouvert lost"),
        pytest.param(
            decl(N, bid=59, hand=True, ouvert=True), 0, (True, 59, 59), id="null ouvert hand 59"
        ),
    ],
)
def test_null_by_tricks(declaration, tricks, expected):
    assert result(declaration, Outcome(tricks=tricks)) == expected


def test_card_points_on_a_null_game_are_an_error():
    # "A null game needs tricks only; card points on a null game are an error."
    assert errors(decl(N), Outcome(card_points=0, tricks=0)) == [
        Problem("card_points_not_for_null", "card_points")
    ]
    assert errors(decl(N), Outcome(card_points=0)) == [
        Problem("card_points_not_for_null", "card_points")
    ]


def test_null_won_with_tricks_is_a_contradiction():
    assert errors(decl(N), Outcome(tricks=1, won=True)) == [Problem("outcome_contradiction", "won")]


def test_null_has_no_schneider():
    assert errors(decl(N), Outcome(tricks=0, schneider=True)) == [
        Problem("level_not_for_null", "schneider")
    ]


# --- contradictions are errors, never a silent choice of one form ----------------------------


@pytest.mark.parametrize(
    ("outcome", "field"),
    [
        # "won: true with 50 card points ... is the error outcome_contradiction"
        pytest.param(Outcome(card_points=50, won=True), "won", id="won with 50 card points"),
        # "... or won: true with 0 tricks in a suit game"
        pytest.param(Outcome(tricks=0, won=True), "won", id="won with 0 tricks"),
        pytest.param(Outcome(card_points=70, won=False), "won", id="lost with 70 card points"),
        pytest.param(
            Outcome(card_points=95, won=True, schneider=False), "schneider", id="95 not schneider"
        ),
        pytest.param(
            Outcome(card_points=70, won=True, schneider=True), "schneider", id="70 schneider"
        ),
        pytest.param(
            Outcome(card_points=100, tricks=9, schwarz=True), "schwarz", id="schwarz with 9 tricks"
        ),
        pytest.param(Outcome(card_points=80, schwarz=True), "schwarz", id="schwarz with 80 points"),
        pytest.param(Outcome(tricks=10, won=False), "won", id="lost with all tricks"),
    ],
)
def test_contradicting_forms(outcome, field):
    assert errors(decl(C, matadors=1), outcome) == [Problem("outcome_contradiction", field)]


def test_contradiction_is_refused_by_score_game():
    with pytest.raises(InvalidGame) as raised:
        score_game(decl(C, matadors=1), Outcome(card_points=50, won=True))
    assert raised.value.problems == (Problem("outcome_contradiction", "won"),)


def test_won_on_paper_with_an_overbid_is_not_a_contradiction():
    # "won" is the play; an overbid still loses: diamonds without 1 (18) at 22 -> 3 x 9 = 27
    g = score_game(decl(D, bid=22, matadors=-1), Outcome(card_points=70, won=True))
    assert (g.won, g.overbid, g.value, g.list_score) == (False, True, 27, -54)


@pytest.mark.parametrize(
    ("card_points", "tricks"),
    [
        # "all 10 tricks means 120 points; 0 tricks means ... at most 22"
        pytest.param(119, 10, id="10 tricks, 119"),
        pytest.param(23, 0, id="0 tricks, 23"),
        pytest.param(120, 0, id="0 tricks, 120"),
    ],
)
def test_card_points_that_contradict_tricks(card_points, tricks):
    outcome = Outcome(card_points=card_points, tricks=tricks)
    assert errors(decl(C, matadors=1), outcome) == [
        Problem("card_points_contradict_tricks", "card_points")
    ]


@pytest.mark.parametrize(
    ("declaration", "outcome", "problem"),
    [
        pytest.param(
            decl(H, matadors=1, schneider_announced=True),
            Outcome(card_points=95),
            Problem("announcement_requires_hand", "schneider_announced"),
            id="schneider announced without hand",
        ),
        pytest.param(
            decl(H, matadors=1, schwarz_announced=True),
            Outcome(card_points=120, tricks=10),
            Problem("announcement_requires_hand", "schwarz_announced"),
            id="schwarz announced without hand",
        ),
        pytest.param(
            decl(H, matadors=1, ouvert=True),
            Outcome(card_points=120, tricks=10),
            Problem("ouvert_requires_hand", "ouvert"),
            id="suit ouvert without hand",
        ),
        pytest.param(
            decl(H, matadors=12),
            Outcome(card_points=70),
            Problem("matadors_out_of_range", "matadors"),
            id="suit with 12",
        ),
        pytest.param(
            decl(G, matadors=-5),
            Outcome(card_points=70),
            Problem("matadors_out_of_range", "matadors"),
            id="grand without 5",
        ),
        pytest.param(
            decl(H, matadors=0),
            Outcome(card_points=70),
            Problem("matadors_out_of_range", "matadors"),
            id="with 0 does not exist",
        ),
        pytest.param(
            decl(H, matadors=1),
            Outcome(card_points=121),
            Problem("card_points_out_of_range", "card_points"),
            id="121 card points",
        ),
        pytest.param(
            decl(H, matadors=1),
            Outcome(card_points=-1),
            Problem("card_points_out_of_range", "card_points"),
            id="-1 card points",
        ),
        pytest.param(
            decl(H, matadors=1),
            Outcome(card_points=70, tricks=11),
            Problem("tricks_out_of_range", "tricks"),
            id="11 tricks",
        ),
        pytest.param(
            decl(H, bid=19, matadors=1),
            Outcome(card_points=70),
            Problem("bid_not_legal", "bid"),
            id="bid 19",
        ),
        pytest.param(
            decl(H, matadors=1), Outcome(), Problem("outcome_missing", None), id="no outcome"
        ),
    ],
)
def test_impossible_declarations_are_input_errors(declaration, outcome, problem):
    assert errors(declaration, outcome) == [problem]


# --- overbid (ISkO 5.4) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declaration", "outcome", "expected"),
    [
        # "diamonds without 1 (18) after a bid of 22 -> charged 27 -> -54"
        pytest.param(
            decl(D, bid=22, matadors=-1),
            Outcome(card_points=70),
            (False, 27, -54),
            id="the rule's example: charged 27",
        ),
        # "the same game with schneider is worth 27 >= 22 and is won"
        pytest.param(
            decl(D, bid=22, matadors=-1),
            Outcome(card_points=95),
            (True, 27, 27),
            id="schneider rescues it",
        ),
        # Swedish seed: "Hjärter hand "utan tre" efter att ha budat 36. I skaten ligger klöver
        # knekt. Spelet ska i så fall varken värderas till 36 (budet) eller 50 ... utan till 40"
        # -> with 1 (the jack in the skat), game 2, hand 3 = 30 < 36: charged 4 x 10 = 40
        pytest.param(
            decl(H, bid=36, matadors=1, hand=True),
            Outcome(card_points=80),
            (False, 40, -80),
            id="Swedish seed: hearts hand, club jack in the skat, bid 36 -> 40",
        ),
        # Danish seed: bid 30, clubs with 1 = 24 -> "36 gange to er 72"
        pytest.param(
            decl(C, bid=30, matadors=1),
            Outcome(card_points=70),
            (False, 36, -72),
            id="Danish seed: clubs with 1 at 30 -> -72",
        ),
        # "... erklære et spil i hjerter i stedet ... vil kun være værd -60 point"
        pytest.param(
            decl(H, bid=30, matadors=1),
            Outcome(card_points=70),
            (False, 30, -60),
            id="Danish seed: hearts instead -> -60",
        ),
        # DECISION null below the bid: null (23) at 24 -> lowest null value reaching it, 35
        pytest.param(decl(N, bid=24), Outcome(tricks=0), (False, 35, -70), id="null at 24 -> 35"),
        pytest.param(
            decl(N, bid=36, hand=True), Outcome(tricks=0), (False, 46, -92), id="null hand at 36"
        ),
        # above 59: the smallest multiple of the announced null value: 59 x 2 = 118
        pytest.param(
            decl(N, bid=60, hand=True, ouvert=True),
            Outcome(tricks=0),
            (False, 118, -236),
            id="null ouvert hand at 60 -> 118",
        ),
        pytest.param(decl(N, bid=60), Outcome(tricks=0), (False, 69, -138), id="null at 60 -> 69"),
    ],
)
def test_overbid(declaration, outcome, expected):
    assert result(declaration, outcome) == expected


def test_null_below_the_bid_warns():
    problems = check_game(decl(N, bid=24), Outcome(tricks=0))
    assert problems == [Problem("null_below_bid", "bid", warning=True)]


# --- the seeds' worked examples ------------------------------------------------------------------


def test_danish_seed_examples():
    # "Eksempel 1: Erklæreren byder 20 og erklærer et stort spil. Han vinder derefter med 78
    # point i stik. ... Spillets værdi er 24 × (2 + 1) = 72 point."
    assert result(decl(G, bid=20, matadors=2), Outcome(card_points=78)) == (True, 72, 72)
    # "Eksempel 2: Erklæreren byder 30 og erklærer et Null Ouvert-spil. Hun er imidlertid
    # tvunget til at tage det niende stik ... Spillets værdi er 46, den bliver fordoblet og
    # fratrukket hendes samlede score (-92 point)."
    assert result(decl(N, bid=30, ouvert=True), Outcome(tricks=1)) == (False, 46, -92)
    # "Multiplikatorspillet er 11 ... 7 for en straight ... 1 for at erklære hånden, 1 for at
    # erklære Schneider, 1 for at opnå Schneider ... Den faktiske spilværdi vil være 110"
    hearts = decl(H, bid=40, matadors=7, hand=True, schneider_announced=True)
    assert result(hearts, Outcome(card_points=95)) == (True, 110, 110)
    # "Det højest mulige multiplikatorspilniveau er 18": clubs ouvert with 11 = 18 x 12
    top = decl(C, bid=216, matadors=11, hand=True, ouvert=True)
    assert result(top, Outcome(card_points=120, tricks=10)) == (True, 216, 216)


def test_danish_seed_example_2_matadors_from_the_cards():
    # "J♣ J♠ J♥ A♥ 10♥ K♥ 8♥ 7♥ ... 10♣ 7♣ Skat: J♦ Q♠": with 7 in hearts (the seed's hand
    # lists two cards twice; these are its ten distinct cards)
    hand = ["CJ", "SJ", "HJ", "HA", "H10", "HK", "H8", "H7", "C10", "C7"]
    assert matadors_from_cards(hand, ["DJ", "SQ"], H) == 7
    # "kun J♦ i Skat øgede længden af matador's knægt lige til 7": without it, with 3
    assert matadors_from_cards(hand, ["D7", "SQ"], H) == 3


def test_dutch_seed_overbid_example():
    # "Stel een speler speelt schoppen troef met ruitenboer in handen. Hij neemt de Skaat niet
    # en haalt 91 punten. Dan rekent men 'Zonder 3, gespeeld 4, hand 5, Schneider 6×11 is 66"
    assert result(decl(S, bid=66, matadors=-3, hand=True), Outcome(card_points=91)) == (
        True,
        66,
        66,
    )
    # "Stel nu dat daar de schoppenboer in zit dan wordt het opeens 'Zonder 1, gespeeld 2,
    # hand 3, Schneider 4×11 is 44 punten'. Heeft de speler nu meer dan 44 geboden dan is hij
    # nat gegaan door de Skaat." At a bid of 46 the ISkO charges 5 x 11 = 55, once more x2
    g = score_game(decl(S, bid=46, matadors=-1, hand=True), Outcome(card_points=91))
    assert (g.won, g.overbid, g.value, g.list_score) == (False, True, 55, -110)
    assert result(decl(S, bid=44, matadors=-1, hand=True), Outcome(card_points=91)) == (
        True,
        44,
        44,
    )


def test_dutch_seed_null_hand_bid_example():
    # bid 35 (a null hand), hearts with 1 after the skat: "alle slagen halen met 1, gespeeld 2,
    # Schneider 3, Schwarz 4×10 is meer dan 35, óf Grand annonceren, met 1, gespeeld 2×24"
    assert result(decl(H, bid=35, matadors=1), Outcome(card_points=120, tricks=10)) == (
        True,
        40,
        40,
    )
    assert result(decl(G, bid=35, matadors=1), Outcome(card_points=70)) == (True, 48, 48)
    # hearts with 1 and only schneider: 3 x 10 = 30 < 35 -> charged 4 x 10 = 40
    assert result(decl(H, bid=35, matadors=1), Outcome(card_points=95)) == (False, 40, -80)


def test_the_danish_seeds_bid_sequence():
    # "18-20-22-23-24-27-30-33-35-36-40-44-45-46-48-50-54-55-59-60-63-66-70-72-77-80-81-84-
    # 88-90-96-99" (the seed repeats some numbers; these are the distinct ones)
    assert bid_values()[:32] == (
        18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50,
        54, 55, 59, 60, 63, 66, 70, 72, 77, 80, 81, 84, 88, 90, 96, 99,
    )  # fmt: skip


# --- won with an announcement: the announcement was made (docs/rules.md section 10.2) ---


@pytest.mark.parametrize(
    ("declaration", "outcome", "expected"),
    [
        # Clubs hand with 1, schneider announced, "won": with 1, game 2, hand 3, schneider
        # 4, announced 5 → 5 × 12 = 60.
        pytest.param(
            decl(C, bid=None, matadors=1, hand=True, schneider_announced=True),
            Outcome(won=True),
            (True, 60, 60),
            id="schneider announced, won",
        ),
        # Grand hand with 2, schwarz announced, "won": with 2, game 3, hand 4, schneider 5,
        # announced 6, schwarz 7, announced 8 → 8 × 24 = 192.
        pytest.param(
            decl(G, bid=None, matadors=2, hand=True, schwarz_announced=True),
            Outcome(won=True),
            (True, 192, 192),
            id="schwarz announced, won",
        ),
        # The same with "Schneider" ticked as well: schwarz, left unsaid, was made.
        pytest.param(
            decl(G, bid=None, matadors=2, hand=True, schwarz_announced=True),
            Outcome(won=True, schneider=True),
            (True, 192, 192),
            id="schwarz announced, won, schneider ticked",
        ),
        # Clubs ouvert with 2 (ISkO's example): 9 × 12 = 108, won by the flag alone.
        pytest.param(
            decl(C, bid=None, matadors=2, hand=True, ouvert=True),
            Outcome(won=True),
            (True, 108, 108),
            id="ouvert, won",
        ),
        # Lost with schneider announced: every announced level counts, the declarer was
        # not schneider: with 1, game 2, hand 3, schneider 4, announced 5 → 60, −120.
        pytest.param(
            decl(C, bid=None, matadors=1, hand=True, schneider_announced=True),
            Outcome(won=False),
            (False, 60, -120),
            id="schneider announced, lost",
        ),
        # 90 card points make an announced schneider: won, 60.
        pytest.param(
            decl(C, bid=None, matadors=1, hand=True, schneider_announced=True),
            Outcome(card_points=90, won=True),
            (True, 60, 60),
            id="schneider announced, 90 points, won",
        ),
        # 85 card points miss it: lost, −120, whatever the paper flag would say.
        pytest.param(
            decl(C, bid=None, matadors=1, hand=True, schneider_announced=True),
            Outcome(card_points=85),
            (False, 60, -120),
            id="schneider announced, 85 points",
        ),
    ],
)
def test_won_with_an_announcement_means_it_was_made(declaration, outcome, expected):
    assert errors(declaration, outcome) == []
    assert result(declaration, outcome) == expected


def test_won_with_85_points_and_schneider_announced_contradicts_the_points():
    """Won with schneider announced needs 90 card points: 85 and "won" cannot both be."""
    declaration = decl(C, bid=None, matadors=1, hand=True, schneider_announced=True)
    assert errors(declaration, Outcome(card_points=85, won=True)) == [
        Problem("won_below_announced_schneider", "won")
    ]
    # Below 61 it is simply lost: the points and the flag disagree.
    assert errors(declaration, Outcome(card_points=55, won=True)) == [
        Problem("outcome_contradiction", "won")
    ]


def test_won_with_a_flag_that_denies_the_announcement_is_refused():
    declaration = decl(C, bid=None, matadors=1, hand=True, schneider_announced=True)
    assert errors(declaration, Outcome(won=True, schneider=False)) == [
        Problem("won_contradicts_announcement", "won")
    ]

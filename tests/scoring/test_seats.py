"""Who plays, who sits out and who settles: 3-, 4- and 5-tables, ``fourth_player`` and the
list systems per row (docs/rules.md sections 5, 6 and 8). Worked out by hand; seats are 0-based,
seat 0 deals the first game and the player on the dealer's left (the next seat) is forehand.
"""

from dataclasses import replace

import pytest

from scoring import (
    ISKO,
    RULE_SETS,
    Declaration,
    FourthPlayer,
    GameType,
    ListRow,
    ListSystem,
    LostGame,
    Outcome,
    Problem,
    RankEntry,
    active_seats,
    check_seat,
    check_table,
    dealer_seat,
    rank,
    role_points,
    row_lines,
    row_scores,
    score_game,
    sitting_out,
    summarize_list,
)

H, C = GameType.HEARTS, GameType.CLUBS
SF, CLASSIC, ZERO_SUM = ListSystem.SEEGER_FABIAN, ListSystem.CLASSIC, ListSystem.ZERO_SUM
NL = RULE_SETS["nl"]
SHARES = replace(ISKO, fourth_player=FourthPlayer.SHARES_DEALER)

# The Swedish seed's game: hearts, without 2, hand -> 4 x 10 = 40
HEARTS_HAND = Declaration(H, bid=40, matadors=-2, hand=True)


def hearts_hand(won, rules=ISKO):
    return score_game(HEARTS_HAND, Outcome(card_points=70 if won else 50), rules)


def row(entry, declarer, dealer, size, system, rules=ISKO):
    return row_scores(
        entry, declarer=declarer, dealer=dealer, table_size=size, system=system, rules=rules
    )


# --- who sits out ------------------------------------------------------------------------------


def test_dealer_rotates_from_seat_1():
    # "Seat 1 deals game 1, dealing passes clockwise (seat 2 deals game 2, ...)"
    assert [dealer_seat(n, 5) for n in range(1, 8)] == [0, 1, 2, 3, 4, 0, 1]
    assert [dealer_seat(n, 3) for n in range(1, 5)] == [0, 1, 2, 0]


@pytest.mark.parametrize(
    ("dealer", "size", "rules", "out", "active"),
    [
        pytest.param(0, 3, ISKO, (), (1, 2, 0), id="3-table: all play, the dealer is rearhand"),
        # "At a 4-table the dealer sits out the game"
        pytest.param(0, 4, ISKO, (0,), (1, 2, 3), id="4-table: the dealer sits out"),
        pytest.param(2, 4, ISKO, (2,), (3, 0, 1), id="4-table, third game"),
        # Dutch seed: "the dealer plays, the player who dealt the previous game sits out";
        # "The first game of a list has no previous dealer: the seat before seat 1 (the last
        # seat) sits out."
        pytest.param(0, 4, NL, (3,), (1, 2, 0), id="nl, first game: the last seat sits out"),
        pytest.param(1, 4, NL, (0,), (2, 3, 1), id="nl, second game: the first dealer sits out"),
        pytest.param(0, 3, NL, (), (1, 2, 0), id="nl at a 3-table: all play"),
        # Swedish seed: "som flest fem"; docs/rules.md section 8.4: the dealer and the player
        # on his right sit out
        pytest.param(0, 5, ISKO, (0, 4), (1, 2, 3), id="5-table: dealer and previous dealer"),
        pytest.param(2, 5, ISKO, (2, 1), (3, 4, 0), id="5-table, third game"),
        pytest.param(0, 5, NL, (0, 4), (1, 2, 3), id="5-table under nl: the same"),
    ],
)
def test_who_sits_out_and_who_plays(dealer, size, rules, out, active):
    assert sitting_out(dealer, size, rules) == out
    assert active_seats(dealer, size, rules) == active


@pytest.mark.parametrize(
    ("declarer", "dealer", "size", "rules", "problems"),
    [
        pytest.param(0, 0, 3, ISKO, [], id="3-table: the dealer may declare"),
        pytest.param(
            0, 0, 4, ISKO, [Problem("declarer_is_dealer", "declarer")], id="4-table dealer"
        ),
        pytest.param(0, 0, 4, NL, [], id="nl: the dealer plays and may declare"),
        pytest.param(
            3, 0, 4, NL, [Problem("declarer_sits_out", "declarer")], id="nl: the sitter cannot"
        ),
        pytest.param(
            4, 0, 5, ISKO, [Problem("declarer_sits_out", "declarer")], id="5-table: previous"
        ),
        pytest.param(
            0, 0, 5, ISKO, [Problem("declarer_is_dealer", "declarer")], id="5-table: dealer"
        ),
        pytest.param(3, 0, 5, ISKO, [], id="5-table: rearhand may declare"),
        pytest.param(5, 0, 5, ISKO, [Problem("declarer_not_at_table", "declarer")], id="no seat 6"),
    ],
)
def test_check_seat(declarer, dealer, size, rules, problems):
    assert check_seat(declarer, dealer, size, rules) == problems


@pytest.mark.parametrize(
    ("size", "system", "rules", "codes"),
    [
        pytest.param(5, SF, ISKO, ["five_table_not_with_seeger_fabian"], id="5 with SF"),
        pytest.param(5, CLASSIC, ISKO, [], id="5 with classic"),
        pytest.param(5, ZERO_SUM, ISKO, [], id="5 with zero-sum"),
        pytest.param(6, CLASSIC, ISKO, ["table_size_invalid"], id="6 players"),
        pytest.param(2, ZERO_SUM, ISKO, ["table_size_invalid"], id="2 players"),
        pytest.param(
            4, SF, replace(ISKO, ramsch=True), ["ramsch_not_with_seeger_fabian"], id="ramsch SF"
        ),
        pytest.param(3, CLASSIC, replace(ISKO, ramsch=True), [], id="ramsch with classic"),
    ],
)
def test_check_table(size, system, rules, codes):
    assert [p.code for p in check_table(size, system, rules)] == codes


# --- zero-sum: the charge once per settling player -------------------------------------------


@pytest.mark.parametrize(
    ("won", "size", "expected"),
    [
        # "hearts hand without 2 (40) at a 3-table is (+80, -40, -40) when won and
        # (-80, +40, +40) when lost ("förlorar spelföraren med ordinarie spelvärde (40) till
        # vardera motspelare, dvs. minus 80 totalt")"
        pytest.param(True, 3, (-40, 80, -40), id="3-table won"),
        pytest.param(False, 3, (40, -80, 40), id="3-table lost"),
        # "at a 4-table the dealer who sits out too": three settle
        pytest.param(True, 4, (-40, 120, -40, -40), id="4-table won"),
        pytest.param(False, 4, (40, -120, 40, 40), id="4-table lost"),
        # "at a 5-table the declarer who wins 40 gets 4 x 40"
        pytest.param(True, 5, (-40, 160, -40, -40, -40), id="5-table won"),
        pytest.param(False, 5, (40, -160, 40, 40, 40), id="5-table lost"),
    ],
)
def test_zero_sum_row(won, size, expected):
    assert row(hearts_hand(won), 1, 0, size, ZERO_SUM) == expected


@pytest.mark.parametrize(
    ("rules", "charge"),
    [
        # the charge of a lost game: its value under double and single-hand,
        pytest.param(RULE_SETS["pre1999"], 40, id="single-hand: 40"),
        # add-level's raised value (5 x 10),
        pytest.param(replace(ISKO, lost_game=LostGame.ADD_LEVEL), 50, id="add-level: 50"),
        # the credit under opponents-credited (hand: once the value)
        pytest.param(replace(ISKO, lost_game=LostGame.OPPONENTS_CREDITED), 40, id="credited: 40"),
    ],
)
def test_zero_sum_charge_under_lost_game(rules, charge):
    assert row(hearts_hand(False, rules), 1, 0, 3, ZERO_SUM, rules) == (charge, -2 * charge, charge)


def test_zero_sum_credit_of_a_game_with_the_skat_taken():
    # nl, hearts without 2 (30) lost with the skat taken: credit 2 x 30 = 60 per opponent;
    # 3-table: the declarer pays 60 to each
    g = score_game(Declaration(H, bid=30, matadors=-2), Outcome(card_points=50), NL)
    assert row(g, 1, 0, 3, ZERO_SUM, NL) == (60, -120, 60)


# --- classic and Seeger-Fabian at 4- and 5-tables ---------------------------------------------


@pytest.mark.parametrize(
    ("won", "size", "system", "expected"),
    [
        pytest.param(True, 4, CLASSIC, (0, 40, 0, 0), id="classic won"),
        pytest.param(False, 4, CLASSIC, (0, -80, 0, 0), id="classic lost"),
        pytest.param(False, 5, CLASSIC, (0, -80, 0, 0, 0), id="classic 5-table lost"),
    ],
)
def test_classic_row(won, size, system, expected):
    assert row(hearts_hand(won), 1, 0, size, system) == expected


def test_classic_credit_goes_to_the_two_opponents_only():
    # opponents-credited at a 4-table where the dealer sits out: the dealer is no opponent;
    # hearts hand without 2 lost: each opponent +40
    rules = replace(ISKO, lost_game=LostGame.OPPONENTS_CREDITED)
    assert row(hearts_hand(False, rules), 1, 0, 4, CLASSIC, rules) == (0, 0, 40, 40)
    assert row(hearts_hand(False, rules), 1, 0, 5, CLASSIC, rules) == (0, 0, 40, 40, 0)


def test_seeger_fabian_row_lines_at_a_4_table():
    # lost 40 hand: declarer -80, lost 1; every other player (the dealer too) others-lost 1
    lines = row_lines(hearts_hand(False), declarer=1, dealer=0, table_size=4, system=SF, rules=ISKO)
    assert lines == [[0, 0, 0, 1], [-80, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1]]


# --- shares-dealer: "De vierde speler deelt wel in winst of verlies van de gever" -----------


@pytest.mark.parametrize(
    ("won", "declarer", "system", "expected"),
    [
        # game 2: dealer seat 1 plays, seat 0 (the previous dealer) sits out and scores
        # exactly what the dealer scores. nl, hearts hand without 2 (40).
        pytest.param(True, 2, CLASSIC, (0, 0, 40, 0), id="classic, the dealer defends, won"),
        # lost: each opponent (seat 3 and the dealer, seat 1) is credited 40; so is seat 0
        pytest.param(False, 2, CLASSIC, (40, 40, 0, 40), id="classic, the dealer defends, lost"),
        pytest.param(True, 1, CLASSIC, (40, 40, 0, 0), id="classic, the dealer declares, won"),
        pytest.param(False, 1, CLASSIC, (0, 0, 40, 40), id="classic, the dealer declares, lost"),
        # zero-sum: the sitter does not settle; the two opponents pay; the row then sums to
        # the dealer's points
        pytest.param(True, 2, ZERO_SUM, (-40, -40, 80, -40), id="zero-sum, dealer defends, won"),
        pytest.param(False, 2, ZERO_SUM, (40, 40, -80, 40), id="zero-sum, dealer defends, lost"),
        pytest.param(True, 1, ZERO_SUM, (80, 80, -40, -40), id="zero-sum, dealer declares, won"),
        pytest.param(False, 1, ZERO_SUM, (-80, -80, 40, 40), id="zero-sum, dealer declares, lost"),
    ],
)
def test_shares_dealer_row(won, declarer, system, expected):
    scores = row(hearts_hand(won, NL), declarer, 1, 4, system, NL)
    assert scores == expected
    if system is ZERO_SUM:
        assert sum(scores) == scores[1]


def test_shares_dealer_copies_the_whole_line():
    # "the sitting-out player's whole line for that game (points, won, lost, others-lost
    # counts) is the dealer's": the dealer (seat 1) declares and loses under isko+shares-dealer
    lines = row_lines(
        hearts_hand(False, SHARES), declarer=1, dealer=1, table_size=4, system=SF, rules=SHARES
    )
    assert lines[0] == lines[1] == [-80, 0, 1, 0]
    assert lines[2] == lines[3] == [0, 0, 0, 1]


def test_shares_dealer_seeger_fabian_summary():
    # nl, game 2 (dealer seat 1), seat 2 loses hearts without 2 (30) with the skat taken:
    # credit 60 to each opponent (seats 3 and 1); Seeger-Fabian: declarer 0 - 50;
    # opponents 60 + 30; seat 0 scores what the dealer scores: 60 + 30
    g = score_game(Declaration(H, bid=30, matadors=-2), Outcome(card_points=50), NL)
    rows = [ListRow(None, None, 0), ListRow(g, 2, 1)]
    totals = [s.total for s in summarize_list(rows, 4, SF, NL)]
    assert totals == [90, 90, -50, 90]


def test_shares_dealer_refuses_the_sitter_as_declarer_in_a_list():
    g = hearts_hand(True, NL)
    with pytest.raises(ValueError):
        summarize_list([ListRow(g, 0, 1)], 4, CLASSIC, NL)


def test_five_table_list_summary():
    # two games at a 5-table under zero-sum: game 1 (dealer 0) seat 1 wins 40 -> +160, all
    # others -40; game 2 (dealer 1) seat 4 loses 40 -> -160, all others +40
    rows = [ListRow(hearts_hand(True), 1, 0), ListRow(hearts_hand(False), 4, 1)]
    summaries = summarize_list(rows, 5, ZERO_SUM)
    assert [s.total for s in summaries] == [0, 200, 0, 0, -200]
    assert [(s.won, s.lost, s.others_lost) for s in summaries] == [
        (0, 0, 1),
        (1, 0, 1),
        (0, 0, 1),
        (0, 0, 1),
        (0, 1, 0),
    ]


# --- role_points: one game's points per seat role (the CLI's "points") ------------------------


@pytest.mark.parametrize(
    ("won", "size", "system", "rules", "dealer_declares", "expected"),
    [
        pytest.param(
            False,
            3,
            SF,
            ISKO,
            False,
            {"declarer": [-130], "opponents": [40, 40], "sitting_out": []},
            id="SF 3-table lost: -80-50, +40",
        ),
        pytest.param(
            False,
            4,
            SF,
            ISKO,
            False,
            {"declarer": [-130], "opponents": [30, 30], "sitting_out": [30]},
            id="SF 4-table lost: +30 to the dealer too",
        ),
        pytest.param(
            True,
            5,
            ZERO_SUM,
            ISKO,
            False,
            {"declarer": [160], "opponents": [-40, -40], "sitting_out": [-40, -40]},
            id="zero-sum 5-table won",
        ),
        pytest.param(
            True,
            4,
            ZERO_SUM,
            NL,
            True,
            {"declarer": [80], "opponents": [-40, -40], "sitting_out": [80]},
            id="nl zero-sum, the dealer declares",
        ),
        pytest.param(
            True,
            4,
            ZERO_SUM,
            NL,
            False,
            {"declarer": [80], "opponents": [-40, -40], "sitting_out": [-40]},
            id="nl zero-sum, the dealer defends",
        ),
        pytest.param(
            False,
            4,
            CLASSIC,
            NL,
            False,
            {"declarer": [0], "opponents": [40, 40], "sitting_out": [40]},
            id="nl classic lost hand: credit 40, the sitter as the dealer",
        ),
    ],
)
def test_role_points(won, size, system, rules, dealer_declares, expected):
    points = role_points(
        hearts_hand(won, rules),
        table_size=size,
        system=system,
        rules=rules,
        dealer_declares=dealer_declares,
    )
    assert points == expected


def test_role_points_of_a_passed_game():
    assert role_points(None, table_size=4, system=SF) == {"players": [0, 0, 0], "sitting_out": [0]}


def test_clubs_with_1_zero_sum_at_each_table_size():
    # clubs with 1 = 24 won, declarer forehand: 3-table 2 x 24, 4-table 3 x 24, 5-table 4 x 24
    g = score_game(Declaration(C, bid=18, matadors=1), Outcome(card_points=70))
    for size, settling in ((3, 2), (4, 3), (5, 4)):
        points = role_points(g, table_size=size, system=ZERO_SUM)
        assert points["declarer"] == [24 * settling]
        assert sum(points["opponents"]) + sum(points["sitting_out"]) == -24 * settling


def test_opponents_credited_where_the_dealer_sits_out():
    # isko + opponents-credited, 4-table, dealer seat 0 sits out, seat 1 loses hearts hand
    # without 2 (40): the two defenders are credited 40 each; the dealer gets no credit, but
    # Seeger-Fabian's +30, and in a zero-sum list he settles like the others
    rules = replace(ISKO, lost_game=LostGame.OPPONENTS_CREDITED)
    g = hearts_hand(False, rules)
    assert row(g, 1, 0, 4, CLASSIC, rules) == (0, 0, 40, 40)
    assert [s.total for s in summarize_list([ListRow(g, 1, 0)], 4, SF, rules)] == [
        30,
        -50,
        70,
        70,
    ]
    assert row(g, 1, 0, 4, ZERO_SUM, rules) == (40, -120, 40, 40)


def test_classic_ranking_is_the_column_sum_then_games_won():
    # "Ranking under classic and zero-sum: the sum of each player's column, ties broken as in
    # section 5": seat 1 wins hearts hand without 2 (40) once, seat 2 hearts with 1 (20)
    # twice: both 40, seat 2 has won more games and ranks first
    twenty = score_game(Declaration(H, bid=18, matadors=1), Outcome(card_points=70))
    rows = [ListRow(hearts_hand(True), 1, 0), ListRow(twenty, 2, 1), ListRow(twenty, 2, 2)]
    summaries = summarize_list(rows, 3, CLASSIC)
    assert [(s.total, s.bonus) for s in summaries] == [(0, 0), (40, 0), (40, 0)]
    entries = [RankEntry(s.total, s.won, s.lost) for s in summaries]
    assert rank(entries) == [3, 2, 1]

"""Ramsch (docs/rules.md section 8, option ``ramsch``): entry checks, the score, and its rows.

"when all pass, Ramsch is played instead of a passed-in game (Danish and Swedish seeds name
it ...): the player with the most card points is charged that many points (players level on
the most all are); a player who took no trick doubles the charge ("Jungfrau"); a player who
took every trick is credited 120 ("Durchmarsch"). Entered as each player's card points and
tricks; checked to add up to 120 and 10"
"""

from dataclasses import replace

import pytest

from scoring import (
    ISKO,
    RULE_SETS,
    FourthPlayer,
    ListRow,
    ListSystem,
    Problem,
    Ramsch,
    check_ramsch,
    row_scores,
    score_ramsch,
    summarize_list,
)

CLASSIC, ZERO_SUM = ListSystem.CLASSIC, ListSystem.ZERO_SUM
RAMSCH = replace(ISKO, ramsch=True)
RAMSCH_NL = replace(RULE_SETS["nl"], ramsch=True)


def points(card_points, tricks):
    return score_ramsch(Ramsch(card_points, tricks)).points


@pytest.mark.parametrize(
    ("card_points", "tricks", "expected"),
    [
        pytest.param((30, 62, 28), (3, 5, 2), (0, -62, 0), id="the most card points pays them"),
        pytest.param((50, 50, 20), (4, 4, 2), (-50, -50, 0), id="level on the most: both pay"),
        pytest.param((0, 70, 50), (0, 6, 4), (0, -140, 0), id="Jungfrau doubles: 2 x 70"),
        pytest.param((60, 60, 0), (5, 5, 0), (-120, -120, 0), id="level and Jungfrau: 2 x 60"),
        pytest.param((0, 120, 0), (0, 10, 0), (0, 120, 0), id="Durchmarsch: +120"),
        pytest.param((40, 40, 40), (4, 3, 3), (-40, -40, -40), id="all level: all pay 40"),
    ],
)
def test_ramsch_score(card_points, tricks, expected):
    assert points(card_points, tricks) == expected


def test_ramsch_score_details():
    jungfrau = score_ramsch(Ramsch((0, 70, 50), (0, 6, 4)))
    assert (jungfrau.charge, jungfrau.jungfrau, jungfrau.charged) == (
        140,
        True,
        (False, True, False),
    )
    durchmarsch = score_ramsch(Ramsch((0, 0, 120), (0, 0, 10)))
    assert (durchmarsch.durchmarsch, durchmarsch.charge) == (2, 0)


@pytest.mark.parametrize(
    ("card_points", "tricks", "problems"),
    [
        pytest.param(
            (60, 40, 19),
            (5, 3, 2),
            [Problem("ramsch_card_points_sum", "card_points")],
            id="119 points",
        ),
        pytest.param(
            (60, 40, 20), (5, 3, 3), [Problem("ramsch_tricks_sum", "tricks")], id="11 tricks"
        ),
        pytest.param(
            (60, 60),
            (5, 5),
            [Problem("ramsch_players", "card_points"), Problem("ramsch_players", "tricks")],
            id="two players",
        ),
        pytest.param(
            (121, 0, -1),
            (10, 0, 0),
            [Problem("card_points_out_of_range", "card_points")],
            id="121 points",
        ),
        pytest.param(
            (60, 40, 20), (11, -1, 0), [Problem("tricks_out_of_range", "tricks")], id="11 tricks"
        ),
        # "a Ramsch player with no trick must have 0 card points" (the skat goes with a trick)
        pytest.param(
            (5, 65, 50),
            (0, 6, 4),
            [Problem("card_points_contradict_tricks", "card_points")],
            id="points without a trick",
        ),
        # all tricks means all 120 points
        pytest.param(
            (0, 110, 10),
            (0, 10, 0),
            [Problem("card_points_contradict_tricks", "card_points")],
            id="all tricks, 110 points",
        ),
        # one trick and the skat are at most 5 cards: 4 aces and a ten = 54
        pytest.param(
            (55, 45, 20),
            (1, 6, 3),
            [Problem("card_points_contradict_tricks", "card_points")],
            id="one trick, 55 points",
        ),
    ],
)
def test_ramsch_entry_checks(card_points, tricks, problems):
    assert check_ramsch(Ramsch(card_points, tricks)) == problems


@pytest.mark.parametrize(
    ("card_points", "tricks"),
    [
        # B takes the last trick (three aces, 33) with the skat (ace of diamonds and a king,
        # 15): 48; C one trick of three tens: 30; A's 24 cards hold the rest, 42:
        # ten of diamonds 10, four kings less one 12, four queens 12, four jacks 8.
        pytest.param((42, 48, 30), (8, 1, 1), id="8 tricks with 42 points"),
        # B's last trick and skat 48 as above; A takes the other nine tricks: 72
        pytest.param((72, 48, 0), (9, 1, 0), id="9 tricks with 72 points"),
        pytest.param((0, 0, 120), (0, 0, 10), id="Durchmarsch"),
        pytest.param((0, 66, 54), (0, 9, 1), id="one trick and the skat: 4 aces and a ten"),
    ],
)
def test_ramsch_entries_that_can_happen_are_accepted(card_points, tricks):
    assert check_ramsch(Ramsch(card_points, tricks)) == []


# --- rows --------------------------------------------------------------------------------------

PLAIN = score_ramsch(Ramsch((30, 62, 28), (3, 5, 2)))  # middlehand pays 62
LEVEL = score_ramsch(Ramsch((50, 50, 20), (4, 4, 2)))
DURCHMARSCH = score_ramsch(Ramsch((120, 0, 0), (10, 0, 0)))  # forehand takes all


def row(entry, dealer, size, system, rules=RAMSCH):
    return row_scores(
        entry, declarer=None, dealer=dealer, table_size=size, system=system, rules=rules
    )


@pytest.mark.parametrize(
    ("entry", "size", "system", "expected"),
    [
        # dealer seat 0: forehand is seat 1, middlehand seat 2, rearhand seat 0 (3-table)
        pytest.param(PLAIN, 3, CLASSIC, (0, 0, -62), id="classic 3-table"),
        # zero-sum: "each charged player pays the charge to every other player who settles"
        pytest.param(PLAIN, 3, ZERO_SUM, (62, 62, -124), id="zero-sum 3-table"),
        # 4-table: seats 1, 2, 3 play; the dealer (seat 0) sits out and settles too
        pytest.param(PLAIN, 4, CLASSIC, (0, 0, -62, 0), id="classic 4-table"),
        pytest.param(PLAIN, 4, ZERO_SUM, (62, 62, -186, 62), id="zero-sum 4-table"),
        # 5-table: seats 1, 2, 3 play; seats 0 and 4 sit out and settle
        pytest.param(PLAIN, 5, ZERO_SUM, (62, 62, -248, 62, 62), id="zero-sum 5-table"),
        # two level on the most pay each other and the third: seat 1 -100 + 50, seat 2 the same
        pytest.param(LEVEL, 3, ZERO_SUM, (100, -50, -50), id="zero-sum, two charged"),
        # "a Durchmarsch is paid 120 by each"
        pytest.param(DURCHMARSCH, 3, ZERO_SUM, (-120, 240, -120), id="zero-sum Durchmarsch"),
        pytest.param(DURCHMARSCH, 4, ZERO_SUM, (-120, 360, -120, -120), id="Durchmarsch 4"),
        pytest.param(DURCHMARSCH, 3, CLASSIC, (0, 120, 0), id="classic Durchmarsch"),
    ],
)
def test_ramsch_rows(entry, size, system, expected):
    scores = row(entry, 0, size, system)
    assert scores == expected
    if system is ZERO_SUM:
        assert sum(scores) == 0


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        # shares-dealer, game 2: dealer seat 1 plays rearhand, seats 2 and 3 fore- and
        # middlehand; seat 0 sits out and scores what the dealer scores.
        # middlehand (seat 3) pays 62.
        pytest.param(CLASSIC, (0, 0, 0, -62), id="classic"),
        # zero-sum: seat 3 pays 62 to seats 2 and 1; seat 0 as seat 1: the row sums to 62
        pytest.param(ZERO_SUM, (62, 62, 62, -124), id="zero-sum"),
    ],
)
def test_ramsch_under_shares_dealer(system, expected):
    assert row(PLAIN, 1, 4, system, RAMSCH_NL) == expected


def test_ramsch_list_summary_has_no_won_or_lost():
    rows = [ListRow(PLAIN, None, 0), ListRow(DURCHMARSCH, None, 1)]
    # game 2 at a 3-table: dealer seat 1, forehand seat 2 takes every trick: +240, -120 each
    summaries = summarize_list(rows, 3, ZERO_SUM, RAMSCH)
    assert [s.total for s in summaries] == [62 - 120, 62 - 120, -124 + 240]
    assert all((s.won, s.lost, s.others_lost) == (0, 0, 0) for s in summaries)


def test_shares_dealer_option_is_what_moves_the_sitter():
    rules = replace(ISKO, ramsch=True, fourth_player=FourthPlayer.SHARES_DEALER)
    assert row(PLAIN, 1, 4, ZERO_SUM, rules) == (62, 62, 62, -124)

"""Hypothesis properties of the engine, from docs/rules.md sections 1-5.

The strategies only build declarations the rules allow: announcements and
suit/grand ouvert only with hand, matadors in range, a bid from bid_values(),
card points that the declarer's 2 + 3 x tricks cards can make (tests/scoring/deals.py).
"""

from contextlib import suppress
from dataclasses import replace
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    Declaration,
    GameType,
    InvalidGame,
    ListRow,
    ListSystem,
    Outcome,
    Ramsch,
    RankEntry,
    ScoredGame,
    bid_values,
    check_seat,
    rank,
    row_lines,
    row_scores,
    score_game,
    score_ramsch,
    seeger_fabian,
    summarize_list,
)
from scoring.rules import RULE_SETS
from tests.scoring.deals import declarer_points

SETTINGS = settings(max_examples=300, deadline=None, database=None)

BASE = {
    GameType.DIAMONDS: 9,
    GameType.HEARTS: 10,
    GameType.SPADES: 11,
    GameType.CLUBS: 12,
    GameType.GRAND: 24,
}
NULL_VALUES = {  # (hand, ouvert) -> value
    (False, False): 23,
    (True, False): 35,
    (False, True): 46,
    (True, True): 59,
}


@st.composite
def exact_outcomes(draw):
    tricks = draw(st.integers(0, 10))
    points = draw(st.sampled_from(sorted(declarer_points(tricks))))
    return Outcome(card_points=points, tricks=tricks)


@st.composite
def suit_grand_declarations(draw):
    game = draw(st.sampled_from(sorted(BASE)))
    top = 4 if game == GameType.GRAND else 11
    matadors = draw(st.integers(1, top)) * draw(st.sampled_from([1, -1]))
    hand = draw(st.booleans())
    return Declaration(
        game=game,
        bid=draw(st.sampled_from(bid_values())),
        matadors=matadors,
        hand=hand,
        schneider_announced=hand and draw(st.booleans()),
        schwarz_announced=hand and draw(st.booleans()),
        ouvert=hand and draw(st.booleans()),
    )


@st.composite
def null_declarations(draw):
    return Declaration(
        game=GameType.NULL,
        bid=draw(st.sampled_from(bid_values())),
        hand=draw(st.booleans()),
        ouvert=draw(st.booleans()),
    )


def for_game(declaration, outcome):
    """A null game is decided by tricks alone: card points on it are an error."""
    if declaration.game == GameType.NULL:
        return Outcome(tricks=outcome.tricks)
    return outcome


def rules_model(declaration, outcome):
    """(won, overbid, value) by the text of docs/rules.md sections 1 and 3."""
    d, cp, tricks = declaration, outcome.card_points, outcome.tricks
    base = BASE[d.game]
    ouvert = d.ouvert
    schwarz_ann = d.schwarz_announced or ouvert
    schneider_ann = d.schneider_announced or schwarz_ann
    schneider = cp >= 90 or cp <= 30 or schneider_ann
    schwarz = tricks in (0, 10) or schwarz_ann
    level = (
        abs(d.matadors) + 1 + d.hand + schneider + schneider_ann + schwarz + schwarz_ann + ouvert
    )
    play_won = cp >= 61 and (cp >= 90 or not schneider_ann) and (tricks == 10 or not schwarz_ann)
    value = base * level
    if value < d.bid:
        return False, True, -(-d.bid // base) * base
    return play_won, False, value


@SETTINGS
@given(suit_grand_declarations(), exact_outcomes())
def test_value_is_base_times_level(declaration, outcome):
    scored = score_game(declaration, outcome)
    if not scored.overbid:
        assert (scored.base, scored.value) == (BASE[declaration.game], scored.base * scored.level)


@SETTINGS
@given(suit_grand_declarations(), exact_outcomes())
def test_scores_as_the_rules_text_says(declaration, outcome):
    scored = score_game(declaration, outcome)
    assert (scored.won, scored.overbid, scored.value) == rules_model(declaration, outcome)


@SETTINGS
@given(suit_grand_declarations(), exact_outcomes())
def test_won_and_not_overbid_reaches_the_bid(declaration, outcome):
    scored = score_game(declaration, outcome)
    if scored.won:
        assert not scored.overbid and scored.value >= declaration.bid


@SETTINGS
@given(suit_grand_declarations(), exact_outcomes())
def test_overbid_is_lost_and_charged_a_multiple_of_the_base(declaration, outcome):
    scored = score_game(declaration, outcome)
    if scored.overbid:
        base = BASE[declaration.game]
        assert not scored.won
        assert scored.value >= declaration.bid
        assert scored.value % base == 0
        assert scored.value - base < declaration.bid  # the smallest such multiple


@SETTINGS
@given(suit_grand_declarations() | null_declarations(), exact_outcomes())
def test_list_score_is_value_won_and_minus_twice_value_lost(declaration, outcome):
    scored = score_game(declaration, for_game(declaration, outcome))
    assert scored.list_score == (scored.value if scored.won else -2 * scored.value)
    assert scored.opponents_list_score == 0


@SETTINGS
@given(null_declarations(), st.integers(0, 10))
def test_null_scores_as_the_rules_text_says(declaration, tricks):
    scored = score_game(declaration, Outcome(tricks=tricks))
    value = NULL_VALUES[declaration.hand, declaration.ouvert]
    if value >= declaration.bid:
        assert (scored.won, scored.overbid, scored.value) == (tricks == 0, False, value)
    else:
        if declaration.bid <= 59:
            charged = min(v for v in NULL_VALUES.values() if v >= declaration.bid)
        else:
            charged = -(-declaration.bid // value) * value
        assert (scored.won, scored.overbid, scored.value) == (False, True, charged)
        assert [p.code for p in scored.warnings] == ["null_below_bid"]


@SETTINGS
@given(suit_grand_declarations() | null_declarations(), exact_outcomes(), st.sampled_from([3, 4]))
def test_seeger_fabian_per_game(declaration, outcome, table_size):
    scored = score_game(declaration, for_game(declaration, outcome))
    v = scored.value
    expected = (v + 50, 0) if scored.won else (-2 * v - 50, 40 if table_size == 3 else 30)
    assert seeger_fabian(scored, table_size) == expected


def as_flags(declaration, outcome):
    """The paper form of an exact outcome: won = the declarer won the PLAY."""
    cp, tricks = outcome.card_points, outcome.tricks
    schneider_ann = (
        declaration.schneider_announced or declaration.schwarz_announced or declaration.ouvert
    )
    schwarz_ann = declaration.schwarz_announced or declaration.ouvert
    won = cp >= 61 and (cp >= 90 or not schneider_ann) and (tricks == 10 or not schwarz_ann)
    return Outcome(won=won, schneider=cp >= 90 or cp <= 30, schwarz=tricks in (0, 10))


@SETTINGS
@given(suit_grand_declarations(), exact_outcomes())
def test_flag_form_scores_like_card_points(declaration, outcome):
    by_points = score_game(declaration, outcome)
    by_flags = score_game(declaration, as_flags(declaration, outcome))
    assert (by_flags.won, by_flags.overbid, by_flags.value, by_flags.list_score) == (
        by_points.won,
        by_points.overbid,
        by_points.value,
        by_points.list_score,
    )


# --- lists ------------------------------------------------------------------------------------


@cache
def game_pool():
    """A few scored games (won, lost, overbid, null); index 0 is a passed-in game."""

    def s(game, bid, outcome, **kw):
        return score_game(Declaration(game=game, bid=bid, **kw), outcome)

    return (
        None,
        s(GameType.HEARTS, 18, Outcome(card_points=70, tricks=6), matadors=1),
        s(GameType.HEARTS, 18, Outcome(card_points=50, tricks=4), matadors=1),
        s(GameType.GRAND, 18, Outcome(card_points=95, tricks=8), matadors=-2, hand=True),
        s(GameType.CLUBS, 18, Outcome(card_points=10, tricks=0), matadors=3),
        s(GameType.DIAMONDS, 22, Outcome(card_points=70, tricks=6), matadors=-1),
        s(GameType.NULL, 18, Outcome(tricks=0), ouvert=True),
        s(GameType.NULL, 18, Outcome(tricks=2)),
    )


@st.composite
def score_lists(draw):
    table_size = draw(st.sampled_from([3, 4]))
    rows = []
    for i in range(draw(st.integers(0, 24))):
        dealer = i % table_size
        scored = game_pool()[draw(st.integers(0, len(game_pool()) - 1))]
        if scored is None:
            declarer = None
        else:
            seats = [s for s in range(table_size) if not (table_size == 4 and s == dealer)]
            declarer = draw(st.sampled_from(seats))
        rows.append(ListRow(scored=scored, declarer=declarer, dealer=dealer))
    return table_size, rows


@SETTINGS
@given(score_lists(), st.sampled_from(list(ListSystem)))
def test_summary_total_is_game_points_plus_bonus(table_list, system):
    table_size, rows = table_list
    for summary in summarize_list(rows, table_size, system):
        assert summary.total == summary.game_points + summary.bonus


@SETTINGS
@given(score_lists())
def test_seeger_fabian_summary_counts_and_bonus(table_list):
    table_size, rows = table_list
    played = [r for r in rows if r.scored is not None]
    per_seat = 40 if table_size == 3 else 30
    summaries = summarize_list(rows, table_size, ListSystem.SEEGER_FABIAN)
    for seat, summary in enumerate(summaries):
        won = sum(1 for r in played if r.declarer == seat and r.scored.won)
        lost = sum(1 for r in played if r.declarer == seat and not r.scored.won)
        others_lost = sum(1 for r in played if r.declarer != seat and not r.scored.won)
        game_points = sum(r.scored.list_score for r in played if r.declarer == seat)
        assert (summary.game_points, summary.won, summary.lost, summary.others_lost) == (
            game_points,
            won,
            lost,
            others_lost,
        )
        assert summary.bonus == 50 * (won - lost) + per_seat * others_lost


@SETTINGS
@given(score_lists())
def test_seeger_fabian_total_is_the_sum_of_per_game_points(table_list):
    table_size, rows = table_list
    totals = [0] * table_size
    for r in rows:
        declarer_points, other_points = seeger_fabian(r.scored, table_size)
        for seat in range(table_size):
            totals[seat] += declarer_points if seat == r.declarer else other_points
    summaries = summarize_list(rows, table_size, ListSystem.SEEGER_FABIAN)
    assert [s.total for s in summaries] == totals


@SETTINGS
@given(score_lists())
def test_zero_sum_rows_and_totals_sum_to_zero(table_list):
    table_size, rows = table_list
    for r in rows:
        scores = row_scores(
            r.scored,
            declarer=r.declarer,
            dealer=r.dealer,
            table_size=table_size,
            system=ListSystem.ZERO_SUM,
        )
        assert sum(scores) == 0
    summaries = summarize_list(rows, table_size, ListSystem.ZERO_SUM)
    assert sum(s.total for s in summaries) == 0
    assert all(s.bonus == 0 for s in summaries)


LIST_RULES = {
    **RULE_SETS,
    "isko+ramsch": replace(RULE_SETS["isko"], ramsch=True),
    "nl+ramsch": replace(RULE_SETS["nl"], ramsch=True),
}
"""The presets, and two with Ramsch (one where the fourth player shares the dealer's)."""


@cache
def scored_pool(rules_name):
    """Declared games won, lost, overbid and null scored under ``LIST_RULES[rules_name]``
    (those it allows), and a Ramsch where it has Ramsch; index 0 is a passed-in game."""
    rules = LIST_RULES[rules_name]
    games = [
        (Declaration(GameType.HEARTS, 18, 1), Outcome(card_points=70, tricks=6)),
        (Declaration(GameType.HEARTS, 18, 1), Outcome(card_points=50, tricks=4)),
        (Declaration(GameType.GRAND, 20, -2, hand=True), Outcome(card_points=95, tricks=8)),
        (Declaration(GameType.CLUBS, 18, 3), Outcome(card_points=10, tricks=0)),
        (Declaration(GameType.DIAMONDS, 22, -1), Outcome(card_points=70, tricks=6)),
        (Declaration(GameType.NULL, 23), Outcome(tricks=0)),
        (Declaration(GameType.NULL, 23, hand=True), Outcome(tricks=2)),
    ]
    pool = []
    for declaration, outcome in games:
        with suppress(InvalidGame):
            pool.append(score_game(declaration, outcome, rules))
    if rules.ramsch:
        pool.append(score_ramsch(Ramsch((40, 50, 30), (3, 4, 3))))
    return (None, *pool)


@st.composite
def rule_set_lists(draw):
    rules_name = draw(st.sampled_from(sorted(LIST_RULES)))
    rules = LIST_RULES[rules_name]
    table_size = draw(st.sampled_from([3, 4, 5]))
    pool = scored_pool(rules_name)
    rows = []
    for i in range(draw(st.integers(0, 20))):
        dealer = i % table_size
        scored = draw(st.sampled_from(pool))
        declarer = None
        if isinstance(scored, ScoredGame):
            seats = [s for s in range(table_size) if not check_seat(s, dealer, table_size, rules)]
            declarer = draw(st.sampled_from(seats))
        rows.append(ListRow(scored=scored, declarer=declarer, dealer=dealer))
    return rules, table_size, rows


@SETTINGS
@given(rule_set_lists(), st.sampled_from(list(ListSystem)))
def test_summary_counts_are_the_sums_of_the_rows_lines(table_list, system):
    rules, table_size, rows = table_list
    sums = [[0, 0, 0, 0] for _ in range(table_size)]
    for r in rows:
        lines = row_lines(
            r.scored,
            declarer=r.declarer,
            dealer=r.dealer,
            table_size=table_size,
            system=system,
            rules=rules,
        )
        for total, line in zip(sums, lines, strict=True):
            total[:] = [a + b for a, b in zip(total, line, strict=True)]
    summaries = summarize_list(rows, table_size, system, rules)
    assert [[s.game_points, s.won, s.lost, s.others_lost] for s in summaries] == sums


# --- rank ---------------------------------------------------------------------------------------


@st.composite
def rank_inputs(draw):
    n = draw(st.integers(0, 8))
    with_lots = draw(st.booleans())
    entries = [
        RankEntry(
            total=draw(st.integers(-2, 2)) * 100,
            won=draw(st.integers(0, 2)),
            lost=draw(st.integers(0, 2)),
            lot=draw(st.integers(1, 3)) if with_lots else None,
        )
        for _ in range(n)
    ]
    order = draw(st.permutations(range(n)))
    return entries, order


def sort_key(e):
    return (-e.total, -e.won, e.lost, e.lot if e.lot is not None else 0)


@SETTINGS
@given(rank_inputs())
def test_rank_is_competition_ranking(inputs):
    entries, _ = inputs
    expected = [1 + sum(sort_key(o) < sort_key(e) for o in entries) for e in entries]
    assert rank(entries) == expected


@SETTINGS
@given(rank_inputs())
def test_rank_invariant_under_permutation(inputs):
    entries, order = inputs
    ranks = rank(entries)
    assert rank([entries[i] for i in order]) == [ranks[i] for i in order]

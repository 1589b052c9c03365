"""Hypothesis properties over every preset, random house options, table sizes 3/4/5 and Ramsch
(docs/rules.md sections 3, 6 and 8).

Outcomes come from real deals: the 32 cards are shuffled into ten tricks of three and a skat
of two, each trick goes to a player, so every card-point figure is one that can happen.
"""

from dataclasses import replace

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring import (
    ISKO,
    OPTIONS,
    RULE_SETS,
    Declaration,
    Doublings,
    FourthPlayer,
    GameType,
    InvalidGame,
    ListRow,
    ListSystem,
    LostGame,
    MatadorCount,
    Outcome,
    OuvertRule,
    OverbidRule,
    Ramsch,
    ScoredGame,
    active_seats,
    bid_values,
    check_game,
    check_ramsch,
    row_lines,
    row_scores,
    rules_from_json,
    rules_to_json,
    score_game,
    score_ramsch,
    sharing_seat,
    summarize_list,
)

SETTINGS = settings(max_examples=300, deadline=None, database=None)
LIST_SETTINGS = settings(max_examples=150, deadline=None, database=None)

# docs/rules.md section 8, written out here rather than taken from the engine
ISKO_OPTIONS = {
    "grand_base": 24,
    "matadors": MatadorCount.TRUMPS,
    "null_values": (23, 35, 46, 59),
    "doublings": Doublings.NONE,
    "ouvert": OuvertRule.ISKO,
    "schneider_at": 90,
    "lost_game": LostGame.DOUBLE,
    "overbid": OverbidRule.NEXT_MULTIPLE,
    "revolution": None,
    "fourth_player": FourthPlayer.DEALER_SITS_OUT,
    "ramsch": False,
}
PRESET_TABLE = {
    "isko": {},
    "isko-kontra": {"doublings": Doublings.KONTRA_RE},
    "pre1999": {"lost_game": LostGame.SINGLE_HAND},
    "grand20": {"grand_base": 20},
    "dsu": {
        "grand_base": 20,
        "matadors": MatadorCount.JACKS,
        "null_values": (23, None, 46, 69),
        "ouvert": OuvertRule.OPEN_PLUS_ONE,
        "schneider_at": 91,
    },
    "se": {"doublings": Doublings.KONTRA_RE, "matadors": MatadorCount.JACKS},
    "nl": {
        "lost_game": LostGame.OPPONENTS_CREDITED,
        "overbid": OverbidRule.BID,
        "revolution": 92,
        "fourth_player": FourthPlayer.SHARES_DEALER,
    },
}
CHOICES = {
    "grand_base": [24, 20],
    "matadors": list(MatadorCount),
    "null_values": [(23, 35, 46, 59), (23, None, 46, 69), (23, 29, 46, 59), (23, None, None, None)],
    "doublings": list(Doublings),
    "ouvert": list(OuvertRule),
    "schneider_at": [90, 91],
    "lost_game": list(LostGame),
    "overbid": list(OverbidRule),
    "revolution": [None, 92],
    "fourth_player": list(FourthPlayer),
    "ramsch": [False, True],
}
TRUMP_GAMES = [GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND]


@st.composite
def house_options(draw):
    names = draw(st.sets(st.sampled_from(sorted(CHOICES)), max_size=4))
    return {name: draw(st.sampled_from(CHOICES[name])) for name in sorted(names)}


@st.composite
def rule_sets(draw):
    """A preset, and now and then a few house options changed."""
    preset = draw(st.sampled_from(sorted(PRESET_TABLE)))
    options = draw(house_options()) if draw(st.booleans()) else {}
    return replace(RULE_SETS[preset], **options)


# --- presets ---------------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from(sorted(PRESET_TABLE)), house_options())
def test_a_preset_is_isko_plus_its_changes_plus_the_house_options(preset, options):
    rules = rules_from_json({"preset": preset, **_as_json(options)})
    expected = {**ISKO_OPTIONS, **PRESET_TABLE[preset], **options}
    assert {name: getattr(rules, name) for name in OPTIONS} == expected
    assert set(OPTIONS) == set(ISKO_OPTIONS)
    # the archive stores the preset and exactly the options that differ from it
    stored = rules_to_json(rules)
    differing = {n for n in OPTIONS if expected[n] != {**ISKO_OPTIONS, **PRESET_TABLE[preset]}[n]}
    if differing:
        assert stored["preset"] == preset and set(stored) - {"preset"} == differing
    else:
        assert stored == preset
    assert rules_from_json(stored) == rules


def _as_json(options):
    out = {}
    for name, value in options.items():
        if name == "null_values":
            value = "/".join("-" if v is None else str(v) for v in value)
        elif hasattr(value, "value"):
            value = value.value
        out[name] = value
    return out


# --- real deals ----------------------------------------------------------------------------------

CARD_POINTS = [11] * 4 + [10] * 4 + [4] * 4 + [3] * 4 + [2] * 4 + [0] * 12


@st.composite
def deals(draw, players=2):
    """(card points, tricks) per party of a real deal: the skat goes to party 0 (the
    declarer) when ``players`` is 2, and to the winner of the last trick in a Ramsch."""
    cards = draw(st.permutations(CARD_POINTS))
    order = draw(st.sampled_from(["shuffled", "shuffled", "low first", "high first"]))
    if order != "shuffled":  # the extremes: the skat and the last trick the richest or poorest
        cards = sorted(cards, reverse=order == "high first")
    # now and then one player takes most tricks
    favourite = draw(st.integers(0, players - 1))
    winners = [
        favourite if draw(st.integers(0, 3)) else draw(st.integers(0, players - 1))
        for _ in range(10)
    ]
    points = [0] * players
    tricks = [0] * players
    for i, winner in enumerate(winners):
        points[winner] += sum(cards[3 * i : 3 * i + 3])
        tricks[winner] += 1
    skat = cards[30] + cards[31]
    points[0 if players == 2 else winners[-1]] += skat
    return points, tricks


@st.composite
def legal_games(draw, rules):
    """A declaration the rule set allows, and an outcome of a real deal in one of the forms."""
    games = list(TRUMP_GAMES)
    if rules.null_games():
        games.append(GameType.NULL)
    if rules.revolution is not None:
        games.append(GameType.REVOLUTION)
    game = draw(st.sampled_from(games))
    doublings = draw(st.integers(0, len(rules.doubling_names)))
    flags = dict(zip(("kontra", "re", "supra", "resupra"), [True] * doublings, strict=False))
    (points, _), (tricks, _) = draw(deals())
    if game.is_trump_game:
        matadors = draw(st.integers(1, rules.most_matadors(game))) * draw(st.sampled_from([1, -1]))
        hand = draw(st.booleans())
        ouvert = draw(st.booleans()) and (hand or rules.ouvert is OuvertRule.OPEN_PLUS_ONE)
        declaration = Declaration(
            game,
            draw(st.sampled_from(bid_values(rules))),
            matadors,
            hand=hand,
            schneider_announced=hand and draw(st.booleans()),
            schwarz_announced=hand and draw(st.booleans()),
            ouvert=ouvert,
            **flags,
        )
        form = draw(st.sampled_from(["exact", "points", "flags"]))
        if form == "exact" or (form == "points" and not 23 <= points <= 119):
            outcome = Outcome(card_points=points, tricks=tricks)
        elif form == "points":
            outcome = Outcome(card_points=points)
        else:
            outcome = _flags(declaration, points, tricks, rules)
    else:
        if game is GameType.NULL:
            hand, ouvert, value = draw(st.sampled_from(rules.null_games()))
        else:
            hand, ouvert, value = draw(st.booleans()), False, rules.revolution
        bid = draw(st.sampled_from([b for b in bid_values(rules) if b <= value]))
        declaration = Declaration(game, bid, hand=hand, ouvert=ouvert, **flags)
        outcome = Outcome(tricks=tricks) if draw(st.booleans()) else Outcome(won=tricks == 0)
    return declaration, outcome


def _flags(d, points, tricks, rules):
    """The paper form of a real outcome: won = the declarer won the play."""
    isko_ouvert = d.ouvert and rules.ouvert is OuvertRule.ISKO
    schwarz_ann = d.schwarz_announced or isko_ouvert
    schneider_ann = d.schneider_announced or schwarz_ann
    won = (
        points >= 61
        and (points >= rules.schneider_at or not schneider_ann)
        and (tricks == 10 or not schwarz_ann)
    )
    return Outcome(
        won=won, schneider=points >= rules.schneider_at or points <= 30, schwarz=tricks in (0, 10)
    )


@st.composite
def rules_and_game(draw):
    rules = draw(rule_sets())
    return rules, *draw(legal_games(rules))


@SETTINGS
@given(rules_and_game())
def test_check_game_finds_no_problem_in_a_legal_game(case):
    rules, declaration, outcome = case
    assert check_game(declaration, outcome, rules) == []
    scored = score_game(declaration, outcome, rules)
    assert scored.warnings == ()
    # the steps count one level each, up to the level the game counts where nothing raised it
    counts = [count for _code, count in scored.steps]
    if counts:
        assert counts == list(range(counts[0], counts[0] + len(counts)))
        if not scored.overbid and not scored.added_level:
            assert scored.level == counts[-1]


@SETTINGS
@given(rules_and_game())
def test_exact_and_paper_forms_of_a_legal_game_score_alike(case):
    rules, declaration, outcome = case
    if not declaration.game.is_trump_game or outcome.card_points is None:
        return
    cp, tricks = outcome.card_points, outcome.tricks
    if tricks is None:
        return
    by_points = score_game(declaration, outcome, rules)
    by_flags = score_game(declaration, _flags(declaration, cp, tricks, rules), rules)
    assert by_points == by_flags


# --- nothing but InvalidGame ---------------------------------------------------------------------

small_ints = st.none() | st.integers(-3, 125) | st.integers()
flags = st.booleans()


@st.composite
def any_games(draw):
    declaration = Declaration(
        game=draw(st.sampled_from(list(GameType))),
        bid=draw(st.sampled_from(bid_values(ISKO)) | st.integers()),
        matadors=draw(st.none() | st.integers(-13, 13)),
        hand=draw(flags),
        schneider_announced=draw(flags),
        schwarz_announced=draw(flags),
        ouvert=draw(flags),
        kontra=draw(flags),
        re=draw(flags),
        supra=draw(flags),
        resupra=draw(flags),
    )
    outcome = Outcome(
        card_points=draw(small_ints),
        tricks=draw(st.none() | st.integers(-2, 12)),
        won=draw(st.none() | flags),
        schneider=draw(st.none() | flags),
        schwarz=draw(st.none() | flags),
    )
    return declaration, outcome


@settings(max_examples=600, deadline=None, database=None)
@given(rule_sets(), any_games())
def test_the_engine_raises_nothing_but_invalid_game(rules, game):
    declaration, outcome = game
    problems = check_game(declaration, outcome, rules)
    try:
        scored = score_game(declaration, outcome, rules)
    except InvalidGame as invalid:
        assert invalid.problems
        assert set(invalid.problems) == {p for p in problems if not p.warning}
    else:
        assert isinstance(scored, ScoredGame)
        assert all(p.warning for p in problems)


# --- zero-sum rows ---------------------------------------------------------------------------


@st.composite
def ramsch_entries(draw):
    points, tricks = draw(deals(players=3))
    return Ramsch(tuple(points), tuple(tricks))


@settings(max_examples=1000, deadline=None, database=None)
@given(ramsch_entries())
@example(Ramsch((66, 54, 0), (9, 1, 0)))  # the last trick with the skat: four aces and a ten
@example(Ramsch((42, 48, 30), (8, 1, 1)))
def test_every_real_ramsch_passes_the_entry_check(ramsch):
    assert check_ramsch(ramsch) == []
    score = score_ramsch(ramsch)
    assert len(score.points) == 3


@st.composite
def list_rows(draw, rules, size):
    """Rows of a list at a table of ``size``: passed, declared (by a seat that plays) or
    Ramsch where the rule set has it."""
    rows = []
    for i in range(draw(st.integers(1, 12))):
        dealer = i % size
        kind = draw(st.sampled_from(["game", "game", "passed"] + ["ramsch"] * rules.ramsch))
        if kind == "passed":
            rows.append(ListRow(None, None, dealer))
        elif kind == "ramsch":
            rows.append(ListRow(score_ramsch(draw(ramsch_entries())), None, dealer))
        else:
            declaration, outcome = draw(legal_games(rules))
            declarer = draw(st.sampled_from(active_seats(dealer, size, rules)))
            rows.append(ListRow(score_game(declaration, outcome, rules), declarer, dealer))
    return rows


@st.composite
def zero_sum_lists(draw):
    rules = draw(rule_sets())
    size = draw(st.sampled_from([3, 4, 5]))
    return rules, size, draw(list_rows(rules, size))


@LIST_SETTINGS
@given(zero_sum_lists())
def test_every_zero_sum_row_sums_to_zero(case):
    # "every row sums to zero"; "shares-dealer: ... a zero-sum row then sums to the dealer's
    # points, not to zero"
    rules, size, rows = case
    expected_total = 0
    for row in rows:
        scores = row_scores(
            row.scored,
            declarer=row.declarer,
            dealer=row.dealer,
            table_size=size,
            system=ListSystem.ZERO_SUM,
            rules=rules,
        )
        sharer = sharing_seat(row.dealer, size, rules)
        if sharer is None:
            assert sum(scores) == 0
        else:
            assert size == 4 and rules.fourth_player is FourthPlayer.SHARES_DEALER
            assert sum(scores) == scores[row.dealer] == scores[sharer]
            expected_total += scores[row.dealer]
    summaries = summarize_list(rows, size, ListSystem.ZERO_SUM, rules)
    assert sum(s.total for s in summaries) == expected_total
    assert all(s.bonus == 0 for s in summaries)


@LIST_SETTINGS
@given(zero_sum_lists())
def test_zero_sum_declarer_gets_the_value_or_pays_the_charge_from_each_settler(case):
    rules, size, rows = case
    for row in rows:
        if not isinstance(row.scored, ScoredGame):
            continue
        g = row.scored
        lines = row_lines(
            g,
            declarer=row.declarer,
            dealer=row.dealer,
            table_size=size,
            system=ListSystem.ZERO_SUM,
            rules=rules,
        )
        sharer = sharing_seat(row.dealer, size, rules)
        settlers = [s for s in range(size) if s not in (row.declarer, sharer)]
        # the charge: the value won; lost, the value under double/single-hand, add-level's
        # raised value (g.value), or the credit each opponent gets
        if g.won:
            per_settler = g.value
        elif rules.lost_game is LostGame.OPPONENTS_CREDITED:
            per_settler = -g.opponents_list_score
        else:
            per_settler = -g.value
        assert lines[row.declarer][0] == per_settler * len(settlers)
        for seat in settlers:
            assert lines[seat][0] == -per_settler

"""Score sheets: Seeger-Fabian, classic, zero-sum, dealer, ranking (docs/rules.md 4-6)."""

import itertools

import pytest

from scoring import (
    Declaration,
    GameType,
    ListRow,
    ListSystem,
    Outcome,
    RankEntry,
    dealer_seat,
    rank,
    row_scores,
    score_game,
    seeger_fabian,
    summarize_list,
)

D, H, S, C, G, N = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
    GameType.NULL,
)
SF, CLASSIC, ZERO_SUM = ListSystem.SEEGER_FABIAN, ListSystem.CLASSIC, ListSystem.ZERO_SUM


def won(game, matadors=None, **kw):
    """A won game, bid 18, won 70:50 (null: no trick)."""
    outcome = Outcome(tricks=0) if game == N else Outcome(card_points=70, tricks=6)
    scored = score_game(Declaration(game=game, bid=18, matadors=matadors, **kw), outcome)
    assert scored.won
    return scored


def lost(game, matadors):
    """A lost game, not hand, bid 18, declarer 50 points: list -2 x value."""
    outcome = Outcome(card_points=50, tricks=4)
    scored = score_game(Declaration(game=game, bid=18, matadors=matadors), outcome)
    assert not scored.won
    return scored


def overbid_diamonds():
    # diamonds without 1 (18) bid 22 -> lost, charged 27
    return score_game(Declaration(game=D, bid=22, matadors=-1), Outcome(card_points=70, tricks=6))


def summary_tuple(s):
    return (s.game_points, s.won, s.lost, s.others_lost, s.bonus, s.total)


# --- Seeger-Fabian per game -------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "table_size", "expected"),
    [
        pytest.param(lambda: won(H, 1), 3, (70, 0), id="won hearts 20 -> 20+50=70, others 0"),
        pytest.param(lambda: won(H, 1), 4, (70, 0), id="won hearts 20 at a 4-table -> 70, 0"),
        pytest.param(
            lambda: score_game(
                Declaration(game=G, bid=18, matadors=4, hand=True, ouvert=True),
                Outcome(card_points=120, tricks=10),
            ),
            3,
            (314, 0),
            id="won grand ouvert 264 -> 264+50=314, 0",
        ),
        pytest.param(
            lambda: lost(H, 1),
            3,
            (-90, 40),
            id="lost hearts 20 at a 3-table -> -40-50=-90, others +40",
        ),
        pytest.param(
            lambda: lost(H, 1), 4, (-90, 30), id="lost hearts 20 at a 4-table -> -90, others +30"
        ),
        pytest.param(
            overbid_diamonds,
            3,
            (-104, 40),
            id="overbid diamonds charged 27 -> -54-50=-104, others +40",
        ),
        pytest.param(
            overbid_diamonds, 4, (-104, 30), id="overbid diamonds at a 4-table -> -104, others +30"
        ),
        pytest.param(lambda: None, 3, (0, 0), id="passed in at a 3-table -> 0, 0"),
        pytest.param(lambda: None, 4, (0, 0), id="passed in at a 4-table -> 0, 0"),
    ],
)
def test_seeger_fabian_per_game(make, table_size, expected):
    assert seeger_fabian(make(), table_size) == expected


# --- dealer -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_number", "table_size", "seat"),
    [
        pytest.param(1, 3, 0, id="3-table game 1: seat 1 deals"),
        pytest.param(2, 3, 1, id="3-table game 2"),
        pytest.param(3, 3, 2, id="3-table game 3"),
        pytest.param(4, 3, 0, id="3-table game 4: back to seat 1"),
        pytest.param(36, 3, 2, id="3-table game 36"),
        pytest.param(1, 4, 0, id="4-table game 1"),
        pytest.param(2, 4, 1, id="4-table game 2"),
        pytest.param(4, 4, 3, id="4-table game 4"),
        pytest.param(5, 4, 0, id="4-table game 5"),
        pytest.param(47, 4, 2, id="4-table game 47"),
        pytest.param(48, 4, 3, id="4-table game 48"),
    ],
)
def test_dealer_seat(game_number, table_size, seat):
    assert dealer_seat(game_number, table_size) == seat


# --- one row of the list ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "declarer", "dealer", "table_size", "system", "expected"),
    [
        pytest.param(lambda: won(H, 1), 1, 0, 3, CLASSIC, (0, 20, 0), id="classic 3-table won 20"),
        pytest.param(
            lambda: lost(H, 1), 1, 0, 3, CLASSIC, (0, -40, 0), id="classic 3-table lost 20 -> -40"
        ),
        pytest.param(
            lambda: lost(H, 1),
            2,
            0,
            4,
            CLASSIC,
            (0, 0, -40, 0),
            id="classic 4-table lost -> sitting-out dealer 0",
        ),
        pytest.param(
            lambda: lost(H, 1),
            2,
            0,
            4,
            SF,
            (0, 0, -40, 0),
            id="seeger-fabian rows hold the list scores",
        ),
        pytest.param(
            lambda: won(H, 1),
            1,
            0,
            3,
            ZERO_SUM,
            (-20, 40, -20),
            id="zero-sum 3-table won 20 -> declarer 2x20=40, others -20",
        ),
        pytest.param(
            lambda: lost(H, 1),
            1,
            0,
            3,
            ZERO_SUM,
            (20, -40, 20),
            id="zero-sum 3-table lost 20: each settling player is paid 20 once -> -40, +20, +20",
        ),
        pytest.param(
            lambda: won(H, 1),
            2,
            0,
            4,
            ZERO_SUM,
            (-20, -20, 60, -20),
            id="zero-sum 4-table won 20 -> declarer 3x20=60, dealer pays too",
        ),
        pytest.param(
            lambda: lost(H, 1),
            2,
            0,
            4,
            ZERO_SUM,
            (20, 20, -60, 20),
            id="zero-sum 4-table lost 20: three settle (dealer too) -> -3x20=-60, others +20",
        ),
        pytest.param(lambda: None, None, 0, 3, ZERO_SUM, (0, 0, 0), id="passed in: all 0"),
        pytest.param(lambda: None, None, 1, 4, SF, (0, 0, 0, 0), id="passed in 4-table: all 0"),
    ],
)
def test_row_scores(make, declarer, dealer, table_size, system, expected):
    assert (
        row_scores(make(), declarer=declarer, dealer=dealer, table_size=table_size, system=system)
        == expected
    )


# --- the published sheets (docs/rules.md section 5) -------------------------------------


def four_table_games():
    """Per seat the games declared; list scores summed by hand in the comments."""
    return [
        # A: 4x48 + 6x36 + 40 + 44 = 192 + 216 + 84 = +492, 12 won, 0 lost
        [won(G, 1)] * 4 + [won(C, 2)] * 6 + [won(H, 3), won(S, 3)],
        # B: 6x72 + 6x46 - 2x40 = 432 + 276 - 80 = +628, 12 won, 2 lost
        [won(G, 2)] * 6 + [won(N, ouvert=True)] * 6 + [lost(H, 1)] * 2,
        # C: 5x96 + 4x48 + 36 - 48 = 480 + 192 + 36 - 48 = +660, 10 won, 1 lost
        [won(G, 3)] * 5 + [won(G, 1)] * 4 + [won(C, 2), lost(C, 1)],
        # D: 2x20 + 4x27 - 5x36 = 40 + 108 - 180 = -32, 6 won, 5 lost
        [won(H, 1)] * 2 + [won(D, 2)] * 4 + [lost(D, 1)] * 5,
    ]


def three_table_games():
    return [
        # 15x24 + 3x55 + 2x45 - 4x40 = 360 + 165 + 90 - 160 = +455, 20 won, 4 lost
        [won(C, 1)] * 15 + [won(S, 4)] * 3 + [won(D, 4)] * 2 + [lost(H, 1)] * 4,
        # 8x48 + 2x72 + 2x40 = 384 + 144 + 80 = +608, 12 won, 0 lost
        [won(G, 1)] * 8 + [won(G, 2)] * 2 + [won(H, 3)] * 2,
        # 2x120 + 6x35 + 36 = 240 + 210 + 36 = +486, 9 won, 0 lost
        [won(G, 4)] * 2 + [won(N, hand=True)] * 6 + [won(C, 2)],
    ]


def seat_rows(games_per_seat, table_size):
    """Lay the games out as list rows, dealing in turn; at a 4-table the dealer
    never declares (each game goes to the non-dealer with most games left)."""
    queues = [list(games) for games in games_per_seat]
    rows = []
    for number in range(1, sum(map(len, queues)) + 1):
        dealer = (number - 1) % table_size
        seats = [
            s for s in range(table_size) if queues[s] and not (table_size == 4 and s == dealer)
        ]
        declarer = max(seats, key=lambda s: (len(queues[s]), -s))
        rows.append(ListRow(scored=queues[declarer].pop(0), declarer=declarer, dealer=dealer))
    assert not any(queues)
    return rows


def test_published_4_table_sheet():
    # 48 games; O = 8 games lost in all minus one's own losses; bonus 50(W-L) + 30 O
    summaries = summarize_list(seat_rows(four_table_games(), 4), 4, SF)
    assert [summary_tuple(s) for s in summaries] == [
        (492, 12, 0, 8, 840, 1332),  # 50x12 + 30x8 = 840
        (628, 12, 2, 6, 680, 1308),  # 50x10 + 30x6 = 680
        (660, 10, 1, 7, 660, 1320),  # 50x9 + 30x7 = 660
        (-32, 6, 5, 3, 140, 108),  # 50x1 + 30x3 = 140
    ]


def test_published_3_table_sheet():
    # 45 games; 4 lost in all; bonus 50(W-L) + 40 O
    summaries = summarize_list(seat_rows(three_table_games(), 3), 3, SF)
    assert [summary_tuple(s) for s in summaries] == [
        (455, 20, 4, 0, 800, 1255),  # 50x16 = 800
        (608, 12, 0, 4, 760, 1368),  # 50x12 + 40x4 = 760
        (486, 9, 0, 4, 610, 1096),  # 50x9 + 40x4 = 610
    ]


def test_published_4_table_sheet_classic_has_no_bonus():
    summaries = summarize_list(seat_rows(four_table_games(), 4), 4, CLASSIC)
    assert [(s.game_points, s.bonus, s.total) for s in summaries] == [
        (492, 0, 492),
        (628, 0, 628),
        (660, 0, 660),
        (-32, 0, -32),
    ]


def test_published_4_table_sheet_zero_sum():
    # A lost game costs its value once to each settling player (docs/rules.md section 8).
    # Each seat: 3 x (own won values - own lost values) - others' won + others' lost.
    # Won values: A 492, B 432+276=708, C 480+192+36=708, D 40+108=148 (sum 2056);
    # lost values: A 0, B 2x20=40, C 24, D 5x18=90 (sum 154).
    summaries = summarize_list(seat_rows(four_table_games(), 4), 4, ZERO_SUM)
    assert [(s.game_points, s.bonus, s.total) for s in summaries] == [
        (66, 0, 66),  # 1476 - 0 - 1564 + 154
        (770, 0, 770),  # 2124 - 120 - 1348 + 114
        (834, 0, 834),  # 2124 - 72 - 1348 + 130
        (-1670, 0, -1670),  # 444 - 270 - 1908 + 64
    ]


def test_published_3_table_sheet_zero_sum():
    # Each seat: 2 x (own won values - own lost values) - others' won + others' lost.
    # Won values 615 (360+165+90), 608, 486 (sum 1709); lost values 4x20 = 80, 0, 0.
    summaries = summarize_list(seat_rows(three_table_games(), 3), 3, ZERO_SUM)
    assert [(s.game_points, s.bonus, s.total) for s in summaries] == [
        (-24, 0, -24),  # 1230 - 160 - 1094 + 0
        (195, 0, 195),  # 1216 - 1101 + 80
        (-171, 0, -171),  # 972 - 1223 + 80
    ]


def test_published_totals_rank():
    four = [
        RankEntry(1332, 12, 0),
        RankEntry(1308, 12, 2),
        RankEntry(1320, 10, 1),
        RankEntry(108, 6, 5),
    ]
    three = [RankEntry(1255, 20, 4), RankEntry(1368, 12, 0), RankEntry(1096, 9, 0)]
    assert (rank(four), rank(three)) == ([1, 3, 2, 4], [2, 1, 3])


# --- small lists ------------------------------------------------------------------------


def test_sitting_out_dealer_gets_others_lost_credit():
    # 4-table, seat 0 deals and sits out, seat 1 loses hearts with 1 (list -40)
    rows = [ListRow(scored=lost(H, 1), declarer=1, dealer=0)]
    assert [summary_tuple(s) for s in summarize_list(rows, 4, SF)] == [
        (0, 0, 0, 1, 30, 30),
        (-40, 0, 1, 0, -50, -90),
        (0, 0, 0, 1, 30, 30),
        (0, 0, 0, 1, 30, 30),
    ]


def small_3_table_rows():
    return [
        ListRow(scored=won(H, 1), declarer=1, dealer=0),  # +20
        ListRow(scored=lost(C, 1), declarer=2, dealer=1),  # -48
        ListRow(scored=None, declarer=None, dealer=2),  # passed in
    ]


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        pytest.param(
            SF, [(0, 40, 40), (20, 90, 110), (-48, -50, -98)], id="seeger-fabian: 40 O; 50+40; -50"
        ),
        pytest.param(CLASSIC, [(0, 0, 0), (20, 0, 20), (-48, 0, -48)], id="classic"),
        pytest.param(
            ZERO_SUM,
            [(4, 0, 4), (64, 0, 64), (-68, 0, -68)],
            id="zero-sum: -20+24; 40+24; -20-48",
        ),
    ],
)
def test_small_list_by_system(system, expected):
    summaries = summarize_list(small_3_table_rows(), 3, system)
    assert [(s.game_points, s.bonus, s.total) for s in summaries] == expected


def test_small_list_counts():
    summaries = summarize_list(small_3_table_rows(), 3, SF)
    assert [(s.won, s.lost, s.others_lost) for s in summaries] == [
        (0, 0, 1),
        (1, 0, 1),
        (0, 1, 0),
    ]


def test_seeger_fabian_total_is_the_sum_of_per_game_points():
    # seat 0: 0 + 40 = 40; seat 1: 70 + 40 = 110; seat 2: 0 - 98 = -98
    summaries = summarize_list(small_3_table_rows(), 3, SF)
    assert [s.total for s in summaries] == [40, 110, -98]


# --- rank -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "ranks"),
    [
        pytest.param([(100, 0, 0), (300, 0, 0), (200, 0, 0)], [3, 1, 2], id="total descending"),
        pytest.param([(99, 20, 0), (100, 0, 10)], [2, 1], id="total before games won"),
        pytest.param([(100, 5, 0), (100, 6, 0)], [2, 1], id="tie: more games won first"),
        pytest.param([(100, 5, 0), (100, 6, 3)], [2, 1], id="games won before games lost"),
        pytest.param([(100, 5, 2), (100, 5, 1)], [2, 1], id="tie: fewer games lost first"),
        pytest.param([(100, 5, 1, 2), (100, 5, 1, 1)], [2, 1], id="tie: lower lot first"),
        pytest.param([(100, 5, 1, 1), (100, 6, 1, 2)], [2, 1], id="lot only after won/lost"),
        pytest.param(
            [(300, 1, 0), (200, 1, 0), (200, 1, 0), (100, 1, 0)],
            [1, 2, 2, 4],
            id="shared ranks 1,2,2,4",
        ),
        pytest.param(
            [(100, 5, 1), (100, 5, 1), (90, 5, 1)], [1, 1, 3], id="no lot drawn: shared first place"
        ),
        pytest.param([], [], id="empty"),
    ],
)
def test_rank(entries, ranks):
    assert rank([RankEntry(*e) for e in entries]) == ranks


def test_rank_does_not_depend_on_input_order():
    entries = [
        RankEntry(300, 1, 0),
        RankEntry(200, 2, 0),
        RankEntry(200, 2, 0),
        RankEntry(200, 1, 0),
        RankEntry(200, 1, 1),
        RankEntry(100, 1, 0),
    ]
    expected = [1, 2, 2, 4, 5, 6]
    for order in itertools.permutations(range(len(entries))):
        assert rank([entries[i] for i in order]) == [expected[i] for i in order]

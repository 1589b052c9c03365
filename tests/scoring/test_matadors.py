"""matadors_from_cards: Spitzen over hand + skat (docs/rules.md section 1, ISkO 2.4)."""

import pytest

from scoring import CardError, GameType, matadors_from_cards

D, H, S, C, G, N, R = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
    GameType.NULL,
    GameType.REVOLUTION,
)

JACKS = ["CJ", "SJ", "HJ", "DJ"]
RANKS_BELOW_JACKS = ["A", "10", "K", "Q", "9", "8", "7"]
SUIT_LETTER = {C: "C", S: "S", H: "H", D: "D"}
ALL_CARDS = JACKS + [s + r for s in "CSHD" for r in RANKS_BELOW_JACKS]


def trumps(game):
    """Trumps from the top: jacks, then A 10 K Q 9 8 7 of the trump suit."""
    if game == G:
        return list(JACKS)
    return JACKS + [SUIT_LETTER[game] + r for r in RANKS_BELOW_JACKS]


def deal(game, held, skat=None):
    """10 hand cards holding `held` (plus non-trumps), and a 2-card skat.

    `skat` defaults to two non-trumps; the fillers never touch the trump run.
    """
    skat = list(skat or [])
    fillers = [c for c in ALL_CARDS if c not in trumps(game) and c not in held + skat]
    hand = list(held) + fillers[: 10 - len(held)]
    fillers = fillers[10 - len(held) :]
    skat += fillers[: 2 - len(skat)]
    assert len(hand) == 10 and len(skat) == 2 and len(set(hand + skat)) == 12
    return hand, skat


def _run_cases():
    for game, names in ((G, "grand"), (H, "hearts"), (C, "clubs"), (S, "spades"), (D, "diamonds")):
        top = trumps(game)
        for n in range(1, len(top)):
            # with n: the top n trumps, not the next one
            yield pytest.param(game, top[:n], None, n, id=f"{names} with {n}")
            # without n: not the top n, but the next one
            yield pytest.param(game, [top[n]], None, -n, id=f"{names} without {n}")
        n = len(top)
        if n == 11:  # 12 cards hold all 11 trumps: the last one lies in the skat
            yield pytest.param(game, top[:10], [top[10]], n, id=f"{names} with {n} (all trumps)")
        else:
            yield pytest.param(game, top, None, n, id=f"{names} with {n} (all trumps)")
        yield pytest.param(game, [], None, -n, id=f"{names} without {n} (no trump)")


@pytest.mark.parametrize(("game", "held", "skat", "matadors"), list(_run_cases()))
def test_matadors_in_the_hand(game, held, skat, matadors):
    hand, skat = deal(game, held, skat=skat)
    assert matadors_from_cards(hand, skat, game) == matadors


@pytest.mark.parametrize(
    ("game", "held", "skat", "matadors"),
    [
        pytest.param(
            G,
            ["HJ"],
            ["CJ", "D7"],
            1,
            id="grand: without 2 on the hand, club jack in skat -> with 1",
        ),
        pytest.param(
            H,
            ["HJ", "HA"],
            ["CJ", "D7"],
            1,
            id="hearts: without 2 on the hand, club jack in skat -> with 1",
        ),
        pytest.param(
            G,
            ["CJ", "SJ"],
            ["HJ", "D7"],
            3,
            id="grand: with 2 on the hand, heart jack in skat -> with 3",
        ),
        pytest.param(
            G,
            ["CJ", "SJ", "HJ"],
            ["DJ", "D7"],
            4,
            id="grand: with 3 on the hand, diamond jack in skat -> with 4",
        ),
        pytest.param(
            S,
            ["DJ"],
            ["CJ", "D7"],
            1,
            id="spades: without 3 on the hand, club jack in skat -> with 1",
        ),
        pytest.param(
            G,
            ["DJ"],
            ["SJ", "D7"],
            -1,
            id="grand: without 3 on the hand, spade jack in skat -> without 1",
        ),
        pytest.param(
            G,
            [],
            ["DJ", "D7"],
            -3,
            id="grand: no jack on the hand, diamond jack in skat -> without 3",
        ),
        pytest.param(
            C,
            ["CJ", "SJ", "HJ", "DJ"],
            ["CA", "D7"],
            5,
            id="clubs: 4 jacks on the hand, club ace in skat -> with 5",
        ),
    ],
)
def test_skat_counts_for_matadors(game, held, skat, matadors):
    hand, skat = deal(game, held, skat=skat)
    assert matadors_from_cards(hand, skat, game) == matadors


HEARTS_WITH_6 = ["CJ", "SJ", "HJ", "DJ", "HA", "H10"]  # and not HK -> with 6


@pytest.mark.parametrize(
    "ten_of_hearts",
    ["H10", "HT", "h10", "ht", "hT", "♥10", "♥T", "♥t"],
)
def test_notation_of_the_ten(ten_of_hearts):
    hand, skat = deal(H, HEARTS_WITH_6)
    hand[hand.index("H10")] = ten_of_hearts
    assert matadors_from_cards(hand, skat, H) == 6


@pytest.mark.parametrize("club_jack", ["CJ", "cj", "Cj", "cJ", "♣J", "♣j"])
def test_notation_of_the_club_jack(club_jack):
    hand, skat = deal(G, ["CJ", "SJ"])  # with 2 in grand
    hand[hand.index("CJ")] = club_jack
    assert matadors_from_cards(hand, skat, G) == 2


def test_suit_symbols_throughout():
    symbols = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
    hand, skat = deal(S, ["CJ", "SJ", "HJ", "DJ", "SA", "S10", "SK"])  # with 7 in spades
    hand = [symbols[c[0]] + c[1:] for c in hand]
    skat = [symbols[c[0]] + c[1:] for c in skat]
    assert matadors_from_cards(hand, skat, S) == 7


# --- errors -------------------------------------------------------------------------


def _hand_with(first):
    hand, skat = deal(G, [])
    return [first] + hand[1:], skat


@pytest.mark.parametrize(
    ("hand", "skat", "game", "code"),
    [
        pytest.param(
            ["CJ", "CJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA"],
            ["H10", "HK"],
            G,
            "card_duplicate",
            id="duplicate in the hand",
        ),
        pytest.param(
            ["CJ", "SJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA"],
            ["CJ", "HK"],
            G,
            "card_duplicate",
            id="duplicate between hand and skat",
        ),
        pytest.param(
            ["CJ", "SJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA"],
            ["H10", "HT"],
            G,
            "card_duplicate",
            id="H10 and HT are the same card",
        ),
        pytest.param(
            ["CJ", "SJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7"],
            ["H10", "HK"],
            G,
            "hand_size",
            id="9 cards in the hand",
        ),
        pytest.param(
            ["CJ", "SJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA", "HQ"],
            ["H10", "HK"],
            G,
            "hand_size",
            id="11 cards in the hand",
        ),
        pytest.param(
            ["CJ", "SJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA"],
            ["H10"],
            G,
            "skat_size",
            id="1 card in the skat",
        ),
        pytest.param(
            ["CJ", "SJ", "SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA"],
            ["H10", "HK", "HQ"],
            G,
            "skat_size",
            id="3 cards in the skat",
        ),
        pytest.param(*_hand_with("C6"), G, "card_unknown", id="no sixes in skat"),
        pytest.param(*_hand_with("XJ"), G, "card_unknown", id="unknown suit"),
        pytest.param(*_hand_with("H11"), G, "card_unknown", id="unknown rank"),
        pytest.param(*_hand_with(""), G, "card_unknown", id="empty string"),
        pytest.param(*_hand_with("CJJ"), G, "card_unknown", id="trailing garbage"),
        pytest.param(*deal(G, ["CJ"]), N, "game_has_no_matadors", id="null"),
        pytest.param(*deal(G, ["CJ"]), R, "game_has_no_matadors", id="revolution"),
    ],
)
def test_card_errors(hand, skat, game, code):
    with pytest.raises(CardError) as info:
        matadors_from_cards(hand, skat, game)
    assert info.value.code == code


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)

"""Legal bids (Reizwerte): every value a game can have (docs/rules.md sections 1-2)."""

import pytest

from scoring import bid_values, get_rules, is_legal_bid

# suit values: base x level, level 2 (with/without 1, game) .. 18 (with 11 ouvert);
# grand: 24 x 2 .. 24 x 11 (with 4 ouvert); null: 23, 35, 46, 59.
ISKO_VALUES = (
    {base * level for base in (9, 10, 11, 12) for level in range(2, 19)}
    | {24 * level for level in range(2, 12)}
    | {23, 35, 46, 59}
)


def test_bid_values_start():
    assert bid_values()[:20] == (
        18,
        20,
        22,
        23,
        24,
        27,
        30,
        33,
        35,
        36,
        40,
        44,
        45,
        46,
        48,
        50,
        54,
        55,
        59,
        60,
    )


def test_bid_values_end_with_grand_ouvert_with_4():
    # 11 x 24 = 264, the highest value in the game
    assert bid_values()[-1] == 264


def test_bid_values_are_strictly_ascending():
    values = bid_values()
    assert all(a < b for a, b in zip(values, values[1:], strict=False))


def test_bid_values_are_exactly_the_reachable_game_values():
    assert set(bid_values()) == ISKO_VALUES


@pytest.mark.parametrize(
    "bid",
    [
        pytest.param(18, id="18 diamonds with 1"),
        pytest.param(23, id="23 null"),
        pytest.param(35, id="35 null hand"),
        pytest.param(59, id="59 null ouvert hand"),
        pytest.param(162, id="162 = 18x9 diamonds with 11 ouvert"),
        pytest.param(180, id="180 = 18x10"),
        pytest.param(198, id="198 = 18x11"),
        pytest.param(216, id="216 = 18x12"),
        pytest.param(240, id="240 = 10x24 grand"),
        pytest.param(264, id="264 = 11x24 grand ouvert with 4"),
    ],
)
def test_legal_bid(bid):
    assert is_legal_bid(bid) is True


@pytest.mark.parametrize(
    "bid",
    [
        pytest.param(0, id="0"),
        pytest.param(17, id="17"),
        pytest.param(19, id="19"),
        pytest.param(21, id="21"),
        pytest.param(25, id="25"),
        pytest.param(26, id="26"),
        pytest.param(69, id="69 = 3x23 is no isko game value"),
        pytest.param(171, id="171 = 19x9 needs level 19"),
        pytest.param(228, id="228 = 19x12 needs level 19"),
        pytest.param(252, id="252 = 21x12 needs level 21"),
        pytest.param(265, id="265"),
        pytest.param(288, id="288 = 12x24 needs grand level 12"),
    ],
)
def test_illegal_bid(bid):
    assert is_legal_bid(bid) is False


@pytest.mark.parametrize("name", ["grand20", "dsu"])
def test_grand_20_rule_sets_end_at_220(name):
    # grand base 20: the highest game is 11 x 20 = 220 (docs/rules.md section 8)
    assert bid_values(get_rules(name))[-1] == 220


@pytest.mark.parametrize(
    ("bid", "legal"),
    [
        pytest.param(200, True, id="200 = 10x20 grand"),
        pytest.param(220, True, id="220 = 11x20 grand"),
        pytest.param(240, False, id="240: no grand 24 any more, 20x12 needs level 20"),
        pytest.param(264, False, id="264: no grand 24 any more"),
    ],
)
def test_grand20_bids(bid, legal):
    assert is_legal_bid(bid, get_rules("grand20")) is legal

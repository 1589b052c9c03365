"""Rule options and presets (docs/rules.md section 8), each option on its own and in its presets.

Expectations are worked out by hand from docs/rules.md and the seeds' sentences, quoted where a
seed gives the number.
"""

from dataclasses import replace

import pytest

from scoring import (
    ISKO,
    RULE_SETS,
    Declaration,
    Doublings,
    FourthPlayer,
    GameType,
    LostGame,
    MatadorCount,
    Outcome,
    OuvertRule,
    OverbidRule,
    Problem,
    RulesError,
    bid_values,
    check_game,
    is_legal_bid,
    matadors_from_cards,
    rules_from_json,
    rules_to_json,
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
WON, LOST = Outcome(card_points=70), Outcome(card_points=50)


def decl(game, bid=18, **kw):
    return Declaration(game=game, bid=bid, **kw)


def rules(preset="isko", **options):
    return replace(RULE_SETS[preset], **options)


def scored(rule_set, declaration, outcome):
    g = score_game(declaration, outcome, rule_set)
    return g.won, g.value, g.list_score


def errors(rule_set, declaration, outcome):
    return [p for p in check_game(declaration, outcome, rule_set) if not p.warning]


# --- presets: isko plus exactly the listed changes ------------------------------------------

# Written from docs/rules.md section 8's preset table, not from the engine.
ISKO_OPTIONS = {
    "grand_base": 24,
    "matadors": "trumps",
    "null_values": (23, 35, 46, 59),
    "doublings": "none",
    "ouvert": "isko",
    "schneider_at": 90,
    "lost_game": "double",
    "overbid": "next-multiple",
    "revolution": None,
    "fourth_player": "dealer-sits-out",
    "ramsch": False,
}
PRESET_TABLE = {
    "isko": {},
    "isko-kontra": {"doublings": "kontra-re"},
    "pre1999": {"lost_game": "single-hand"},
    "grand20": {"grand_base": 20},
    "dsu": {
        "grand_base": 20,
        "matadors": "jacks",
        "null_values": (23, None, 46, 69),
        "ouvert": "open-plus-one",
        "schneider_at": 91,
    },
    "se": {"doublings": "kontra-re", "matadors": "jacks"},
    "nl": {
        "lost_game": "opponents-credited",
        "overbid": "bid",
        "revolution": 92,
        "fourth_player": "shares-dealer",
    },
}


@pytest.mark.parametrize("preset", sorted(PRESET_TABLE))
def test_preset_is_isko_plus_its_listed_changes(preset):
    rule_set = RULE_SETS[preset]
    actual = {name: getattr(rule_set, name) for name in ISKO_OPTIONS}
    assert actual == {**ISKO_OPTIONS, **PRESET_TABLE[preset]}
    assert rule_set.name == preset


def test_the_presets_are_exactly_those_of_the_table():
    assert set(RULE_SETS) == set(PRESET_TABLE)


@pytest.mark.parametrize(
    ("stored", "options"),
    [
        pytest.param("se", {}, id="a plain preset name"),
        pytest.param(
            {"preset": "se", "lost_game": "add-level"},
            {"lost_game": LostGame.ADD_LEVEL},
            id="the archive's example",
        ),
        pytest.param(
            {"preset": "se", "lost_game": "add-level", "ramsch": True},
            {"lost_game": LostGame.ADD_LEVEL, "ramsch": True},
            id="add-level and ramsch, the Swedish house options",
        ),
        pytest.param(
            {"preset": "nl", "null_values": "23/29/46/59"},
            {"null_values": (23, 29, 46, 59)},
            id="Dutch null hand 29",
        ),
        pytest.param(
            {"preset": "isko", "doublings": "kontra-re-supra-resupra", "ouvert": "open-plus-one"},
            {"doublings": Doublings.SUPRA, "ouvert": OuvertRule.OPEN_PLUS_ONE},
            id="supra and open play on isko",
        ),
    ],
)
def test_rules_json_round_trip(stored, options):
    preset = stored if isinstance(stored, str) else stored["preset"]
    rule_set = rules_from_json(stored)
    assert rule_set == replace(RULE_SETS[preset], **options)
    assert rules_to_json(rule_set) == stored


def test_an_option_set_back_to_the_presets_value_is_not_a_change():
    assert rules_to_json(rules_from_json({"preset": "dsu", "grand_base": 20})) == "dsu"


@pytest.mark.parametrize(
    ("stored", "code", "field"),
    [
        pytest.param("xx", "unknown_rules", None, id="unknown preset name"),
        pytest.param({"preset": "xx"}, "unknown_rules", "preset", id="unknown preset in object"),
        pytest.param({"preset": "se", "kontra": True}, "unknown_option", "kontra", id="no option"),
        pytest.param({"grand_base": 21}, "option_value_invalid", "grand_base", id="grand 21"),
        pytest.param({"ramsch": 1}, "option_value_invalid", "ramsch", id="ramsch 1 is not true"),
        pytest.param({"schneider_at": 92}, "option_value_invalid", "schneider_at", id="92"),
        pytest.param({"revolution": 90}, "option_value_invalid", "revolution", id="rev 90"),
        pytest.param({"null_values": "23/35/46"}, "option_value_invalid", "null_values", id="3"),
        pytest.param({"null_values": "-/35/46/59"}, "option_value_invalid", "null_values", id="-"),
        pytest.param({"null_values": [23, 35, 46, 59]}, "option_value_invalid", "null_values"),
        pytest.param({"lost_game": "twice"}, "option_value_invalid", "lost_game", id="twice"),
        pytest.param(["se"], "wrong_type", None, id="a list"),
    ],
)
def test_rules_json_errors(stored, code, field):
    with pytest.raises(RulesError) as raised:
        rules_from_json(stored)
    assert (raised.value.code, raised.value.field) == (code, field)


# --- grand_base ------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_set", [rules(grand_base=20), RULE_SETS["grand20"]])
def test_grand_base_20(rule_set):
    # grand with 1, game 2 -> 2 x 20 = 40; grand ouvert with 4 -> 11 x 20 = 220
    assert scored(rule_set, decl(G, matadors=1), WON) == (True, 40, 40)
    top = decl(G, bid=220, matadors=4, hand=True, ouvert=True)
    assert scored(rule_set, top, Outcome(card_points=120, tricks=10)) == (True, 220, 220)
    # suit games keep their bases: clubs with 1 = 24
    assert scored(rule_set, decl(C, matadors=1), WON) == (True, 24, 24)
    # 264 (grand ouvert with 4 at 24) is no longer a value any game reaches; the top bid is
    # grand ouvert with 4 at 20 (220), above clubs with 11 and every level (18 x 12 = 216)
    assert not is_legal_bid(264, rule_set)
    assert bid_values(rule_set)[-2:] == (216, 220)


# --- matadors: jacks ---------------------------------------------------------------------------

FILLER = ["HA", "H10", "HK", "HQ", "H9", "H8", "H7", "DA", "D10", "DK", "DQ", "D9"]


def deal(jacks, *extra):
    """Ten cards: the given jacks and extra cards, filled up with hearts and diamonds."""
    cards = list(jacks) + list(extra)
    cards += [c for c in FILLER if c not in cards][: 10 - len(cards)]
    return cards


# DSU seed: "Bøndernes sammensætning giver følgende kombinationer" (clubs game, so that under
# the ISkO's count the clubs ace, ten, ... would continue the run)
BONDER = [
    pytest.param(["CJ", "SJ", "HJ", "DJ"], 4, id="Klør Spar Hjerter Ruder = med 4 bønder"),
    pytest.param(["CJ", "SJ", "HJ"], 3, id="Klør Spar Hjerter = med 3 bønder"),
    pytest.param(["CJ", "SJ"], 2, id="Klør Spar = med 2 bønder"),
    pytest.param(["CJ"], 1, id="Klør = med 1 bonde"),
    pytest.param([], -4, id="Ingen bønder = uden 4 bønder"),
    pytest.param(["DJ"], -3, id="Ruder = uden 3 bønder"),
    pytest.param(["HJ", "DJ"], -2, id="Hjerter Ruder = uden 2 bønder"),
    pytest.param(["SJ", "HJ", "DJ"], -1, id="Spar Hjerter Ruder = uden 1 bonde"),
    pytest.param(["CJ", "HJ", "DJ"], 1, id="Klør Hjerter Ruder = med 1 bonde"),
    pytest.param(["SJ", "DJ"], -1, id="Spar Ruder = uden 1 bonde"),
]


@pytest.mark.parametrize("preset", ["dsu", "se"])
@pytest.mark.parametrize(("jacks", "expected"), BONDER)
def test_matadors_from_cards_counts_jacks_only(preset, jacks, expected):
    # the clubs ace and ten are held too (or missing, for "without"): jacks only count
    extra = ["CA", "C10"] if expected > 0 else []
    hand = deal(jacks, *extra)
    assert matadors_from_cards(hand, ["S7", "S8"], C, RULE_SETS[preset]) == expected


def test_matadors_from_cards_under_isko_runs_on_into_the_suit():
    # ISkO: four jacks + clubs ace and ten in a clubs game = with 6
    hand = deal(["CJ", "SJ", "HJ", "DJ"], "CA", "C10")
    assert matadors_from_cards(hand, ["S7", "S8"], C) == 6
    # no jacks and no clubs at all: without 11
    assert matadors_from_cards(deal([]), ["S7", "S8"], C) == -11


# DSU seed, "Overlagt": with or without 1..4, "spil" 2..5, times 9 10 11 12 20
OVERLAGT = [
    (1, [18, 20, 22, 24, 40]),
    (2, [27, 30, 33, 36, 60]),
    (3, [36, 40, 44, 48, 80]),
    (4, [45, 50, 55, 60, 100]),
]


@pytest.mark.parametrize(("matadors", "row"), OVERLAGT)
@pytest.mark.parametrize("sign", [1, -1])
def test_dsu_overlagt_table(matadors, row, sign):
    for game, value in zip((D, H, S, C, G), row, strict=True):
        declaration = decl(game, matadors=sign * matadors)
        assert scored(RULE_SETS["dsu"], declaration, WON) == (True, value, value)


def test_dsu_example_with_3_clubs():
    # "Med 3 bønder + 1 for spil x klør som trumf = (3+1) x 12 = 48"
    assert scored(RULE_SETS["dsu"], decl(C, matadors=3), WON) == (True, 48, 48)


def test_dsu_highest_game_is_220():
    # "Med 4 bønder + 1 for spil x grand som trumf + alle 6 tillæg = (4+1+6) x 20 = 264":
    # (4 + 1 + 6) x 20 is 220; docs/rules.md section 8.2: the seed's 264 is a slip of arithmetic
    top = decl(
        G,
        bid=220,
        matadors=4,
        hand=True,
        ouvert=True,
        schneider_announced=True,
        schwarz_announced=True,
    )
    assert scored(RULE_SETS["dsu"], top, Outcome(card_points=120, tricks=10)) == (True, 220, 220)
    assert bid_values(RULE_SETS["dsu"])[-1] == 220
    assert not is_legal_bid(264, RULE_SETS["dsu"])
    # "Laveste melding er 18 og højeste 264": the lowest is 18, the highest 220 (as above)
    assert bid_values(RULE_SETS["dsu"])[0] == 18


@pytest.mark.parametrize("preset", ["dsu", "se"])
@pytest.mark.parametrize(("game", "matadors"), [(C, 5), (D, -5), (G, 5), (H, 11)])
def test_jacks_only_matadors_are_1_to_4_in_every_game(preset, game, matadors):
    # Swedish seed: "om man har alla fyra knektar så räknar man "med fyra, spela fem""
    assert errors(RULE_SETS[preset], decl(game, matadors=matadors), WON) == [
        Problem("matadors_out_of_range", "matadors")
    ]


def test_jacks_only_bids():
    # 198 = 11 x 18 (spades with 11 and every level) exists under the ISkO only; under
    # jacks-only matadors no game reaches it (spades at most 11 x 11, grand 24 x 8.25).
    assert is_legal_bid(198, ISKO)
    assert not is_legal_bid(198, RULE_SETS["se"])
    assert not is_legal_bid(198, rules(matadors=MatadorCount.JACKS))
    # the highest suit game under jacks: clubs with 4 + 7 levels = 11 x 12 = 132; grand 264
    assert is_legal_bid(132, RULE_SETS["se"]) and is_legal_bid(264, RULE_SETS["se"])


def test_swedish_seed_kontra_re_example():
    # "Som exempel spelas hjärter, och spelföraren har [hjärter] Kn och [ruter] Kn och spelar
    # hand ... 4*10=40"; "Båda dessa dubblerar spelets värde ... blir totalvärdet 160 poäng
    # om båda har använts"
    se = RULE_SETS["se"]
    plain = decl(H, bid=40, matadors=-2, hand=True)
    assert scored(se, plain, WON) == (True, 40, 40)
    both = decl(H, bid=40, matadors=-2, hand=True, kontra=True, re=True)
    assert scored(se, both, WON) == (True, 160, 160)


# --- null_values -------------------------------------------------------------------------------


def test_dsu_null_games():
    # "Nolo ... 23", "Nolovert ... 46 Lægges på bordet efter første udspil og skatbytte",
    # "Nolodækker ... 69 Lægges på bord før udspil og uden skatbytte"
    dsu = RULE_SETS["dsu"]
    assert scored(dsu, decl(N, bid=23), Outcome(tricks=0)) == (True, 23, 23)
    assert scored(dsu, decl(N, bid=46, ouvert=True), Outcome(tricks=0)) == (True, 46, 46)
    nolodaekker = decl(N, bid=69, ouvert=True, hand=True)
    assert scored(dsu, nolodaekker, Outcome(tricks=0)) == (True, 69, 69)
    assert scored(dsu, nolodaekker, Outcome(tricks=1)) == (False, 69, -138)
    # no null hand: "23/-/46/69"
    assert errors(dsu, decl(N, bid=23, hand=True), Outcome(tricks=0)) == [
        Problem("null_game_not_in_rules", "hand")
    ]
    # bids follow: 69 is one, 35 and 59 are not (no other game is worth them)
    assert is_legal_bid(69, dsu)
    assert not is_legal_bid(35, dsu) and not is_legal_bid(59, dsu)


def test_dsu_null_below_the_bid_is_charged_the_next_dsu_null_value():
    # null 23 at 24: the lowest null value reaching 24 is 46 under dsu (no 35)
    dsu = RULE_SETS["dsu"]
    assert scored(dsu, decl(N, bid=24), Outcome(tricks=0)) == (False, 46, -92)
    # above the highest (69): multiples of the announced 23 -> 23 x 4 = 92 reaches 70
    assert scored(dsu, decl(N, bid=70), Outcome(tricks=0)) == (False, 92, -184)


def test_dutch_null_hand_29():
    # Dutch seed: "null zonder de skaat telt voor 35 (soms 29) punten"
    nl29 = rules("nl", null_values=(23, 29, 46, 59))
    assert scored(nl29, decl(N, bid=29, hand=True), Outcome(tricks=0)) == (True, 29, 29)
    # lost hand under opponents-credited: each opponent once 29
    g = score_game(decl(N, bid=29, hand=True), Outcome(tricks=1), nl29)
    assert (g.won, g.list_score, g.opponents_list_score) == (False, 0, 29)
    # "with null hand 29, 29 is a bid and 35 is not (no other game is worth 35)"
    assert is_legal_bid(29, nl29) and not is_legal_bid(35, nl29)
    assert not is_legal_bid(29, RULE_SETS["nl"]) and is_legal_bid(35, RULE_SETS["nl"])


# --- doublings ---------------------------------------------------------------------------------

SUPRA = rules(doublings=Doublings.SUPRA)


@pytest.mark.parametrize(
    ("flags", "value"),
    [
        pytest.param({}, 24, id="clubs with 1 = 24"),
        pytest.param({"kontra": True}, 48, id="kontra x2"),
        pytest.param({"kontra": True, "re": True}, 96, id="re x4"),
        pytest.param({"kontra": True, "re": True, "supra": True}, 192, id="supra x8"),
        pytest.param(
            {"kontra": True, "re": True, "supra": True, "resupra": True}, 384, id="resupra x16"
        ),
    ],
)
def test_supra_and_resupra(flags, value):
    # Danish seed: "I en mindre almindelig yderligere variation kan denne proces gentages
    # yderligere to gange ved at annoncere "Supra" og "Resupra""
    assert scored(SUPRA, decl(C, matadors=1, **flags), WON) == (True, value, value)
    assert scored(SUPRA, decl(C, matadors=1, **flags), LOST) == (False, value, -2 * value)


def test_doublings_come_after_the_overbid_test_and_not_on_seeger_fabian_bonuses():
    # hearts with 1 (20) at 33: charged 4 x 10 = 40, then x8 = 320, lost -640
    declaration = decl(H, bid=33, matadors=1, kontra=True, re=True, supra=True)
    g = score_game(declaration, WON, SUPRA)
    assert (g.won, g.overbid, g.value, g.list_score) == (False, True, 320, -640)
    # "Seeger-Fabian's +-50/40/30 are never doubled": -640 - 50, others +40
    assert seeger_fabian(g, 3) == (-690, 40)
    won = score_game(decl(C, matadors=1, kontra=True, re=True, supra=True), WON, SUPRA)
    assert seeger_fabian(won, 4) == (192 + 50, 0)


@pytest.mark.parametrize(
    ("rule_set", "flags", "problem"),
    [
        pytest.param(ISKO, {"kontra": True}, Problem("doubling_not_allowed", "kontra"), id="isko"),
        pytest.param(
            RULE_SETS["isko-kontra"],
            {"kontra": True, "re": True, "supra": True},
            Problem("doubling_not_allowed", "supra"),
            id="supra under kontra-re",
        ),
        pytest.param(
            RULE_SETS["se"],
            {"re": True},
            Problem("doubling_out_of_order", "re"),
            id="re without kontra",
        ),
        pytest.param(
            SUPRA,
            {"kontra": True, "supra": True},
            Problem("doubling_out_of_order", "supra"),
            id="supra without re",
        ),
        pytest.param(
            SUPRA,
            {"kontra": True, "re": True, "resupra": True},
            Problem("doubling_out_of_order", "resupra"),
            id="resupra without supra",
        ),
    ],
)
def test_doublings_the_rule_set_does_not_allow(rule_set, flags, problem):
    assert errors(rule_set, decl(C, matadors=1, **flags), WON) == [problem]


def test_doublings_on_null_games():
    # null 23 with kontra and re under isko-kontra: 23 x 4 = 92
    kontra = RULE_SETS["isko-kontra"]
    assert scored(kontra, decl(N, kontra=True, re=True), Outcome(tricks=0)) == (True, 92, 92)


# --- ouvert: open-plus-one ---------------------------------------------------------------------

OPEN_PLUS_ONE = [rules(ouvert=OuvertRule.OPEN_PLUS_ONE), RULE_SETS["dsu"]]


@pytest.mark.parametrize("rule_set", OPEN_PLUS_ONE, ids=["isko+open-plus-one", "dsu"])
def test_open_plus_one(rule_set):
    # "open cards add one level, need no hand and announce nothing" (DSU "På bordet +1
    # Kortene lægges åbent på bordet", Swedish "öppet")
    # hearts with 1 open, skat taken: with 1, game 2, open 3 -> 30, won with 70 points
    assert scored(rule_set, decl(H, matadors=1, ouvert=True), WON) == (True, 30, 30)
    # open and hand: 4 x 10 = 40, still won with 70 points and 6 tricks
    hand = decl(H, matadors=1, ouvert=True, hand=True)
    assert scored(rule_set, hand, Outcome(card_points=70, tricks=6)) == (True, 40, 40)
    # lost at 50: -80
    assert scored(rule_set, hand, LOST) == (False, 40, -80)


def test_isko_ouvert_needs_hand_and_announces_schneider_and_schwarz():
    # the same hand ouvert under the ISkO: with 1, game, hand, schneider, announced,
    # schwarz, announced, ouvert = 8 x 10 = 80, lost without all tricks -> -160
    hand = decl(H, matadors=1, ouvert=True, hand=True)
    assert scored(ISKO, hand, Outcome(card_points=70, tricks=6)) == (False, 80, -160)
    assert errors(ISKO, decl(H, matadors=1, ouvert=True), WON) == [
        Problem("ouvert_requires_hand", "ouvert")
    ]


def test_open_plus_one_grand_with_every_level_reached():
    # grand open hand with 4, nothing announced, all tricks: with 4, game 5, hand 6,
    # schneider 7, schwarz 8, open 9 -> 9 x 24 = 216 (the ISkO's ouvert would be 264)
    rule_set = rules(ouvert=OuvertRule.OPEN_PLUS_ONE)
    top = decl(G, matadors=4, hand=True, ouvert=True)
    assert scored(rule_set, top, Outcome(card_points=120, tricks=10)) == (True, 216, 216)


# --- schneider_at ------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_set", [rules(schneider_at=91), RULE_SETS["dsu"]], ids=["91", "dsu"])
@pytest.mark.parametrize(
    ("card_points", "expected"),
    [
        # DSU: "Opnår spilleren 91 points eller flere, er modspillerne skrædder"
        pytest.param(90, (True, 20, 20), id="90: not schneider"),
        pytest.param(91, (True, 30, 30), id="91: schneider"),
        # "opnår de minimum 90 points er spilleren skrædder": declarer 30
        pytest.param(30, (False, 30, -60), id="declarer 30: schneider"),
        pytest.param(31, (False, 20, -40), id="declarer 31: not schneider"),
    ],
)
def test_schneider_at_91(rule_set, card_points, expected):
    assert scored(rule_set, decl(H, matadors=1), Outcome(card_points=card_points)) == expected


def test_nl_schneider_from_90():
    # DECISION for nl: "schneider from 90 card points" (hearts with 1: 3 x 10)
    assert scored(RULE_SETS["nl"], decl(H, matadors=1), Outcome(card_points=90)) == (True, 30, 30)


# --- lost_game ---------------------------------------------------------------------------------

# Swedish seed's example: hearts, without 2, hand -> "4*10=40"
HEARTS_HAND = decl(H, bid=40, matadors=-2, hand=True)
HEARTS = decl(H, bid=30, matadors=-2)  # skat taken: without 2, game 3 -> 30


def test_lost_game_double():
    # "enligt den internationella Skatordningen (ISkO) förlorar spelföraren med ordinarie
    # spelvärde (i föreliggande exempel 40) till vardera motspelare, dvs. minus 80 totalt"
    assert scored(ISKO, HEARTS_HAND, LOST) == (False, 40, -80)
    assert scored(ISKO, HEARTS, LOST) == (False, 30, -60)


@pytest.mark.parametrize("rule_set", [rules(lost_game=LostGame.SINGLE_HAND), RULE_SETS["pre1999"]])
def test_lost_game_single_hand(rule_set):
    # "single-hand hand games -value, others -2 x value (before 1999)"
    assert scored(rule_set, HEARTS_HAND, LOST) == (False, 40, -40)
    assert scored(rule_set, HEARTS, LOST) == (False, 30, -60)
    assert scored(rule_set, HEARTS_HAND, WON) == (True, 40, 40)


ADD_LEVEL = [rules(lost_game=LostGame.ADD_LEVEL), rules("se", lost_game=LostGame.ADD_LEVEL)]


@pytest.mark.parametrize("rule_set", ADD_LEVEL, ids=["isko+add-level", "se+add-level"])
def test_lost_game_add_level(rule_set):
    # "En ibland tillämpad variant säger att vid förlust adderas den första multipeln med ett
    # (+1), och spelaren i exemplet hade alltså förlorat 5*10=50 poäng"
    g = score_game(HEARTS_HAND, LOST, rule_set)
    assert (g.won, g.value, g.list_score, g.added_level) == (False, 50, -50, True)
    # skat taken: without 2, game 3, lost 4 -> -40 once
    assert scored(rule_set, HEARTS, LOST) == (False, 40, -40)
    # won games are not touched
    assert scored(rule_set, HEARTS_HAND, WON) == (True, 40, 40)
    # lost schneider (declarer 25): without 2, game 3, schneider 4, lost 5 -> -50
    assert scored(rule_set, HEARTS, Outcome(card_points=25)) == (False, 50, -50)


def test_add_level_on_an_overbid_and_on_null():
    add_level = rules(lost_game=LostGame.ADD_LEVEL)
    # "an overbid's smallest level that reaches the bid": diamonds without 1 at 22 -> level 3,
    # lost one more -> 4 x 9 = 36, charged once
    assert scored(add_level, decl(D, bid=22, matadors=-1), WON) == (False, 36, -36)
    # "A lost null game is charged as in isko": 23 -> -46
    assert scored(add_level, decl(N), Outcome(tricks=1)) == (False, 23, -46)


def test_add_level_then_kontra():
    # se + add-level, hearts hand without 2 lost with kontra: (4 + 1) x 10 = 50, x2 -> -100
    rule_set = rules("se", lost_game=LostGame.ADD_LEVEL)
    assert scored(rule_set, replace(HEARTS_HAND, kontra=True), LOST) == (False, 100, -100)


@pytest.mark.parametrize(
    "rule_set",
    [rules(lost_game=LostGame.OPPONENTS_CREDITED), RULE_SETS["nl"]],
    ids=["isko+opponents-credited", "nl"],
)
def test_lost_game_opponents_credited(rule_set):
    # Dutch seed: "Gaat deze nat, dan worden er geen punten afgetrokken, maar krijgen de
    # tegenspelers beide die punten bijgeschreven"; "Neemt men de Skaat op en gaat men nat,
    # dan telt het verlies dubbel. Handspelen worden niet dubbel verloren."
    hand = score_game(HEARTS_HAND, LOST, rule_set)
    assert (hand.list_score, hand.opponents_list_score) == (0, 40)
    taken = score_game(HEARTS, LOST, rule_set)
    assert (taken.list_score, taken.opponents_list_score) == (0, 60)
    # Seeger-Fabian: "a lost game is then 0 - 50 for the declarer and credit + 40 (or 30)"
    assert seeger_fabian(taken, 3) == (-50, 100)
    assert seeger_fabian(taken, 4) == (-50, 90)
    won = score_game(HEARTS, WON, rule_set)
    assert (won.list_score, won.opponents_list_score) == (30, 0)


# --- overbid: bid --------------------------------------------------------------------------------


def test_overbid_charged_the_bid():
    # Dutch seed: "Is het bod hoger dan de spelwaarde (úberreizen), dan verliest hij het aantal
    # geboden punten."
    bid = rules(overbid=OverbidRule.BID)
    # diamonds without 1 (18) at 22: charged 22 (isko 27), doubled -> -44
    assert scored(bid, decl(D, bid=22, matadors=-1), WON) == (False, 22, -44)
    # "overbid: bid charges the bid itself for null games too": null 23 at 24 -> -48
    assert scored(bid, decl(N, bid=24), Outcome(tricks=0)) == (False, 24, -48)


def test_nl_overbid_credits_the_bid():
    nl = RULE_SETS["nl"]
    # "(doubled when the skat was taken up, under opponents-credited)": null 23 at 24
    g = score_game(decl(N, bid=24), Outcome(tricks=0), nl)
    assert (g.won, g.value, g.list_score, g.opponents_list_score) == (False, 24, 0, 48)
    # null hand 35 at 36, hand: once
    g = score_game(decl(N, bid=36, hand=True), Outcome(tricks=0), nl)
    assert (g.won, g.value, g.list_score, g.opponents_list_score) == (False, 36, 0, 36)
    # "Vindt men in de Skaat zijn spel 'überreizt' ... dan verliest men dubbel de waarde,
    # waarop de bieding is geëindigd": clubs with 1 (24) at 30, skat taken -> 2 x 30
    g = score_game(decl(C, bid=30, matadors=1), WON, nl)
    assert (g.won, g.value, g.opponents_list_score) == (False, 30, 60)


# --- revolution ----------------------------------------------------------------------------------


def test_revolution_92():
    # Dutch seed: "revolution revolutie (oude skat) ... Dit telt voor 92 punten."
    nl = RULE_SETS["nl"]
    assert scored(nl, decl(R, bid=92), Outcome(tricks=0)) == (True, 92, 92)
    lost = score_game(decl(R, bid=92), Outcome(tricks=1), nl)
    assert (lost.list_score, lost.opponents_list_score) == (0, 184)
    assert is_legal_bid(92, nl) and not is_legal_bid(92, ISKO)
    # as a house option under isko: lost, -2 x 92
    assert scored(rules(revolution=92), decl(R), Outcome(tricks=1)) == (False, 92, -184)
    assert errors(ISKO, decl(R), Outcome(tricks=0)) == [Problem("game_not_in_rules", "game")]


def test_fourth_player_and_ramsch_do_not_change_a_games_score():
    # they act on the list (test_seats.py, test_ramsch.py), not on the game
    game, outcome = decl(C, matadors=1), WON
    plain = scored(ISKO, game, outcome)
    assert scored(rules(fourth_player=FourthPlayer.SHARES_DEALER), game, outcome) == plain
    assert scored(rules(ramsch=True), game, outcome) == plain


def test_add_level_with_overbid_bid_takes_the_smallest_level_reaching_the_bid():
    # docs/rules.md section 10.4: diamonds without 1 (18) at 22 -> level 3 is
    # the smallest reaching 22, one more -> 4 x 9 = 36, charged once
    rule_set = rules(overbid=OverbidRule.BID, lost_game=LostGame.ADD_LEVEL)
    assert scored(rule_set, decl(D, bid=22, matadors=-1), WON) == (False, 36, -36)


def test_nl_revolution_lost_hand_is_credited_once():
    g = score_game(decl(R, bid=92, hand=True), Outcome(tricks=1), RULE_SETS["nl"])
    assert (g.won, g.value, g.list_score, g.opponents_list_score) == (False, 92, 0, 92)


def test_revolution_doubles_with_kontra():
    # nl with kontra-re as a house option: 92 x 2 = 184
    rule_set = rules("nl", doublings=Doublings.KONTRA_RE)
    assert scored(rule_set, decl(R, bid=92, kontra=True), Outcome(tricks=0)) == (True, 184, 184)

"""The words for a game (``skatliga.words``): the engine's steps and charge in German and
English, through the catalog."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings

from scoring import (
    ISKO,
    Declaration,
    GameType,
    InvalidGame,
    Outcome,
    Ramsch,
    score_game,
    score_ramsch,
)
from scoring import rules_from_json as rules
from skatliga.models import Game
from skatliga.words import breakdown, describe_game, game_label, matadors_text
from tests.scoring.test_option_properties import any_games, rule_sets, rules_and_game

# Function-scoped autouse fixtures (the language, the cache) are the same for every example.
PROPERTIES = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

D, H, S, C, G = GameType.DIAMONDS, GameType.HEARTS, GameType.SPADES, GameType.CLUBS, GameType.GRAND
LOST_SPADES = (Declaration(S, bid=18, matadors=1), Outcome(card_points=50, tricks=4))

GAMES = {
    "grand hand with 2": (
        (Declaration(G, bid=20, matadors=2, hand=True), Outcome(card_points=70, tricks=6), "isko"),
        "mit 2, Spiel 3, Hand 4 → 4 × 24 = 96",
        "with 2, game 3, hand 4 → 4 × 24 = 96",
    ),
    "overbid": (
        (Declaration(D, bid=22, matadors=-1), Outcome(won=True), "isko"),
        "ohne 1, Spiel 2 → 2 × 9 = 18 < Reizwert 22: überreizt, 3 × 9 = 27, verloren −54",
        "without 1, game 2 → 2 × 9 = 18 < bid 22: overbid, 3 × 9 = 27, lost −54",
    ),
    "schneider announced, lost": (
        (
            Declaration(H, bid=18, matadors=1, hand=True, schneider_announced=True),
            Outcome(card_points=80, tricks=7),
            "isko",
        ),
        "mit 1, Spiel 2, Hand 3, Schneider 4, Schneider angesagt 5 → 5 × 10 = 50, verloren −100",
        "with 1, game 2, hand 3, schneider 4, schneider announced 5 → 5 × 10 = 50, lost −100",
    ),
    "ouvert": (
        (
            Declaration(C, bid=18, matadors=2, hand=True, ouvert=True),
            Outcome(card_points=120, tricks=10),
            "isko",
        ),
        "mit 2, Spiel 3, Hand 4, Schneider 5, Schneider angesagt 6, Schwarz 7, "
        "Schwarz angesagt 8, Ouvert 9 → 9 × 12 = 108",
        "with 2, game 3, hand 4, schneider 5, schneider announced 6, schwarz 7, "
        "schwarz announced 8, ouvert 9 → 9 × 12 = 108",
    ),
    "kontra": (
        (Declaration(G, bid=18, matadors=1, kontra=True), Outcome(card_points=70), "isko-kontra"),
        "mit 1, Spiel 2 → 2 × 24 = 48, Kontra × 2 = 96",
        "with 1, game 2 → 2 × 24 = 48, kontra × 2 = 96",
    ),
    "re": (
        (
            Declaration(G, bid=18, matadors=1, kontra=True, re=True),
            Outcome(card_points=70),
            "isko-kontra",
        ),
        "mit 1, Spiel 2 → 2 × 24 = 48, Re × 4 = 192",
        "with 1, game 2 → 2 × 24 = 48, re × 4 = 192",
    ),
    "lost, one level more": (
        (*LOST_SPADES, {"preset": "se", "lost_game": "add-level"}),
        "mit 1, Spiel 2 → 2 × 11 = 22, verloren, eine Stufe mehr: 3 × 11 = 33 → −33",
        "with 1, game 2 → 2 × 11 = 22, lost, one level more: 3 × 11 = 33 → −33",
    ),
    "opponents credited": (
        (*LOST_SPADES, "nl"),
        "mit 1, Spiel 2 → 2 × 11 = 22, verloren +44 je Gegenspieler",
        "with 1, game 2 → 2 × 11 = 22, lost +44 to each opponent",
    ),
    "overbid, the bid charged": (
        (Declaration(D, bid=30, matadors=1), Outcome(won=True), "nl"),
        "mit 1, Spiel 2 → 2 × 9 = 18 < Reizwert 30: überreizt, 30, verloren +60 je Gegenspieler",
        "with 1, game 2 → 2 × 9 = 18 < bid 30: overbid, 30, lost +60 to each opponent",
    ),
    "null ouvert hand": (
        (Declaration(GameType.NULL, bid=23, hand=True, ouvert=True), Outcome(tricks=1), "isko"),
        "Null Ouvert Hand 59, verloren −118",
        "Null ouvert hand 59, lost −118",
    ),
    "revolution": (
        (Declaration(GameType.REVOLUTION, bid=23), Outcome(tricks=0), "nl"),
        "Revolution 92",
        "Revolution 92",
    ),
}

RAMSCH = {
    "jungfrau": (
        Ramsch((0, 70, 50), (0, 6, 4)),
        "Ramsch: 70 Augen, Jungfrau × 2 → −140",
        "Ramsch: 70 card points, Jungfrau × 2 → −140",
    ),
    "durchmarsch": (
        Ramsch((0, 120, 0), (0, 10, 0)),
        "Ramsch: Durchmarsch +120",
        "Ramsch: Durchmarsch +120",
    ),
    "the most card points": (
        Ramsch((30, 62, 28), (3, 5, 2)),
        "Ramsch: 62 Augen → −62",
        "Ramsch: 62 card points → −62",
    ),
}


@pytest.mark.parametrize(("game", "german", "english"), GAMES.values(), ids=GAMES)
def test_a_games_value_in_words(game, german, english):
    declaration, outcome, rule_set = game
    scored = score_game(declaration, outcome, rules(rule_set))
    for language, text in (("de", german), ("en", english)):
        with translation.override(language):
            assert breakdown(scored) == text


@pytest.mark.parametrize(("ramsch", "german", "english"), RAMSCH.values(), ids=RAMSCH)
def test_a_ramschs_charge_in_words(ramsch, german, english):
    scored = score_ramsch(ramsch)
    for language, text in (("de", german), ("en", english)):
        with translation.override(language):
            assert breakdown(scored) == text


def test_a_passed_in_game_has_no_words():
    assert breakdown(None) == ""


def test_a_language_without_a_catalog_reads_german():
    scored = score_game(Declaration(G, bid=20, matadors=2, hand=True), Outcome(won=True), ISKO)
    with translation.override("fr"):
        assert breakdown(scored) == "mit 2, Spiel 3, Hand 4 → 4 × 24 = 96"


@PROPERTIES
@given(rules_and_game())
def test_the_breakdown_ends_on_what_the_list_records(case):
    rule_set, declaration, outcome = case
    scored = score_game(declaration, outcome, rule_set)
    with translation.override("en"):
        text = breakdown(scored)
    if scored.won:
        assert text.endswith(f" {scored.value}")
    elif scored.opponents_list_score:
        assert text.endswith(f"+{scored.opponents_list_score} to each opponent")
    else:
        assert text.endswith(f"−{-scored.list_score}")


@PROPERTIES
@given(rule_sets(), any_games())
def test_every_scored_game_has_words_in_both_languages(rule_set, game):
    try:
        scored = score_game(*game, rule_set)
    except InvalidGame:
        return
    for language in ("de", "en"):
        with translation.override(language):
            assert breakdown(scored)


@pytest.mark.parametrize(
    ("fields", "german", "english"),
    [
        (
            {"game": "null", "bid": 59, "hand": True, "ouvert": True},
            "Null ouvert Hand",
            "Null ouvert Hand",
        ),
        (
            {"game": "hearts", "bid": 18, "matadors": 1, "kontra": True},
            "Herz Kontra",
            "Hearts Kontra",
        ),
        ({"game": "diamonds", "matadors": -1, "bid": 22}, "Karo überreizt", "Diamonds overbid"),
    ],
)
def test_a_games_label_on_the_list(fields, german, english):
    game = Game(**fields)
    declaration = Declaration(
        GameType(game.game), **{k: v for k, v in fields.items() if k != "game"}
    )
    scored = score_game(
        declaration,
        Outcome(won=True, tricks=0 if game.game == "null" else None),
        rules("isko-kontra"),
    )
    for language, text in (("de", german), ("en", english)):
        with translation.override(language):
            assert game_label(game, scored) == text


def test_matadors_and_a_recorded_row_in_words():
    row = {"declarer_seat": 2, "game": "grand", "matadors": 2, "hand": True, "bid": 24, "won": True}
    with translation.override("de"):
        assert (matadors_text(2), matadors_text(-3)) == ("m2", "o3")
        assert (
            describe_game(row, {2: "Bernd"}) == "2 Bernd: Grand, mit 2, Hand, Reizwert 24, gewonnen"
        )
        assert describe_game({"passed": True}, {}) == "eingepasst"
    with translation.override("en"):
        assert describe_game(row, {2: "Bernd"}) == "2 Bernd: Grand, with 2, Hand, bid 24, won"

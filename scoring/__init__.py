"""The Skat rules engine: game values, verdicts, list scores and rankings.

Pure Python, standard library only. It implements the project's rules specification:
the International Skat Order (``isko``) and the named rule sets of its section 8.

>>> from scoring import Declaration, GameType, Outcome, score_game
>>> score_game(Declaration(GameType.CLUBS, bid=18, matadors=2, hand=True, ouvert=True),
...            Outcome(card_points=120, tricks=10)).value
108
"""

from scoring.bids import bid_values, is_legal_bid
from scoring.breakdown import LANGUAGES, format_breakdown
from scoring.cards import Card, CardError, matadors_from_cards, parse_card
from scoring.game import (
    Declaration,
    InvalidGame,
    Outcome,
    Problem,
    ScoredGame,
    card_points_possible,
    check_game,
    score_game,
)
from scoring.lists import (
    ListRow,
    ListSummary,
    RankEntry,
    check_seat,
    dealer_seat,
    others_lost_bonus,
    rank,
    row_scores,
    seeger_fabian,
    summarize_list,
)
from scoring.rules import ISKO, RULE_SETS, GameType, ListSystem, RuleSet, get_rules
from scoring.shape import ShapeError, game_to_json, parse_game

__all__ = [
    "ISKO",
    "LANGUAGES",
    "RULE_SETS",
    "Card",
    "CardError",
    "Declaration",
    "GameType",
    "InvalidGame",
    "ListRow",
    "ListSummary",
    "ListSystem",
    "Outcome",
    "Problem",
    "RankEntry",
    "RuleSet",
    "ScoredGame",
    "ShapeError",
    "bid_values",
    "card_points_possible",
    "check_game",
    "check_seat",
    "dealer_seat",
    "format_breakdown",
    "game_to_json",
    "get_rules",
    "is_legal_bid",
    "matadors_from_cards",
    "others_lost_bonus",
    "parse_game",
    "parse_card",
    "rank",
    "row_scores",
    "score_game",
    "seeger_fabian",
    "summarize_list",
]

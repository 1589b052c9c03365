"""Random legal games from the engine, for benchmarks and demo data.

Every game drawn here passes ``scoring.check_game``: the declaration is legal, the bid is
a legal bid the declaration can plausibly have reached, and the outcome is possible.
"""

from __future__ import annotations

import random
from typing import Any

from scoring import (
    DOUBLINGS,
    ISKO,
    Declaration,
    GameType,
    Outcome,
    RuleSet,
    active_seats,
    bid_values,
    card_points_possible,
    dealer_seat,
    score_game,
)

_TRUMP_GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND)


def random_game(rng: random.Random, rules: RuleSet = ISKO) -> tuple[Declaration, Outcome]:
    """One random legal declared game and its outcome (about 1 in 10 is a null game)."""
    bids = bid_values(rules)
    if rng.random() < 0.1:
        hand, ouvert = rng.choice([(h, o) for h, o, _ in rules.null_games()])
        bid = rng.choice([b for b in bids[:8] if b <= 59] or bids[:1])
        tricks = 0 if rng.random() < 0.75 else rng.randint(1, 3)
        return Declaration(GameType.NULL, bid, hand=hand, ouvert=ouvert), Outcome(tricks=tricks)
    game = rng.choices(_TRUMP_GAMES, weights=(3, 3, 3, 3, 4))[0]
    most = rules.most_matadors(game)
    matadors = (
        rng.choice((1, 1, 1, 2, 2, 3, -1, -1, -2, -2, -3, 4))
        if most > 4
        else rng.choice((1, 2, -1, -2, 3, -3, 4, -4))
    )
    matadors = max(-most, min(most, matadors))
    hand = rng.random() < 0.15
    schneider_announced = hand and rng.random() < 0.05
    base = rules.base(game)
    level = abs(matadors) + 1 + hand + 2 * schneider_announced
    # Mostly bid at or below the value; now and then above it (an overbid).
    reachable = [b for b in bids if b <= base * level] or [bids[0]]
    bid = (
        rng.choice(reachable[-4:])
        if rng.random() < 0.97
        else rng.choice(bids[: len(reachable) + 2])
    )
    tricks = rng.choices(range(11), weights=(1, 2, 3, 5, 8, 10, 10, 8, 6, 3, 2))[0]
    card_points = rng.randint(0, 120)
    while not card_points_possible(card_points, tricks):
        card_points = rng.randint(0, 120)
    declaration = Declaration(
        game, bid, matadors, hand=hand, schneider_announced=schneider_announced
    )
    return declaration, Outcome(card_points=card_points, tricks=tricks)


def random_row(
    rng: random.Random,
    number: int,
    table_size: int,
    rules: RuleSet = ISKO,
    *,
    passed: float = 0.04,
    redraw_lost: float = 0.5,
) -> tuple[int, Declaration, Outcome] | None:
    """Row ``number`` of a list: None (passed in) or a declarer's seat (0-based) and a game.

    The declarer is never a player who sits out (docs/rules.md sections 6 and 8). A row is
    passed in with probability ``passed``; a lost game is drawn again with probability
    ``redraw_lost``, so that declarers win most games, as they do at real tables.
    """
    if rng.random() < passed:
        return None
    dealer = dealer_seat(number, table_size)
    seat = rng.choice(active_seats(dealer, table_size, rules))
    declaration, outcome = random_game(rng, rules)
    if rng.random() < redraw_lost and not score_game(declaration, outcome, rules).won:
        declaration, outcome = random_game(rng, rules)
    return seat, declaration, outcome


def archive_game(declaration: Declaration, outcome: Outcome, declarer: str) -> dict[str, Any]:
    """A game in the archive's game shape (``{"passed": true}`` aside)."""
    game: dict[str, Any] = {
        "declarer": declarer,
        "game": str(declaration.game),
        "bid": declaration.bid,
    }
    if declaration.matadors is not None:
        game["matadors"] = declaration.matadors
    for flag in ("hand", "schneider_announced", "schwarz_announced", "ouvert", *DOUBLINGS):
        if getattr(declaration, flag):
            game[flag] = True
    if outcome.card_points is not None:
        game["card_points"] = outcome.card_points
    if outcome.tricks is not None:
        game["tricks"] = outcome.tricks
    return game

"""A list (Spielliste): points per row, the summary rows, and ranking (rules.md 5-6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.game import Problem, ScoredGame
from scoring.rules import ListSystem

WON_BONUS = 50
"""Seeger-Fabian: +50 for each game won, -50 for each game lost."""


def others_lost_bonus(table_size: int) -> int:
    """Seeger-Fabian points for each game another player lost: 40 at a 3-table, 30 at a 4-table.

    >>> others_lost_bonus(3), others_lost_bonus(4)
    (40, 30)
    """
    return 40 if table_size == 3 else 30


def dealer_seat(game_number: int, table_size: int) -> int:
    """Seat index (0-based) of the dealer of game ``game_number`` (1-based): seat 1 deals first.

    >>> [dealer_seat(n, 4) for n in range(1, 7)]
    [0, 1, 2, 3, 0, 1]
    """
    return (game_number - 1) % table_size


def check_seat(declarer: int, dealer: int, table_size: int) -> list[Problem]:
    """Problems with who declared: a seat that does not exist, or the dealer at a 4-table.

    >>> check_seat(1, 1, 4)
    [Problem(code='declarer_is_dealer', field='declarer', warning=False)]
    >>> check_seat(1, 1, 3)
    []
    """
    if not 0 <= declarer < table_size:
        return [Problem("declarer_not_at_table", "declarer")]
    if table_size == 4 and declarer == dealer:
        return [Problem("declarer_is_dealer", "declarer")]
    return []


def seeger_fabian(scored: ScoredGame | None, table_size: int) -> tuple[int, int]:
    """Seeger-Fabian points of one game: (declarer, each other player); None is passed in.

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> won = score_game(Declaration(GameType.CLUBS, bid=18, matadors=1),
    ...                  Outcome(card_points=70, tricks=6))
    >>> seeger_fabian(won, 3)
    (74, 0)
    >>> lost = score_game(Declaration(GameType.CLUBS, bid=18, matadors=1), Outcome(won=False))
    >>> seeger_fabian(lost, 3), seeger_fabian(lost, 4)
    ((-98, 40), (-98, 30))
    """
    if scored is None:
        return 0, 0
    if scored.won:
        return scored.list_score + WON_BONUS, scored.opponents_list_score
    return (
        scored.list_score - WON_BONUS,
        scored.opponents_list_score + others_lost_bonus(table_size),
    )


def row_scores(
    scored: ScoredGame | None, *, declarer: int, dealer: int, table_size: int, system: ListSystem
) -> tuple[int, ...]:
    """Game points each seat writes for one row of the list (bonuses come in the summary).

    Classic and Seeger-Fabian lists credit the declarer's list score (and, where the rule
    set credits the opponents of a lost game, each defender's); a zero-sum list has every
    other player at the table pay the declarer his list score.

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.GRAND, bid=18, matadors=1), Outcome(won=True))
    >>> row_scores(g, declarer=1, dealer=0, table_size=3, system=ListSystem.SEEGER_FABIAN)
    (0, 48, 0)
    >>> row_scores(g, declarer=1, dealer=0, table_size=3, system=ListSystem.ZERO_SUM)
    (-48, 96, -48)
    """
    if scored is None:
        return (0,) * table_size
    if system is ListSystem.ZERO_SUM:
        return tuple(
            scored.list_score * (table_size - 1) if seat == declarer else -scored.list_score
            for seat in range(table_size)
        )
    sitting_out = dealer if table_size == 4 else -1
    return tuple(
        scored.list_score
        if seat == declarer
        else (0 if seat == sitting_out else scored.opponents_list_score)
        for seat in range(table_size)
    )


@dataclass(frozen=True, slots=True)
class ListRow:
    """One row of a list: the scored game (None if passed in), the declarer's and dealer's seats."""

    scored: ScoredGame | None
    declarer: int | None
    dealer: int


@dataclass(frozen=True, slots=True)
class ListSummary:
    """The summary rows of one player's column: total = game points + bonus."""

    game_points: int
    won: int
    lost: int
    others_lost: int
    bonus: int
    total: int


def summarize_list(
    rows: Sequence[ListRow], table_size: int, system: ListSystem = ListSystem.SEEGER_FABIAN
) -> tuple[ListSummary, ...]:
    """The summary rows of a list, one per seat.

    Seeger-Fabian: bonus = 50 × (won − lost) + (40 or 30) × games the others lost.

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.SPADES, bid=18, matadors=-1), Outcome(won=False))
    >>> [s.total for s in summarize_list([ListRow(g, 0, 0), ListRow(None, None, 1)], 3)]
    [-94, 40, 40]
    """
    points = [0] * table_size
    won = [0] * table_size
    lost = [0] * table_size
    games_lost = 0
    for row in rows:
        if row.scored is None or row.declarer is None:
            continue
        if check_seat(row.declarer, row.dealer, table_size):
            raise ValueError(f"declarer seat {row.declarer} cannot declare this game")
        entries = row_scores(
            row.scored,
            declarer=row.declarer,
            dealer=row.dealer,
            table_size=table_size,
            system=system,
        )
        for seat, entry in enumerate(entries):
            points[seat] += entry
        if row.scored.won:
            won[row.declarer] += 1
        else:
            lost[row.declarer] += 1
            games_lost += 1
    summaries = []
    for seat in range(table_size):
        others_lost = games_lost - lost[seat]
        bonus = 0
        if system is ListSystem.SEEGER_FABIAN:
            bonus = (
                WON_BONUS * (won[seat] - lost[seat]) + others_lost_bonus(table_size) * others_lost
            )
        summaries.append(
            ListSummary(
                game_points=points[seat],
                won=won[seat],
                lost=lost[seat],
                others_lost=others_lost,
                bonus=bonus,
                total=points[seat] + bonus,
            )
        )
    return tuple(summaries)


@dataclass(frozen=True, slots=True)
class RankEntry:
    """What ranking looks at: total, games won and lost, and a recorded draw by lot."""

    total: int
    won: int
    lost: int
    lot: int | None = None


def rank(entries: Sequence[RankEntry]) -> list[int]:
    """Ranks aligned with ``entries``: total, then more games won, then fewer lost, then lot.

    Players still level share a rank, and the next rank is skipped (1, 2, 2, 4).

    >>> rank([RankEntry(900, 10, 2), RankEntry(1000, 9, 1), RankEntry(900, 10, 2),
    ...       RankEntry(900, 10, 3)])
    [2, 1, 2, 4]
    >>> rank([RankEntry(900, 10, 2, lot=2), RankEntry(900, 10, 2, lot=1)])
    [2, 1]
    """
    keys = [
        (-e.total, -e.won, e.lost, e.lot if e.lot is not None else float("inf")) for e in entries
    ]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = [0] * len(keys)
    for position, index in enumerate(order):
        previous = order[position - 1] if position else None
        if previous is not None and keys[previous] == keys[index]:
            ranks[index] = ranks[previous]
        else:
            ranks[index] = position + 1
    return ranks

"""A list (Spielliste): points per row, the summary rows, and ranking (docs/rules.md 5-6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.game import Problem, ScoredGame
from scoring.ramsch import RamschScore
from scoring.rules import ISKO, FourthPlayer, ListSystem, RuleSet

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


def sitting_out(dealer: int, table_size: int, rules: RuleSet = ISKO) -> tuple[int, ...]:
    """Seats (0-based) that sit out a game: none at a 3-table; at a 4-table the dealer, or
    under ``fourth_player: shares-dealer`` the previous dealer (the player on the dealer's
    right); at a 5-table the dealer and the player on his right.

    >>> sitting_out(0, 3), sitting_out(1, 4), sitting_out(0, 5)
    ((), (1,), (0, 4))
    >>> from scoring.rules import RULE_SETS
    >>> sitting_out(0, 4, RULE_SETS["nl"])
    (3,)
    """
    if table_size == 3:
        return ()
    right = (dealer - 1) % table_size
    if table_size == 5:
        return (dealer, right)
    return (right,) if rules.fourth_player is FourthPlayer.SHARES_DEALER else (dealer,)


def sharing_seat(dealer: int, table_size: int, rules: RuleSet = ISKO) -> int | None:
    """The seat that scores what the dealer scores (``shares-dealer`` at a 4-table), or None."""
    if table_size == 4 and rules.fourth_player is FourthPlayer.SHARES_DEALER:
        return (dealer - 1) % 4
    return None


def active_seats(dealer: int, table_size: int, rules: RuleSet = ISKO) -> tuple[int, ...]:
    """The three seats that play a game, in order from forehand (left of the dealer).

    >>> active_seats(0, 3), active_seats(0, 4), active_seats(2, 5)
    ((1, 2, 0), (1, 2, 3), (3, 4, 0))
    """
    out = sitting_out(dealer, table_size, rules)
    seats = ((dealer + i) % table_size for i in range(1, table_size + 1))
    return tuple(seat for seat in seats if seat not in out)


def check_seat(declarer: int, dealer: int, table_size: int, rules: RuleSet = ISKO) -> list[Problem]:
    """Problems with who declared: a seat that does not exist, or one that sits out.

    >>> check_seat(1, 1, 4)
    [Problem(code='declarer_is_dealer', field='declarer', warning=False)]
    >>> check_seat(1, 1, 3), check_seat(4, 0, 5)
    ([], [Problem(code='declarer_sits_out', field='declarer', warning=False)])
    """
    if not 0 <= declarer < table_size:
        return [Problem("declarer_not_at_table", "declarer")]
    if declarer in sitting_out(dealer, table_size, rules):
        code = "declarer_is_dealer" if declarer == dealer else "declarer_sits_out"
        return [Problem(code, "declarer")]
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


TABLE_SIZES = (3, 4, 5)


def check_table(table_size: int, system: ListSystem, rules: RuleSet = ISKO) -> list[Problem]:
    """Problems with a table and list system: 3, 4 or 5 players, a 5-table and Ramsch only
    with ``classic`` or ``zero-sum`` lists (docs/rules.md section 8).

    >>> check_table(5, ListSystem.SEEGER_FABIAN)
    [Problem(code='five_table_not_with_seeger_fabian', field='table_size', warning=False)]
    >>> check_table(5, ListSystem.CLASSIC)
    []
    """
    problems = []
    if table_size not in TABLE_SIZES:
        problems.append(Problem("table_size_invalid", "table_size"))
    elif table_size == 5 and system is ListSystem.SEEGER_FABIAN:
        problems.append(Problem("five_table_not_with_seeger_fabian", "table_size"))
    if rules.ramsch and system is ListSystem.SEEGER_FABIAN:
        problems.append(Problem("ramsch_not_with_seeger_fabian", "ramsch"))
    return problems


Entry = ScoredGame | RamschScore | None
"""One row's game: scored, a Ramsch, or None for a passed-in game."""


def row_lines(
    entry: Entry,
    *,
    declarer: int | None,
    dealer: int,
    table_size: int,
    system: ListSystem,
    rules: RuleSet = ISKO,
) -> list[list[int]]:
    """Per seat: [game points, won, lost, games the others lost] of one row."""
    lines = [[0, 0, 0, 0] for _ in range(table_size)]
    add_row(lines, entry, declarer=declarer, dealer=dealer, system=system, rules=rules)
    return lines


def add_row(
    lines: list[list[int]],
    entry: Entry,
    *,
    declarer: int | None,
    dealer: int,
    system: ListSystem,
    rules: RuleSet = ISKO,
) -> None:
    """Add one row's figures to ``lines``, per seat [game points, won, lost, games the
    others lost]: the one place a row's figures are worked out, for a row on its own
    (:func:`row_lines`) and for a list's sums (:func:`summarize_list`), which adds every
    row into the same lines without making each row's.

    A declared game on a classic or Seeger-Fabian list gives the declarer his list score
    and a game won or lost, every other seat a game the others lost and, where the rule set
    credits the opponents, their score unless he sits out; on a zero-sum list every seat
    that settles with the declarer pays him or is paid. A seat sharing the dealer's
    (``shares-dealer``) adds what the dealer's seat adds, and nothing of its own."""
    if entry is None:
        return
    table_size = len(lines)
    sharer = sharing_seat(dealer, table_size, rules)
    if sharer is not None:
        before, shared = list(lines[dealer]), list(lines[sharer])
    if isinstance(entry, RamschScore):
        active = active_seats(dealer, table_size, rules)
        if system is ListSystem.ZERO_SUM:
            settling = [s for s in range(table_size) if s != sharer]
            for player, points in zip(active, entry.points, strict=True):
                # Each charged player pays every other one; a Durchmarsch is paid by all.
                for other in settling:
                    if other != player:
                        lines[player][0] += points
                        lines[other][0] -= points
        else:
            for seat, points in zip(active, entry.points, strict=True):
                lines[seat][0] += points
    else:
        if declarer is None:
            raise ValueError("a declared game needs its declarer")
        lost = 0 if entry.won else 1
        if system is ListSystem.ZERO_SUM:
            settling = [s for s in range(table_size) if s != declarer and s != sharer]
            paid = entry.settlement if lost else -entry.settlement
            for seat in settling:
                lines[seat][0] += paid
                lines[seat][3] += lost
            lines[declarer][0] -= paid * len(settling)
        else:
            credit = entry.opponents_list_score
            out = sitting_out(dealer, table_size, rules) if credit else ()
            for seat in range(table_size):
                if seat != declarer:
                    line = lines[seat]
                    line[3] += lost
                    if credit and seat not in out:
                        line[0] += credit
            lines[declarer][0] += entry.list_score
        lines[declarer][1] += 1 - lost
        lines[declarer][2] += lost
    if sharer is not None:
        lines[sharer] = [
            kept + now - then for kept, now, then in zip(shared, lines[dealer], before, strict=True)
        ]


def row_scores(
    entry: Entry,
    *,
    declarer: int | None,
    dealer: int,
    table_size: int,
    system: ListSystem,
    rules: RuleSet = ISKO,
) -> tuple[int, ...]:
    """Game points each seat writes for one row of the list (bonuses come in the summary).

    Classic and Seeger-Fabian lists credit the declarer's list score (and, where the rule
    set credits the opponents of a lost game, each defender's); in a zero-sum list every
    player who settles with the declarer pays him the value when he wins and is paid the
    charge when he loses.

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.GRAND, bid=18, matadors=1), Outcome(won=True))
    >>> row_scores(g, declarer=1, dealer=0, table_size=3, system=ListSystem.SEEGER_FABIAN)
    (0, 48, 0)
    >>> row_scores(g, declarer=1, dealer=0, table_size=3, system=ListSystem.ZERO_SUM)
    (-48, 96, -48)
    >>> lost = score_game(Declaration(GameType.GRAND, bid=18, matadors=1), Outcome(won=False))
    >>> row_scores(lost, declarer=1, dealer=0, table_size=4, system=ListSystem.ZERO_SUM)
    (48, -144, 48, 48)
    """
    lines = row_lines(
        entry, declarer=declarer, dealer=dealer, table_size=table_size, system=system, rules=rules
    )
    return tuple(line[0] for line in lines)


@dataclass(frozen=True, slots=True)
class ListRow:
    """One row of a list: the scored game (a Ramsch, or None if passed in), the declarer's
    seat (None for a Ramsch or a passed-in game) and the dealer's seat."""

    scored: Entry
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
    rows: Sequence[ListRow],
    table_size: int,
    system: ListSystem = ListSystem.SEEGER_FABIAN,
    rules: RuleSet = ISKO,
) -> tuple[ListSummary, ...]:
    """The summary rows of a list, one per seat.

    Seeger-Fabian: bonus = 50 × (won − lost) + (40 or 30) × games the others lost.

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.SPADES, bid=18, matadors=-1), Outcome(won=False))
    >>> [s.total for s in summarize_list([ListRow(g, 0, 0), ListRow(None, None, 1)], 3)]
    [-94, 40, 40]
    """
    sums = [[0, 0, 0, 0] for _ in range(table_size)]
    for row in rows:
        scored = row.scored
        if isinstance(scored, ScoredGame) and (
            row.declarer is None or check_seat(row.declarer, row.dealer, table_size, rules)
        ):
            raise ValueError(f"declarer seat {row.declarer} cannot declare this game")
        add_row(sums, scored, declarer=row.declarer, dealer=row.dealer, system=system, rules=rules)
    summaries = []
    for points, won, lost, others_lost in sums:
        bonus = 0
        if system is ListSystem.SEEGER_FABIAN:
            bonus = WON_BONUS * (won - lost) + others_lost_bonus(table_size) * others_lost
        summaries.append(
            ListSummary(
                game_points=points,
                won=won,
                lost=lost,
                others_lost=others_lost,
                bonus=bonus,
                total=points + bonus,
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


def role_points(
    entry: Entry,
    *,
    table_size: int,
    system: ListSystem,
    rules: RuleSet = ISKO,
    dealer_declares: bool = False,
) -> dict[str, list[int]]:
    """One game's points for every seat role, Seeger-Fabian bonuses included:
    ``declarer``, ``opponents`` and ``sitting_out`` (a Ramsch: ``players`` from forehand).

    ``dealer_declares`` says, under ``shares-dealer``, that the dealer is the declarer.

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.HEARTS, bid=18, matadors=-2, hand=True),
    ...                Outcome(won=False))
    >>> role_points(g, table_size=3, system=ListSystem.ZERO_SUM)
    {'declarer': [-80], 'opponents': [40, 40], 'sitting_out': []}
    """
    dealer = 0
    active = active_seats(dealer, table_size, rules)
    out = sitting_out(dealer, table_size, rules)
    declarer = None
    if isinstance(entry, ScoredGame):
        declarer = dealer if dealer_declares and dealer in active else active[0]
    lines = row_lines(
        entry, declarer=declarer, dealer=dealer, table_size=table_size, system=system, rules=rules
    )
    if system is ListSystem.SEEGER_FABIAN:
        bonus = others_lost_bonus(table_size)
        points = [p + WON_BONUS * (w - lost) + bonus * o for p, w, lost, o in lines]
    else:
        points = [line[0] for line in lines]
    if declarer is None:
        return {"players": [points[s] for s in active], "sitting_out": [points[s] for s in out]}
    return {
        "declarer": [points[declarer]],
        "opponents": [points[s] for s in active if s != declarer],
        "sitting_out": [points[s] for s in out],
    }

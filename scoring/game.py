"""One game: its declaration and outcome, their validation, and its score (rules.md 1-4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from scoring.bids import is_legal_bid
from scoring.rules import ISKO, GameType, RuleSet


@dataclass(frozen=True, slots=True)
class Declaration:
    """What the declarer announced, and the bid that won the auction.

    ``matadors`` is signed: +2 is "with 2", -3 "without 3"; None for null games.
    """

    game: GameType
    bid: int
    matadors: int | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    kontra: bool = False
    re: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended, in either or both of the archive's two forms.

    Exact: the declarer's ``card_points`` (skat included) and ``tricks``; a null game
    needs ``tricks`` only. Paper flags: ``won`` (the declarer won the play; an overbid
    still loses), ``schneider`` and ``schwarz`` (default False; schwarz implies schneider).
    """

    card_points: int | None = None
    tricks: int | None = None
    won: bool | None = None
    schneider: bool | None = None
    schwarz: bool | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """A reason a game cannot be scored (or, with ``warning``, should be looked at).

    ``code`` is a stable snake_case code; ``field`` the declaration or outcome field
    it concerns, or None for the game as a whole.
    """

    code: str
    field: str | None
    warning: bool = False


class InvalidGame(ValueError):
    """Raised by :func:`score_game` for a game with errors; ``problems`` lists them."""

    def __init__(self, problems: tuple[Problem, ...]) -> None:
        super().__init__(", ".join(f"{p.code} ({p.field})" for p in problems))
        self.problems = problems


class ScoredGame(NamedTuple):
    """A scored game (a named tuple: the engine builds one per game, so it must be cheap).

    ``value`` is what the game counts (kontra included; for an overbid the charged value),
    ``level`` the multiplier of a suit or grand game (None for null games), ``steps`` the
    counted levels in order with their running count, for the breakdown. ``list_score``
    is the declarer's entry on the list; ``opponents_list_score`` each defender's entry,
    non-zero only where a lost game credits the opponents (rule set ``nl``).
    """

    game: GameType
    bid: int
    hand: bool
    ouvert: bool
    won: bool
    overbid: bool
    value: int
    base: int
    level: int | None
    factor: int
    list_score: int
    opponents_list_score: int
    schneider: bool
    schwarz: bool
    steps: tuple[tuple[str, int], ...]
    warnings: tuple[Problem, ...] = ()


# The twelve highest card values: the most points k cards can hold is the sum of the first k.
_CARD_VALUES = (11, 11, 11, 11, 10, 10, 10, 10, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2) + (0,) * 12
_MOST_POINTS = tuple(sum(_CARD_VALUES[:n]) for n in range(33))


_LEVEL_NAMES = (
    "game",
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
)


def card_points_possible(card_points: int, tricks: int) -> bool:
    """Whether a declarer with ``tricks`` tricks (plus the skat) can hold ``card_points``.

    The declarer holds 3 × tricks + 2 cards, the opponents the rest.

    >>> card_points_possible(120, 10), card_points_possible(119, 10)
    (True, False)
    >>> card_points_possible(22, 0), card_points_possible(23, 0)
    (True, False)
    """
    most = _MOST_POINTS[3 * tricks + 2]
    least = 120 - _MOST_POINTS[3 * (10 - tricks)]
    return least <= card_points <= most


def check_game(declaration: Declaration, outcome: Outcome, rules: RuleSet = ISKO) -> list[Problem]:
    """Every problem of a game: errors, and warnings marked ``warning=True``.

    >>> check_game(Declaration(GameType.HEARTS, bid=19, matadors=0), Outcome(won=True))
    [Problem(code='bid_not_legal', field='bid', warning=False), \
Problem(code='matadors_out_of_range', field='matadors', warning=False)]
    >>> check_game(Declaration(GameType.NULL, bid=24), Outcome(tricks=0))
    [Problem(code='null_below_bid', field='bid', warning=True)]
    """
    return list(_evaluate(declaration, outcome, rules)[0])


def score_game(declaration: Declaration, outcome: Outcome, rules: RuleSet = ISKO) -> ScoredGame:
    """Score one declared game; raises :class:`InvalidGame` if it has errors.

    >>> g = score_game(Declaration(GameType.GRAND, bid=20, matadors=2, hand=True),
    ...                Outcome(card_points=78, tricks=7))
    >>> g.won, g.level, g.value, g.list_score
    (True, 4, 96, 96)
    >>> g = score_game(Declaration(GameType.DIAMONDS, bid=22, matadors=-1),
    ...                Outcome(card_points=70, tricks=6))
    >>> g.won, g.overbid, g.value, g.list_score
    (False, True, 27, -54)
    """
    problems, scored = _evaluate(declaration, outcome, rules)
    if scored is None:
        raise InvalidGame(tuple(p for p in problems if not p.warning))
    return scored


def _evaluate(
    d: Declaration, o: Outcome, rules: RuleSet
) -> tuple[tuple[Problem, ...], ScoredGame | None]:
    """Validate and, where valid, score: one pass serves both public functions."""
    problems: list[Problem] = []
    add = problems.append
    game = d.game
    trump_game = game is not GameType.NULL and game is not GameType.REVOLUTION

    if not is_legal_bid(d.bid, rules):
        add(Problem("bid_not_legal", "bid"))

    null_value: int | None = None
    if trump_game:
        if d.matadors is None:
            add(Problem("matadors_missing", "matadors"))
        elif not 1 <= abs(d.matadors) <= (4 if game is GameType.GRAND else 11):
            add(Problem("matadors_out_of_range", "matadors"))
        if not d.hand:
            if d.schneider_announced:
                add(Problem("announcement_requires_hand", "schneider_announced"))
            if d.schwarz_announced:
                add(Problem("announcement_requires_hand", "schwarz_announced"))
            if d.ouvert and rules.ouvert_needs_hand:
                add(Problem("ouvert_requires_hand", "ouvert"))
    else:
        if game is GameType.REVOLUTION:
            null_value = rules.revolution
            if null_value is None:
                add(Problem("game_not_in_rules", "game"))
        else:
            null_value = rules.null_value(hand=d.hand, ouvert=d.ouvert)
            if null_value is None:
                add(Problem("null_hand_not_in_rules", "hand"))
        if d.matadors is not None:
            add(Problem("matadors_not_allowed", "matadors"))
        if d.schneider_announced:
            add(Problem("announcement_not_for_null", "schneider_announced"))
        if d.schwarz_announced:
            add(Problem("announcement_not_for_null", "schwarz_announced"))

    if not rules.kontra:
        if d.kontra:
            add(Problem("kontra_not_allowed", "kontra"))
        if d.re:
            add(Problem("kontra_not_allowed", "re"))
    elif d.re and not d.kontra:
        add(Problem("re_without_kontra", "re"))

    # The outcome, exact form.
    cp, tricks = o.card_points, o.tricks
    if cp is not None and not 0 <= cp <= 120:
        add(Problem("card_points_out_of_range", "card_points"))
        cp = None
    if tricks is not None and not 0 <= tricks <= 10:
        add(Problem("tricks_out_of_range", "tricks"))
        tricks = None
    if cp is not None and tricks is not None and not card_points_possible(cp, tricks):
        add(Problem("card_points_contradict_tricks", "card_points"))
        cp = None

    announced_schwarz = d.schwarz_announced or (d.ouvert and rules.ouvert_implies_announcements)
    announced_schneider = d.schneider_announced or announced_schwarz
    flags_given = o.won is not None
    exact = tricks is not None and (cp is not None or not trump_game)
    if not exact and not flags_given:
        if o.card_points is not None and o.tricks is None:
            add(Problem("tricks_missing", "tricks"))
        elif o.tricks is not None and o.card_points is None and trump_game:
            add(Problem("card_points_missing", "card_points"))
        elif o.card_points is None and o.tricks is None:
            add(Problem("outcome_missing", None))

    # The outcome as flags: schwarz implies schneider; an explicit False contradicts it.
    flag_schwarz = bool(o.schwarz)
    flag_schneider = bool(o.schneider) or (flag_schwarz and o.schneider is None)
    if flag_schwarz and o.schneider is False:
        add(Problem("schwarz_without_schneider", "schwarz"))
    if not trump_game:
        if o.schneider:
            add(Problem("level_not_for_null", "schneider"))
        if o.schwarz:
            add(Problem("level_not_for_null", "schwarz"))
    elif o.won and (
        (announced_schneider and not flag_schneider) or (announced_schwarz and not flag_schwarz)
    ):
        add(Problem("won_contradicts_announcement", "won"))

    # What was reached in play.
    won_play = bool(o.won)
    schneider = flag_schneider
    schwarz = flag_schwarz
    if exact:
        assert tricks is not None
        if trump_game:
            assert cp is not None
            schwarz = tricks == 0 or tricks == 10
            schneider = cp >= rules.schneider_at or cp <= 30
            won_play = (
                cp >= 61
                and (not announced_schneider or cp >= rules.schneider_at)
                and (not announced_schwarz or tricks == 10)
            )
        else:
            won_play = tricks == 0
        if flags_given:
            if o.won != won_play:
                add(Problem("outcome_contradicts", "won"))
            if trump_game and o.schneider is not None and flag_schneider != schneider:
                add(Problem("outcome_contradicts", "schneider"))
            if trump_game and o.schwarz is not None and flag_schwarz != schwarz:
                add(Problem("outcome_contradicts", "schwarz"))

    if not trump_game and null_value is not None and null_value < d.bid:
        add(Problem("null_below_bid", "bid", warning=True))

    if problems and any(not p.warning for p in problems):
        return tuple(problems), None

    factor = (4 if d.re else 2) if d.kontra else 1
    steps: tuple[tuple[str, int], ...]
    if trump_game:
        assert d.matadors is not None
        base = rules.base(game)
        schneider = schneider or announced_schneider
        schwarz = schwarz or announced_schwarz
        level = abs(d.matadors)
        collected = [("with" if d.matadors > 0 else "without", level)]
        for name, counts in zip(
            _LEVEL_NAMES,
            (True, d.hand, schneider, announced_schneider, schwarz, announced_schwarz, d.ouvert),
            strict=True,
        ):
            if counts:
                level += 1
                collected.append((name, level))
        steps = tuple(collected)
        plain = base * level
        multiple: int | None = level
    else:
        assert null_value is not None
        base = plain = null_value
        schneider = schwarz = False
        multiple = level = None
        steps = ()

    overbid = plain < d.bid
    if overbid:
        won = False
        if rules.overbid_charges_bid:
            charged = d.bid
        elif trump_game or game is GameType.REVOLUTION:
            charged = base * -(-d.bid // base)
        else:
            charged = min(
                (v for _, _, v in rules.null_values if v >= d.bid),
                default=base * -(-d.bid // base),
            )
        if multiple is not None:
            multiple = charged // base
    else:
        won = won_play
        charged = plain
    value = charged * factor

    opponents = 0
    if won:
        list_score = value
    elif rules.opponents_paid:
        list_score = 0
        opponents = value if d.hand else 2 * value
    else:
        list_score = -(rules.lost_hand_factor if d.hand else 2) * value

    return tuple(problems), ScoredGame(
        game=game,
        bid=d.bid,
        hand=d.hand,
        ouvert=d.ouvert,
        won=won,
        overbid=overbid,
        value=value,
        base=base,
        level=multiple,
        factor=factor,
        list_score=list_score,
        opponents_list_score=opponents,
        schneider=schneider,
        schwarz=schwarz,
        steps=steps,
        warnings=tuple(problems),
    )

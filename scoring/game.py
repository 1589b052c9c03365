"""One game: its declaration and outcome, their validation, and its score (docs/rules.md 1-4)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from scoring.bids import is_legal_bid
from scoring.rules import DOUBLINGS, ISKO, GameType, LostGame, OuvertRule, OverbidRule, RuleSet


@dataclass(frozen=True, slots=True)
class Declaration:
    """What the declarer announced, and the bid that won the auction.

    ``matadors`` is signed: +2 is "with 2", -3 "without 3"; None for null games. ``bid``
    None: not written down, the game reached its bid (never overbid); a given bid is checked.
    """

    game: GameType
    bid: int | None = None
    matadors: int | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    kontra: bool = False
    re: bool = False
    supra: bool = False
    resupra: bool = False

    @property
    def doublings(self) -> tuple[bool, bool, bool, bool]:
        """Kontra, Re, Supra, Resupra, in order."""
        return (self.kontra, self.re, self.supra, self.resupra)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended, in either or both of the archive's two forms.

    Exact: the declarer's ``card_points`` (skat included) and ``tricks``. Card points alone
    decide the verdict and schneider; tricks are needed only where schwarz is in question
    (0..22 or 120 card points); a null game needs ``tricks`` only. Paper flags: ``won``
    (the declarer won the play; an overbid still loses), ``schneider`` and ``schwarz``
    (default False; schwarz implies schneider). Where both forms are given they must agree.
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

    ``value`` is what the game counts (doublings included; for an overbid the charged value;
    under ``lost_game: add-level`` a lost game's raised value), ``level`` the multiplier of a
    suit or grand game (None for null games and bids charged as they are), ``steps`` the
    counted levels in order with their running count, for the breakdown. ``list_score`` is
    the declarer's entry on the classic list; ``opponents_list_score`` each defender's entry,
    non-zero only where a lost game credits the opponents (``opponents-credited``);
    ``settlement`` what each player who settles with the declarer pays him (won) or is paid
    (lost) in a zero-sum list; ``added_level`` marks a lost game charged one level more.
    """

    game: GameType
    bid: int | None
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
    settlement: int
    added_level: bool
    schneider: bool
    schwarz: bool
    steps: tuple[tuple[str, int], ...]
    warnings: tuple[Problem, ...] = ()


# The 32 cards' values: aces 11, tens 10, kings 4, queens 3, jacks 2, nines, eights, sevens 0.
_CARD_VALUES = (11,) * 4 + (10,) * 4 + (4,) * 4 + (3,) * 4 + (2,) * 4 + (0,) * 12


def _points_of_cards() -> tuple[frozenset[int], ...]:
    """The card points some n of the 32 cards add up to, for n = 0..32 (a subset sum)."""
    sums: list[set[int]] = [{0}] + [set() for _ in _CARD_VALUES]
    for value in _CARD_VALUES:
        for n in range(len(_CARD_VALUES), 0, -1):
            sums[n] |= {s + value for s in sums[n - 1]}
    return tuple(frozenset(s) for s in sums)


_POINTS_OF_CARDS = _points_of_cards()
"""Index n: every sum of card points that n cards can make."""
_POINTS_OF_A_DECLARER = frozenset(p for k in range(11) for p in _POINTS_OF_CARDS[3 * k + 2])
"""Every declarer's card points some deal gives: all of 0..120 but 1 and 119."""


_LEVEL_NAMES = (
    "game",
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
)


_Add = Callable[[Problem], None]
"""Where a phase adds the problems it finds."""


def card_points_possible(card_points: int, tricks: int | None = None) -> bool:
    """Whether a declarer with ``tricks`` tricks (plus the skat) can hold ``card_points``.

    With *k* tricks the declarer holds 3*k* + 2 cards, the skat included, and his card points
    are a sum some 3*k* + 2 of the 32 cards make. ``tricks`` None: with any number of tricks.

    >>> card_points_possible(120, 10), card_points_possible(119, 10)
    (True, False)
    >>> card_points_possible(22, 0), card_points_possible(23, 0), card_points_possible(9, 0)
    (True, False, False)
    >>> card_points_possible(61, 8), card_points_possible(62, 8)
    (False, True)
    >>> card_points_possible(119), card_points_possible(1), card_points_possible(2)
    (False, False, True)
    """
    if tricks is None:
        return card_points in _POINTS_OF_A_DECLARER
    return card_points in _POINTS_OF_CARDS[3 * tricks + 2]


def check_game(declaration: Declaration, outcome: Outcome, rules: RuleSet = ISKO) -> list[Problem]:
    """Every problem of a game: errors, and warnings marked ``warning=True``.

    >>> check_game(Declaration(GameType.HEARTS, bid=19, matadors=0), Outcome(won=True))
    [Problem(code='bid_not_legal', field='bid', warning=False), \
Problem(code='matadors_out_of_range', field='matadors', warning=False)]
    >>> check_game(Declaration(GameType.CLUBS, bid=18, matadors=1), Outcome(card_points=70))
    []
    >>> check_game(Declaration(GameType.NULL, bid=24), Outcome(tricks=0))
    [Problem(code='null_below_bid', field='bid', warning=True)]
    >>> check_game(Declaration(GameType.NULL), Outcome(tricks=0))
    []
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
    trump_game = d.game.is_trump_game
    if d.bid is not None and not is_legal_bid(d.bid, rules):
        add(Problem("bid_not_legal", "bid"))
    if trump_game:
        null_value = None
        _check_trump_declaration(d, rules, add)
    else:
        null_value = _check_null_declaration(d, rules, add)
    factor = _doubling_factor(d.doublings, rules, add)
    schneider_announced, schwarz_announced = _announced(d, rules)
    verdict = _verdict(o, rules, trump_game, schneider_announced, schwarz_announced, add)
    if not trump_game and null_value is not None and d.bid is not None and null_value < d.bid:
        add(Problem("null_below_bid", "bid", warning=True))
    if verdict is None or any(not p.warning for p in problems):
        return tuple(problems), None
    won_play, schneider, schwarz = verdict
    if trump_game:
        assert d.matadors is not None
        schneider = schneider or schneider_announced
        schwarz = schwarz or schwarz_announced
        levels = (
            True,
            d.hand,
            schneider,
            schneider_announced,
            schwarz,
            schwarz_announced,
            d.ouvert,
        )
        base = rules.base(d.game)
        steps = _steps(d.matadors, levels)
        multiple: int | None = steps[-1][1]
    else:
        assert null_value is not None
        base = null_value
        schneider = schwarz = False
        steps = ()
        multiple = None
    return tuple(problems), _charge(
        d, rules, won_play, base, multiple, factor, schneider, schwarz, steps, tuple(problems)
    )


# --- the declaration -------------------------------------------------------------------------


def _check_trump_declaration(d: Declaration, rules: RuleSet, add: _Add) -> None:
    """A suit or grand game: its matadors, and the announcements only a hand game has."""
    if d.matadors is None:
        add(Problem("matadors_missing", "matadors"))
    elif not 1 <= abs(d.matadors) <= rules.most_matadors(d.game):
        add(Problem("matadors_out_of_range", "matadors"))
    if not d.hand:
        if d.schneider_announced:
            add(Problem("announcement_requires_hand", "schneider_announced"))
        if d.schwarz_announced:
            add(Problem("announcement_requires_hand", "schwarz_announced"))
        if d.ouvert and rules.ouvert is OuvertRule.ISKO:
            add(Problem("ouvert_requires_hand", "ouvert"))


def _check_null_declaration(d: Declaration, rules: RuleSet, add: _Add) -> int | None:
    """A null game or Revolution: its value under ``rules`` (None if they lack it); it has
    no matadors and no announcements."""
    if d.game is GameType.REVOLUTION:
        value = rules.revolution
        if value is None:
            add(Problem("game_not_in_rules", "game"))
    else:
        value = rules.null_value(hand=d.hand, ouvert=d.ouvert)
        if value is None:
            add(Problem("null_game_not_in_rules", "hand"))
    if d.matadors is not None:
        add(Problem("matadors_not_allowed", "matadors"))
    if d.schneider_announced:
        add(Problem("announcement_not_for_null", "schneider_announced"))
    if d.schwarz_announced:
        add(Problem("announcement_not_for_null", "schwarz_announced"))
    return value


def _doubling_factor(doublings: tuple[bool, ...], rules: RuleSet, add: _Add) -> int:
    """2 to the number of doublings; each must be allowed and follow the one before."""
    factor = 1
    if any(doublings):
        allowed = len(rules.doubling_names)
        for i, announced in enumerate(doublings):
            if not announced:
                continue
            if i >= allowed:
                add(Problem("doubling_not_allowed", DOUBLINGS[i]))
            elif i and not doublings[i - 1]:
                add(Problem("doubling_out_of_order", DOUBLINGS[i]))
            factor *= 2
    return factor


def _announced(d: Declaration, rules: RuleSet) -> tuple[bool, bool]:
    """Schneider and schwarz announced; an ISkO ouvert suit or grand game announces both."""
    schwarz = d.schwarz_announced or (
        d.ouvert and rules.ouvert is OuvertRule.ISKO and d.game.is_trump_game
    )
    return d.schneider_announced or schwarz, schwarz


# --- the outcome -----------------------------------------------------------------------------


def _verdict(
    o: Outcome,
    rules: RuleSet,
    trump_game: bool,
    schneider_announced: bool,
    schwarz_announced: bool,
    add: _Add,
) -> tuple[bool, bool, bool] | None:
    """The play won, schneider and schwarz as the outcome's two forms settle them; None
    where they cannot be settled (the reasons added)."""
    outcome_ok = _check_outcome_form(o, trump_game, add)
    if o.schwarz and o.schneider is False:
        add(Problem("schwarz_without_schneider", "schwarz"))
    if not trump_game:
        if o.schneider:
            add(Problem("level_not_for_null", "schneider"))
        if o.schwarz:
            add(Problem("level_not_for_null", "schwarz"))
    if not outcome_ok:
        return None
    if trump_game:
        return _trump_verdict(o, rules, schneider_announced, schwarz_announced, add)
    return _null_verdict(o, add)


def _check_outcome_form(o: Outcome, trump_game: bool, add: _Add) -> bool:
    """Whether the exact form (card points, tricks) is possible at all."""
    cp, tricks = o.card_points, o.tricks
    ok = True
    if cp is not None and not 0 <= cp <= 120:
        add(Problem("card_points_out_of_range", "card_points"))
        ok = False
    if tricks is not None and not 0 <= tricks <= 10:
        add(Problem("tricks_out_of_range", "tricks"))
        ok = False
    if not trump_game and cp is not None:
        add(Problem("card_points_not_for_null", "card_points"))
        ok = False
    if ok and cp is not None and tricks is not None and not card_points_possible(cp, tricks):
        add(Problem("card_points_contradict_tricks", "card_points"))
        ok = False
    elif ok and cp is not None and tricks is None and not card_points_possible(cp):
        # 1 or 119: no card is worth one point, so no deal gives either side one.
        add(Problem("card_points_impossible", "card_points"))
        ok = False
    return ok


def _trump_verdict(
    o: Outcome,
    rules: RuleSet,
    schneider_announced: bool,
    schwarz_announced: bool,
    add: _Add,
) -> tuple[bool, bool, bool] | None:
    """A suit or grand game: what the exact form settles, checked against the paper flags."""
    cp, tricks = o.card_points, o.tricks
    # Known from the exact form; None where it does not settle the question.
    points = cp if cp is not None else {0: 0, 10: 120}.get(tricks) if tricks is not None else None
    known_schwarz: bool | None = None
    if tricks is not None:
        known_schwarz = tricks == 0 or tricks == 10
    elif points is not None and 23 <= points <= 119:
        known_schwarz = False
    known_schneider: bool | None = None
    known_won: bool | None = None
    if points is not None:
        known_schneider = points >= rules.schneider_at or points <= 30
        known_won = points >= 61 and (not schneider_announced or points >= rules.schneider_at)
        if known_won and schwarz_announced:
            known_won = known_schwarz
    if o.won is not None and known_won is not None and o.won != known_won:
        # "Won" with the card points of a won game that missed an announced schneider.
        missed = o.won and schneider_announced and 61 <= (points or 0) < rules.schneider_at
        code = "won_below_announced_schneider" if missed else "outcome_contradiction"
        add(Problem(code, "won"))
    if known_schneider is not None and o.schneider not in (None, known_schneider):
        add(Problem("outcome_contradiction", "schneider"))
    if o.schwarz is not None and known_schwarz is not None and o.schwarz != known_schwarz:
        add(Problem("outcome_contradiction", "schwarz"))
    if known_schwarz is None and o.schwarz is not None and points is not None:
        # 0..22 or 120 points: the flag settles schwarz; it must fit the points.
        known_schwarz = o.schwarz
        if known_won is None:
            known_won = known_schwarz
    won = o.won if known_won is None else known_won
    if won is None:
        if cp is None and tricks is None:
            add(Problem("outcome_missing", None))
        elif cp is None:
            add(Problem("card_points_missing", "card_points"))
        else:
            add(Problem("tricks_missing", "tricks"))
        return None
    if known_schwarz is None and points is not None:
        add(Problem("tricks_missing", "tricks"))
        return None
    # Won with an announcement means the announcement was made (docs/rules.md 10.2): a
    # level the flags leave unsaid is reached; only a flag that denies it contradicts.
    made = known_won is None and won
    flag_schwarz = bool(o.schwarz) or (made and schwarz_announced and o.schwarz is None)
    flag_schneider = (
        bool(o.schneider)
        or (flag_schwarz and o.schneider is None)
        or (made and schneider_announced and o.schneider is None)
    )
    schneider = flag_schneider if known_schneider is None else known_schneider
    schwarz = flag_schwarz if known_schwarz is None else known_schwarz
    if (
        known_won is None
        and won
        and ((schneider_announced and not schneider) or (schwarz_announced and not schwarz))
    ):
        add(Problem("won_contradicts_announcement", "won"))
    return won, schneider, schwarz


def _null_verdict(o: Outcome, add: _Add) -> tuple[bool, bool, bool] | None:
    """A null game or Revolution: won with no trick; the paper flag where tricks are not given."""
    won = False
    if o.tricks is not None:
        won = o.tricks == 0
        if o.won is not None and o.won != won:
            add(Problem("outcome_contradiction", "won"))
    elif o.won is not None:
        won = o.won
    else:
        add(Problem("outcome_missing", None))
        return None
    return won, False, False


# --- the charge ------------------------------------------------------------------------------


def _steps(matadors: int, levels: tuple[bool, ...]) -> tuple[tuple[str, int], ...]:
    """The counted levels in order with their running count, from "with" or "without"."""
    level = abs(matadors)
    steps = [("with" if matadors > 0 else "without", level)]
    for name, counts in zip(_LEVEL_NAMES, levels, strict=True):
        if counts:
            level += 1
            steps.append((name, level))
    return tuple(steps)


def _charge(
    d: Declaration,
    rules: RuleSet,
    won_play: bool,
    base: int,
    multiple: int | None,
    factor: int,
    schneider: bool,
    schwarz: bool,
    steps: tuple[tuple[str, int], ...],
    warnings: tuple[Problem, ...],
) -> ScoredGame:
    """What the game counts: the overbid charged, a lost game's level, the doublings, and
    the entries on the list."""
    game = d.game
    trump_game = game.is_trump_game
    plain = base * multiple if multiple is not None else base
    overbid = d.bid is not None and plain < d.bid
    if overbid:
        assert d.bid is not None
        won = False
        if rules.overbid is OverbidRule.BID:
            charged = d.bid
            multiple = None
        elif trump_game or game is GameType.REVOLUTION:
            charged = base * -(-d.bid // base)
        else:
            charged = min(
                (v for _, _, v in rules.null_games() if v >= d.bid),
                default=base * -(-d.bid // base),
            )
        if multiple is not None:
            multiple = charged // base
    else:
        won = won_play
        charged = plain

    lost_game = rules.lost_game
    added_level = not won and trump_game and lost_game is LostGame.ADD_LEVEL
    if added_level:
        multiple = (multiple if multiple is not None else -(-charged // base)) + 1
        charged = base * multiple
    value = charged * factor

    opponents = 0
    settlement = value
    if won:
        list_score = value
    elif lost_game is LostGame.OPPONENTS_CREDITED:
        list_score = 0
        settlement = opponents = value if d.hand else 2 * value
    elif added_level or (lost_game is LostGame.SINGLE_HAND and d.hand):
        list_score = -value
    else:
        list_score = -2 * value

    return ScoredGame(
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
        settlement=settlement,
        added_level=added_level,
        schneider=schneider,
        schwarz=schwarz,
        steps=steps,
        warnings=warnings,
    )

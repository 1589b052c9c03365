"""The words for a game, in the active language: how its value came about.

The engine gives codes and numbers (a game's counted levels as ``steps``, its base, level,
doublings and charge; a Ramsch's charge); this module says them through gettext. The
German source strings are the referee's: "mit 2, Spiel 3, Hand 4 → 4 × 24 = 96".
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.functional import Promise
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import scoring
from scoring.ramsch import DURCHMARSCH

BREAKDOWN_WORDS: dict[str, Promise] = {
    # A suit or grand game's steps, by the engine's codes.
    "with": _("mit"),
    "without": _("ohne"),
    "game": pgettext_lazy("breakdown", "Spiel"),
    "hand": pgettext_lazy("breakdown", "Hand"),
    "schneider": pgettext_lazy("breakdown", "Schneider"),
    "schneider_announced": pgettext_lazy("breakdown", "Schneider angesagt"),
    "schwarz": pgettext_lazy("breakdown", "Schwarz"),
    "schwarz_announced": pgettext_lazy("breakdown", "Schwarz angesagt"),
    "ouvert": pgettext_lazy("breakdown", "Ouvert"),
    # A null game's name.
    "null": _("Null"),
    "revolution": _("Revolution"),
    # The charge.
    "bid": pgettext_lazy("breakdown", "Reizwert"),
    "overbid": _("überreizt"),
    "lost": _("verloren"),
    "lost_level": pgettext_lazy("breakdown", "verloren, eine Stufe mehr:"),
    "each_opponent": pgettext_lazy("breakdown", "je Gegenspieler"),
    "doubled:2": pgettext_lazy("breakdown", "Kontra"),
    "doubled:4": pgettext_lazy("breakdown", "Re"),
    "doubled:8": pgettext_lazy("breakdown", "Supra"),
    "doubled:16": pgettext_lazy("breakdown", "Resupra"),
    # A Ramsch.
    "ramsch": _("Ramsch"),
    "card_points": pgettext_lazy("breakdown", "Augen"),
    "jungfrau": pgettext_lazy("breakdown", "Jungfrau"),
    "durchmarsch": pgettext_lazy("breakdown", "Durchmarsch"),
}
"""The words of a breakdown by code; ``doubled:N`` names the doubling of factor N."""


@lru_cache(maxsize=8)
def _breakdown_words(language: str | None) -> dict[str, str]:
    """:data:`BREAKDOWN_WORDS` in ``language``, translated once per process: a list's rows
    say their values with a handful of words."""
    return {code: str(word) for code, word in BREAKDOWN_WORDS.items()}


def breakdown(scored: scoring.Entry) -> str:
    """How a row's points came about, in words: a game's value or a Ramsch's charge (empty
    for a passed-in game).

    >>> from django.utils import translation
    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.GRAND, bid=18, matadors=2, hand=True),
    ...                Outcome(won=True))
    >>> with translation.override("de"):
    ...     breakdown(g)
    'mit 2, Spiel 3, Hand 4 → 4 × 24 = 96'
    >>> g = score_game(Declaration(GameType.DIAMONDS, bid=22, matadors=-1), Outcome(won=True))
    >>> with translation.override("en"):
    ...     breakdown(g)
    'without 1, game 2 → 2 × 9 = 18 < bid 22: overbid, 3 × 9 = 27, lost −54'
    """
    if scored is None:
        return ""
    words = _breakdown_words(get_language())
    if isinstance(scored, scoring.RamschScore):
        return _ramsch_breakdown(scored, words)
    return _game_breakdown(scored, words)


def _game_breakdown(scored: scoring.ScoredGame, w: dict[str, str]) -> str:
    if scored.steps:
        parts = ", ".join(f"{w[code]} {count}" for code, count in scored.steps)
        counted = scored.steps[-1][1]
        text = f"{parts} → {counted} × {scored.base} = {counted * scored.base}"
    else:
        names = [w[str(scored.game)]]
        names += [w[code] for code, on in (("ouvert", scored.ouvert), ("hand", scored.hand)) if on]
        text = f"{' '.join(names)} {scored.base}"
    charged = scored.value // scored.factor
    level = scored.level
    if scored.added_level and level is not None:
        level -= 1
    if scored.overbid:
        multiple = f"{level} × {scored.base} = " if level is not None else ""
        before = level * scored.base if level is not None else charged
        text += f" < {w['bid']} {scored.bid}: {w['overbid']}, {multiple}{before}"
    if scored.added_level:
        text += f", {w['lost_level']} {scored.level} × {scored.base} = {charged}"
    if scored.factor > 1:
        text += f", {w[f'doubled:{scored.factor}']} × {scored.factor} = {scored.value}"
    if scored.added_level:
        text += f" → −{-scored.list_score}"
    elif not scored.won:
        if scored.opponents_list_score:
            text += f", {w['lost']} +{scored.opponents_list_score} {w['each_opponent']}"
        else:
            text += f", {w['lost']} −{-scored.list_score}"
    return text


def _ramsch_breakdown(scored: scoring.RamschScore, w: dict[str, str]) -> str:
    """A Ramsch's points: who is charged, or the Durchmarsch.

    >>> from scoring.ramsch import Ramsch, score_ramsch
    >>> from django.utils import translation
    >>> with translation.override("de"):
    ...     breakdown(score_ramsch(Ramsch((0, 70, 50), (0, 6, 4))))
    'Ramsch: 70 Augen, Jungfrau × 2 → −140'
    >>> with translation.override("en"):
    ...     breakdown(score_ramsch(Ramsch((0, 120, 0), (0, 10, 0))))
    'Ramsch: Durchmarsch +120'
    """
    if scored.durchmarsch is not None:
        return f"{w['ramsch']}: {w['durchmarsch']} +{DURCHMARSCH}"
    most = scored.charge // 2 if scored.jungfrau else scored.charge
    text = f"{w['ramsch']}: {most} {w['card_points']}"
    if scored.jungfrau:
        text += f", {w['jungfrau']} × 2"
    return f"{text} → −{scored.charge}"

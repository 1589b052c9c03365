"""A game's value as the referee says it: "mit 2, Spiel 3, Hand 4 → 4 × 24 = 96"."""

from __future__ import annotations

from scoring.game import ScoredGame
from scoring.ramsch import DURCHMARSCH, RamschScore

_WORDS = {
    "de": {
        "with": "mit",
        "without": "ohne",
        "game": "Spiel",
        "hand": "Hand",
        "schneider": "Schneider",
        "schneider_announced": "Schneider angesagt",
        "schwarz": "Schwarz",
        "schwarz_announced": "Schwarz angesagt",
        "ouvert": "Ouvert",
        "null": "Null",
        "revolution": "Revolution",
        "bid": "Reizwert",
        "overbid": "überreizt",
        "lost": "verloren",
        "kontra": "Kontra",
        "re": "Re",
        "supra": "Supra",
        "resupra": "Resupra",
        "lost_level": "verloren, eine Stufe mehr:",
        "each_opponent": "je Gegenspieler",
        "ramsch": "Ramsch",
        "card_points": "Augen",
        "jungfrau": "Jungfrau",
        "durchmarsch": "Durchmarsch",
    },
    "en": {
        "with": "with",
        "without": "without",
        "game": "game",
        "hand": "hand",
        "schneider": "schneider",
        "schneider_announced": "schneider announced",
        "schwarz": "schwarz",
        "schwarz_announced": "schwarz announced",
        "ouvert": "ouvert",
        "null": "Null",
        "revolution": "Revolution",
        "bid": "bid",
        "overbid": "overbid",
        "lost": "lost",
        "kontra": "kontra",
        "re": "re",
        "supra": "supra",
        "resupra": "resupra",
        "lost_level": "lost, one level more:",
        "each_opponent": "to each opponent",
        "ramsch": "Ramsch",
        "card_points": "card points",
        "jungfrau": "Jungfrau",
        "durchmarsch": "Durchmarsch",
    },
}
LANGUAGES = tuple(_WORDS)
_DOUBLING_WORDS = {2: "kontra", 4: "re", 8: "supra", 16: "resupra"}


def format_breakdown(scored: ScoredGame, lang: str = "de") -> str:
    """How the value came about, in German (``de``) or English (``en``).

    >>> from scoring import Declaration, GameType, Outcome, score_game
    >>> g = score_game(Declaration(GameType.GRAND, bid=18, matadors=2, hand=True),
    ...                Outcome(won=True))
    >>> format_breakdown(g)
    'mit 2, Spiel 3, Hand 4 → 4 × 24 = 96'
    >>> g = score_game(Declaration(GameType.DIAMONDS, bid=22, matadors=-1), Outcome(won=True))
    >>> format_breakdown(g, "en")
    'without 1, game 2 → 2 × 9 = 18 < bid 22: overbid, 3 × 9 = 27, lost −54'
    """
    w = _WORDS.get(lang, _WORDS["de"])
    if scored.steps:
        first, *rest = scored.steps
        parts = [f"{w[first[0]]} {first[1]}"] + [f"{w[name]} {count}" for name, count in rest]
        counted = scored.steps[-1][1]
        text = f"{', '.join(parts)} → {counted} × {scored.base} = {counted * scored.base}"
    else:
        words = [w[str(scored.game)]]
        words += [w[name] for name, on in (("ouvert", scored.ouvert), ("hand", scored.hand)) if on]
        text = f"{' '.join(words)} {scored.base}"
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
        word = w[_DOUBLING_WORDS[scored.factor]]
        text += f", {word} × {scored.factor} = {scored.value}"
    if scored.added_level:
        text += f" → −{-scored.list_score}"
    elif not scored.won:
        if scored.opponents_list_score:
            text += f", {w['lost']} +{scored.opponents_list_score} {w['each_opponent']}"
        else:
            text += f", {w['lost']} −{-scored.list_score}"
    return text


def format_ramsch(scored: RamschScore, lang: str = "de") -> str:
    """A Ramsch's points in words: who is charged, or the Durchmarsch.

    >>> from scoring.ramsch import Ramsch, score_ramsch
    >>> format_ramsch(score_ramsch(Ramsch((0, 70, 50), (0, 6, 4))))
    'Ramsch: 70 Augen, Jungfrau × 2 → −140'
    >>> format_ramsch(score_ramsch(Ramsch((0, 120, 0), (0, 10, 0))), "en")
    'Ramsch: Durchmarsch +120'
    """
    w = _WORDS.get(lang, _WORDS["de"])
    if scored.durchmarsch is not None:
        return f"{w['ramsch']}: {w['durchmarsch']} +{DURCHMARSCH}"
    most = scored.charge // 2 if scored.jungfrau else scored.charge
    text = f"{w['ramsch']}: {most} {w['card_points']}"
    if scored.jungfrau:
        text += f", {w['jungfrau']} × 2"
    return f"{text} → −{scored.charge}"

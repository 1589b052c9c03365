"""The words for a game, in the active language: its name, its levels and doublings, its
label on a list ("Null ouvert Hand", "Herz Kontra"), a recorded row in words, and how its
value came about ("mit 2, Spiel 3, Hand 4 → 4 × 24 = 96").

The engine gives codes and numbers (the game types, a game's counted levels as ``steps``,
its base, level, doublings and charge; a Ramsch's charge); this module says them through
gettext. The German source strings are the referee's; the models' choices, the forms, the
list pages and the PDFs take their words from here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrPromise

import scoring
from scoring.ramsch import DURCHMARSCH

# --- a game's names --------------------------------------------------------------------------

GAME_NAMES: dict[str, StrPromise] = {
    "clubs": _("Kreuz"),
    "spades": _("Pik"),
    "hearts": _("Herz"),
    "diamonds": _("Karo"),
    "grand": _("Grand"),
    "null": _("Null"),
    "revolution": _("Revolution"),
}
"""The games by the engine's codes (``scoring.GameType``); the models' choices name them so."""

LEVEL_NAMES: dict[str, StrPromise] = {"schneider": _("Schneider"), "schwarz": _("Schwarz")}
"""The levels a game is announced or played to."""

DOUBLING_NAMES: dict[str, StrPromise] = {
    "kontra": _("Kontra"),
    "re": _("Re"),
    "supra": _("Supra"),
    "resupra": _("Resupra"),
}
"""The doublings by field name, in order (``scoring.DOUBLINGS``)."""

FLAG_NAMES: dict[str, StrPromise] = {
    "hand": _("Hand"),
    "schneider_announced": _("Schneider angesagt"),
    "schwarz_announced": _("Schwarz angesagt"),
    "ouvert": _("Ouvert"),
    **DOUBLING_NAMES,
}
"""A declaration's flags by field name."""

RESULT_NAMES: dict[str, StrPromise] = {"won": _("gewonnen"), "lost": _("verloren")}
"""The verdict on a game."""


# --- a game on the list ----------------------------------------------------------------------

LIST_WORDS: dict[str, StrPromise] = {
    "passed": _("eingepasst"),
    "ramsch": _("Ramsch"),
    "ouvert": _("ouvert"),
    "hand": _("Hand"),
    "overbid": _("überreizt"),
    "with": _("m%(count)d"),
    "without": _("o%(count)d"),
    "mark:hand": _("H"),
    "mark:schneider": _("S"),
    "mark:schwarz": _("Sw"),
    "mark:ouvert": _("O"),
    "mark:kontra": _("K"),
    "mark:re": _("Re"),
    "mark:supra": _("Su"),
    "mark:resupra": _("Rs"),
}
"""The words of a list's rows: a game's label ("Null ouvert Hand"), the matadors ("m2",
"o3"), and the marks of the flag and Kontra columns (``mark:``)."""


@lru_cache(maxsize=8)
def list_words(language: str | None) -> dict[str, str]:
    """:data:`LIST_WORDS`, the games (``game:``) and the doublings (``doubling:``) in
    ``language``, translated once per process: a series' sheets name hundreds of games with
    a handful of words."""
    words = {code: str(word) for code, word in LIST_WORDS.items()}
    words |= {f"doubling:{name}": str(word) for name, word in DOUBLING_NAMES.items()}
    words |= {f"game:{code}": str(word) for code, word in GAME_NAMES.items()}
    return words


class Declared(Protocol):
    """What the words need of a recorded game (``models.Game``)."""

    @property
    def game(self) -> str: ...
    @property
    def hand(self) -> bool: ...
    @property
    def ouvert(self) -> bool: ...


def matadors_text(matadors: int | None, words: dict[str, str] | None = None) -> str:
    """Matadors as written on a list: ``m2`` (with 2), ``o3`` (without 3)."""
    if matadors is None:
        return ""
    words = words or list_words(get_language())
    if matadors > 0:
        return words["with"] % {"count": matadors}
    return words["without"] % {"count": -matadors}


def _highest_doubling(game: Declared) -> str | None:
    return next((name for name in reversed(scoring.DOUBLINGS) if getattr(game, name)), None)


def doubling_mark(game: Declared, words: dict[str, str] | None = None) -> str:
    """The highest doubling of a game as the list's Kontra column writes it: K, Re, Su, Rs."""
    highest = _highest_doubling(game)
    return (words or list_words(get_language()))[f"mark:{highest}"] if highest else ""


def game_label(
    game: Declared,
    scored: scoring.Entry,
    *,
    doubling: bool = True,
    words: dict[str, str] | None = None,
) -> str:
    """The game as the list names it: "Kreuz", "Grand", "Null ouvert Hand", "Herz Kontra"
    (the doubling left out where the sheet has its own column for it). ``words`` are
    :func:`list_words` of the active language, where the caller has looked them up already."""
    words = words or list_words(get_language())
    if not isinstance(scored, scoring.ScoredGame):
        return words["ramsch"] if scored is not None else words["passed"]
    label = [words[f"game:{game.game}"]]
    if not scored.steps:
        if game.ouvert:
            label.append(words["ouvert"])
        if game.hand:
            label.append(words["hand"])
    if doubling:
        highest = _highest_doubling(game)
        if highest is not None:
            label.append(words[f"doubling:{highest}"])
    if scored.overbid:
        label.append(words["overbid"])
    return " ".join(label)


def describe_game(data: dict[str, Any] | None, names: dict[int, str]) -> str:
    """A row as the archive stores it, in words: "2 Bernd: Grand, mit 2, Hand, Reizwert 24, …"."""
    if not data:
        return "—"
    if data.get("passed"):
        return gettext("eingepasst")
    ramsch = data.get("ramsch")
    if isinstance(ramsch, dict):
        points = " / ".join(map(str, ramsch.get("card_points", [])))
        tricks = " / ".join(map(str, ramsch.get("tricks", [])))
        return gettext("Ramsch: %(points)s Augen, %(tricks)s Stiche") % {
            "points": points,
            "tricks": tricks,
        }
    game = data.get("game")
    name = GAME_NAMES.get(game) if isinstance(game, str) else None
    parts = [str(game if name is None else name)]
    matadors = data.get("matadors")
    if matadors is not None:
        template = gettext("mit %(count)s") if matadors > 0 else gettext("ohne %(count)s")
        parts.append(template % {"count": abs(matadors)})
    parts += [str(word) for key, word in FLAG_NAMES.items() if data.get(key)]
    if data.get("bid") is not None:
        parts.append(gettext("Reizwert %(bid)s") % {"bid": data["bid"]})
    if data.get("card_points") is not None:
        parts.append(gettext("%(points)s Augen") % {"points": data["card_points"]})
    if data.get("tricks") is not None:
        parts.append(gettext("%(tricks)s Stiche") % {"tricks": data["tricks"]})
    if data.get("won") is not None:
        parts.append(str(RESULT_NAMES["won" if data["won"] else "lost"]))
    if data.get("schwarz"):
        parts.append(str(LEVEL_NAMES["schwarz"]))
    elif data.get("schneider"):
        parts.append(str(LEVEL_NAMES["schneider"]))
    text = ", ".join(parts)
    seat = data.get("declarer_seat")
    if seat is not None:
        person = names.get(seat)
        text = f"{seat} {person}: {text}" if person else f"{seat}: {text}"
    return text


# --- how a game's value came about -----------------------------------------------------------

BREAKDOWN_WORDS: dict[str, StrPromise] = {
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
    "null": GAME_NAMES["null"],
    "revolution": GAME_NAMES["revolution"],
    # The charge.
    "bid": pgettext_lazy("breakdown", "Reizwert"),
    "overbid": LIST_WORDS["overbid"],
    "lost": RESULT_NAMES["lost"],
    "lost_level": pgettext_lazy("breakdown", "verloren, eine Stufe mehr:"),
    "each_opponent": pgettext_lazy("breakdown", "je Gegenspieler"),
    "doubled:2": pgettext_lazy("breakdown", "Kontra"),
    "doubled:4": pgettext_lazy("breakdown", "Re"),
    "doubled:8": pgettext_lazy("breakdown", "Supra"),
    "doubled:16": pgettext_lazy("breakdown", "Resupra"),
    # A Ramsch.
    "ramsch": LIST_WORDS["ramsch"],
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

"""The engine's error codes in words: one table for the site and the command line.

The words are German, the source language of the project's catalogs
(``locale/<language>/LC_MESSAGES/django.po``): the site shows them through Django's
translation (``skatliga.messages``), the command line (``python -m scoring``) through the
standard library's ``gettext`` reading the same catalogs (:func:`in_language`). ``_`` only
marks a text for ``makemessages``; it is translated where it is shown.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale"
"""The project's catalogs; without them (the engine copied alone) the words stay German."""


def _(text: str) -> str:
    return text


WORDS: dict[str, str] = {
    # The engine: one game.
    "game_not_in_rules": _("Dieses Spiel gibt es im Regelwerk des Turniers nicht."),
    "matadors_missing": _("Spitzen fehlen (mit 2: 2, ohne 3: -3)."),
    "matadors_out_of_range": _(
        "Spitzen: Farbspiel 1–11, Grand 1–4 (nur Buben gezählt: 1–4); 0 gibt es nicht."
    ),
    "matadors_not_allowed": _("Null-Spiele haben keine Spitzen."),
    "announcement_requires_hand": _("Schneider oder Schwarz ansagen geht nur bei Handspielen."),
    "ouvert_requires_hand": _("Ouvert geht nur als Handspiel."),
    "announcement_not_for_null": _("Bei Null-Spielen wird nichts angesagt."),
    "null_game_not_in_rules": _("Dieses Null-Spiel gibt es in diesem Regelwerk nicht."),
    "doubling_not_allowed": _("Diese Verdopplung erlaubt das Regelwerk nicht."),
    "doubling_out_of_order": _("Re nur nach Kontra, Supra nur nach Re, Resupra nur nach Supra."),
    "bid_not_legal": _("Kein gültiger Reizwert (18, 20, 22, 23, 24, 27, 30, …)."),
    "card_points_out_of_range": _("Augen: 0 bis 120."),
    "tricks_out_of_range": _("Stiche: 0 bis 10."),
    "card_points_contradict_tricks": _(
        "Diese Augen passen nicht zu den Stichen: so viele Karten (je Stich 3, dazu die 2 im "
        "Skat) ergeben diese Augen nicht."
    ),
    "card_points_impossible": _("1 oder 119 Augen gibt es nicht: keine Karte zählt 1 Auge."),
    "outcome_missing": _(
        "Ergebnis fehlt: Augen und Stiche eintragen oder gewonnen/verloren wählen."
    ),
    "tricks_missing": _("Stiche fehlen: bei 0–22 oder 120 Augen entscheiden sie über Schwarz."),
    "card_points_not_for_null": _("Null-Spiele werden nach Stichen gewertet, nicht nach Augen."),
    "card_points_missing": _("Augen fehlen (oder gewonnen/verloren wählen)."),
    "schwarz_without_schneider": _("Schwarz ist immer auch Schneider."),
    "outcome_contradiction": _("Widerspricht den Augen oder Stichen."),
    "won_below_announced_schneider": _(
        "Schneider angesagt: gewonnen erst, wenn der Gegner Schneider ist."
    ),
    "won_contradicts_announcement": _(
        "Gewonnen, aber die Ansage (Schneider, Schwarz, Ouvert) wurde nicht erreicht."
    ),
    "level_not_for_null": _("Null-Spiele kennen weder Schneider noch Schwarz."),
    "null_below_bid": _(
        "Dieses Null-Spiel ist weniger wert als der Reizwert: überreizt "
        "(die Gegenspieler hätten es zurückweisen sollen)."
    ),
    "declarer_not_at_table": _("Diesen Platz gibt es an diesem Tisch nicht."),
    "declarer_is_dealer": _("Der Geber sitzt in diesem Spiel aus und kann nicht spielen."),
    "declarer_sits_out": _("Dieser Spieler sitzt in diesem Spiel aus und kann nicht spielen."),
    # The engine: tables, list systems and Ramsch.
    "five_table_not_with_seeger_fabian": _(
        "Fünfertische gibt es nur mit klassischer oder Nullsummen-Liste, nicht mit Seeger-Fabian."
    ),
    "ramsch_not_with_seeger_fabian": _("Ramsch wird nicht mit Seeger-Fabian gespielt."),
    "ramsch_not_in_rules": _("Ramsch gibt es in diesem Regelwerk nicht."),
    "ramsch_players": _("Ramsch: Augen und Stiche der drei Spieler ab Vorhand angeben."),
    "ramsch_card_points_sum": _("Ramsch: die Augen der drei Spieler ergeben zusammen 120."),
    "ramsch_tricks_sum": _("Ramsch: die Stiche der drei Spieler ergeben zusammen 10."),
    "unknown_option": _("unbekannte Regeloption"),
    "unknown_list_system": _("unbekannte Listenwertung"),
    "duplicate_key": _("ein Schlüssel kommt doppelt vor"),
    "option_value_invalid": _("diesen Wert kann die Regeloption nicht haben"),
    # The engine: the declarer's cards.
    "card_unknown": _("Unbekannte Karte; Beispiele: CJ, SA, H10, D7 (oder ♣J, ♠A, ♥10, ♦7)."),
    "card_duplicate": _("Eine Karte kommt doppelt vor."),
    "hand_size": _("12 Karten angeben: 10 auf der Hand, dann die 2 im Skat."),
    "skat_size": _("12 Karten angeben: 10 auf der Hand, dann die 2 im Skat."),
    "game_has_no_matadors": _("Null-Spiele haben keine Spitzen."),
    # A request's shape: the command line's and the archive's.
    "not_an_object": _("muss ein Objekt sein"),
    "unknown_key": _("unbekannter Schlüssel"),
    "required": _("fehlt"),
    "wrong_type": _("falscher Typ"),
    "unknown_rules": _("unbekanntes Regelwerk"),
    "table_size_invalid": _("ein Tisch hat 3, 4 oder 5 Plätze"),
    "unknown_game": _("unbekanntes Spiel"),
    # The command line alone.
    "invalid_json": _("Die Zeile ist kein gültiges JSON."),
    "invalid_utf8": _("Die Zeile ist kein gültiges UTF-8."),
    "internal_error": _("Diese Zeile konnte nicht gewertet werden."),
}


@cache
def _catalog(language: str) -> gettext.NullTranslations:
    return gettext.translation("django", LOCALE, languages=[language], fallback=True)


def in_language(code: str, language: str = "en") -> str:
    """The words for ``code`` in ``language`` (the code itself for an unknown one).

    >>> in_language("tricks_out_of_range", "de")
    'Stiche: 0 bis 10.'
    """
    words = WORDS.get(code)
    if words is None:
        return code
    return _catalog(language).gettext(words)

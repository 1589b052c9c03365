"""Choices the models share: game types, rule sets, list systems, categories."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

import scoring
from skatliga.words import GAME_NAMES


class GameType(models.TextChoices):
    """Mirrors ``scoring.GameType`` (a test checks they match), named by ``words.GAME_NAMES``."""

    CLUBS = "clubs", GAME_NAMES["clubs"]
    SPADES = "spades", GAME_NAMES["spades"]
    HEARTS = "hearts", GAME_NAMES["hearts"]
    DIAMONDS = "diamonds", GAME_NAMES["diamonds"]
    GRAND = "grand", GAME_NAMES["grand"]
    NULL = "null", GAME_NAMES["null"]
    REVOLUTION = "revolution", GAME_NAMES["revolution"]


class RuleSetName(models.TextChoices):
    """Mirrors ``scoring.PRESETS``: the named presets of rule options."""

    ISKO = "isko", _("ISkO (Internationale Skatordnung)")
    ISKO_KONTRA = "isko-kontra", _("ISkO mit Kontra und Re")
    PRE1999 = "pre1999", _("vor 1999 (verlorene Handspiele einfach)")
    GRAND20 = "grand20", _("Grand 20")
    DSU = "dsu", _("Dansk Skat Union")
    SE = "se", _("Schwedisch")
    NL = "nl", _("Niederländisch")


class ListSystem(models.TextChoices):
    """Mirrors ``scoring.ListSystem``."""

    SEEGER_FABIAN = "seeger-fabian", _("Seeger-Fabian")
    CLASSIC = "classic", _("klassisch")
    ZERO_SUM = "zero-sum", _("Nullsumme")


TRUMP_GAMES = [g.value for g in scoring.GameType if g.is_trump_game]
NULL_GAMES = [g.value for g in scoring.GameType if not g.is_trump_game]


class Category(models.TextChoices):
    """A player's category, with its own rankings (empty: none)."""

    WOMEN = "damen", _("Damen")
    SENIORS = "senioren", _("Senioren")
    JUNIORS = "junioren", _("Junioren")


def language_field() -> models.CharField[str, str]:
    """The language a tournament or season prints in and its public pages start in."""
    return models.CharField(
        _("Sprache"),
        max_length=8,
        choices=settings.LANGUAGES,
        default="de",
        help_text=_("Für Ausdrucke und als Vorgabe der öffentlichen Seiten."),
    )

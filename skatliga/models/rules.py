"""The rule set and list system a tournament plays, and a season gives its tournaments."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrPromise

import scoring
from scoring import ListSystem as EngineListSystem
from scoring import RuleSet
from skatliga.models.choices import ListSystem, RuleSetName


class PlaysRules(models.Model):
    """A preset, the house options that differ from it, and a list system (docs/rules.md
    sections 5 and 8)."""

    rules = models.CharField(
        _("Regelwerk"), max_length=20, choices=RuleSetName.choices, default=RuleSetName.ISKO
    )
    rule_options = models.JSONField(
        _("Hausregeln"),
        default=dict,
        blank=True,
        help_text=_("Optionen, die vom Regelwerk abweichen, wie im Archiv geschrieben."),
    )
    scoring = models.CharField(
        _("Listenwertung"),
        max_length=20,
        choices=ListSystem.choices,
        default=ListSystem.SEEGER_FABIAN,
    )

    class Meta:
        abstract = True

    def rule_fields(self) -> dict[str, Any]:
        """The preset, the house options and the list system, by field name (a season's
        are its new tournaments' defaults)."""
        return {
            "rules": self.rules,
            "rule_options": dict(self.rule_options),
            "scoring": self.scoring,
        }

    @property
    def rule_set(self) -> RuleSet:
        """The preset with the house options (docs/rules.md section 8)."""
        if not self.rule_options:
            return scoring.get_rules(self.rules)
        return scoring.rules_from_json({"preset": self.rules, **self.rule_options})

    @property
    def rules_text(self) -> str:
        """The preset and the house options in words, as pages and printouts show them."""
        return describe_rules(self.rule_set)

    @property
    def list_system(self) -> EngineListSystem:
        return EngineListSystem(self.scoring)


# --- rule options in words (docs/rules.md section 8) ----------------------------------------

OPTION_NAMES: dict[str, StrPromise] = {
    "grand_base": _("Grundwert Grand"),
    "matadors": _("Spitzen"),
    "null_values": _("Null-Spiele"),
    "doublings": _("Verdopplungen"),
    "ouvert": _("Offen spielen"),
    "schneider_at": _("Schneider ab"),
    "lost_game": _("Verlorenes Spiel"),
    "overbid": _("Überreizt"),
    "revolution": _("Revolution"),
    "fourth_player": _("Vierter Spieler"),
    "ramsch": _("Ramsch"),
}

OPTION_VALUES: dict[tuple[str, Any], StrPromise] = {
    ("matadors", "trumps"): _("Trumpffolge (ISkO)"),
    ("matadors", "jacks"): _("nur Buben (1–4)"),
    ("doublings", "none"): _("keine"),
    ("doublings", "kontra-re"): _("Kontra, Re"),
    ("doublings", "kontra-re-supra-resupra"): _("Kontra, Re, Supra, Resupra"),
    ("ouvert", "isko"): _("nur Hand, mit Schneider und Schwarz angesagt (ISkO)"),
    ("ouvert", "open-plus-one"): _("eine Stufe mehr, auch ohne Hand"),
    ("lost_game", "double"): _("doppelt (ISkO)"),
    ("lost_game", "single-hand"): _("Handspiele einfach (vor 1999)"),
    ("lost_game", "add-level"): _("eine Stufe mehr, einfach"),
    ("lost_game", "opponents-credited"): _("den Gegenspielern gutgeschrieben"),
    ("overbid", "next-multiple"): _("nächstes Vielfaches des Grundwerts (ISkO)"),
    ("overbid", "bid"): _("der Reizwert"),
    ("revolution", None): _("nein"),
    ("revolution", 92): _("92"),
    ("fourth_player", "dealer-sits-out"): _("der Geber setzt aus"),
    ("fourth_player", "shares-dealer"): _("der Vorgeber setzt aus und teilt mit dem Geber"),
    ("ramsch", False): _("nein"),
    ("ramsch", True): _("ja, statt eingepasst"),
}


def option_value_text(name: str, value: Any) -> str:
    """One option's value in words; numbers and the null values as they are written."""
    words = OPTION_VALUES.get((name, value))
    if words is not None:
        return str(words)
    if name == "schneider_at":
        return str(_("%(points)s Augen")) % {"points": value}
    return str(value)


def describe_rules(rules: scoring.RuleSet) -> str:
    """The rule set as a sheet or a result list prints it: the preset, then the house
    options that differ from it, in words."""
    text = str(RuleSetName(rules.preset).label)
    changes = rules.changes()
    if not changes:
        return text
    options = "; ".join(
        f"{OPTION_NAMES[name]}: {option_value_text(name, value)}" for name, value in changes.items()
    )
    return str(_("%(preset)s mit Hausregeln: %(options)s")) % {"preset": text, "options": options}

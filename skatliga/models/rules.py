"""The rule set and list system a tournament plays, and a season gives its tournaments."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

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
        from skatliga.messages import describe_rules

        return describe_rules(self.rule_set)

    @property
    def list_system(self) -> EngineListSystem:
        return EngineListSystem(self.scoring)

"""The forms of a tournament's settings, its referees and change log, and the archive."""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

import scoring
from skatliga import services
from skatliga.forms import coded_error
from skatliga.models import Change, Season, Tournament
from skatliga.models.rules import OPTION_NAMES, option_value_text

OPTION_FIELD = "option_%s"
"""The settings form's field for one rule option (its house rule)."""


class RuleOptionsForm(forms.BaseForm):
    """The preset's house rules, one field per rule option (docs/rules.md section 8): the
    tournament's settings and the season's (its tournaments' defaults) share them.

    The form has a ``rules`` (preset) and a ``scoring`` (list system) field of its own;
    ``cleaned_data["rule_options"]`` holds the options that differ from the preset, as the
    archive writes them.
    """

    def add_option_fields(self, house: dict[str, Any]) -> None:
        """One field per rule option, the preset's value unless ``house`` says otherwise."""
        for name in scoring.OPTIONS:
            field_name = OPTION_FIELD % name
            if name == "null_values":
                field: forms.Field = forms.CharField(
                    max_length=20,
                    required=False,
                    help_text=_("Null, Hand, Ouvert, Ouvert Hand; „-“ wo es das Spiel nicht gibt"),
                    widget=forms.TextInput(attrs={"placeholder": "23/35/46/59", "size": 12}),
                )
            else:
                values = [
                    (
                        json.dumps(scoring.option_to_json(name, value)),
                        option_value_text(name, value),
                    )
                    for value in scoring.OPTION_CHOICES[name]
                ]
                field = forms.ChoiceField(
                    choices=[("", _("wie Regelwerk")), *values], required=False
                )
            field.label = OPTION_NAMES[name]
            self.fields[field_name] = field
            if name in house:
                value = house[name]
                self.initial[field_name] = value if name == "null_values" else json.dumps(value)

    def option_fields(self) -> list[forms.BoundField]:
        """The house-rule fields, for the settings page's own fieldset."""
        return [self[OPTION_FIELD % name] for name in scoring.OPTIONS]

    def main_fields(self) -> list[forms.BoundField]:
        """The other fields, in their order."""
        options = {OPTION_FIELD % name for name in scoring.OPTIONS}
        return [self[name] for name in self.fields if name not in options]

    def clean_rule_options(self, data: dict[str, Any]) -> None:
        """Read the option fields into ``data["rule_options"]`` and check the list system
        against the rule set; errors go onto their fields."""
        options: dict[str, Any] = {}
        for name in scoring.OPTIONS:
            chosen = data.pop(OPTION_FIELD % name, "")
            if not chosen:
                continue
            value = chosen.strip() if name == "null_values" else json.loads(chosen)
            try:
                scoring.option_from_json(name, value)
            except scoring.RulesError as error:
                self.add_error(OPTION_FIELD % name, coded_error(error.code))
                continue
            options[name] = value
        preset = data.get("rules") or scoring.ISKO.preset
        if preset in scoring.RULE_SETS:
            rules = scoring.rules_from_json({"preset": preset, **options})
            data["rule_options"] = rules.changes()
            system = data.get("scoring")
            if system:
                for problem in scoring.check_table(3, scoring.ListSystem(system), rules):
                    self.add_error("scoring", coded_error(problem.code))


class TournamentForm(RuleOptionsForm, forms.ModelForm[Tournament]):
    """A tournament's settings: the preset and, per rule option, the preset's value or a
    house rule (:class:`RuleOptionsForm`). A new tournament of a season starts with the
    season's (``initial``: ``Season.rule_fields``)."""

    class Meta:
        model = Tournament
        fields = [name for name in services.SETTINGS if name != "rule_options"]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "starts_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField[Season], self.fields["season"]).queryset = Season.objects.all()
        rounds = cast(forms.IntegerField, self.fields["rounds_per_series"])
        rounds.min_value, rounds.max_value = 1, 30
        # The column's own bounds (0 to 32767) would name the wrong range: the one check,
        # with the real range in its message, is clean_rounds_per_series.
        rounds.validators = [
            v for v in rounds.validators if not isinstance(v, MinValueValidator | MaxValueValidator)
        ]
        rounds.widget.attrs.update(min=1, max=30)
        self.fields["language"].required = False
        # Empty is no objection window, as 0 is.
        self.fields["objection_minutes"].required = False
        rounds.help_text = _("12 Runden: 48 Spiele am Vierertisch, 36 am Dreiertisch.")
        self.add_option_fields(
            self.instance.rule_options if self.instance.pk else self.initial.get("rule_options", {})
        )

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.Meta.fields]

    def clean_language(self) -> str:
        return self.cleaned_data["language"] or self.instance.language

    def clean_objection_minutes(self) -> int:
        minutes: int | None = self.cleaned_data["objection_minutes"]
        return minutes or 0

    def clean_rounds_per_series(self) -> int:
        rounds: int = self.cleaned_data["rounds_per_series"]
        if not 1 <= rounds <= 30:
            raise coded_error("rounds_out_of_range")
        return rounds

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_rule_options(data)
        return data


class RefereeForm(forms.Form):
    username = forms.CharField(
        label=_("Benutzername"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class ChangeFilterForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Art"), choices=[("", _("alle"))] + Change.Action.choices, required=False
    )


class ArchiveUploadForm(forms.Form):
    MAX_BYTES = 20 * 1024 * 1024

    file = forms.FileField(label=_("Archivdatei (JSON)"))
    again = forms.BooleanField(
        label=_("Trotzdem noch einmal importieren"),
        required=False,
        help_text=_("Nur wenn dasselbe Turnier bewusst ein zweites Mal angelegt werden soll."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise coded_error("archive_too_large")
        return upload

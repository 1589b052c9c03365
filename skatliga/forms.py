"""Forms of the referee's pages: they parse what was typed; the services decide and save.

Errors carry the same codes as the engine and the services (``ValidationError.code``); the
words come from :mod:`skatliga.messages`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import scoring
from skatliga import services
from skatliga.messages import message
from skatliga.models import (
    Change,
    Game,
    GameType,
    Player,
    Registration,
    Season,
    Seat,
    SecondEntry,
    Team,
    Tournament,
)
from skatliga.models.rules import OPTION_NAMES, option_value_text
from skatliga.words import DOUBLING_NAMES, FLAG_NAMES, LEVEL_NAMES, RESULT_NAMES

PASSED = "0"
"""The declarer choice that records a passed-in game."""

ANNOUNCED = (("", "—"), *LEVEL_NAMES.items())
LEVELS = (("", "—"), *LEVEL_NAMES.items())
RESULTS = (("", "—"), *RESULT_NAMES.items())
RAMSCH = "R"
"""The declarer choice that records a Ramsch (where the rule set plays it)."""

# Keys that pick an option, as typed in the select (entry.js); digits are the base values.
GAME_KEYS = {
    "clubs": "k c 12",
    "spades": "p s 11",
    "hearts": "h 10",
    "diamonds": "d 9",
    "grand": "g 24",
    "null": "n 23",
    "revolution": "r 92",
}
CHOICE_KEYS = {
    "announced": {"": "0 -", "schneider": "s 1", "schwarz": "w 2"},
    "level": {"": "0 -", "schneider": "s 1", "schwarz": "w 2"},
    "won": {"": "0", "won": "+ g w", "lost": "- v l"},
    "doubling": {"": "0 -", "kontra": "k 1", "re": "r 2", "supra": "s 3", "resupra": "u 4"},
}

# The engine's and services' field names, and the form field that shows their problems.
FIELD_OF_PROBLEM = {
    "declarer": "declarer",
    "game": "game",
    "matadors": "matadors",
    "hand": "hand",
    "schneider_announced": "announced",
    "schwarz_announced": "announced",
    "ouvert": "ouvert",
    "kontra": "doubling",
    "re": "doubling",
    "supra": "doubling",
    "resupra": "doubling",
    "ramsch": "declarer",
    "ramsch_card_points": "ramsch_card_points",
    "ramsch_tricks": "ramsch_tricks",
    "bid": "bid",
    "card_points": "card_points",
    "tricks": "tricks",
    "won": "won",
    "schneider": "level",
    "schwarz": "level",
    "cards": "cards",
    "reason": "reason",
}

_MATADORS = re.compile(
    r"^(?:(?P<with>\+|mit|m|with|w)|(?P<without>-|−|ohne|o|without))?\s*(?P<count>\d{1,2})$",
    re.IGNORECASE,
)


def coded_error(code: str, **params: Any) -> ValidationError:
    return ValidationError(message(code, **params), code=code)


def parse_int(text: str) -> int | None:
    """A whole number as typed, or None for nothing; ValidationError ``not_a_number``."""
    text = text.strip().replace("−", "-")
    if not text:
        return None
    if not re.fullmatch(r"[+-]?\d{1,4}", text):
        raise coded_error("not_a_number")
    return int(text)


def parse_matadors(text: str) -> int | None:
    """Signed matadors as typed: "2", "+2", "m2" (with), "-3", "o3" (without).

    >>> parse_matadors("o3"), parse_matadors("2"), parse_matadors(" −1 "), parse_matadors("")
    (-3, 2, -1, None)
    """
    text = text.strip()
    if not text:
        return None
    found = _MATADORS.match(text)
    if found is None:
        raise coded_error("not_a_number")
    count = int(found["count"])
    return -count if found["without"] else count


def split_cards(text: str) -> list[str]:
    return [card for card in re.split(r"[\s,;|/]+", text.strip()) if card]


class KeyedSelect(forms.Select):
    """A select whose options carry ``data-keys`` (typed shortcuts) and may be disabled."""

    def __init__(
        self,
        keys: dict[str, str] | None = None,
        disabled: Iterable[str] = (),
        attrs: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(attrs)
        self.keys = keys or {}
        self.disabled = set(disabled)

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):  # type: ignore[no-untyped-def]
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        keys = self.keys.get(str(value))
        if keys:
            option["attrs"]["data-keys"] = keys
        if str(value) in self.disabled:
            option["attrs"]["disabled"] = True
        return option


def short_text(label: Any, max_length: int, **attrs: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=max_length,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", **attrs}),
    )


class GameRowForm(forms.Form):
    """One row of a list as typed: parsed into a :class:`services.GameEntry`.

    After ``is_valid()``, ``entry`` holds the row (also when some field has an error, so
    that the engine can name the other problems; only a valid form's entry is saved). The
    engine's verdict comes from the services, whose problems :meth:`add_problems` shows at
    the fields they concern.
    """

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    passed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    declarer = forms.ChoiceField(
        label=_("Alleinspieler"), required=False, widget=KeyedSelect(attrs={"autofocus": True})
    )
    game = forms.ChoiceField(label=_("Spiel"), required=False, widget=KeyedSelect(GAME_KEYS))
    matadors = short_text(
        _("Spitzen"),
        12,
        size=4,
        inputmode="text",
        placeholder="±",
        title=_("mit 2 = 2, ohne 3 = -3 oder o3"),
    )
    hand = forms.BooleanField(label=FLAG_NAMES["hand"], required=False)
    announced = forms.ChoiceField(
        label=_("angesagt"),
        choices=ANNOUNCED,
        required=False,
        widget=KeyedSelect(CHOICE_KEYS["announced"]),
    )
    ouvert = forms.BooleanField(label=FLAG_NAMES["ouvert"], required=False)
    doubling = forms.ChoiceField(
        label=_("Kontra/Re"),
        required=False,
        widget=KeyedSelect(CHOICE_KEYS["doubling"]),
    )
    bid = short_text(_("Reizwert"), 12, size=4, inputmode="numeric", list="bid-values")
    card_points = short_text(_("Augen"), 12, size=4, inputmode="numeric")
    tricks = short_text(_("Stiche"), 12, size=3, inputmode="numeric")
    won = forms.ChoiceField(
        label=_("Ergebnis"), choices=RESULTS, required=False, widget=KeyedSelect(CHOICE_KEYS["won"])
    )
    level = forms.ChoiceField(
        label=_("Schneider/Schwarz"),
        choices=LEVELS,
        required=False,
        widget=KeyedSelect(CHOICE_KEYS["level"]),
    )
    cards = short_text(
        _("Karten (statt Spitzen)"),
        80,
        placeholder="CJ SJ HA H10 … | C7 D8",
        title=_("10 Karten der Hand, dann 2 im Skat"),
    )
    ramsch_card_points = short_text(
        _("Ramsch: Augen"),
        20,
        size=9,
        placeholder="30 60 30",
        title=_("Augen von Vorhand, Mittelhand, Hinterhand"),
    )
    ramsch_tricks = short_text(
        _("Ramsch: Stiche"),
        20,
        size=7,
        placeholder="3 5 2",
        title=_("Stiche von Vorhand, Mittelhand, Hinterhand"),
    )
    reason = forms.CharField(label=_("Grund der Korrektur"), required=False, max_length=500)

    def __init__(
        self,
        *args: Any,
        seats: Sequence[Seat] | None,
        number: int,
        rules: scoring.RuleSet,
        size: int | None = None,
        **kwargs: Any,
    ) -> None:
        """``seats`` None: the ``size`` seats of the table by number only, which reads a
        posted row as the full form does but labels no player (a form never shown)."""
        super().__init__(*args, **kwargs)
        if seats is None:
            assert size is not None
            positions = [(position, "") for position in range(1, size + 1)]
        else:
            size = len(seats)
            positions = [(seat.position, f" · {seat.player_for(number)}") for seat in seats]
        dealer = scoring.dealer_seat(number, size)
        sitting_out = {str(seat + 1) for seat in scoring.sitting_out(dealer, size, rules)}
        choices = [("", "—"), (PASSED, _("0 · eingepasst"))]
        if rules.ramsch:
            choices.append((RAMSCH, _("R · Ramsch")))
        for position, name in positions:
            label = f"{position}{name}"
            if position == dealer + 1 and str(position) in sitting_out:
                label = _("%(seat)s (gibt, sitzt aus)") % {"seat": label}
            elif str(position) in sitting_out:
                label = _("%(seat)s (sitzt aus)") % {"seat": label}
            elif position == dealer + 1:
                label = _("%(seat)s (gibt)") % {"seat": label}
            choices.append((str(position), label))
        declarer = self.fields["declarer"]
        declarer.widget.keys = {PASSED: "0 p e", RAMSCH: "r"} | {
            str(position): str(position) for position, _name in positions
        }
        declarer.widget.disabled = sitting_out
        declarer.widget.attrs["data-disabled-message"] = message("declarer_is_dealer")
        declarer.choices = choices
        games = [
            (value, label)
            for value, label in GameType.choices
            if value != GameType.REVOLUTION or rules.revolution is not None
        ]
        self.fields["game"].choices = [("", "—"), *games]
        if rules.kontra:
            self.fields["doubling"].choices = [
                ("", "—"),
                *((name, DOUBLING_NAMES[name]) for name in rules.doubling_names),
            ]
        else:
            del self.fields["doubling"]
        if not rules.ramsch:
            del self.fields["ramsch_card_points"]
            del self.fields["ramsch_tricks"]
        self.rules = rules
        self.entry: services.GameEntry | None = None
        self.warnings: list[scoring.Problem] = []
        self.matadors_from_cards: int | None = None

    @classmethod
    def initial_for(cls, game: Game | SecondEntry) -> dict[str, Any]:
        """The form's initial values for a stored row."""
        if game.passed:
            return {"number": game.number, "version": game.version, "declarer": PASSED}
        if game.ramsch is not None:
            return {
                "number": game.number,
                "version": game.version,
                "declarer": RAMSCH,
                "ramsch_card_points": " ".join(map(str, game.ramsch["card_points"])),
                "ramsch_tricks": " ".join(map(str, game.ramsch["tricks"])),
            }

        def text(value: int | None) -> str:
            return "" if value is None else str(value)

        announced = (
            "schwarz" if game.schwarz_announced else "schneider" if game.schneider_announced else ""
        )
        level = "schwarz" if game.schwarz_flag else "schneider" if game.schneider_flag else ""
        return {
            "number": game.number,
            "version": game.version,
            "declarer": str(game.declarer),
            "game": game.game,
            "matadors": text(game.matadors),
            "hand": game.hand,
            "announced": announced,
            "ouvert": game.ouvert,
            "doubling": next(
                (name for name in reversed(scoring.DOUBLINGS) if getattr(game, name)), ""
            ),
            "bid": text(game.bid),
            "card_points": text(game.card_points),
            "tricks": text(game.tricks),
            "won": {True: "won", False: "lost", None: ""}[game.won_flag],
            "level": level,
        }

    def _number(self, name: str) -> int | None:
        try:
            return parse_int(self.cleaned_data.get(name) or "")
        except ValidationError as error:
            self.add_error(name, error)
            return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("passed") or data.get("declarer") == PASSED:
            data["passed"] = True
            self.entry = services.GameEntry()
            return data
        if data.get("declarer") == RAMSCH:
            points = self._numbers("ramsch_card_points")
            tricks = self._numbers("ramsch_tricks")
            if points is not None and tricks is not None:
                self.entry = services.GameEntry(ramsch=scoring.Ramsch(points, tricks))
            return data
        bid = self._number("bid")
        card_points = self._number("card_points")
        tricks = self._number("tricks")
        try:
            matadors = parse_matadors(data.get("matadors") or "")
        except ValidationError as error:
            self.add_error("matadors", error)
            matadors = None
        game_name = data.get("game")
        if not game_name:
            if "game" not in self.errors:
                self.add_error("game", coded_error("game_missing"))
            return data
        game = scoring.GameType(game_name)
        if data.get("cards"):
            matadors = self._matadors_from_cards(data["cards"], game, matadors)
        if bid is None and "bid" not in self.errors:
            self.add_error("bid", coded_error("bid_missing"))
        announced = data.get("announced") or ""
        doubling = data.get("doubling") or ""
        level = data.get("level") or ""
        won = {"won": True, "lost": False}.get(data.get("won") or "")
        declarer = data.get("declarer")
        # Built even when a field has an error, so that the engine can still name every
        # other problem; only a valid form's entry is ever saved.
        self.entry = services.GameEntry(
            declarer=int(declarer) if declarer else None,
            declaration=scoring.Declaration(
                game=game,
                bid=bid or 0,
                matadors=matadors,
                hand=bool(data.get("hand")),
                schneider_announced=announced in ("schneider", "schwarz"),
                schwarz_announced=announced == "schwarz",
                ouvert=bool(data.get("ouvert")),
                **{
                    name: name in scoring.DOUBLINGS[: scoring.DOUBLINGS.index(doubling) + 1]
                    for name in scoring.DOUBLINGS
                    if doubling
                },
            ),
            outcome=scoring.Outcome(
                card_points=card_points,
                tricks=tricks,
                won=won,
                schneider=True if level in ("schneider", "schwarz") else None,
                schwarz=True if level == "schwarz" else None,
            ),
        )
        return data

    def _numbers(self, name: str) -> tuple[int, ...] | None:
        """Three whole numbers typed with spaces (a Ramsch's points or tricks)."""
        parts = (self.cleaned_data.get(name) or "").replace(",", " ").split()
        if len(parts) != 3 or not all(part.isdigit() for part in parts):
            self.add_error(name, coded_error("ramsch_players"))
            return None
        return tuple(int(part) for part in parts)

    def _matadors_from_cards(
        self, text: str, game: scoring.GameType, typed: int | None
    ) -> int | None:
        cards = split_cards(text)
        try:
            counted = scoring.matadors_from_cards(cards[:-2], cards[-2:], game, self.rules)
        except scoring.CardError as error:
            self.add_error("cards", coded_error(error.code))
            return typed
        self.matadors_from_cards = counted
        if typed is not None and typed != counted:
            self.add_error("matadors", coded_error("matadors_differ_from_cards"))
        return counted

    def add_problems(self, problems: Iterable[scoring.Problem]) -> None:
        """Show the engine's or a service's problems at the fields they concern."""
        for problem in problems:
            field = FIELD_OF_PROBLEM.get(problem.field or "")
            if field not in self.fields:
                field = None
            if field is not None and field in self.errors:
                continue  # one problem per field: the form's own comes first
            shown = self.errors.as_data().get(forms.forms.NON_FIELD_ERRORS, [])
            if problem.code not in [error.code for error in shown]:
                self.add_error(field, coded_error(problem.code))

    OUTCOME_FIELDS = ("card_points", "tricks", "won")
    """The fields a row-wide "Ergebnis fehlt" (``outcome_missing``) concerns."""

    def mark_errors(self) -> None:
        """Tie every error to its control for assistive technology: ``aria-invalid`` and
        ``aria-describedby`` (the field's own message, and the row's where it concerns it)."""
        row_codes = {error.code for error in self.non_field_errors().as_data()}
        for name, field in self.fields.items():
            described = []
            if name in self.errors:
                described.append(f"error-{name}")
            if "outcome_missing" in row_codes and name in self.OUTCOME_FIELDS:
                described.append("entry-row-errors")
            if described:
                field.widget.attrs["aria-invalid"] = "true"
                field.widget.attrs["aria-describedby"] = " ".join(described)

    def error_summary(self) -> list[dict[str, str]]:
        """Every error in the order of the fields, with the control to go to (first: the one
        that gets the focus after a failed save)."""
        found = []
        for error in self.non_field_errors().as_data():
            target = self.OUTCOME_FIELDS[0] if error.code == "outcome_missing" else ""
            found.append({"field": target, "label": "", "message": " ".join(error.messages)})
        for name, field in self.fields.items():
            for error in self.errors.as_data().get(name, []):
                found.append(
                    {"field": name, "label": str(field.label), "message": " ".join(error.messages)}
                )
        order = list(self.fields)
        return sorted(found, key=lambda e: order.index(e["field"]) if e["field"] else len(order))

    def problems(self) -> list[dict[str, Any]]:
        """Every error and warning as JSON: field, code and message."""
        found = [
            {
                "field": None if field == forms.forms.NON_FIELD_ERRORS else field,
                "code": error.code or "invalid",
                "message": " ".join(error.messages),
                "warning": False,
            }
            for field, errors in self.errors.as_data().items()
            for error in errors
        ]
        found += [
            {
                "field": FIELD_OF_PROBLEM.get(p.field or ""),
                "code": p.code,
                "message": message(p.code),
                "warning": True,
            }
            for p in self.warnings
        ]
        return found


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


class TournamentForm(RuleOptionsForm, forms.ModelForm):
    """A tournament's settings: the preset and, per rule option, the preset's value or a
    house rule (:class:`RuleOptionsForm`). A new tournament of a season starts with the
    season's (``initial``: ``Season.rule_fields``)."""

    class Meta:
        model = Tournament
        fields = [name for name in services.SETTINGS if name != "rule_options"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.all()
        rounds = self.fields["rounds_per_series"]
        rounds.min_value, rounds.max_value = 1, 30
        # The column's own bounds (0 to 32767) would name the wrong range: the one check,
        # with the real range in its message, is clean_rounds_per_series.
        rounds.validators = [
            v for v in rounds.validators if not isinstance(v, MinValueValidator | MaxValueValidator)
        ]
        rounds.widget.attrs.update(min=1, max=30)
        rounds.help_text = _("12 Runden: 48 Spiele am Vierertisch, 36 am Dreiertisch.")
        self.add_option_fields(
            self.instance.rule_options if self.instance.pk else self.initial.get("rule_options", {})
        )

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.Meta.fields]

    def clean_rounds_per_series(self) -> int:
        rounds = self.cleaned_data["rounds_per_series"]
        if not 1 <= rounds <= 30:
            raise coded_error("rounds_out_of_range")
        return rounds

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.clean_rule_options(data)
        return data


class PlayersForm(forms.Form):
    """Players to enter: one typed with the roster's help, or a pasted list."""

    player = forms.CharField(
        label=_("Spieler"),
        required=False,
        max_length=240,
        widget=forms.TextInput(
            attrs={"list": "roster", "autocomplete": "off", "placeholder": _("Name; Verein")}
        ),
    )
    roster = forms.CharField(
        label=_("Liste einfügen"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": _("Name; Verein (je Zeile)")}),
        help_text=_("Eine Zeile je Spieler: „Name; Verein“ (Verein kann fehlen)."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        text = "\n".join(filter(None, [data.get("player"), data.get("roster")]))
        data["players"] = services.parse_roster(text)
        if not data["players"]:
            raise coded_error("roster_empty")
        for problem in services.roster_problems(data["players"]):
            self.add_error(None, coded_error(problem.code, **problem.params))
        return data


class RefereeForm(forms.Form):
    username = forms.CharField(
        label=_("Benutzername"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class TeamsForm(forms.Form):
    """The team each registration plays for: one select per player, ``team-<registration id>``.

    The selects sit in the players' table and belong to the form ``teams-form`` by their
    ``form`` attribute.
    """

    def __init__(
        self,
        *args: Any,
        registrations: Sequence[Registration],
        teams: Sequence[Team],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.registrations = list(registrations)
        self.teams = {team.pk: team for team in teams}
        choices = [("", "—"), *((team.pk, team.name) for team in teams)]
        for registration in self.registrations:
            self.fields[self.name_of(registration)] = forms.TypedChoiceField(
                label=str(registration.player),
                choices=choices,
                coerce=int,
                empty_value=None,
                required=False,
                initial=registration.team_id,
                widget=forms.Select(attrs={"form": "teams-form"}),
            )

    @staticmethod
    def name_of(registration: Registration) -> str:
        return f"team-{registration.pk}"

    def rows(self) -> list[tuple[Registration, forms.BoundField]]:
        return [(r, self[self.name_of(r)]) for r in self.registrations]

    def assignments(self) -> dict[int, Team | None]:
        """The team chosen for each registration whose select was sent (by registration id)."""
        return {
            r.pk: self.teams.get(self.cleaned_data[self.name_of(r)])
            for r in self.registrations
            if self.name_of(r) in self.data
        }


class TeamForm(forms.Form):
    """A new team of the tournament's season."""

    name = forms.CharField(label=_("Mannschaft"), max_length=120)
    club = forms.CharField(
        label=_("Verein"),
        required=False,
        max_length=120,
        widget=forms.TextInput(attrs={"list": "clubs", "autocomplete": "off"}),
    )


DRAW_METHODS = (
    ("lot", _("per Los")),
    ("standings", _("nach dem Tabellenstand gesetzt")),
)


class DrawForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Auslosung"),
        choices=DRAW_METHODS,
        required=False,
        initial="lot",
        widget=forms.RadioSelect,
    )
    avoid_repeats = forms.BooleanField(
        label=_("Wiederholte Tischpartner vermeiden"),
        required=False,
        initial=True,
        help_text=_(
            "Beim Losen sitzen Spieler, die schon an einem Tisch saßen, möglichst nicht "
            "wieder zusammen."
        ),
    )


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(
        label=pgettext_lazy("seat", "Platz"), queryset=Seat.objects.none()
    )
    second = forms.ModelChoiceField(label=_("tauschen mit"), queryset=Seat.objects.none())

    def __init__(self, *args: Any, series: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = Seat.objects.filter(series=series).select_related("player", "table")
        seats = seats.order_by("table__number", "position")
        for name in ("first", "second"):
            field = self.fields[name]
            field.queryset = seats
            field.label_from_instance = seat_label


def seat_label(seat: Seat) -> str:
    return _("Tisch %(table)s, Platz %(seat)s: %(player)s") % {
        "table": seat.table.number,
        "seat": seat.position,
        "player": seat.player,
    }


class ChangeFilterForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Art"), choices=[("", _("alle"))] + Change.Action.choices, required=False
    )


class ReopenForm(forms.Form):
    reason = forms.CharField(
        label=_("Grund"),
        required=False,
        max_length=500,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class CloseForm(forms.Form):
    """Closing a list kept at the table that not everyone signed takes a reason."""

    reason = forms.CharField(
        label=_("Grund (nicht von allen unterschrieben)"),
        required=False,
        max_length=500,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class SubstituteForm(forms.Form):
    """A player left during the list: who takes his seat over, and from which game on."""

    seat = forms.TypedChoiceField(label=pgettext_lazy("seat", "Platz"), coerce=int)
    player = forms.ModelChoiceField(
        label=_("Ersatzspieler aus dem Turnier"),
        queryset=Player.objects.none(),
        required=False,
        empty_label="—",
    )
    name = forms.CharField(
        label=_("oder Name (Kartei oder neu)"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    club = forms.CharField(
        label=_("Verein"), required=False, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    from_game = forms.IntegerField(
        label=_("ab Spiel"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    reason = forms.CharField(
        label=_("Grund"),
        required=False,
        max_length=500,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, table: Any, seats: Sequence[Seat], **kwargs: Any) -> None:
        # Its own ids: the list page's entry form has a "reason" field too.
        super().__init__(*args, auto_id="substitute_%s", **kwargs)
        self.fields["seat"].choices = [
            (seat.position, f"{seat.position} · {seat.player}") for seat in seats
        ]
        series = table.series
        playing = Seat.objects.filter(series=series)
        self.fields["player"].queryset = (
            Player.objects.filter(registrations__tournament=series.tournament_id)
            .exclude(pk__in=playing.values("player_id"))
            .exclude(pk__in=playing.filter(substitute__isnull=False).values("substitute_id"))
            .order_by("name", "pk")
        )

    def add_service_error(self, error: services.ServiceError) -> None:
        """The service's error at its field (the seat where it names none)."""
        field = error.field if error.field in self.fields else "seat"
        self.add_error(field, coded_error(error.code, **error.params))


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

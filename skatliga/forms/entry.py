"""The forms of a list's page: one row as typed, reopening and closing the list."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

import scoring
from skatliga import services
from skatliga.forms import coded_error, notation
from skatliga.forms.parsing import (
    CHOICE_KEYS,
    GAME_KEYS,
    KeyedSelect,
    parse_int,
    parse_matadors,
    short_text,
    split_cards,
)
from skatliga.messages import message
from skatliga.models import Game, GameType, Seat, SecondEntry
from skatliga.words import DOUBLING_NAMES, FLAG_NAMES, LEVEL_NAMES, RESULT_NAMES

PASSED = "0"
"""The declarer choice that records a passed-in game."""

ANNOUNCED = (("", "—"), *LEVEL_NAMES.items())
LEVELS = (("", "—"), *LEVEL_NAMES.items())
RESULTS = (("", "—"), *RESULT_NAMES.items())
RAMSCH = "R"
"""The declarer choice that records a Ramsch (where the rule set plays it)."""

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
    "clear_signatures": None,
}


class GameRowForm(forms.Form):
    """One row of a list as typed: parsed into a :class:`services.GameEntry`.

    After ``is_valid()``, ``entry`` holds the row (also when some field has an error, so
    that the engine can name the other problems; only a valid form's entry is saved). The
    engine's verdict comes from the services, whose problems :meth:`add_problems` shows at
    the fields they concern.
    """

    notation = short_text(
        _("Kurzeingabe"),
        40,
        size=14,
        placeholder="2 k 1 h 61",
        title=_("Alleinspieler, Spiel, Spitzen, Hand, Augen"),
        autofocus=True,
    )
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
    clear_signatures = forms.BooleanField(required=False, widget=forms.HiddenInput)
    """Set once the page has said that saving deletes the list's signatures."""

    DECLARATION_FIELDS = (
        *("game", "matadors", "hand", "announced", "ouvert", "doubling", "bid"),
        *("card_points", "tricks", "won", "level", "cards"),
        *("ramsch_card_points", "ramsch_tricks"),
    )
    """The fields that say something only of a row that is not passed in."""

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
        declarer = cast(forms.ChoiceField, self.fields["declarer"])
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
        cast(forms.ChoiceField, self.fields["game"]).choices = [("", "—"), *games]
        if rules.kontra:
            cast(forms.ChoiceField, self.fields["doubling"]).choices = [
                ("", "—"),
                *((name, DOUBLING_NAMES[name]) for name in rules.doubling_names),
            ]
        else:
            del self.fields["doubling"]
        if not rules.ramsch:
            del self.fields["ramsch_card_points"]
            del self.fields["ramsch_tricks"]
        self.rules = rules
        self.notation_fields: dict[str, str | bool] | None = None
        self.notation_error: ValidationError | None = None
        if self.is_bound:
            self._read_notation(size)
        self.entry: services.GameEntry | None = None
        self.warnings: list[scoring.Problem] = []
        self.matadors_from_cards: int | None = None

    def _read_notation(self, size: int) -> None:
        """A typed notation (``forms.notation``) sets the row's fields it covers."""
        text = str(self.data.get("notation") or "").strip()
        if not text:
            return
        try:
            fields = notation.parse_notation(text, size=size, rules=self.rules)
        except ValidationError as error:
            self.notation_error = error
            return
        # One value per field, as the row's fields have; the notation's replace the posted.
        data: dict[str, Any] = dict(self.data.items())
        for name, value in fields.items():
            if value is False or value == "":
                data.pop(name, None)
            else:
                data[name] = "on" if value is True else value
        self.data = data
        self.notation_fields = fields

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
        data = super().clean() or {}
        if self.notation_error is not None:
            self.add_error("notation", self.notation_error)
            return data
        if data.get("declarer") == PASSED and not data.get("passed"):
            # Chosen "0 · eingepasst" and typed more: which of the two was meant is unknown.
            typed = [name for name in self.DECLARATION_FIELDS if data.get(name)]
            if typed:
                self.add_error(typed[0], coded_error("passed_with_declaration"))
                return data
        if data.get("passed") or data.get("declarer") == PASSED:
            data["passed"] = True
            self.entry = services.GameEntry()
            return data
        if data.get("declarer") == RAMSCH:
            points = self._numbers("ramsch_card_points")
            taken = self._numbers("ramsch_tricks")
            if points is not None and taken is not None:
                self.entry = services.GameEntry(ramsch=scoring.Ramsch(points, taken))
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
                bid=bid,
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
            shown = self.errors.as_data().get(NON_FIELD_ERRORS, [])
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
                "field": None if field == NON_FIELD_ERRORS else field,
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

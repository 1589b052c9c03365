"""The forms of a tournament's players: entering them, their teams, the draw, swapping
seats, and a substitute who takes a seat over during a list."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from skatliga import messages, services
from skatliga.forms import coded_error
from skatliga.models import Player, Registration, Seat, Series, Table, Team


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
        data = super().clean() or {}
        text = "\n".join(filter(None, [data.get("player"), data.get("roster")]))
        data["players"] = services.parse_roster(text)
        if not data["players"]:
            raise coded_error("roster_empty")
        for problem in services.roster_problems(data["players"]):
            self.add_error(None, coded_error(problem.code, **problem.params))
        return data


class TeamsForm(forms.Form):
    """The team each registration plays for: one select per player, ``team-<registration id>``.

    The selects sit in the players' table and belong to the form ``teams-form`` by their
    ``form`` attribute.
    """

    def __init__(
        self,
        *args: Any,
        registrations: Iterable[Registration],
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


DRAW_METHODS = tuple(messages.DRAW_METHODS.items())


class DrawForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Auslosung"),
        choices=DRAW_METHODS,
        required=False,
        initial="lot",
        widget=forms.RadioSelect,
        help_text=_(
            "Gesetzt: die Stärksten zusammen an Tisch 1, die nächsten an Tisch 2 (wie im "
            "Finale). Verteilt: der Stärkste an Tisch 1, der zweite an Tisch 2 … und zurück, "
            "so dass jeder Tisch gleich stark besetzt ist."
        ),
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

    def __init__(self, *args: Any, first: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if first:  # no standing yet: by lot or by rating
            field = cast(forms.ChoiceField, self.fields["method"])
            field.choices = [(k, v) for k, v in DRAW_METHODS if not k.startswith("standings")]


class SeatField(forms.ModelChoiceField[Seat]):
    """A seat of the series, named by its table, its place and its player."""

    def label_from_instance(self, obj: Seat) -> str:
        return seat_label(obj)


class SwapForm(forms.Form):
    first = SeatField(label=pgettext_lazy("seat", "Platz"), queryset=Seat.objects.none())
    second = SeatField(label=_("tauschen mit"), queryset=Seat.objects.none())

    def __init__(self, *args: Any, series: Series, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = Seat.objects.filter(series=series).select_related("player", "table")
        seats = seats.order_by("table__number", "position")
        for name in ("first", "second"):
            cast(SeatField, self.fields[name]).queryset = seats


def seat_label(seat: Seat) -> str:
    return _("Tisch %(table)s, Platz %(seat)s: %(player)s") % {
        "table": seat.table.number,
        "seat": seat.position,
        "player": seat.player,
    }


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

    def __init__(
        self, data: Mapping[str, Any] | None = None, *, table: Table, seats: Sequence[Seat]
    ) -> None:
        # Its own ids: the list page's entry form has a "reason" field too.
        super().__init__(data, auto_id="substitute_%s")
        cast(forms.TypedChoiceField, self.fields["seat"]).choices = [
            (seat.position, f"{seat.position} · {seat.player}") for seat in seats
        ]
        series = table.series
        playing = Seat.objects.filter(series=series)
        cast(forms.ModelChoiceField[Player], self.fields["player"]).queryset = (
            Player.objects.filter(registrations__tournament=series.tournament_id)
            .exclude(pk__in=playing.values("player_id"))
            .exclude(pk__in=playing.filter(substitute__isnull=False).values("substitute_id"))
            .order_by("name", "pk")
        )

    def add_service_error(self, error: services.ServiceError) -> None:
        """The service's error at its field (the seat where it names none)."""
        field = error.field if error.field in self.fields else "seat"
        self.add_error(field, coded_error(error.code, **error.params))

"""Forms of the league pages: they parse and check input; the services save."""

from __future__ import annotations

import datetime
from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from skatliga.forms import coded_error
from skatliga.forms.parsing import whole_number
from skatliga.forms.tournaments import RuleOptionsForm
from skatliga.models import Category, ListSystem, Player, RuleSetName, Season


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    number = forms.CharField(label=_("Mitgliedsnummer"), max_length=32, required=False)
    category = forms.ChoiceField(
        label=_("Kategorie"), choices=[("", "—"), *Category.choices], required=False
    )
    initials_only = forms.BooleanField(
        label=_("nur mit Initialen zeigen"),
        help_text=_("Öffentliche Seiten, PDFs, Tabellen und die API zeigen „A. B.“."),
        required=False,
    )
    rating_listed = forms.TypedChoiceField(
        label=_("in der öffentlichen Wertungsliste"),
        choices=[
            ("", _("wie voreingestellt")),
            ("yes", _("ja")),
            ("no", _("nein, Wertungszahl nicht öffentlich")),
        ],
        coerce=lambda value: {"yes": True, "no": False}.get(value),
        empty_value=None,
        required=False,
    )


def find_player(text: str) -> Player | None:
    """A player by membership number, else by id: what the merge form takes."""
    text = text.strip()
    if not text:
        return None
    player = Player.objects.filter(number=text).first()
    if player is None and (pk := whole_number(text)) is not None:
        player = Player.objects.filter(pk=pk).first()
    return player


class MergeForm(forms.Form):
    other = forms.CharField(
        label=_("Doppelter Eintrag (Mitgliedsnummer oder Nr.)"),
        max_length=32,
        help_text=_("Seine Ergebnisse gehen auf diesen Spieler über; der Eintrag wird gelöscht."),
    )

    def clean_other(self) -> Player:
        player = find_player(self.cleaned_data["other"])
        if player is None:
            raise coded_error("player_unknown")
        return player


class RosterImportForm(forms.Form):
    MAX_BYTES = 2 * 1024 * 1024

    file = forms.FileField(label=_("CSV-Datei"), required=False)
    text = forms.CharField(
        label=_("oder Zeilen einfügen"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Anna Schmidt; SC Altenburg; 0815"}),
        help_text=_(
            "Eine Zeile je Spieler: Name; Verein; Mitgliedsnummer; nur Initialen (ja/nein); "
            "alles außer dem Namen optional."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload:  # False when "clear" is ticked
            if upload.size > self.MAX_BYTES:
                raise coded_error("roster_too_large")
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                data["text"] = raw.decode("cp1252", errors="replace")
        if not (data.get("text") or "").strip():
            raise coded_error("roster_csv_empty")
        return data


class SeasonForm(RuleOptionsForm, forms.Form):
    """A season's settings: name and year, the individual ranking mode, the team
    match-point scheme, and the rule set and list system its new tournaments start with
    (the house-rule fields of the tournament settings, :class:`RuleOptionsForm`)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    year = forms.IntegerField(label=_("Jahr"), min_value=1900, max_value=2999)
    ranking = forms.ChoiceField(
        label=_("Einzelwertung"), choices=Season.Ranking.choices, required=False
    )
    ranking_series = forms.IntegerField(
        label=_("Serien"),
        min_value=1,
        max_value=99,
        initial=1,
        required=False,
        help_text=_("Beste Serien: wie viele zählen. Durchschnitt: wie viele mindestens."),
    )

    match_points = forms.ChoiceField(
        label=_("Mannschaftswertung"), choices=Season.MatchPoints.choices, required=False
    )
    rules = forms.ChoiceField(label=_("Regelwerk"), choices=RuleSetName.choices, required=False)
    scoring = forms.ChoiceField(
        label=_("Listenwertung"), choices=ListSystem.choices, required=False
    )
    language = forms.ChoiceField(
        label=_("Sprache"),
        choices=settings.LANGUAGES,
        initial="de",
        required=False,
        help_text=_("Für Ausdrucke und als Vorgabe der öffentlichen Seiten."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_option_fields(self.initial.get("rule_options", {}))

    @classmethod
    def initial_for(cls, season: Season) -> dict[str, Any]:
        """The form's values for an existing season."""
        return {
            "name": season.name,
            "year": season.year,
            "ranking": season.ranking,
            "ranking_series": season.ranking_series,
            "match_points": season.match_points,
            "language": season.language,
            **season.rule_fields(),
        }

    def clean_ranking(self) -> str:
        return self.cleaned_data["ranking"] or Season.Ranking.SUM

    def clean_match_points(self) -> str:
        return self.cleaned_data["match_points"] or Season.MatchPoints.PLACES

    def clean_rules(self) -> str:
        return self.cleaned_data["rules"] or RuleSetName.ISKO

    def clean_scoring(self) -> str:
        return self.cleaned_data["scoring"] or ListSystem.SEEGER_FABIAN

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_rule_options(data)
        return data

    def clean_language(self) -> str:
        return self.cleaned_data["language"] or "de"

    def clean_ranking_series(self) -> int:
        return self.cleaned_data["ranking_series"] or 1


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    players = forms.CharField(
        label=_("Spieler"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Eine Zeile je Spieler: Name oder Mitgliedsnummer."),
    )

    def clean_players(self) -> list[Player]:
        return players_named(self.cleaned_data["players"])


def players_named(text: str) -> list[Player]:
    """The players of ``text``, one a line by membership number or (unique) name, in order;
    ``players_unknown`` naming the lines that find none."""
    found, unknown = [], []
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line:
            continue
        player = Player.objects.filter(number=line).first()
        if player is None:
            named = list(Player.objects.filter(name__iexact=line)[:2])
            player = named[0] if len(named) == 1 else None
        if player is None:
            unknown.append(line)
        else:
            found.append(player)
    if unknown:
        raise coded_error("players_unknown", names=", ".join(unknown))
    return found


class MatchDayForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Ort"), max_length=160, required=False)
    match_day = forms.IntegerField(label=_("Spieltag"), min_value=1, max_value=99)


# --- a division's official: rosters and the schedule -----------------------------------------


class RosterForm(forms.Form):
    regulars = forms.CharField(
        label=_("Stammspieler"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("Eine Zeile je Spieler, in der Reihenfolge der Positionen: Name oder Nummer."),
    )
    substitutes = forms.CharField(
        label=_("Ersatzspieler"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    captain = forms.CharField(label=_("Mannschaftsführer"), max_length=120, required=False)

    def clean_regulars(self) -> list[Player]:
        return players_named(self.cleaned_data["regulars"])

    def clean_substitutes(self) -> list[Player]:
        return players_named(self.cleaned_data["substitutes"])

    def clean_captain(self) -> Player | None:
        text = self.cleaned_data["captain"].strip()
        return players_named(text)[0] if text else None


def parse_dates(text: str) -> list[datetime.date]:
    """Dates one a line or separated by commas, as 2026-03-21 or 21.03.2026.

    >>> parse_dates("21.03.2026, 2026-04-04")
    [datetime.date(2026, 3, 21), datetime.date(2026, 4, 4)]
    """
    found = []
    for part in text.replace(",", "\n").split():
        for pattern in ("%Y-%m-%d", "%d.%m.%Y"):
            try:
                found.append(datetime.datetime.strptime(part, pattern).date())
                break
            except ValueError:
                continue
        else:
            raise forms.ValidationError(_("Kein Datum: %(text)s") % {"text": part}, code="invalid")
    return found


class ScheduleForm(forms.Form):
    dates = forms.CharField(
        label=_("Spieltage"),
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "21.03.2026, 04.04.2026"}),
        help_text=_("Ein Datum je Spieltag."),
    )
    central = forms.CharField(
        label=_("Zentrale Spieltage"),
        required=False,
        help_text=_("Ihre Nummern, z. B. 5: alle Gruppen spielen am Ort unten."),
    )
    venue = forms.CharField(label=_("Ort"), max_length=160, required=False)
    address = forms.CharField(label=_("Anschrift"), max_length=200, required=False)

    def clean_dates(self) -> list[datetime.date]:
        return parse_dates(self.cleaned_data["dates"])

    def clean_central(self) -> list[int]:
        numbers = self.cleaned_data["central"].replace(",", " ").split()
        if not all(n.isdigit() for n in numbers):
            raise forms.ValidationError(_("Nummern der Spieltage, z. B. 5."), code="invalid")
        return [int(n) for n in numbers]


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Mannschaft"), coerce=int)
    second = forms.TypedChoiceField(label=_("tauscht mit"), coerce=int)

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["first"]).choices = teams
        cast(forms.ChoiceField, self.fields["second"]).choices = teams


class GroupForm(forms.Form):
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}))
    starts_at = forms.TimeField(
        label=_("Beginn"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    host = forms.TypedChoiceField(
        label=_("Gastgeber"), coerce=int, required=False, empty_value=None
    )
    venue = forms.CharField(label=_("Ort"), max_length=160, required=False)
    address = forms.CharField(label=_("Anschrift"), max_length=200, required=False)

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["host"]).choices = [("", "—"), *teams]


class LineUpForm(forms.Form):
    """Who plays a series: the roster's players ticked, in the roster's order."""

    players = forms.TypedMultipleChoiceField(
        label=_("Es spielen"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, roster: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["players"]).choices = roster

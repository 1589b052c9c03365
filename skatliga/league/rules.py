"""A league's rules (``LeagueRules``: reports, deadlines, fines, withdrawal) and its catalogue
of fines (``FineKind``), for the league's officials (``Season.is_run_by``), reached from a
season of the league: two plain forms, saved together."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from skatliga.models import FineCode, FineKind, LeagueRules, Season
from skatliga.services import fines
from skatliga.services.reports import rules_of
from skatliga.views.referee import forbidden


class RulesForm(forms.ModelForm[LeagueRules]):
    class Meta:
        model = LeagueRules
        fields = [
            "binding_days",
            "report_days",
            "lost_game_fee",
            "lost_fees_to",
            "pay_days",
            "bar_unpaid",
            "withdraw_after",
            "withdrawn_results",
        ]


class FineKindForm(forms.ModelForm[FineKind]):
    amount = forms.DecimalField(
        label=gettext_lazy("Betrag"), max_digits=8, decimal_places=2, min_value=0.01
    )

    class Meta:
        model = FineKind
        fields = ["code", "name", "amount", "set_by"]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for field in self.fields.values():  # a row of the table: its header is the label
            field.widget.attrs["aria-label"] = str(field.label)


class BaseCatalogue(forms.BaseModelFormSet):  # type: ignore[type-arg]
    """The league's whole catalogue: each code but "other" once."""

    def add_fields(self, form: forms.ModelForm[FineKind], index: int | None) -> None:
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].widget.attrs["aria-label"] = _("Löschen")

    def clean(self) -> None:
        super().clean()
        seen: set[str] = set()
        for form in self.forms:
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or not data.get("code"):
                continue
            code = data["code"]
            if code != FineCode.OTHER and code in seen:
                form.add_error(
                    "code", _("Diesen Anlass hat der Katalog schon; nur Sonstiges mehrmals.")
                )
            seen.add(code)


Catalogue = forms.modelformset_factory(
    FineKind, form=FineKindForm, formset=BaseCatalogue, extra=1, can_delete=True
)


@login_required
def league_rules(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league"), slug=slug)
    if not season.is_run_by(request.user) or season.league is None:
        return forbidden(request)
    league = season.league
    rules = rules_of(league)
    data = request.POST if request.method == "POST" else None
    rules_form = RulesForm(data, instance=rules, prefix="rules")
    catalogue = Catalogue(data, queryset=FineKind.objects.filter(league=league), prefix="kind")
    for form in catalogue.forms:
        form.instance.league = league
    if data is not None and rules_form.is_valid() and catalogue.is_valid():
        fines.save_rules(rules_form, catalogue)
        messages.success(request, _("Ligaordnung und Strafenkatalog gespeichert."))
        return redirect("league:rules", slug=season.slug)
    return render(
        request,
        "league/rules.html",
        {"season": season, "league": league, "rules_form": rules_form, "catalogue": catalogue},
        status=400 if data is not None else 200,
    )

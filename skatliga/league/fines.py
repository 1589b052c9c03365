"""The official's fines page of a division (what skatliga proposes, to confirm or waive;
a fine of his own; a club's payment; the clubs' balances and bars) and a club's statement,
for the official and, behind the team link, for the team's captain. Views parse, call
``services.fines``, render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from skatliga.league.captain import open_team_link
from skatliga.league.official import official_required
from skatliga.league.views import saved
from skatliga.messages import message
from skatliga.models import Club, Division, Fine, MatchGroup, Team, Withdrawal
from skatliga.services import ServiceError, fines
from skatliga.table.views import private


def _clubs(division: Division) -> list[Club]:
    return list(Club.objects.filter(team__division=division).distinct().order_by("name"))


class FineForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=gettext_lazy("Verein"))
    team = forms.ModelChoiceField(
        queryset=Team.objects.none(), label=gettext_lazy("Mannschaft"), required=False
    )
    amount = forms.DecimalField(label=gettext_lazy("Betrag"), max_digits=8, decimal_places=2)
    reason = forms.CharField(label=gettext_lazy("Begründung"), max_length=500)

    def __init__(self, *args: object, division: Division, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        club = self.fields["club"]
        team = self.fields["team"]
        assert isinstance(club, forms.ModelChoiceField)
        assert isinstance(team, forms.ModelChoiceField)
        club.queryset = Club.objects.filter(team__division=division).distinct()
        team.queryset = division.teams.all()


class PaymentForm(forms.Form):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=gettext_lazy("Verein"))
    amount = forms.DecimalField(label=gettext_lazy("Betrag"), max_digits=8, decimal_places=2)
    paid_on = forms.DateField(label=gettext_lazy("bezahlt am"))
    note = forms.CharField(label=gettext_lazy("Vermerk"), max_length=160, required=False)

    def __init__(self, *args: object, division: Division, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        club = self.fields["club"]
        assert isinstance(club, forms.ModelChoiceField)
        club.queryset = Club.objects.filter(team__division=division).distinct()


@official_required
def division_fines(request: HttpRequest, division: Division) -> HttpResponse:
    league = division.season.league
    today = timezone.localdate()
    for group in MatchGroup.objects.filter(match_day__division=division, date__lt=today):
        fines.propose_fines(group, today=today)
    fine_form = FineForm(prefix="fine", division=division)
    payment_form = PaymentForm(prefix="pay", division=division)
    action = request.POST.get("action", "")
    if request.method == "POST" and league is not None:
        if action in ("confirm", "waive"):
            fine = get_object_or_404(
                Fine, pk=request.POST.get("fine", 0), league=league, team__division=division
            )
            try:
                fines.decide_fine(fine, confirm=action == "confirm", user=request.user)
            except ServiceError as error:
                messages.error(request, message(error.code, **error.params))
            else:
                messages.success(
                    request, _("Strafe verhängt.") if action == "confirm" else _("Strafe erlassen.")
                )
            return redirect("league:fines", pk=division.pk)
        if action in ("withdraw", "keep"):
            withdrawal = get_object_or_404(
                Withdrawal, pk=request.POST.get("withdrawal", 0), team__division=division
            )
            try:
                fines.decide_withdrawal(withdrawal, confirm=action == "withdraw", user=request.user)
            except ServiceError as error:
                messages.error(request, message(error.code, **error.params))
            else:
                messages.success(
                    request,
                    _("Mannschaft zurückgezogen.")
                    if action == "withdraw"
                    else _("Rückzug verworfen."),
                )
            return redirect("league:fines", pk=division.pk)
        if action == "add":
            fine_form = FineForm(request.POST, prefix="fine", division=division)
            if fine_form.is_valid() and saved(
                fine_form,
                lambda: fines.add_fine(
                    league,
                    fine_form.cleaned_data["club"],
                    fine_form.cleaned_data["amount"],
                    fine_form.cleaned_data["reason"],
                    team=fine_form.cleaned_data["team"],
                    user=request.user,
                ),
            ):
                messages.success(request, _("Strafe verhängt."))
                return redirect("league:fines", pk=division.pk)
        if action == "pay":
            payment_form = PaymentForm(request.POST, prefix="pay", division=division)
            if payment_form.is_valid() and saved(
                payment_form,
                lambda: fines.record_payment(
                    league,
                    payment_form.cleaned_data["club"],
                    payment_form.cleaned_data["amount"],
                    payment_form.cleaned_data["paid_on"],
                    payment_form.cleaned_data["note"],
                ),
            ):
                messages.success(request, _("Zahlung gebucht."))
                return redirect("league:fines", pk=division.pk)
    proposed = (
        Fine.objects.filter(team__division=division, state=Fine.State.PROPOSED)
        .select_related("club", "team", "group__match_day")
        .order_by("group__match_day__number", "team__name")
    )
    withdrawals = (
        Withdrawal.objects.filter(team__division=division)
        .exclude(state=Withdrawal.State.WAIVED)
        .select_related("team", "group__match_day")
        .order_by("team__name")
    )
    clubs = (
        [fines.statement(league, club, today=today) for club in _clubs(division)] if league else []
    )
    return render(
        request,
        "league/fines.html",
        {
            "division": division,
            "proposed": proposed,
            "withdrawals": withdrawals,
            "clubs": clubs,
            "fine_form": fine_form,
            "payment_form": payment_form,
        },
        status=400 if request.method == "POST" else 200,
    )


@official_required
def club_statement(request: HttpRequest, division: Division, club_pk: int) -> HttpResponse:
    club = get_object_or_404(Club.objects.filter(team__division=division).distinct(), pk=club_pk)
    return _statement(request, division, club, token=None)


@private
def team_statement(request: HttpRequest, token: str) -> HttpResponse:
    team = open_team_link(request, token).team
    if team.club is None or team.division is None:
        return redirect("team:page", token=token)
    return _statement(request, team.division, team.club, token=token)


def _statement(
    request: HttpRequest, division: Division, club: Club, *, token: str | None
) -> HttpResponse:
    league = division.season.league
    today = timezone.localdate()
    found = fines.statement(league, club, today=today) if league else None
    return render(
        request,
        "league/statement.html",
        {
            "division": division,
            "club": club,
            "statement": found,
            "token": token,
            "today": today,
            "at_table": token is not None,
            "next_day": division.match_days.filter(date__gte=today).order_by("date").first(),
        },
    )

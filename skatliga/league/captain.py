"""The captain's pages behind his team's link (``/team/<token>/``, no account), or its short
code typed at ``/team/``: the team's match days and, before each series, its line-up. The same
service sets the line-up as on the referee's page (``services.matchdays.set_line_up``); wrong
tokens and codes are limited as the table link's are (``table.views.wrong``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy

from skatliga.forms import coded_error
from skatliga.league.forms import LineUpForm
from skatliga.league.views import saved
from skatliga.models import LineUp, MatchGroup, MatchReport, ReportAnswer, TeamLink
from skatliga.services import matchdays, reports
from skatliga.table.views import (
    ALL_WRONG_TOKENS_PER_HOUR,
    WRONG_TOKENS_PER_HOUR,
    private,
    token_for_code,
    wrong,
)


def open_team_link(request: HttpRequest, token: str) -> TeamLink:
    """The team link behind ``token``: a wrong or revoked one is a plain 404, or a 429 after
    too many wrong ones from this address (``table.views.private``)."""
    link = matchdays.team_link_for_token(token)
    if link is None:
        wrong(request, "team-tokens", WRONG_TOKENS_PER_HOUR, ALL_WRONG_TOKENS_PER_HOUR)
        raise Http404
    return link


class TeamCodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Mannschafts-Code"), max_length=20)


@private
def code(request: HttpRequest) -> HttpResponse:
    """Type the team's short code instead of opening its link."""
    form = TeamCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token = token_for_code(request, form, matchdays.team_link_for_code, "team-codes")
        if token is not None:
            return redirect("team:page", token=token)
        form.add_error("code", coded_error("team_code_unknown"))
    return render(request, "league/team_code.html", {"form": form, "at_table": True})


def _series_states(group: MatchGroup, team_pk: int) -> list[dict[str, Any]]:
    """Per series of the group's match day: whether it is drawn and the team's line-up."""
    level = group.match_day.division.level
    drawn = group.tournament.series.count() if group.tournament else 0
    set_up = {
        line_up.series: line_up
        for line_up in LineUp.objects.filter(group=group, team_id=team_pk).prefetch_related(
            "entries__player"
        )
    }
    return [
        {
            "number": n,
            "drawn": n <= drawn,
            "players": [e.player for e in set_up[n].entries.all()] if n in set_up else [],
            "open": group.tournament is not None and n > drawn,
        }
        for n in range(1, level.series + 1)
    ]


@private
def page(request: HttpRequest, token: str) -> HttpResponse:
    """The team's match days from today on, each with its series' line-ups."""
    link = open_team_link(request, token)
    team = link.team
    groups = (
        MatchGroup.objects.filter(
            teams=team,
            date__gte=timezone.localdate(),
            match_day__division__published_at__isnull=False,
        )
        .select_related("match_day__division__level", "tournament", "host")
        .order_by("date", "match_day__number")
    )
    if team.division is not None:
        reports.write_due_reports(team.division)
    return render(
        request,
        "league/team_page.html",
        {
            "team": team,
            "token": token,
            "reports": MatchReport.objects.filter(group__teams=team)
            .select_related("group__match_day")
            .order_by("-group__date"),
            "answered": set(
                ReportAnswer.objects.filter(team=team).values_list("report_id", flat=True)
            ),
            "groups": [
                {
                    "group": g,
                    "teams": g.teams.order_by("name"),
                    "series": _series_states(g, team.pk),
                }
                for g in groups
            ],
            "at_table": True,
        },
    )


@private
def line_up(request: HttpRequest, token: str, group_pk: int, series: int) -> HttpResponse:
    """The captain ticks who plays the series; a refusal says which rule and why."""
    link = open_team_link(request, token)
    team = link.team
    group = get_object_or_404(
        MatchGroup.objects.select_related("match_day__division__level", "tournament"),
        pk=group_pk,
        teams=team,
    )
    entries = list(team.roster.select_related("player").order_by("position"))
    roster = [(e.player_id, e.player.name) for e in entries]
    chosen = [p.pk for p in matchdays.line_up_of(group, team, series)]
    form = LineUpForm(request.POST or None, roster=roster, initial={"players": chosen})
    if request.method == "POST" and form.is_valid():
        players = [e.player for e in entries if e.player_id in form.cleaned_data["players"]]
        if saved(
            form,
            lambda: matchdays.set_line_up(group, team, series, players, via=LineUp.Via.CAPTAIN),
        ):
            messages.success(request, gettext_lazy("Aufstellung gespeichert."))
            return redirect("team:page", token=token)
    return render(
        request,
        "league/team_line_up.html",
        {
            "team": team,
            "group": group,
            "series": series,
            "form": form,
            "substitutes": {e.player_id for e in entries if e.substitute},
            "token": token,
            "at_table": True,
        },
        status=400 if request.method == "POST" else 200,
    )

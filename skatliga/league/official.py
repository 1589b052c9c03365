"""A division's official's pages: the division with its schedule editor, a team's roster and
link, and a group's line-ups. Open to the division's officials and the league's
(``Division.objects.officiated_by``); anyone else gets 403 and writes nothing. Views parse,
call ``league.structure``, ``league.fixtures`` or ``services.matchdays``, render."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from skatliga.forms.parsing import whole_number
from skatliga.league.forms import GroupForm, LineUpForm, RosterForm, ScheduleForm, SwapForm
from skatliga.league.views import saved
from skatliga.models import Division, LineUp, MatchDay, MatchGroup, Team, Tournament
from skatliga.services import fixtures, leagues, matchdays
from skatliga.services.links import format_code
from skatliga.views.referee import forbidden

View = Callable[..., HttpResponse]


def official_required(view: View) -> View:
    """Load the division by ``pk``; anonymous users log in, others than its officials get 403."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        division = get_object_or_404(
            Division.objects.select_related("season__league", "level"), pk=pk
        )
        if not division.is_officiated_by(request.user):
            return forbidden(request)
        return view(request, division, *args, **kwargs)

    return wrapper


@login_required
def divisions(request: HttpRequest) -> HttpResponse:
    """The divisions the user runs (``Division.objects.officiated_by``)."""
    return render(
        request,
        "league/divisions.html",
        {
            "divisions": Division.objects.officiated_by(request.user).select_related(
                "season", "level"
            )
        },
    )


def _teams(group: MatchGroup) -> list[tuple[int, str]]:
    return [(t.pk, t.name) for t in group.teams.order_by("name")]


def _schedule(division: Division, bound: dict[str, forms.Form]) -> list[dict[str, Any]]:
    """Per match day its groups with their teams and forms, as the editor shows them; a form
    the official just sent with an error (``bound``, by its prefix) stands in for its own."""
    days = []
    for day in division.match_days.order_by("number").prefetch_related("groups__teams"):
        day_teams = sorted(
            ((t.pk, t.name) for g in day.groups.all() for t in g.teams.all()), key=lambda t: t[1]
        )
        groups = []
        for group in day.groups.order_by("number"):
            teams = [(t.pk, t.name) for t in sorted(group.teams.all(), key=lambda t: t.name)]
            form = bound.get(f"g{group.pk}") or GroupForm(
                prefix=f"g{group.pk}",
                teams=teams,
                initial={
                    "date": group.date,
                    "starts_at": group.starts_at,
                    "host": group.host_id,
                    "venue": group.venue,
                    "address": group.address,
                },
            )
            groups.append({"group": group, "teams": teams, "form": form})
        swap = bound.get(f"d{day.pk}") or SwapForm(prefix=f"d{day.pk}", teams=day_teams)
        days.append({"day": day, "groups": groups, "swap": swap})
    return days


@official_required
def division(request: HttpRequest, division: Division) -> HttpResponse:
    """The division: its teams, and the schedule editor (generate, swap, host, venue, dates,
    set up a group's match day, publish), with how often each pair meets."""
    bound: dict[str, forms.Form] = {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        done = _act(request, division, action)
        if done is True:
            return redirect(reverse("league:division", args=[division.pk]) + f"#{action}")
        if isinstance(done, forms.Form):
            bound[done.prefix or action] = done
            for error in done.non_field_errors():
                messages.error(request, str(error))
    teams, matrix = fixtures.meeting_matrix(division)
    counts = [c for i, row in enumerate(matrix) for j, c in enumerate(row) if i < j]
    return render(
        request,
        "league/division.html",
        {
            "division": division,
            "may_rule": division.season.is_run_by(request.user),
            "teams": division.teams.select_related("club", "captain").prefetch_related("roster"),
            "schedule_form": bound.get("schedule") or ScheduleForm(prefix="schedule"),
            "days": _schedule(division, bound),
            "matrix": [
                {"team": team, "cells": [{"count": c, "self": i == j} for j, c in enumerate(row)]}
                for i, (team, row) in enumerate(zip(teams, matrix, strict=True))
            ],
            "spread": (min(counts), max(counts)) if counts else None,
            "calendar": request.build_absolute_uri(
                reverse("league:division-calendar", args=[division.pk])
            ),
        },
        status=400 if request.method == "POST" else 200,
    )


def _act(request: HttpRequest, division: Division, action: str) -> bool | forms.Form:
    """Run one of the editor's actions: True when done, else the form with its error."""
    post = request.POST
    if action == "generate":
        form: forms.Form = ScheduleForm(post, prefix="schedule")
        if form.is_valid() and saved(
            form, lambda: fixtures.generate_schedule(division, **form.cleaned_data)
        ):
            messages.success(request, _("Spielplan erzeugt."))
            return True
        return form
    if action == "publish":
        form = forms.Form(post)
        if saved(form, lambda: fixtures.publish_schedule(division)):
            messages.success(request, _("Spielplan veröffentlicht."))
            return True
        return form
    if action == "swap":
        day = get_object_or_404(MatchDay, division=division, pk=whole_number(post.get("day")))
        teams = [(t.pk, t.name) for t in Team.objects.filter(group_places__match_day=day)]
        form = SwapForm(post, prefix=f"d{day.pk}", teams=teams)
        if form.is_valid():
            first, second = (
                Team.objects.get(pk=form.cleaned_data[name]) for name in ("first", "second")
            )
            if saved(form, lambda: fixtures.swap_teams(day, first, second)):
                messages.success(request, _("Mannschaften getauscht."))
                return True
        return form
    group = get_object_or_404(
        MatchGroup, match_day__division=division, pk=whole_number(post.get("group"))
    )
    if action == "group":
        form = GroupForm(post, prefix=f"g{group.pk}", teams=_teams(group))
        if form.is_valid():
            data = dict(form.cleaned_data)
            host = data.pop("host")
            data["host"] = Team.objects.get(pk=host) if host else None
            if saved(form, lambda: fixtures.change_group(group, **data)):
                messages.success(request, _("Gruppe gespeichert."))
                return True
        return form
    if action == "setup":
        form = forms.Form(post)
        if saved(form, lambda: matchdays.set_up_group(group, user=request.user)):
            messages.success(request, _("Spieltag der Gruppe angelegt."))
            return True
        return form
    return False


@official_required
def team(request: HttpRequest, division: Division, team_pk: int) -> HttpResponse:
    """A team's roster (regulars in order, substitutes, captain) and its captain's link."""
    team = get_object_or_404(
        Team.objects.select_related("club", "captain"), division=division, pk=team_pk
    )
    entries = list(team.roster.select_related("player").order_by("position"))
    initial = {
        "regulars": "\n".join(
            e.player.number or e.player.name for e in entries if not e.substitute
        ),
        "substitutes": "\n".join(e.player.number or e.player.name for e in entries if e.substitute),
        "captain": team.captain.number or team.captain.name if team.captain else "",
    }
    form = RosterForm(request.POST or None, initial=initial)
    if request.method == "POST" and "renew" in request.POST:
        matchdays.renew_team_link(team, user=request.user)
        messages.success(request, _("Neuer Mannschaftslink ausgegeben; der alte gilt nicht mehr."))
        return redirect("league:division-team", pk=division.pk, team_pk=team.pk)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if saved(
            form,
            lambda: leagues.set_roster(
                team, data["regulars"], data["substitutes"], captain=data["captain"]
            ),
        ):
            messages.success(request, _("Kader gespeichert."))
            return redirect("league:division-team", pk=division.pk, team_pk=team.pk)
    link = matchdays.team_link(team, user=request.user)
    return render(
        request,
        "league/division_team.html",
        {
            "division": division,
            "team": team,
            "entries": entries,
            "form": form,
            "link_url": request.build_absolute_uri(reverse("team:page", args=[link.token])),
            "code": format_code(link.code),
            "code_url": request.build_absolute_uri(reverse("team:code")),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def line_ups(request: HttpRequest, group_pk: int) -> HttpResponse:
    """The referee's page of a group's line-ups: per team the players of the next series."""
    group = get_object_or_404(
        MatchGroup.objects.select_related("tournament", "match_day__division__level"), pk=group_pk
    )
    tournament = group.tournament
    if (
        tournament is None
        or not Tournament.objects.refereed_by(request.user).filter(pk=tournament.pk).exists()
    ):
        return forbidden(request)
    drawn = tournament.series.count()
    series = min(drawn + 1, group.match_day.division.level.series)
    rows = []
    for team in group.teams.order_by("name"):
        roster = [
            (e.player_id, e.player.name + (" (E)" if e.substitute else ""))
            for e in team.roster.select_related("player").order_by("position")
        ]
        chosen = [p.pk for p in matchdays.line_up_of(group, team, series)]
        prefix = f"t{team.pk}"
        form = LineUpForm(
            request.POST if request.POST.get("team") == str(team.pk) else None,
            prefix=prefix,
            roster=roster,
            initial={"players": chosen},
        )
        if form.is_bound and form.is_valid():
            players = [
                e.player
                for e in team.roster.order_by("position")
                if e.player_id in form.cleaned_data["players"]
            ]
            call = partial(
                matchdays.set_line_up,
                group,
                team,
                series,
                players,
                user=request.user,
                via=LineUp.Via.REFEREE,
            )
            if saved(form, call):
                messages.success(request, _("Aufstellung gespeichert."))
                return redirect("league:line-ups", group_pk=group.pk)
        rows.append({"team": team, "form": form, "set": bool(chosen)})
    return render(
        request,
        "league/line_ups.html",
        {
            "group": group,
            "tournament": tournament,
            "series": series,
            "rows": rows,
            "drawn": drawn >= series,
        },
        status=400 if request.method == "POST" else 200,
    )

"""The referee's league pages: clubs, players, seasons with their teams and match days.

Open to users who may change players (``skatliga.change_player``; operators and league
referees); views parse, call ``services.rosters`` (or ``services.create_tournament`` for a
match day, as the dashboard does), render.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from skatliga import services
from skatliga.forms import coded_error
from skatliga.forms.parsing import query_text
from skatliga.league.forms import (
    ClubForm,
    MatchDayForm,
    MergeForm,
    PlayerForm,
    RosterImportForm,
    SeasonForm,
    TeamForm,
)
from skatliga.messages import message
from skatliga.models import Club, Player, Season, Team
from skatliga.services import rosters as league
from skatliga.tasks.seasons import start_rescore
from skatliga.views.referee import forbidden

View = Callable[..., HttpResponse]
PLAYERS_PER_PAGE = 100


def may_manage(user: Any) -> bool:
    return bool(user.is_authenticated and user.has_perm("skatliga.change_player"))


def league_required(view: View) -> View:
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not may_manage(request.user):
            return forbidden(request)
        return view(request, *args, **kwargs)

    return wrapper


def saved(form: forms.Form, call: Callable[[], Any]) -> Any:
    """Call a service; its error goes onto the form's field (or the form). None on error."""
    try:
        return call()
    except services.ServiceError as error:
        form.add_error(
            error.field if error.field in form.fields else None,
            coded_error(error.code, **error.params),
        )
        return None


# --- overview and clubs ----------------------------------------------------------------------


@league_required
def home(request: HttpRequest) -> HttpResponse:
    club_form, season_form = ClubForm(prefix="club"), SeasonForm(prefix="season")
    if request.method == "POST" and "club-name" in request.POST:
        club_form = ClubForm(request.POST, prefix="club")
        if club_form.is_valid() and saved(
            club_form, lambda: league.save_club(None, **club_form.cleaned_data)
        ):
            messages.success(request, _("Verein angelegt."))
            return redirect("league:home")
    elif request.method == "POST":
        season_form = SeasonForm(request.POST, prefix="season")
        season = None
        if season_form.is_valid():
            season = saved(
                season_form, lambda: league.save_season(None, **season_form.cleaned_data)
            )
        if season is not None:
            messages.success(request, _("Saison angelegt."))
            return redirect("league:season", slug=season.slug)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "league/home.html",
        {
            "seasons": Season.objects.annotate(
                team_count=Count("teams", distinct=True),
                tournament_count=Count("tournaments", distinct=True),
            ),
            "clubs": Club.objects.annotate(player_count=Count("players")),
            "club_form": club_form,
            "season_form": season_form,
        },
        status=status,
    )


@league_required
def club(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    form = ClubForm(request.POST or None, initial={"name": club.name})
    if (
        request.method == "POST"
        and form.is_valid()
        and saved(form, lambda: league.save_club(club, **form.cleaned_data))
    ):
        messages.success(request, _("Verein gespeichert."))
        return redirect("league:home")
    return render(
        request,
        "league/club.html",
        {"club": club, "form": form, "players": club.players.all()},
        status=400 if request.method == "POST" else 200,
    )


# --- players ---------------------------------------------------------------------------------


@league_required
def players(request: HttpRequest) -> HttpResponse:
    """Every player, searchable by name, club or number; a new one; a roster to import."""
    query = query_text(request.GET, "q").strip()
    listed = Player.objects.select_related("club")
    if query:
        listed = listed.filter(
            Q(name__icontains=query) | Q(club__name__icontains=query) | Q(number=query)
        )
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = saved(form, lambda: league.save_player(None, **form.cleaned_data))
        if player is not None:
            messages.success(request, _("%(name)s angelegt.") % {"name": player.name})
            return redirect("league:players")
    return render(
        request,
        "league/players.html",
        {
            "page": Paginator(listed, PLAYERS_PER_PAGE).get_page(request.GET.get("page")),
            "query": query,
            "form": form,
            "import_form": RosterImportForm(),
        },
        status=400 if request.method == "POST" else 200,
    )


@league_required
def player(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    initial = {
        "name": player.name,
        "club": player.club.name if player.club else "",
        "number": player.number,
        "category": player.category,
        "initials_only": player.initials_only,
        "rating_listed": {None: "", True: "yes", False: "no"}[player.rating_listed],
    }
    form = PlayerForm(request.POST or None, initial=initial)
    if (
        request.method == "POST"
        and form.is_valid()
        and saved(form, lambda: league.save_player(player, **form.cleaned_data))
    ):
        messages.success(request, _("Spieler gespeichert."))
        return redirect("league:player", pk=player.pk)
    return _render_player(
        request, player, form=form, status=400 if request.method == "POST" else 200
    )


def _render_player(
    request: HttpRequest, player: Player, status: int = 200, **context: Any
) -> HttpResponse:
    context.setdefault("form", PlayerForm(initial={"name": player.name}))
    context.setdefault("merge_form", MergeForm())
    return render(
        request,
        "league/player.html",
        {
            "player": player,
            "registrations": player.registrations.select_related("tournament", "team"),
            **context,
        },
        status=status,
    )


@league_required
@require_POST
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge a duplicate record into this player."""
    keep = get_object_or_404(Player, pk=pk)
    form = MergeForm(request.POST)
    if form.is_valid():
        drop = form.cleaned_data["other"]
        name = drop.name
        if saved(form, lambda: league.merge_players(keep, drop, user=request.user)):
            messages.success(
                request,
                _("%(other)s mit %(name)s zusammengeführt.") % {"other": name, "name": keep.name},
            )
            return redirect("league:player", pk=keep.pk)
    return _render_player(request, keep, merge_form=form, status=400)


@league_required
@require_POST
def roster_import(request: HttpRequest) -> HttpResponse:
    form = RosterImportForm(request.POST, request.FILES)
    report = None
    if form.is_valid():
        report = league.import_roster(form.cleaned_data["text"])
        messages.success(
            request,
            ngettext(
                "%(count)d Spieler angelegt.", "%(count)d Spieler angelegt.", len(report.created)
            )
            % {"count": len(report.created)},
        )
    return render(
        request,
        "league/roster_import.html",
        {
            "form": form,
            "report": report,
            "duplicates": [(line, name, message(why)) for line, name, why in report.duplicates]
            if report
            else [],
            "problems": [
                (n, message(code, most=report.longest.get(n))) for n, code in report.problems
            ]
            if report
            else [],
        },
        status=200 if report else 400,
    )


# --- seasons ---------------------------------------------------------------------------------


@league_required
def season(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    forms_ = {
        "season_form": SeasonForm(initial=SeasonForm.initial_for(season), prefix="season"),
        "team_form": TeamForm(prefix="team"),
        "match_day_form": MatchDayForm(
            prefix="day",
            initial={"match_day": (season.tournaments.aggregate(m=Max("match_day"))["m"] or 0) + 1},
        ),
    }
    if request.method == "POST" and "rescore" in request.POST:
        job = start_rescore(season, user=request.user)
        return redirect("referee:job", job_id=job.pk)
    if request.method == "POST":
        if "season-name" in request.POST:
            form: forms.Form = SeasonForm(request.POST, prefix="season")
            forms_["season_form"] = form
            if form.is_valid() and saved(
                form, lambda: league.save_season(season, **form.cleaned_data)
            ):
                messages.success(request, _("Saison gespeichert."))
                return redirect("league:season", slug=season.slug)
        elif "team-name" in request.POST:
            form = TeamForm(request.POST, prefix="team")
            forms_["team_form"] = form
            if form.is_valid() and saved(
                form, lambda: league.save_team(season, None, **form.cleaned_data)
            ):
                messages.success(request, _("Mannschaft angelegt."))
                return redirect("league:season", slug=season.slug)
        else:
            form = MatchDayForm(request.POST, prefix="day")
            forms_["match_day_form"] = form
            if form.is_valid():
                tournament = services.create_tournament(
                    user=request.user, season=season, **form.cleaned_data
                )
                messages.success(request, _("Spieltag angelegt. Jetzt die Spieler eintragen."))
                return redirect("referee:tournament", slug=tournament.slug)
    return render(
        request,
        "league/season.html",
        {
            "season": season,
            "may_end": season.is_run_by(request.user),
            "other_rules": services.playing_other_rules(season),
            "teams": season.teams.select_related("club").prefetch_related("players"),
            "tournaments": season.tournaments.all(),
            **forms_,
        },
        status=400 if request.method == "POST" else 200,
    )


@league_required
def team(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    team = get_object_or_404(Team.objects.select_related("club"), season=season, pk=pk)
    initial = {
        "name": team.name,
        "club": team.club.name if team.club else "",
        "players": "\n".join(p.number or p.name for p in team.players.all()),
    }
    form = TeamForm(request.POST or None, initial=initial)
    if (
        request.method == "POST"
        and form.is_valid()
        and saved(form, lambda: league.save_team(season, team, **form.cleaned_data))
    ):
        messages.success(request, _("Mannschaft gespeichert."))
        return redirect("league:season", slug=season.slug)
    return render(
        request,
        "league/team.html",
        {"season": season, "team": team, "form": form},
        status=400 if request.method == "POST" else 200,
    )

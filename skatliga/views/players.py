"""The referee's tournament page: its players (entered, removed, withdrawn), their teams,
the pairs kept apart, and the draw of a new series."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from skatliga import services
from skatliga.collation import german_key
from skatliga.forms import coded_error, posted_text
from skatliga.forms.parsing import query_text, whole_number
from skatliga.forms.players import DrawForm, PlayersForm, TeamForm, TeamsForm
from skatliga.models import (
    Club,
    ForbiddenPair,
    Player,
    Registration,
    Tournament,
)
from skatliga.views.referee import action_error, referee_required


def render_tournament(
    request: HttpRequest, tournament: Tournament, status: int = 200, **context: Any
) -> HttpResponse:
    registrations = sorted(
        tournament.registrations.select_related("player__club", "team"),
        key=lambda registration: german_key(registration.player.name),
    )
    series = tournament.series.annotate(
        table_count=Count("tables", distinct=True),
        closed_count=Count("tables", filter=Q(tables__closed_at__isnull=False), distinct=True),
    )
    players = sum(1 for r in registrations if r.withdrawn_at is None)
    try:
        sizes = services.table_sizes(players, tournament.list_system)
    except services.ServiceError:
        sizes = []
    teams_form = context.pop("teams_form", None)
    if teams_form is None and tournament.season is not None:
        teams_form = TeamsForm(
            registrations=registrations, teams=list(tournament.season.teams.all())
        )
    context = {
        "tournament": tournament,
        "registrations": registrations,
        "series_list": series,
        "can_remove": not tournament.series.exists(),
        "players_form": PlayersForm(),
        "teams_form": teams_form,
        "player_rows": teams_form.rows() if teams_form else [(r, None) for r in registrations],
        "team_form": TeamForm(),
        "clubs": Club.objects.values_list("name", flat=True),
        "draw_form": DrawForm(first=not series),
        "avoid_repeats": True,
        "table_sizes": sizes,
        "active": players,
        "table_plan": table_plan(sizes),
        "kept_apart": services.pairs_kept_apart(tournament),
        **context,
    }
    return render(request, "referee/tournament.html", context, status=status)


def table_plan(sizes: list[int]) -> str:
    """The tables a draw makes, in words, leaving out a kind there is none of."""
    fours, threes = sizes.count(4), sizes.count(3)
    if sizes == [5]:
        return _("ein Fünfertisch")
    parts = [
        ngettext("%(count)d Vierertisch", "%(count)d Vierertische", fours) % {"count": fours},
        ngettext("%(count)d Dreiertisch", "%(count)d Dreiertische", threes) % {"count": threes},
    ]
    wanted = [part for part, count in zip(parts, (fours, threes), strict=True) if count]
    if len(wanted) == 2:
        return _("%(fours)s und %(threes)s") % {"fours": wanted[0], "threes": wanted[1]}
    return wanted[0] if wanted else ""


@referee_required
@require_GET
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render_tournament(request, tournament)


@referee_required
@require_POST
def players_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayersForm(request.POST)
    if not form.is_valid():
        return render_tournament(request, tournament, players_form=form)
    added, already = services.register_players(tournament, form.cleaned_data["players"])
    if added:
        messages.success(
            request,
            ngettext(
                "%(count)s Spieler eingetragen: %(names)s",
                "%(count)s Spieler eingetragen: %(names)s",
                len(added),
            )
            % {"count": len(added), "names": ", ".join(str(r.player) for r in added)},
        )
    if already:
        messages.info(
            request,
            ngettext(
                "%(count)s Spieler war schon eingetragen: %(names)s",
                "%(count)s Spieler waren schon eingetragen: %(names)s",
                len(already),
            )
            % {"count": len(already), "names": ", ".join(str(r.player) for r in already)},
        )
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_GET
def player_search(request: HttpRequest, tournament: Tournament) -> JsonResponse:
    """Players of the roster whose name contains ``q``, for the type-ahead."""
    query = " ".join(query_text(request.GET, "q").split())
    players = Player.objects.select_related("club").order_by("name")
    if query:
        players = players.filter(name__icontains=query)
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    return JsonResponse(
        {
            "players": [
                {
                    "id": player.pk,
                    "name": player.name,
                    "club": player.club.name if player.club else "",
                    "value": f"{player.name}; {player.club.name}" if player.club else player.name,
                    "registered": player.pk in registered,
                }
                for player in players[:20]
            ]
        }
    )


@referee_required
@require_POST
def registration_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=pk, tournament=tournament)
    try:
        services.remove_registration(registration)
    except services.ServiceError as error:
        return render_tournament(request, tournament, action_error=action_error(error, "remove"))
    messages.success(request, _("%(player)s entfernt.") % {"player": registration.player})
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_POST
def registration_withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=pk, tournament=tournament)
    try:
        services.withdraw_player(
            registration, user=request.user, reason=posted_text(request.POST, "reason")
        )
    except ValidationError as error:
        return render_tournament(
            request, tournament, status=400, action_error=action_error(error, "withdraw")
        )
    except services.ServiceError as error:
        return render_tournament(
            request, tournament, status=409, action_error=action_error(error, "withdraw")
        )
    messages.success(
        request,
        _("%(player)s zurückgezogen: nicht mehr ausgelost, die Ergebnisse bleiben.")
        % {"player": registration.player},
    )
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_POST
def series_draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    method = request.POST.get("method") or "lot"
    # The checkbox posts "1" beside a hidden "0"; without either, repeats are avoided.
    choice = request.POST.getlist("avoid_repeats")
    avoid_repeats = not choice or "1" in choice
    try:
        series = services.draw_tables(
            tournament,
            user=request.user,
            method=method,
            avoid_repeats=avoid_repeats,
            despite_open_lists=request.POST.get("despite_open") == "1",
        )
    except services.ServiceError as error:
        return render_tournament(
            request,
            tournament,
            action_error=action_error(error, "draw"),
            draw_method=method,
            avoid_repeats=avoid_repeats,
        )
    repeats = len(services.series_repeat_pairs(series))
    note = _("Serie %(number)s ausgelost.") % {"number": series.number}
    if series.number > 1:
        note += " " + ngettext(
            "%(count)s Paar sitzt wieder zusammen.",
            "%(count)s Paare sitzen wieder zusammen.",
            repeats,
        ) % {"count": repeats}
    messages.success(request, note)
    together = services.series_forbidden_pairs(series)
    if together:
        messages.warning(
            request,
            ngettext(
                "Nicht getrennt werden konnten: %(pairs)s.",
                "Nicht getrennt werden konnten: %(pairs)s.",
                len(together),
            )
            % {
                "pairs": "; ".join(
                    _("%(first)s und %(second)s (Tisch %(table)s)")
                    % {"first": a.player, "second": b.player, "table": a.table.number}
                    for a, b in together
                )
            },
        )
    return redirect("referee:series", slug=tournament.slug, series=series.number)


@referee_required
@require_POST
def pair_forbid(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Two players who must not sit at one table (family, one household)."""
    first = whole_number(request.POST.get("first"))
    second = whole_number(request.POST.get("second"))
    try:
        if first is None or second is None:
            raise services.ServiceError("registration_not_in_tournament", "second")
        kept = services.forbid_pair(tournament, first, second)
    except services.ServiceError as error:
        return render_tournament(
            request, tournament, status=400, action_error=action_error(error, "apart")
        )
    messages.success(
        request,
        _("%(first)s und %(second)s sitzen nicht an einem Tisch.")
        % {"first": kept.first.player, "second": kept.second.player},
    )
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#apart")


@referee_required
@require_POST
def pair_allow(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    kept = get_object_or_404(ForbiddenPair, pk=pk, first__tournament=tournament)
    services.allow_pair(kept)
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#apart")


@referee_required
@require_POST
def teams_assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    teams = list(tournament.season.teams.all()) if tournament.season else []
    registrations = list(tournament.registrations.select_related("player__club", "team"))
    form = TeamsForm(request.POST, registrations=registrations, teams=teams)
    if not form.is_valid():
        return render_tournament(request, tournament, teams_form=form)
    try:
        changed = services.assign_teams(tournament, form.assignments(), user=request.user)
    except services.ServiceError as error:
        return render_tournament(
            request, tournament, teams_form=form, action_error=action_error(error, "teams")
        )
    messages.success(
        request,
        ngettext(
            "Mannschaften gespeichert: %(count)s Spieler geändert.",
            "Mannschaften gespeichert: %(count)s Spieler geändert.",
            len(changed),
        )
        % {"count": len(changed)},
    )
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_POST
def team_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TeamForm(request.POST)
    if form.is_valid():
        try:
            team = services.create_team(
                tournament, form.cleaned_data["name"], form.cleaned_data["club"], user=request.user
            )
        except services.ServiceError as error:
            if error.field in form.fields:
                form.add_error(error.field, coded_error(error.code, **error.params))
            else:
                return render_tournament(
                    request, tournament, team_form=form, action_error=action_error(error, "team")
                )
        else:
            messages.success(request, _("Mannschaft %(team)s angelegt.") % {"team": team})
            return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")
    return render_tournament(request, tournament, team_form=form)

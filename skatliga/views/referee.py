"""The referee's pages: tournaments, players, draws, settings and the archive.

Every view here needs a login; every page of a tournament needs its referee
(``Tournament.is_referee``), others get a 403 page. Views parse, call a service, render.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from skatliga import services
from skatliga.archive import ArchiveError, dump_archive, load_archive
from skatliga.forms import (
    ArchiveUploadForm,
    ChangeFilterForm,
    DrawForm,
    PlayersForm,
    RefereeForm,
    ReopenForm,
    SwapForm,
    TeamForm,
    TeamsForm,
    TournamentForm,
    coded_error,
)
from skatliga.messages import describe_change, message
from skatliga.models import (
    Club,
    Game,
    Player,
    Registration,
    Season,
    Seat,
    Series,
    Tournament,
)
from skatliga.table.cards import link_cards
from skatliga.views.dashboard import POLL_SECONDS, series_status, status_etag

View = Callable[..., HttpResponse]


def forbidden(request: HttpRequest) -> HttpResponse:
    return render(request, "referee/forbidden.html", status=403)


def referee_required(view: View) -> View:
    """Load the tournament by slug; anonymous users log in, others than its referees get 403."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not tournament.is_referee(request.user):
            return forbidden(request)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def may_create_tournaments(user: Any) -> bool:
    return bool(user.is_authenticated and user.has_perm("skatliga.add_tournament"))


def action_error(error: services.ServiceError, action: str) -> dict[str, str]:
    return {"action": action, "code": error.code, "message": message(error.code, **error.params)}


# --- dashboard and tournaments ---------------------------------------------------------------


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.all()
    if not request.user.is_superuser:
        tournaments = tournaments.filter(referees=request.user)
    tournaments = tournaments.annotate(
        players=Count("registrations", distinct=True),
        series_count=Count("series", distinct=True),
    ).select_related("season")
    return render(
        request,
        "referee/dashboard.html",
        {
            "tournaments": tournaments,
            "may_create": may_create_tournaments(request.user),
        },
    )


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not may_create_tournaments(request.user):
        return forbidden(request)
    if request.method == "POST":
        form = TournamentForm(request.POST)
        if form.is_valid():
            tournament = services.create_tournament(user=request.user, **form.cleaned_data)
            messages.success(request, _("Turnier angelegt. Jetzt die Spieler eintragen."))
            return redirect("referee:tournament", slug=tournament.slug)
    else:
        initial: dict[str, Any] = {"date": timezone.localdate()}
        season = Season.objects.filter(slug=request.GET.get("season") or "").first()
        if season is not None:
            # A tournament of the season starts with the season's rule set and list system.
            initial |= {"season": season, **season.rule_fields()}
        form = TournamentForm(initial=initial)
    return render(request, "referee/tournament_form.html", {"form": form})


def render_tournament(
    request: HttpRequest, tournament: Tournament, status: int = 200, **context: Any
) -> HttpResponse:
    registrations = tournament.registrations.select_related("player__club", "team")
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
    if teams_form is None and tournament.season_id is not None:
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
        "draw_form": DrawForm(),
        "avoid_repeats": True,
        "table_sizes": sizes,
        "fours": sizes.count(4),
        "threes": sizes.count(3),
        "five_table": [5],
        **context,
    }
    return render(request, "referee/tournament.html", context, status=status)


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
    query = " ".join(request.GET.get("q", "").split())
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
            registration, user=request.user, reason=request.POST.get("reason", "")
        )
    except services.ServiceError as error:
        return render_tournament(
            request, tournament, status=409, action_error=action_error(error, "withdraw")
        )
    messages.success(
        request,
        _("%(player)s zurückgezogen: wird nicht mehr ausgelost, seine Ergebnisse bleiben.")
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
    return redirect("referee:series", slug=tournament.slug, series=series.number)


@referee_required
@require_POST
def teams_assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    teams = list(tournament.season.teams.all()) if tournament.season_id else []
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


# --- settings and referees -------------------------------------------------------------------


def settings_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("referee:tournament-settings", args=[tournament.slug]) + anchor


def blocking_rows(tournament: Tournament, error: services.ServiceError) -> list[dict[str, Any]]:
    """The lists and games that keep new settings from being saved, with links to them."""
    rows = []
    for blocking in error.params.get("blocking", ()):
        where = {"series": blocking.series, "table": blocking.table, "game": blocking.game}
        url = reverse("referee:list", args=[tournament.slug, blocking.series, blocking.table])
        if blocking.game is None:
            text = _("Serie %(series)s, Tisch %(table)s") % where
        else:
            text = _("Serie %(series)s, Tisch %(table)s, Spiel %(game)s") % where
            url += f"?game={blocking.game}"
        rows.append(
            {"code": blocking.code, "where": text, "message": message(blocking.code), "url": url}
        )
    return rows


def render_settings(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: TournamentForm | None = None,
    referee_form: RefereeForm | None = None,
    **context: Any,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "form": form or TournamentForm(instance=tournament),
        "referees": tournament.referees.order_by("username"),
        "referee_form": referee_form or RefereeForm(),
        "started": Game.objects.filter(table__series__tournament=tournament).exists(),
        **context,
    }
    return render(request, "referee/tournament_settings.html", context)


@referee_required
def tournament_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's settings; a new rule set, list system or rounds re-scores every list."""
    if request.method != "POST":
        return render_settings(request, tournament)
    # The form writes what it cleans into its instance: give it a copy of the tournament.
    form = TournamentForm(request.POST, instance=Tournament.objects.get(pk=tournament.pk))
    if not form.is_valid():
        return render_settings(request, tournament, form=form)
    fields = {name: form.cleaned_data[name] for name in services.SETTINGS}
    rescoring = any(fields[name] != getattr(tournament, name) for name in services.RESCORING)
    try:
        services.update_tournament(tournament, user=request.user, **fields)
    except services.ServiceError as error:
        if error.field in form.fields:
            form.add_error(error.field, coded_error(error.code, **error.params))
            return render_settings(request, tournament, form=form)
        return render_settings(
            request,
            tournament,
            form=form,
            action_error=action_error(error, "settings"),
            blocking=blocking_rows(tournament, error),
        )
    if rescoring and Game.objects.filter(table__series__tournament=tournament).exists():
        messages.success(request, _("Einstellungen gespeichert; alle Listen neu berechnet."))
    else:
        messages.success(request, _("Einstellungen gespeichert."))
    return redirect("referee:tournament", slug=tournament.slug)


@referee_required
@require_POST
def referee_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RefereeForm(request.POST)
    if form.is_valid():
        try:
            referee = services.add_referee(
                tournament, form.cleaned_data["username"], user=request.user
            )
        except services.ServiceError as error:
            form.add_error("username", coded_error(error.code, **error.params))
        else:
            messages.success(
                request,
                _("%(user)s leitet das Turnier jetzt mit.") % {"user": referee.get_username()},
            )
            return redirect(settings_url(tournament, "#referees"))
    return render_settings(request, tournament, referee_form=form)


@referee_required
@require_POST
def referee_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    referee = get_object_or_404(get_user_model(), pk=pk)
    try:
        services.remove_referee(tournament, referee, user=request.user)
    except services.ServiceError as error:
        return render_settings(
            request, tournament, action_error=action_error(error, "referee-remove")
        )
    messages.success(
        request, _("%(user)s leitet das Turnier nicht mehr.") % {"user": referee.get_username()}
    )
    if not tournament.is_referee(request.user):
        return redirect("referee:dashboard")
    return redirect(settings_url(tournament, "#referees"))


# --- series ----------------------------------------------------------------------------------


def render_series(
    request: HttpRequest,
    tournament: Tournament,
    series: Series,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    seats: dict[int, list[Any]] = {}
    for seat in Seat.objects.filter(series=series).select_related("player").order_by("position"):
        seats.setdefault(seat.table_id, []).append(seat)
    started = Game.objects.filter(table__series=series).exists()
    links = link_cards(request, series)
    context = {
        "tournament": tournament,
        "series": series,
        "tables": [
            {
                "table": status.table,
                "status": status,
                "seats": seats.get(status.table.pk, []),
                "link": links.get(status.table.pk),
            }
            for status in series_status(series)
        ],
        "status_url": reverse("referee:series-status", args=[tournament.slug, series.number]),
        "status_etag": status_etag(tournament, series),
        "poll_seconds": POLL_SECONDS,
        "started": started,
        "repeat_pairs": services.series_repeat_pairs(series),
        "swap_form": context.pop("swap_form", None) or SwapForm(series=series),
        "withdraw_form": context.pop("withdraw_form", None) or ReopenForm(),
        **context,
    }
    return render(request, "referee/series.html", context, status=status)


@referee_required
@require_GET
def series_detail(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    return render_series(request, tournament, get_object_or_404(tournament.series, number=series))


@referee_required
@require_POST
def series_publish(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    try:
        services.publish_series(series_obj, user=request.user)
    except services.ServiceError as error:
        return render_series(
            request, tournament, series_obj, action_error=action_error(error, "publish"), status=409
        )
    messages.success(request, _("Serie %(number)d veröffentlicht.") % {"number": series_obj.number})
    return redirect("referee:series", slug=tournament.slug, series=series_obj.number)


@referee_required
@require_POST
def series_withdraw(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.withdraw_publication(
                series_obj, user=request.user, reason=form.cleaned_data["reason"]
            )
        except services.ServiceError as error:
            if error.field == "reason":
                form.add_error("reason", coded_error(error.code))
            else:
                return render_series(
                    request,
                    tournament,
                    series_obj,
                    withdraw_form=form,
                    action_error=action_error(error, "withdraw"),
                    status=409,
                )
        else:
            messages.success(
                request,
                _("Veröffentlichung von Serie %(number)d zurückgezogen.")
                % {"number": series_obj.number},
            )
            return redirect("referee:series", slug=tournament.slug, series=series_obj.number)
    return render_series(request, tournament, series_obj, withdraw_form=form, status=400)


@referee_required
@require_POST
def seats_swap(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    form = SwapForm(request.POST, series=series_obj)
    if not form.is_valid():
        return render_series(request, tournament, series_obj, swap_form=form)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    try:
        services.swap_seats(series_obj, first, second, user=request.user)
    except services.ServiceError as error:
        return render_series(
            request,
            tournament,
            series_obj,
            swap_form=form,
            action_error=action_error(error, "swap"),
        )
    messages.success(
        request,
        _("%(first)s und %(second)s getauscht.") % {"first": first.player, "second": second.player},
    )
    return redirect("referee:series", slug=tournament.slug, series=series_obj.number)


# --- change log ------------------------------------------------------------------------------

CHANGES_PER_PAGE = 100


@referee_required
@require_GET
def change_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every change of the tournament, newest first: games, lists, seating, settings, imports,
    publications and merges; ``?action=`` narrows it to one kind."""
    changes = tournament.changes.select_related("user", "series", "table")
    form = ChangeFilterForm(request.GET or None)
    if form.is_valid() and form.cleaned_data["action"]:
        changes = changes.filter(action=form.cleaned_data["action"])
    page = Paginator(changes, CHANGES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "referee/changes.html",
        {
            "tournament": tournament,
            "form": form,
            "page": page,
            "rows": [(change, describe_change(change)) for change in page],
        },
    )


# --- archive ---------------------------------------------------------------------------------


@referee_required
@require_GET
def archive_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response = JsonResponse(dump_archive(tournament), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


@login_required
def archive_upload(request: HttpRequest) -> HttpResponse:
    """Import an archive as a new tournament; every problem with its path, nothing saved."""
    if not may_create_tournaments(request.user):
        return forbidden(request)
    problems: list[dict[str, str]] = []
    offer_again = ""
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = json.loads(form.cleaned_data["file"].read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            form.add_error("file", coded_error("archive_not_json"))
        except RecursionError:
            form.add_error("file", coded_error("archive_too_deep"))
        else:
            try:
                with transaction.atomic():
                    tournament = load_archive(
                        data, user=request.user, once=not form.cleaned_data["again"]
                    )
                    tournament.referees.add(request.user)
            except ArchiveError as error:
                problems = [
                    {"path": problem.path, "code": problem.code, "message": problem.message}
                    for problem in error.problems
                ]
                already = [p for p in error.problems if p.code == "already_imported"]
                if already:
                    existing = already[0].params["slug"]
                    offer_again = reverse("referee:tournament", args=[existing])
            else:
                messages.success(request, _("Turnier importiert."))
                return redirect("referee:tournament", slug=tournament.slug)
    return render(
        request,
        "referee/archive_upload.html",
        {"form": form, "problems": problems, "existing_url": offer_again},
    )

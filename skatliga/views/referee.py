"""The referee's pages of a tournament as a whole: the dashboard, a new tournament, its
settings and referees, its change log, and the archive. The tournament page with its players
and draws is ``views.players``, the series' pages ``views.series``.

Every view here needs a login; every page of a tournament needs its referee
(``Tournament.objects.refereed_by``), others get a 403 page. Views parse, call a service, render.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from skatliga import services
from skatliga.archive import dump_archive
from skatliga.change_log import change_names, describe_change
from skatliga.forms import coded_error
from skatliga.forms.parsing import query_text
from skatliga.forms.tournaments import (
    ArchiveUploadForm,
    ChangeFilterForm,
    RefereeForm,
    TournamentForm,
)
from skatliga.messages import message
from skatliga.models import (
    Game,
    Season,
    Tournament,
)
from skatliga.tasks.archive import start_import
from skatliga.views.auth import AuthenticatedHttpRequest

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


def action_error(error: services.ServiceError | ValidationError, action: str) -> dict[str, str]:
    """An action's error for the page: a service's code in words, or a refused field's."""
    if isinstance(error, ValidationError):
        return {"action": action, "code": str(error.code), "message": error.messages[0]}
    return {"action": action, "code": error.code, "message": message(error.code, **error.params)}


# --- dashboard and tournaments ---------------------------------------------------------------


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    tournaments = (
        Tournament.objects.refereed_by(request.user)
        .annotate(
            players=Count("registrations", distinct=True),
            series_count=Count("series", distinct=True),
        )
        .select_related("season")
    )
    return render(
        request,
        "referee/dashboard.html",
        {
            "tournaments": tournaments,
            "may_create": may_create_tournaments(request.user),
        },
    )


def seasons_for(user: Any, form: TournamentForm, season: int | None = None) -> TournamentForm:
    """Only who may change the league picks a season; others keep the tournament's own."""
    if not services.tournaments.may_change_seasons(user):
        field = form.fields["season"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Season.objects.filter(pk=season or 0)
    return form


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not may_create_tournaments(request.user):
        return forbidden(request)
    if request.method == "POST":
        form = seasons_for(request.user, TournamentForm(request.POST))
        if form.is_valid():
            tournament = services.create_tournament(user=request.user, **form.cleaned_data)
            messages.success(request, _("Turnier angelegt. Jetzt die Spieler eintragen."))
            return redirect("referee:tournament", slug=tournament.slug)
    else:
        initial: dict[str, Any] = {"date": timezone.localdate()}
        season = Season.objects.filter(slug=query_text(request.GET, "season")).first()
        if season is not None:
            # A tournament of the season starts with the season's rule set and list system.
            initial |= {"season": season, "language": season.language, **season.rule_fields()}
        form = seasons_for(request.user, TournamentForm(initial=initial))
    return render(request, "referee/tournament_form.html", {"form": form})


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
        "form": form or seasons_for(request.user, TournamentForm(instance=tournament)),
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
    form = seasons_for(request.user, form, tournament.season_id)
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
    names = change_names(page)
    return render(
        request,
        "referee/changes.html",
        {
            "tournament": tournament,
            "form": form,
            "page": page,
            "rows": [(change, describe_change(change, names)) for change in page],
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
def archive_upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Import an archive as a new tournament, in the background: a file that is no JSON is
    refused here; the import checks the rest and shows its progress and every problem with
    its path on the job's page (skatliga.tasks), saving nothing when there is one."""
    if not may_create_tournaments(request.user):
        return forbidden(request)
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            text = form.cleaned_data["file"].read().decode("utf-8")
            json.loads(text)
        except (UnicodeDecodeError, ValueError):
            form.add_error("file", coded_error("archive_not_json"))
        except RecursionError:
            form.add_error("file", coded_error("archive_too_deep"))
        else:
            job = start_import(text, user=request.user, again=form.cleaned_data["again"])
            return redirect("referee:job", job_id=job.pk)
    return render(request, "referee/archive_upload.html", {"form": form})

"""The referee's list page (Spielliste, ``skatliga.list_page``): enter and correct rows, the
live preview, closing, reopening and deleting the last row, substitutes."""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from skatliga import services
from skatliga.forms import coded_error, posted_text
from skatliga.forms.entry import CloseForm, ReopenForm
from skatliga.forms.parsing import whole_number
from skatliga.forms.players import SubstituteForm
from skatliga.list_page import editing_number, list_url, preview_row, render_list, save_row
from skatliga.models import Table, Tournament
from skatliga.views.referee import View, action_error, referee_required


def get_table(tournament: Tournament, series: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament", "closed_by"),
        series__tournament=tournament,
        series__number=series,
        number=table,
    )


def referee_list(view: View) -> View:
    """:func:`~skatliga.views.referee.referee_required` for a page of one list, which gets
    the tournament and the table (series, tournament and closer loaded) instead of numbers.

    One query finds the table and whether the user referees its tournament; where it finds
    nothing to show, the usual path answers (404 for an unknown tournament or list, 403 for
    a user who is not its referee).
    """

    @login_required
    @wraps(view)
    def wrapper(
        request: HttpRequest, slug: str, series: int, table: int, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        user = request.user
        refereed = Tournament.objects.refereed_by(user).filter(pk=OuterRef("series__tournament_id"))
        found = (
            Table.objects.select_related("series__tournament", "closed_by")
            .annotate(refereed=Exists(refereed))
            .filter(series__tournament__slug=slug, series__number=series, number=table)
            .first()
        )
        if found is None or not found.refereed:
            return referee_required(
                lambda request, tournament, series, table: view(
                    request, tournament, get_table(tournament, series, table), *args, **kwargs
                )
            )(request, slug, series, table)
        return view(request, found.series.tournament, found, *args, **kwargs)

    return wrapper


@referee_list
def table_list(request: HttpRequest, tournament: Tournament, table_obj: Table) -> HttpResponse:
    """The score sheet: GET shows it (``?game=N`` edits row N); POST saves the row typed."""
    if request.method != "POST":
        return render_list(request, tournament, table_obj, editing=editing_number(request))
    return save_row(request, tournament, table_obj)


@referee_list
@require_POST
def table_preview(request: HttpRequest, tournament: Tournament, table_obj: Table) -> JsonResponse:
    """The engine's verdict on the row being typed, and the list with it: JSON, nothing saved."""
    return preview_row(request, tournament, table_obj)


@referee_list
@require_POST
def table_close(request: HttpRequest, tournament: Tournament, table_obj: Table) -> HttpResponse:
    form = CloseForm(request.POST)
    form.is_valid()
    try:
        services.close_table(
            table_obj, user=request.user, reason=form.cleaned_data.get("reason") or ""
        )
    except services.ServiceError as error:
        if error.field == "reason":
            form.add_error("reason", coded_error(error.code, **error.params))
            return render_list(request, tournament, table_obj, close_form=form, status=400)
        return render_list(
            request,
            tournament,
            table_obj,
            close_form=form,
            action_error=action_error(error, "close"),
            status=409,
        )
    messages.success(
        request, _("Tisch %(number)s: Liste abgeschlossen.") % {"number": table_obj.number}
    )
    if request.POST.get("next") == "series":
        return redirect("referee:series", slug=tournament.slug, series=table_obj.series.number)
    return redirect(list_url(table_obj))


@referee_list
@require_POST
def table_reopen(request: HttpRequest, tournament: Tournament, table_obj: Table) -> HttpResponse:
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.reopen_table(table_obj, user=request.user, reason=form.cleaned_data["reason"])
        except services.ServiceError as error:
            if error.field == "reason":
                form.add_error("reason", coded_error(error.code))
            else:
                return render_list(
                    request,
                    tournament,
                    table_obj,
                    reopen_form=form,
                    action_error=action_error(error, "reopen"),
                )
        else:
            messages.success(request, _("Liste wieder geöffnet."))
            return redirect(list_url(table_obj))
    return render_list(request, tournament, table_obj, reopen_form=form)


@referee_list
@require_POST
def game_delete_last(
    request: HttpRequest, tournament: Tournament, table_obj: Table
) -> HttpResponse:
    try:
        number = int(request.POST["number"])
        version = int(request.POST["version"])
    except (KeyError, ValueError):
        return render_list(
            request,
            tournament,
            table_obj,
            action_error=action_error(services.ServiceError("only_last_game_deleted"), "delete"),
        )
    try:
        services.delete_last_game(
            table_obj,
            number,
            user=request.user,
            expected_version=version,
            reason=posted_text(request.POST, "reason").strip(),
        )
    except ValidationError as error:
        return render_list(
            request, tournament, table_obj, status=400, action_error=action_error(error, "delete")
        )
    except services.ServiceError as error:
        return render_list(
            request, tournament, table_obj, action_error=action_error(error, "delete")
        )
    messages.success(request, _("Spiel %(number)s gelöscht.") % {"number": number})
    return redirect(list_url(table_obj))


@referee_list
@require_POST
def substitute_appoint(
    request: HttpRequest, tournament: Tournament, table_obj: Table
) -> HttpResponse:
    """A player left during the list: record who plays his seat from which game on."""
    seats = list(table_obj.seats.select_related("player").order_by("position"))
    form = SubstituteForm(request.POST, table=table_obj, seats=seats)
    if form.is_valid():
        data = form.cleaned_data
        try:
            seat = services.appoint_substitute(
                table_obj,
                data["seat"],
                data["from_game"],
                player=data["player"],
                name=data["name"] or "",
                club=data["club"] or "",
                user=request.user,
                reason=data["reason"] or "",
            )
        except services.ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(
                request,
                _("Platz %(seat)s: ab Spiel %(number)s spielt %(name)s.")
                % {"seat": seat.position, "number": seat.substitute_from, "name": seat.substitute},
            )
            return redirect(list_url(table_obj) + "#substitutes")
    return render_list(request, tournament, table_obj, substitute_form=form, status=400)


@referee_list
@require_POST
def substitute_remove(
    request: HttpRequest, tournament: Tournament, table_obj: Table
) -> HttpResponse:
    """Undo a substitute while the list is open."""
    try:
        position = int(request.POST.get("seat", ""))
    except ValueError:
        position = None
    try:
        services.remove_substitute(
            table_obj, position, user=request.user, reason=posted_text(request.POST, "reason")
        )
    except ValidationError as error:
        return render_list(
            request,
            tournament,
            table_obj,
            status=400,
            action_error=action_error(error, "substitute"),
        )
    except services.ServiceError as error:
        return render_list(
            request, tournament, table_obj, action_error=action_error(error, "substitute")
        )
    messages.success(request, _("Ersatzspieler entfernt."))
    return redirect(list_url(table_obj) + "#substitutes")


@referee_list
@require_POST
def signature_confirm(
    request: HttpRequest, tournament: Tournament, table_obj: Table
) -> HttpResponse:
    """The referee confirms a seat's signature for its player (who has no seat code at hand),
    after the player checked the list with him."""
    position = whole_number(request.POST.get("seat"), most=5) or 0
    state = whole_number(request.POST.get("state"))
    substitute = request.POST.get("substitute") == "1"
    try:
        services.sign_list(
            table_obj,
            position,
            state=-1 if state is None else state,
            user=request.user,
            substitute=substitute,
            by_referee=True,
        )
    except services.ServiceError as error:
        return render_list(
            request, tournament, table_obj, action_error=action_error(error, "sign"), status=409
        )
    messages.success(request, _("Unterschrift bestätigt."))
    return redirect(list_url(table_obj) + "#signatures")

"""The referee's answers from the dashboard to what a table asked: acknowledging its call,
and letting a game stand against an objection. Correcting the game instead goes through the
list page (``list_page.save_row`` with the objection)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from skatliga import services
from skatliga.forms import posted_text
from skatliga.messages import message
from skatliga.models import Objection, RefereeCall, Tournament
from skatliga.views.referee import action_error, referee_required
from skatliga.views.series import render_series


@referee_required
@require_POST
def call_acknowledge(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    call = get_object_or_404(
        RefereeCall.objects.select_related("table__series"),
        pk=pk,
        table__series__tournament=tournament,
    )
    services.acknowledge_call(call, user=request.user)
    messages.success(
        request, _("Ruf von Tisch %(number)s gesehen.") % {"number": call.table.number}
    )
    return redirect("referee:series", slug=tournament.slug, series=call.table.series.number)


@referee_required
@require_POST
def objection_keep(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    objection = get_object_or_404(
        Objection.objects.select_related("game__table__series"),
        pk=pk,
        game__table__series__tournament=tournament,
    )
    table = objection.game.table
    try:
        services.decide_objection(
            objection, reason=posted_text(request.POST, "reason"), user=request.user
        )
    except services.ServiceError as error:
        messages.error(request, message(error.code, **error.params))
    except ValidationError as error:
        # A reason that cannot be kept (a NUL): the page again, saying so, nothing decided.
        return render_series(
            request,
            tournament,
            table.series,
            action_error=action_error(error, "objection"),
            status=400,
        )
    else:
        messages.success(
            request,
            _("Einspruch zu Spiel %(number)s an Tisch %(table)s: das Spiel bleibt.")
            % {"number": objection.game.number, "table": table.number},
        )
    return redirect("referee:series", slug=tournament.slug, series=table.series.number)

"""Double entry for the referee: the second entry of a list ("Zweiteingabe"), typed from the
paper, and picking one version of a row where the two entries differ. Both go through the
services (``record_second_entry``, ``pick_entry``) and the same row form as the list."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from skatliga import services
from skatliga.forms import coded_error
from skatliga.forms.entry import GameRowForm, ReopenForm
from skatliga.list_page import (
    editing_number,
    list_url,
    posted_number,
    render_list,
)
from skatliga.messages import message
from skatliga.models import SecondEntry, Table, Tournament
from skatliga.views.lists import get_table
from skatliga.views.referee import action_error, referee_required
from skatliga.words import describe_game


def second_entry_url(table: Table) -> str:
    return reverse(
        "referee:second-entry",
        args=[table.series.tournament.slug, table.series.number, table.number],
    )


def render_second_entry(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    *,
    form: GameRowForm | None = None,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    seats = list(table.seats.select_related("player").order_by("position"))
    names = {seat.position: str(seat.player) for seat in seats}
    rows = {row.number: row for row in SecondEntry.objects.filter(table=table)}
    expected = tournament.games_per_list(table.size)
    next_number = len(rows) + 1 if len(rows) < expected else None
    if form is None and not table.is_closed and tournament.double_entry:
        wanted = editing_number(request)
        if wanted not in rows:
            wanted = next_number
        if wanted is not None:
            initial = (
                GameRowForm.initial_for(rows[wanted]) if wanted in rows else {"number": wanted}
            )
            form = GameRowForm(
                initial=initial, seats=seats, number=wanted, rules=tournament.rule_set
            )
    if form is not None and form.is_bound:
        form.mark_errors()
    entries = [
        {
            "number": number,
            "second": (
                describe_game(services.GameEntry.from_game(rows[number]).to_json(), names)
                if number in rows
                else ""
            ),
            "entered": number in rows,
        }
        for number in range(1, expected + 1)
    ]
    differing = {d.number for d in services.differences(table)}
    return render(
        request,
        "referee/second_entry.html",
        {
            "tournament": tournament,
            "series": table.series,
            "table": table,
            "form": form,
            "editing": form.initial.get("number")
            if form is not None and not form.is_bound
            else posted_number(request, lambda: next_number or 1),
            "entries": [{**row, "differs": row["number"] in differing} for row in entries],
            "list_url": list_url(table),
            "error_summary": form.error_summary() if form is not None and form.is_bound else [],
            **context,
        },
        status=status,
    )


@referee_required
def second_entry(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    """The list typed a second time, independently, row by row (``?game=N`` corrects N)."""
    table_obj = get_table(tournament, series, table)
    if request.method != "POST":
        return render_second_entry(request, tournament, table_obj)
    seats = list(table_obj.seats.select_related("player").order_by("position"))
    number = posted_number(request, lambda: table_obj.second_entries.count() + 1)
    form = GameRowForm(request.POST, seats=seats, number=number, rules=tournament.rule_set)
    if not form.is_valid() or form.entry is None:
        return render_second_entry(request, tournament, table_obj, form=form, status=400)
    try:
        services.record_second_entry(
            table_obj,
            number,
            form.entry,
            user=request.user,
            expected_version=form.cleaned_data.get("version"),
        )
    except services.Conflict:
        form.add_error(None, coded_error("conflict"))
        return render_second_entry(request, tournament, table_obj, form=form, status=409)
    except services.ServiceError as error:
        if error.field is None:
            return render_second_entry(
                request,
                tournament,
                table_obj,
                form=form,
                action_error=action_error(error, "second-entry"),
                status=409,
            )
        form.add_problems(error.problems)
        return render_second_entry(request, tournament, table_obj, form=form, status=400)
    messages.success(request, _("Zweiteingabe: Spiel %(number)s gespeichert.") % {"number": number})
    return redirect(second_entry_url(table_obj))


@referee_required
@require_POST
def pick_entry(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    """Keep one version of a row where the list and its second entry differ, with a reason."""
    table_obj = get_table(tournament, series, table)
    number = posted_number(request, lambda: 0)
    form = ReopenForm(request.POST)
    form.is_valid()
    try:
        services.pick_entry(
            table_obj,
            number,
            request.POST.get("choice", ""),
            reason=form.cleaned_data.get("reason") or "",
            user=request.user,
        )
    except services.ServiceError as error:
        if error.field is not None:
            pick_error = {
                "number": number,
                "field": error.field,
                "code": error.code,
                "message": message(error.code, **error.params),
            }
            return render_list(request, tournament, table_obj, pick_error=pick_error, status=400)
        return render_list(
            request,
            tournament,
            table_obj,
            action_error=action_error(error, "pick"),
            status=409,
        )
    messages.success(
        request, _("Spiel %(number)s: die gewählte Fassung gilt.") % {"number": number}
    )
    return redirect(list_url(table_obj) + "#double-entry")

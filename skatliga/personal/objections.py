"""An objection (Einspruch) from the personal link: the player objects to a game of one of
his lists, from his own seat at that table, through the same service as the table's device
(``services.file_objection``). The decision then shows on his evening."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from skatliga import services
from skatliga.messages import message
from skatliga.models import Game, Registration, Seat
from skatliga.personal.evening import MyList, my_list_in
from skatliga.personal.views import personal
from skatliga.services.calls import REASON_LENGTH


class ObjectionForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Grund"),
        max_length=REASON_LENGTH,
        help_text=gettext_lazy("Kurz: was ist an diesem Spiel falsch?"),
    )


@personal
@require_http_methods(["GET", "HEAD", "POST"])
def objection(
    request: HttpRequest, registration: Registration, token: str, series: int, number: int
) -> HttpResponse:
    """Game ``number`` of my list in ``series``: its row, my objections to it, and the form
    to object while the series allows it."""
    mine = my_list_in(registration, series, number)
    if mine is None:
        raise Http404
    form = ObjectionForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_valid():
        seat = Seat.objects.select_related("player", "substitute").get(pk=mine.seat_id)
        game = Game.objects.get(table_id=seat.table_id, number=number)
        try:
            services.file_objection(game, seat, form.cleaned_data["reason"], device=_("Mein Abend"))
        except services.ServiceError as error:
            form.add_error(
                error.field if error.field in form.fields else None,
                forms.ValidationError(message(error.code, **error.params), code=error.code),
            )
            status = 409
        else:
            messages.success(
                request, _("Einspruch zu Spiel %(number)s eingelegt.") % {"number": number}
            )
            return redirect("personal:page", token=token)
    elif form.is_bound:
        status = 400
    return render(
        request, "personal/objection.html", _context(mine, number, token, form), status=status
    )


def _context(mine: MyList, number: int, token: str, form: ObjectionForm) -> dict[str, object]:
    return {
        "list": mine,
        "game": next(game for game in mine.games if game.number == number),
        "objections": [o for o in mine.objections if o.game.number == number],
        "form": form,
        "token": token,
        "at_table": True,
    }

"""The referee's money page of a tournament: the purse's rules and the settlement, for the
evening or one series (``?series=``), as a page and as a PDF."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from skatliga.forms.parsing import whole_number
from skatliga.models import Series, Tournament
from skatliga.money.forms import PurseForm
from skatliga.money.pdf import settlement_pdf
from skatliga.pdf.base import date_text
from skatliga.services import money as services
from skatliga.views.referee import referee_required


def _series(request: HttpRequest, tournament: Tournament) -> Series | None:
    number = whole_number(request.GET.get("series"))
    if number is None:
        return None
    return get_object_or_404(tournament.series, number=number)


@referee_required
def money(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    purse = services.purse_of(tournament)
    initial = {
        "entry_fee": purse.entry_fee,
        "lost_fee": purse.lost_fee,
        "lost_fee_threshold": purse.lost_fee_threshold,
        "lost_fee_later": purse.lost_fee_later,
        "prizes": "\n".join(purse.prizes),
        "substitutes_without_prize": purse.substitutes_without_prize,
        "currency": purse.currency,
    }
    form = PurseForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.save_purse(tournament, **form.cleaned_data)
        messages.success(request, _("Geldregeln gespeichert."))
        return redirect("referee:money", slug=tournament.slug)
    series = _series(request, tournament)
    return render(
        request,
        "money/settlement.html",
        {
            "tournament": tournament,
            "series": series,
            "series_list": tournament.series.all(),
            "settlement": services.settle(tournament, series),
            "currency": purse.currency_sign,
            "form": form,
        },
        status=400 if request.method == "POST" else 200,
    )


@referee_required
def money_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    series = _series(request, tournament)
    settlement = services.settle(tournament, series)
    with translation.override(tournament.language):
        if series is None:
            title = _("Abrechnung")
        else:
            title = _("Abrechnung Serie %(number)d") % {"number": series.number}
        subtitle = f"{tournament.name} · {date_text(tournament.date)}"
        sign = services.purse_of(tournament).currency_sign
        data = settlement_pdf(title, subtitle, settlement, sign)
    response = HttpResponse(data, content_type="application/pdf")
    name = slugify(f"{tournament.slug} {title}")
    response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
    return response

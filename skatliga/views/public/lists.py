"""One list (a table's score sheet) read-only, the score sheets and seat lists of a series
to print, and where each player sits."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from skatliga import printing, services
from skatliga.entries import plain
from skatliga.models import Seat, Table, Tournament
from skatliga.sheet import Sheet, SheetRow, SummaryColumn, build_sheet, readonly_list_rows
from skatliga.views.caching import render_page
from skatliga.views.public.common import (
    hidden,
    in_list,
    in_tournament,
    pdf_response,
    series_of,
    shown_series,
    tournament_of,
)
from skatliga.words import game_label, list_words


def series_sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    """All score sheets of a series; ``?blank=1`` for the forms to print before it."""
    blank = request.GET.get("blank") == "1"

    def build(tournament: Tournament) -> HttpResponse:
        series = series_of(tournament, number) if blank else shown_series(tournament, number)
        name = f"{slug}-{_('serie')}-{number}-{_('blanko') if blank else _('listen')}"
        return pdf_response(printing.series_score_sheets_pdf(series, blank=blank), name)

    return in_tournament(request, slug, build)


def seats(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Where do I sit: every player of a series in alphabetical order, his table and seat."""
    tournament = tournament_of(slug)
    series = series_of(tournament, number)
    return render(
        request,
        "public/seats.html",
        {"tournament": tournament, "series": series, "lines": printing.seat_lines(series)},
    )


def seats_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    series = series_of(tournament_of(slug), number)
    return pdf_response(printing.seat_list_pdf(series), f"{slug}-{_('sitzplan')}-{number}")


def readonly_rows(sheet: Sheet, seats: Sequence[Seat]) -> list[tuple[SheetRow, str, str]]:
    """Each row of the read-only list with its declarer's name (a substitute's from his
    first game on) and the game's label, empty where nobody declared; the words looked up
    once for all rows."""
    by_position = {seat.position: seat for seat in seats}
    words = list_words(get_language())
    return [
        (
            row,
            by_position[row.game.declarer].player_for(row.number).public_name
            if row.game and row.game.declarer in by_position
            else "",
            game_label(row.game, row.scored, words=words) if row.game and row.scored else "",
        )
        for row in sheet.rows
    ]


def summary_texts(summary: Sequence[SummaryColumn]) -> list[dict[str, SafeString]]:
    """Each player's summary rows as text the template writes out as it is (numbers as
    Django shows them, no thousands separator), not localized one by one: 29 numbers took
    a tenth of a list page's template."""
    return [
        {name: SafeString(plain(getattr(column, name))) for name in SummaryColumn.__slots__}
        for column in summary
    ]


"""What a row of ``readonly_list_rows`` shows beside its totals: with them, its key."""


def table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponseBase:
    """One list, read-only: every row with its breakdown and running totals, and the summary."""
    return in_list(request, slug, number, table, lambda pk: _table_page(request, pk))


def _table_page(request: HttpRequest, pk: int | None) -> HttpResponse:
    # The table with its series and tournament, its seats with their players, its games:
    # read again after the saves at a running table.
    if pk is None:
        raise Http404
    found = list(Table.objects.filter(pk=pk).select_related("series__tournament").order_by())
    if not found:
        raise Http404
    table_obj = found[0]
    series = table_obj.series
    tournament = series.tournament
    if hidden(tournament, series):
        raise Http404
    seats = services.list_seats(table_obj)
    games = services.list_games(table_obj)
    sheet = build_sheet(
        table_obj,
        games,
        games_per_list=tournament.games_per_list(table_obj.size),
        seats=seats,
    )
    rows = readonly_list_rows(readonly_rows(sheet, seats))
    return render_page(
        request,
        "public/table.html",
        {
            "tournament": tournament,
            "series": series,
            "table": table_obj,
            "seats": seats,
            "sheet": sheet,
            "rows": rows,
            "summary": list(zip(seats, sheet.summary, strict=True)),
            "summary_texts": summary_texts(sheet.summary),
            # An anonymous visitor referees nothing: not asked.
            "is_referee": request.user.is_authenticated and tournament.is_referee(request.user),
        },
    )

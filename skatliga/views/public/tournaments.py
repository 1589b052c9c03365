"""A tournament's public pages: the list of tournaments, a tournament's and a series'
standings with the series' table cards, and their result PDFs."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from skatliga import printing
from skatliga.entries import plain
from skatliga.export import Caption
from skatliga.forms.parsing import query_text
from skatliga.models import (
    ListResult,
    Season,
    Seat,
    Series,
    Table,
    Tournament,
    match_points_rule,
    public_name,
)
from skatliga.standings.queries import match_points_scheme, progress_in, running_in
from skatliga.views.caching import render_page
from skatliga.views.public.common import (
    Categories,
    export,
    hidden,
    in_list,
    in_tournament,
    moment,
    pdf_response,
    running_lines,
    series_of,
    shown_series,
    standings_tables,
    tournament_of,
)

TOURNAMENTS_PER_PAGE = 50


def tournaments(request: HttpRequest) -> HttpResponse:
    """Every tournament, newest first, a page at a time; ``?season=slug`` for one season's."""
    listed = Tournament.objects.select_related("season")
    season = None
    if slug := query_text(request.GET, "season"):
        season = get_object_or_404(Season, slug=slug)
        listed = listed.filter(season=season)
    page = Paginator(listed, TOURNAMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "public/tournaments.html",
        {"page": page, "season": season, "seasons": Season.objects.all()},
    )


def tournament(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A tournament's standings: the sum of its series, ranked (docs/rules.md section 6)."""
    return in_tournament(request, slug, lambda tournament: _tournament_page(request, tournament))


def _tournament_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    scheme = match_points_scheme(tournament)
    lists = running_in(tournament)
    players, teams = standings_tables(
        request, results, lots_of=tournament, scheme=scheme, running_players=lists.players
    )
    categories = Categories(request, results, lots_of=tournament)
    substitutes = _substitute_notes(tournament, lambda: printing.public_seats(tournament))
    spreadsheet = export(
        request,
        players,
        teams,
        tournament.slug,
        categories,
        caption=lambda: Caption(
            tournament.name,
            tournament.season.name if tournament.season else "",
            tournament.date,
            results.provisional() or bool(lists.lists),
        ),
        notes=substitutes,
    )
    if spreadsheet is not None:
        return spreadsheet
    provisional, categories.found = results.provisional_and_categories()
    return render_page(
        request,
        "public/tournament.html",
        {
            "tournament": tournament,
            "players": players,
            "teams": teams,
            "categories": categories.tables(),
            "scheme_text": match_points_rule(scheme) if teams else "",
            "series_list": _series_lines(tournament),
            "substitutes": substitutes,
            "provisional": provisional,
            "progress": progress_in(tournament),
            "running": lists.lists,
            "running_lines": running_lines(lists.lists),
            "now": timezone.now(),
        },
    )


def series(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    """One series: its standings, its team result, its lists."""
    return in_list(
        request,
        slug,
        number,
        None,
        lambda _table: _series_page(request, tournament_of(slug), number),
    )


def _series_page(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    series = series_of(tournament, number)
    if hidden(tournament, series):
        if request.GET.get("export"):
            raise Http404
        return render(
            request,
            "public/series.html",
            {"tournament": tournament, "series": series, "hidden": True},
        )
    scheme = match_points_scheme(tournament)
    lists = running_in(series)
    players, teams = standings_tables(
        request,
        ListResult.objects.for_series(series),
        scheme=scheme,
        running_players=lists.players,
    )
    substitutes = _substitute_notes(series, lambda: Seat.objects.filter(series=series))
    spreadsheet = export(
        request,
        players,
        teams,
        f"{tournament.slug}-{series.number}",
        caption=lambda: Caption(
            f"{tournament.name} · {_('Serie %(n)s') % {'n': series.number}}",
            tournament.season.name if tournament.season else "",
            tournament.date,
            not series.is_published or bool(lists.lists),
        ),
        notes=substitutes,
    )
    if spreadsheet is not None:
        return spreadsheet
    return render_page(
        request,
        "public/series.html",
        {
            "tournament": tournament,
            "series": series,
            "players": players,
            "teams": teams,
            "scheme_text": match_points_rule(scheme) if teams else "",
            "tables": _table_cards(series),
            "substitutes": substitutes,
            "progress": progress_in(series),
            "running": lists.lists,
            "running_lines": running_lines(lists.lists),
            "now": timezone.now(),
        },
    )


@dataclass(frozen=True, slots=True)
class _SeriesLine:
    """A series in a tournament's list of series: its number, published or not, its tables."""

    number: int
    is_published: bool
    table_count: int
    objections_until: datetime.datetime | None


def _series_lines(tournament: Tournament) -> list[_SeriesLine]:
    """The series of ``tournament`` with their number of tables."""
    rows = list(
        Series.objects.filter(tournament=tournament.pk)
        .order_by("number")
        .annotate(table_count=Count("tables"))
        .values_list("number", "published_at", "table_count", "objections_until")
    )
    return [
        _SeriesLine(number, published is not None, tables, moment(until))
        for number, published, tables, until in rows
    ]


def _substitute_notes(scope: Tournament | Series, seats: Callable[[], QuerySet[Seat]]) -> list[str]:
    """``printing.substitute_notes(seats())``, read only where a substitute took a seat in
    ``scope`` (most tournaments have none: one short question then)."""
    where = {"series__tournament": scope} if isinstance(scope, Tournament) else {"series": scope}
    taken = Seat.objects.filter(substitute__isnull=False, **where).exists()
    return printing.substitute_notes(seats()) if taken else []


@dataclass(frozen=True, slots=True)
class _CardRow:
    """A player's line on a table's card: seat, name, total, and from which game on a
    substitute played (SkWO 4.4), None for the seat's own player."""

    position: int
    player_id: int
    name: str
    total: int
    substitute_from: int | None
    url: str

    @property
    def total_text(self) -> str:
        return plain(self.total)


@dataclass(slots=True)
class _TableCard:
    """A table of a series as its card shows it: number, closed or not, its players' lines."""

    number: int
    is_closed: bool
    url: str
    results: list[_CardRow]


def _table_cards(series: Series) -> list[_TableCard]:
    """The series' tables with their result rows, in seat order (a substitute's row after
    the row of the player who left, whose seat it shares): one statement."""

    def build(pk: int) -> QuerySet[Any]:
        substitute_from = Seat.objects.filter(
            table=OuterRef("pk"), substitute=OuterRef("results__player")
        ).order_by()
        return (
            Table.objects.filter(series=pk)
            .annotate(sub=Subquery(substitute_from.values("substitute_from")[:1]))
            .order_by("number", "pk", "results__position", F("sub").asc(nulls_first=True))
            .values_list(
                "pk",
                "number",
                "closed_at",
                "results__position",
                "results__player",
                "results__player__name",
                "results__player__initials_only",
                "results__total",
                "sub",
            )
        )

    rows = list(build(series.pk))
    slug, number = series.tournament.slug, series.number
    cards: dict[int, _TableCard] = {}
    for table, table_number, closed_at, position, player, full, initials, total, sub in rows:
        name = public_name(full, initials) if full is not None else full
        card = cards.get(table)
        if card is None:
            url = reverse("table", args=[slug, number, table_number])
            card = cards[table] = _TableCard(table_number, closed_at is not None, url, [])
        if player is not None:
            card.results.append(
                _CardRow(position, player, name or "", total, sub, reverse("player", args=[player]))
            )
    return list(cards.values())


def series_results_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponseBase:
    def build(tournament: Tournament) -> HttpResponse:
        series = shown_series(tournament, number)
        return pdf_response(printing.series_result_pdf(series), f"{slug}-{_('serie')}-{number}")

    return in_tournament(request, slug, build)


def tournament_results_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    return in_tournament(
        request,
        slug,
        lambda tournament: pdf_response(printing.tournament_result_pdf(tournament), slug),
    )


def tournament_teams_pdf(request: HttpRequest, slug: str) -> HttpResponseBase:
    def build(tournament: Tournament) -> HttpResponse:
        if not ListResult.objects.for_tournament(tournament).filter(team__isnull=False).exists():
            raise Http404(_("Dieses Turnier hat keine Mannschaftswertung."))
        return pdf_response(printing.team_result_pdf(tournament), f"{slug}-{_('mannschaften')}")

    return in_tournament(request, slug, build)

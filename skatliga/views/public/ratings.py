"""The public rating list (docs/rating.md): every player the public may see rated, highest
first, filtered by club, league and category, paged, and exported as the standings are."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig

from skatliga.export import EXCEL_CSV, Caption, SpreadsheetExport
from skatliga.forms.parsing import query_text, whole_number
from skatliga.models import Category, Club, League, PlayerRating
from skatliga.models.rating import PlayerRatingQuerySet
from skatliga.standings.rankings import RATINGS
from skatliga.standings.tables import StandingTable
from skatliga.views.caching import render_page
from skatliga.views.public.common import EXPORT_FORMATS

PER_PAGE = 50
"""Players on a page of the rating list."""
NAMES = {"lists": _("Listen")}
"""The rating rests on lists, not on a tournament's series."""


def filtered(request: HttpRequest) -> tuple[PlayerRatingQuerySet, dict[str, Any]]:
    """The listed ratings (``PlayerRating.objects.listed``) of the club, league and category
    the query asks for (``?club=<id>&league=<slug>&category=<value>``), and the filters
    understood (an unknown one is left out)."""
    ratings = PlayerRating.objects.listed()
    chosen: dict[str, Any] = {}
    club = whole_number(request.GET.get("club", ""), most=2**63 - 1)
    if club is not None:
        ratings = ratings.in_club(club)
        chosen["club"] = club
    league = League.objects.filter(slug=query_text(request.GET, "league")).first()
    if league is not None:
        ratings = ratings.in_league(league.pk)
        chosen["league"] = league.slug
    category = request.GET.get("category", "")
    if category in Category.values:
        ratings = ratings.in_category(category)
        chosen["category"] = category
    return ratings, chosen


def ratings(request: HttpRequest) -> HttpResponse:
    """The rating list: one grouped read of the ratings, ranked; filters, pages, export."""
    found, chosen = filtered(request)
    table = StandingTable(found.rows(), RATINGS, names=NAMES, prefix="r-")
    kind = request.GET.get("export")
    if kind in EXPORT_FORMATS:
        name = "wertungszahlen-excel.csv" if kind == EXCEL_CSV else f"wertungszahlen.{kind}"
        sheet = SpreadsheetExport(kind, table, Caption(gettext("Wertungszahlen")))
        response: HttpResponse = sheet.response(name)
        return response
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    query = "&".join(f"{key}={value}" for key, value in chosen.items())
    return render_page(
        request,
        "public/ratings.html",
        {
            "table": table,
            "chosen": chosen,
            "query": query,
            "clubs": Club.objects.filter(
                pk__in=PlayerRating.objects.listed().values("player__club_id")
            ).order_by("name"),
            "leagues": League.objects.order_by("name"),
            "categories": Category.choices,
        },
    )

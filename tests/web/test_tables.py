"""The standings tables' one-pass body rendering against django-tables2's own, and the
lazily read standing behind a paged table."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tables2 import RequestConfig

from skatliga.models import Club, ListResult, Player
from skatliga.standings.queries import team_standings
from skatliga.standings.tables import (
    PlayerStandingTable,
    StandingsData,
    TeamStandingTable,
    reverser,
)

pytestmark = pytest.mark.django_db


def generic_text(table):
    return render_to_string(
        "django_tables2/fast_table.html", {"table": table, "request": table.request}
    )


def season_tables(season):
    """The season page's two tables: the players (a lazily read standing) and the teams."""
    results = ListResult.objects.for_season(season)
    return [
        PlayerStandingTable(StandingsData(results.ranked()), prefix="p-"),
        TeamStandingTable(team_standings(results), prefix="t-"),
    ]


def tbody(table, template):
    table.template_name = template
    html = render_to_string(template, {"table": table, "request": table.request})
    body = re.search(r"<tbody[^>]*>(.*)</tbody>", html, re.S)[1]
    return re.sub(r"\s+", "", body)


@pytest.mark.parametrize("query", [{}, {"p-sort": "-club", "t-sort": "team"}])
def test_fast_rows_equal_django_tables2s_rows(small_season, query):
    Player.objects.filter(name="a1").update(club=Club.objects.create(name="SC <Zittau> & Co"))
    request = RequestFactory().get("/", query)
    tables = season_tables(small_season)
    for table in tables:
        RequestConfig(request, paginate={"per_page": 5}).configure(table)
        fast = tbody(table, "django_tables2/fast_table.html")
        generic = tbody(table, "django_tables2/table.html")
        assert fast == generic
        if not query and table.prefix == "p-":  # a1 (club with markup) is on page 1
            assert "SC &lt;Zittau&gt; &amp; Co" in generic_text(table)


def test_a_page_of_the_standing_reads_only_its_rows(small_season):
    request = RequestFactory().get("/", {"p-page": 2})
    standing = ListResult.objects.for_season(small_season).ranked()
    table = PlayerStandingTable(StandingsData(standing), prefix="p-")
    with CaptureQueriesContext(connection) as captured:
        RequestConfig(request, paginate={"per_page": 5}).configure(table)
        rows = [row.record for row in table.paginated_rows]
    # 12 players: page 2 is places 6 to 10; one count, one query with LIMIT 5 OFFSET 5.
    assert [r.player for r in rows] == [
        r.player for r in ListResult.objects.for_season(small_season).standings()[5:10]
    ]
    assert len(captured) == 2 and "LIMIT" in captured[1]["sql"].upper()


def block(html, start, end):
    """The text between the first ``start`` and the ``end`` after it (both kept)."""
    first = html.index(start)
    return html[first : html.index(end, first) + len(end)]


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"p-page": 2, "p-sort": "-total", "t-sort": "team"},
        {"p-page": 3, "p-sort": "club", "q": "a&b <c>"},
        {"p-page": 6, "t-page": 2},
        {"p-page": 12},
    ],
)
def test_header_and_page_links_equal_django_tables2s(small_season, query):
    """The header and the page links FastTable writes in Python are django-tables2's
    template's text, character for character: first, middle and last pages, pages left
    out ("..."), ascending and descending order, other parameters kept."""
    request = RequestFactory().get("/", query)
    tables = season_tables(small_season)
    for table in tables:
        RequestConfig(request, paginate={"per_page": 1}).configure(table)
        context = {"table": table, "request": request}
        fast = render_to_string("django_tables2/fast_table.html", context)
        generic = render_to_string("django_tables2/table.html", context)
        assert block(fast, "<thead", "</thead>") == block(generic, "<thead", "</thead>")
        assert fast[fast.index("</table>") :] == generic[generic.index("</table>") :]
        assert 'class="pagination"' in fast
        if table.prefix == "p-" and query.get("p-page") == 6:
            # 12 players, one a page, 10 page links at most: some pages left out.
            assert '<a href="#">...</a>' in fast


def test_a_table_without_pages_has_no_page_links(small_season):
    request = RequestFactory().get("/")
    table = PlayerStandingTable(ListResult.objects.for_season(small_season).standings())
    RequestConfig(request, paginate=False).configure(table)
    context = {"table": table, "request": request}
    fast = render_to_string("django_tables2/fast_table.html", context)
    generic = render_to_string("django_tables2/table.html", context)
    assert fast[fast.index("</table>") :] == generic[generic.index("</table>") :]
    assert block(fast, "<thead", "</thead>") == block(generic, "<thead", "</thead>")
    assert "pagination" not in fast


def test_a_reverser_gives_what_reverse_gives_and_quotes_what_it_fills_in(db):
    assert reverser("table", 3)("spieltag-1", 2, 3) == reverse("table", args=["spieltag-1", 2, 3])
    assert reverser("player", 1)(17) == reverse("player", args=[17])
    # A value no URL of the site takes cannot end the attribute it is written into.
    assert reverser("standings", 1)('x"><script>') == "/tournaments/x%22%3E%3Cscript%3E/"

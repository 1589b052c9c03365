"""What the standings tables show: each row's cells, the header's sorting and the page
links; and the lazily read standing behind a paged table."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from urllib.parse import parse_qsl

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import translation
from django_tables2 import RequestConfig

from skatliga.models import Club, ListResult, Player
from skatliga.standings.queries import team_standings
from skatliga.standings.rankings import PLAYERS
from skatliga.standings.tables import StandingTable, team_table

pytestmark = pytest.mark.django_db


def rendered(table):
    return render_to_string(
        "django_tables2/standings.html", {"table": table, "request": table.request}
    )


class Body(HTMLParser):
    """The rows of a table's body: each row's class and its cells' texts."""

    def __init__(self, html):
        super().__init__()
        self.rows, self.inside, self.cell = [], False, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append((dict(attrs).get("class"), []))
        elif self.inside and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.inside = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1][1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def figure(value):
    """A whole number as the table shows it: with a typographic minus."""
    return str(value).replace("-", "\u2212")


def season_tables(season):
    """The season page's two tables: the players (a lazily read standing) and the teams."""
    results = ListResult.objects.for_season(season)
    return [
        StandingTable(results.ranked(), PLAYERS, prefix="p-"),
        team_table(team_standings(results), prefix="t-"),
    ]


@pytest.mark.parametrize("query", [{}, {"p-sort": "-club", "t-sort": "team"}])
def test_each_row_shows_its_rank_names_and_figures(small_season, query):
    Player.objects.filter(name="a1").update(club=Club.objects.create(name="SC <Zittau> & Co"))
    request = RequestFactory().get("/", query)
    players, teams = season_tables(small_season)
    for table in (players, teams):
        RequestConfig(request, paginate={"per_page": 5}).configure(table)
    html = rendered(players)
    records = [row.record["row"] for row in players.paginated_rows]
    assert Body(html).rows == [
        (
            "odd" if n % 2 else "even",
            [
                f"{r.rank}.",
                r.player + (r.club or ""),  # the club under the name, for a phone
                r.club or "—",
                *(
                    figure(value)
                    for value in (r.won + r.lost, r.game_points, r.won, r.lost, r.won - r.lost)
                ),
                *(figure(value) for value in (r.others_lost, r.bonus, r.total)),
            ],
        )
        for n, r in enumerate(records)
    ]
    if not query:  # a1 (club with markup) is on page 1, escaped
        assert "SC &lt;Zittau&gt; &amp; Co" in html
    shown = [cells[1] for _, cells in Body(rendered(teams)).rows]
    assert shown == [f"Team {letter}" for letter in ("ABCD" if query else "BACD")]


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
def test_the_header_sorts_and_the_page_links_keep_the_other_parameters(small_season, query):
    """First, middle and last pages, pages left out ("..."), ascending and descending
    order, other parameters kept."""
    request = RequestFactory().get("/", query)
    players, teams = season_tables(small_season)
    RequestConfig(request, paginate={"per_page": 1}).configure(players)
    html = rendered(players)
    links = [unescape(link) for link in re.findall(r'<a href="(\?[^"]*)"', html)]
    kept = {key: str(value) for key, value in query.items() if not key.startswith("p-")}
    for link in links:
        assert kept.items() <= dict(parse_qsl(link[1:])).items()
    sorts = [dict(parse_qsl(link[1:])).get("p-sort") for link in links if "p-sort=" in link]
    assert {"rank", "player", "club", "total"} <= {sort.lstrip("-") for sort in sorts}
    page = int(query.get("p-page", 1))
    assert 'class="pagination"' in html
    assert ('class="previous"' in html, 'class="next"' in html) == (page > 1, page < 12)
    assert '<li class="active">' in html
    if page == 6:  # 12 players, one a page, 10 page links at most: some pages left out
        assert '<a href="#">...</a>' in html


def test_a_table_without_pages_has_no_page_links(small_season):
    request = RequestFactory().get("/")
    table = StandingTable(ListResult.objects.for_season(small_season).standings(), PLAYERS)
    RequestConfig(request, paginate=False).configure(table)
    html = rendered(table)
    assert len(Body(html).rows) == 12
    assert "pagination" not in html


@pytest.mark.parametrize(
    ("language", "previous", "following"),
    [("de", "zurück", "weiter"), ("da", "forrige", "næste"), ("nl", "vorige", "volgende")],
)
def test_the_page_links_speak_the_pages_language(small_season, language, previous, following):
    request = RequestFactory().get("/", {"p-page": 2})
    players = season_tables(small_season)[0]
    RequestConfig(request, paginate={"per_page": 5}).configure(players)
    with translation.override(language):
        html = rendered(players)
    assert f">{previous}</a>" in html and f">{following}</a>" in html
    assert "previous</a>" not in html and "next</a>" not in html

"""Public pages over the hand-computed season of ``conftest.small_season``: no login needed."""

from __future__ import annotations

import csv
import datetime
import importlib
import io
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.models import Player, Registration, Seat, Table, Team, Tournament

pytestmark = pytest.mark.django_db


def page(client, name, *args, **query):
    response = client.get(reverse(name, args=args), query)
    assert response.status_code == 200, response.content[:500]
    return response


def test_tournament_page_ranks_players_and_teams(client, small_season):
    response = page(client, "standings", "spieltag-1")
    players = response.context["players"]
    ranks = [
        (row.record["row"].player, row.record["row"].rank, row.record["row"].total)
        for row in players.rows
    ]
    assert ranks[:3] == [("b1", 1, 128), ("c2", 1, 128), ("a1", 3, 103)]
    teams = response.context["teams"]
    assert [(r.record["row"].team, r.record["row"].match_points_text) for r in teams.rows] == [
        ("Team B", "3 : 0"),
        ("Team A", "2 : 1"),
        ("Team C", "1 : 2"),
        ("Team D", "0 : 3"),
    ]


def test_standings_sort_by_a_column(client, small_season):
    response = page(client, "standings", "spieltag-1", **{"p-sort": "-lost"})
    first = next(iter(response.context["players"].rows)).record["row"]
    assert first.lost == 1


def test_csv_export_has_the_same_rows(client, small_season):
    response = page(client, "standings", "spieltag-1", export="csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert len(rows) == 1 + 12
    assert rows[1][1:3] == ["b1", ""] and rows[1][-1] == "128"
    assert rows[-1][1] == "d2" and rows[-1][-1] == "-104"


def test_season_page_and_team_csv(client, small_season):
    page(client, "season", "liga-2026")
    response = page(client, "season", "liga-2026", table="teams", export="csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1][1] == "Team B" and rows[1][-1] == "241"


def test_series_and_table_pages(client, small_season):
    page(client, "series", "spieltag-1", 1)
    response = page(client, "table", "spieltag-1", 1, 2)
    totals = [s.total for _, s in response.context["summary"]]
    assert totals == [30, 30, 128, -104]


def test_player_page_history_chart_and_statistics(client, small_season):
    c2 = Player.objects.get(name="c2")
    response = page(client, "player", c2.pk)
    (record,) = response.context["history"].data
    row = record["row"]
    assert (row.tournament, row.series, row.table, row.total, row.published) == (
        "1. Spieltag",
        1,
        2,
        128,
        False,
    )
    tournament = "/tournaments/spieltag-1/"
    html = response.content.decode()
    for link in (tournament, f"{tournament}series/1/", f"{tournament}series/1/tables/2/"):
        assert f'href="{link}"' in html
    assert '<span class="badge provisional">vorläufig</span>' in html
    statistics = response.context["statistics"]
    # c2 declared one game (clubs with 2, won, schneider: 4 × 12 = 48)
    assert (statistics.games_declared, statistics.games_won, statistics.average_value) == (1, 1, 48)
    assert response.context["chart"]["dots"][0]["value"] == 128


def test_player_page_in_english_and_of_a_player_without_lists(client, small_season):
    newcomer = Player.objects.create(name="Neu")
    german = page(client, "player", newcomer.pk).content.decode()
    assert re.search(r'<td colspan="10">\s*Noch keine Listen.\s*</td>', german)
    assert "Serienergebnisse" not in german  # no chart without a series
    c2 = Player.objects.get(name="c2")
    english = client.get(f"/en/players/{c2.pk}/").content.decode()
    assert 'href="/en/tournaments/spieltag-1/series/1/tables/2/">2</a>' in english
    assert '<span class="badge provisional">provisional</span>' in english


def test_team_page(client, small_season):
    team = Team.objects.get(name="Team B")
    response = page(client, "team", team.pk)
    (tournament, row) = response.context["match_days"][0]
    assert (row.match_points_text, row.game_points) == ("3 : 0", 241)


def test_hall_display_refreshes_itself_in_place(client, small_season):
    response = page(client, "hall", "spieltag-1")
    assert b'http-equiv="refresh"' not in response.content
    assert b"skatliga/hall.js" in response.content
    assert response.context["refresh"] == 30
    assert [row.player for row in response.context["rows"]][:2] == ["b1", "c2"]


@pytest.mark.parametrize(
    ("name", "args", "expect"),
    [
        ("tournament-results-pdf", ("spieltag-1",), "b1"),
        ("tournament-teams-pdf", ("spieltag-1",), "Team B"),
        ("series-results-pdf", ("spieltag-1", 1), "c2"),
        ("series-sheets-pdf", ("spieltag-1", 1), "d2"),
        ("season-results-pdf", ("liga-2026",), "a1"),
        ("season-teams-pdf", ("liga-2026",), "Team D"),
    ],
)
def test_pdfs_are_served(client, small_season, name, args, expect):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert expect in text


def test_unknown_pages_are_404(client, small_season):
    assert client.get(reverse("standings", args=["nope"])).status_code == 404
    assert client.get(reverse("series", args=["spieltag-1", 7])).status_code == 404
    assert client.get(reverse("player", args=[999999])).status_code == 404
    for name in ("season", "season-results-pdf", "season-teams-pdf"):
        assert client.get(reverse(name, args=["nope"])).status_code == 404
    assert client.get(reverse("season", args=["nope"]), {"export": "csv"}).status_code == 404


def test_standings_pages_do_not_query_per_player(client, small_season):
    def queries(name, *args):
        cache.clear()  # the pages as built, not as cached
        with CaptureQueriesContext(connection) as captured:
            page(client, name, *args)
        return len(captured)

    pages = [("season", "liga-2026"), ("standings", "spieltag-1"), ("series", "spieltag-1", 1)]
    before = [queries(*p) for p in pages]
    tournament = Tournament.objects.get(slug="spieltag-1")
    series = tournament.series.get()
    table = Table.objects.create(series=series, number=4, size=3)
    for position in (1, 2, 3):
        player = Player.objects.create(name=f"e{position}")
        Registration.objects.create(tournament=tournament, player=player)
        Seat.objects.create(table=table, series=series, position=position, player=player)
    services.record_game(
        table, 1, services.GameEntry(2, Declaration(GameType.GRAND, 18, 1), Outcome(won=True))
    )
    assert Player.objects.filter(results__isnull=False).distinct().count() == 15
    assert [queries(*p) for p in pages] == before


def test_home_and_tournament_list_link_to_everything(client, small_season):
    home = page(client, "home").content.decode()
    assert reverse("season", args=["liga-2026"]) in home
    assert reverse("standings", args=["spieltag-1"]) in home
    listing = page(client, "tournaments").content.decode()
    assert reverse("standings", args=["spieltag-1"]) in listing
    standings = page(client, "standings", "spieltag-1").content.decode()
    for target in (
        reverse("series", args=["spieltag-1", 1]),
        reverse("hall", args=["spieltag-1"]),
        reverse("tournament-results-pdf", args=["spieltag-1"]),
        reverse("player", args=[Player.objects.get(name="b1").pk]),
    ):
        assert target in standings
    series = page(client, "series", "spieltag-1", 1).content.decode()
    for target in (
        reverse("table", args=["spieltag-1", 1, 1]),
        reverse("series-sheets-pdf", args=["spieltag-1", 1]),
        reverse("series-results-pdf", args=["spieltag-1", 1]),
    ):
        assert target in series


def test_season_page_shows_a_page_of_rows_and_the_csv_all_of_them(
    client, small_season, monkeypatch
):
    from skatliga.views.public import seasons

    monkeypatch.setattr(seasons, "SEASON_ROWS_PER_PAGE", 5)
    first = page(client, "season", "liga-2026").context["players"]
    assert [row.record["row"].rank for row in first.page.object_list] == [1, 1, 3, 4, 5]
    second = page(client, "season", "liga-2026", **{"p-page": 2}).context["players"]
    assert [row.record["row"].rank for row in second.page.object_list] == [5, 5, 8, 8, 8]
    rows = list(
        csv.reader(io.StringIO(page(client, "season", "liga-2026", export="csv").content.decode()))
    )
    assert len(rows) == 1 + 12


def test_tournament_list_by_season_and_in_pages(client, small_season, monkeypatch):
    # The module, not the view of the same name that the package exports.
    tournaments = importlib.import_module("skatliga.views.public.tournaments")
    monkeypatch.setattr(tournaments, "TOURNAMENTS_PER_PAGE", 1)
    Tournament.objects.create(name="Vereinsabend", slug="abend", date="2026-11-22")
    all_first = page(client, "tournaments").context["page"]
    assert [t.slug for t in all_first.object_list] == ["abend"]
    assert all_first.paginator.num_pages == 2
    in_season = page(client, "tournaments", season="liga-2026").context["page"]
    assert [t.slug for t in in_season.object_list] == ["spieltag-1"]


def test_season_page_lists_its_latest_match_days_and_counts_them_all(client, small_season):
    for day in range(2, 15):
        Tournament.objects.create(
            name=f"{day}. Spieltag",
            slug=f"spieltag-{day}",
            date=datetime.date(2026, 11, 21) + datetime.timedelta(days=7 * day),
            venue="Görlitz" if day % 2 else "",
            season=small_season,
        )
    content = page(client, "season", small_season.slug).content.decode()
    shown = re.findall(r'<li><a href="/tournaments/(spieltag-\d+)/">', content)
    assert shown == [f"spieltag-{day}" for day in range(14, 2, -1)]  # newest 12 of 14
    assert "Alle 14 Turniere der Saison" in content
    assert "· Görlitz</span>" in content


def test_tournament_page_lists_its_series_with_their_tables(client, small_season):
    tournament = Tournament.objects.get(slug="spieltag-1")
    second = tournament.series.create(number=2)
    Table.objects.create(series=second, number=1, size=4)
    content = page(client, "standings", tournament.slug).content.decode()
    assert re.search(
        r"Serie 1</a>\s*<span[^>]*>[^<]*</span>\s*<span class=\"muted\">3 Tische", content
    )
    assert re.search(
        r"Serie 2</a>\s*<span[^>]*>[^<]*</span>\s*<span class=\"muted\">1 Tisch<", content
    )

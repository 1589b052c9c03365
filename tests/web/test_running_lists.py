"""Lists in progress on the hall display and the public standings: their points count
already, marked "läuft" (provisional), until the list is closed."""

import pytest
from django.db import connection, transaction
from django.urls import reverse

from skatliga import services
from skatliga.models import Player, Season
from skatliga.standings.queries import running_in
from tests.web.factories import entry, make_table, make_tournament, play

pytestmark = pytest.mark.django_db

# Grand with 2, bid 24, 78 card points: (2 + 1) × 24 = 72; Seeger-Fabian adds 50 for the
# won game: Bernd (seat 2) has 72 + 50 = 122 after one game.
GRAND = entry(2, "grand", bid=24, matadors=2, card_points=78, tricks=7)


@pytest.fixture
def running_table():
    """A 3-table (Anna, Bernd, Carla) with one game of three entered, and a second table
    with no game yet."""
    tournament = make_tournament(rounds=1)
    players = [Player.objects.create(name=name) for name in ("Anna", "Bernd", "Carla")]
    table = make_table(tournament, players=players)
    make_table(tournament, size=3)
    play(table, GRAND)
    return table


def test_the_hall_display_marks_the_players_of_a_list_in_progress(client, running_table):
    tournament = running_table.series.tournament

    response = client.get(reverse("hall", args=[tournament.slug]))

    content = response.content.decode()
    [bernd] = [row for row in response.context["rows"] if row.player == "Bernd"]
    assert bernd.total == 122
    assert bernd.player_id in response.context["running_players"]
    assert [(r.series, r.table, r.games, r.expected) for r in response.context["running"]] == [
        (1, 1, 1, 3)
    ]
    assert "Serie 1 · Tisch 1: 1/3" in content
    assert content.count('class="badge provisional running"') == 3  # Anna, Bernd, Carla


def test_a_list_without_games_is_not_in_progress(client, running_table):
    tournament = running_table.series.tournament

    response = client.get(reverse("hall", args=[tournament.slug]))

    assert len(response.context["rows"]) == 3 + 3  # both tables' players have a result row
    assert len(response.context["running_players"]) == 3


def test_the_standings_page_lists_and_marks_lists_in_progress(client, running_table):
    tournament = running_table.series.tournament

    response = client.get(reverse("standings", args=[tournament.slug]))

    content = response.content.decode()
    assert 'id="running"' in content
    assert "1 von 3 Spielen" in content
    assert content.count('<span class="badge provisional">läuft</span>') == 1 + 3
    assert "vorläufig" in content


def test_the_series_and_season_pages_mark_them_too(client, running_table):
    tournament = running_table.series.tournament
    tournament.season = Season.objects.create(name="Saison 2026", slug="saison-2026", year=2026)
    tournament.save()

    series = client.get(reverse("series", args=[tournament.slug, 1])).content.decode()
    season = client.get(reverse("season", args=["saison-2026"])).content.decode()

    assert 'id="running"' in series and 'id="running"' in season
    assert f"{tournament.name} · Serie 1 · Tisch 1" in season


def test_a_closed_list_is_no_longer_in_progress(client, running_table):
    play(running_table, entry(), entry())
    services.close_table(running_table)

    response = client.get(reverse("hall", args=[running_table.series.tournament.slug]))

    assert response.context["running"] == []
    assert "läuft" not in response.content.decode()


def test_a_tournament_hiding_unpublished_series_shows_no_list_in_progress(client, running_table):
    tournament = running_table.series.tournament
    tournament.hide_unpublished = True
    tournament.save()

    response = client.get(reverse("hall", args=[tournament.slug]))

    assert response.context["running"] == []
    assert response.context["rows"] == []


def test_a_seasons_running_lists_are_found_through_the_index_of_open_tables(running_table):
    """``running_in`` of a season reads the open tables from the partial index
    ``table_open_series``, not every table of the league (PostgreSQL told not to scan a
    table this small)."""
    tournament = running_table.series.tournament
    tournament.season = Season.objects.create(name="Saison 2026", slug="saison-2026", year=2026)
    tournament.save()
    statements = []

    def record(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        assert len(running_in(tournament.season).lists) == 1
    [(sql, params)] = statements
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
            cursor.execute(f"EXPLAIN {sql}", params)
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        plan = "\n".join(str(row[-1]) for row in cursor.fetchall())

    assert "table_open_series" in plan

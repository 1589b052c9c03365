"""Upgrading a database made by an earlier release keeps what it showed the public.

The database of commit 0f0149a (the first release with docs/operations.md) is at migration
0002; its series had no publishing and were all final.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

FIRST_RELEASE = [("skatliga", "0002_change_action_tournament_changed")]


def migrate(target: list[tuple[str, str]]):
    """Migrate the test database to ``target``; the app registry as it was there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return MigrationExecutor(connection).loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_series_of_the_first_release_stay_published_after_the_upgrade():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("skatliga")
    old = migrate(FIRST_RELEASE)
    Tournament, Series, Table = (
        old.get_model("skatliga", m) for m in ("Tournament", "Series", "Table")
    )
    closed = timezone.now() - datetime.timedelta(days=30)
    tournament = Tournament.objects.create(
        name="Herbstpreis", slug="herbstpreis", date=closed.date()
    )
    finished = Series.objects.create(tournament=tournament, number=1)
    running = Series.objects.create(tournament=tournament, number=2)
    Table.objects.create(series=finished, number=1, size=4, closed_at=closed)
    Table.objects.create(series=finished, number=2, size=3, closed_at=closed)
    Table.objects.create(series=running, number=1, size=4, closed_at=closed)
    Table.objects.create(series=running, number=2, size=4)

    new = migrate(latest)

    series = {s.number: s for s in new.get_model("skatliga", "Series").objects.all()}
    assert series[1].published_at == closed  # final then, final now
    assert series[2].published_at is None  # a list still open: provisional, as publishing asks
    assert new.get_model("skatliga", "Tournament").objects.get().revision == 1


@pytest.mark.django_db(transaction=True)
def test_a_site_that_publishes_keeps_its_unpublished_series_unpublished():
    from skatliga.models import Change
    from tests.web.factories import make_table

    table = make_table()
    table.closed_at = timezone.now()
    table.save()
    Change.objects.create(tournament=table.series.tournament, action="series_withdrawn")
    [(_, latest)] = MigrationExecutor(connection).loader.graph.leaf_nodes("skatliga")
    previous = [("skatliga", "0015_table_open_series")]
    migrate(previous)

    migrate([("skatliga", latest)])

    table.series.refresh_from_db()
    assert table.series.published_at is None


@pytest.mark.django_db(transaction=True)
def test_a_season_teams_players_become_its_roster():
    """Migration 0033: a team's plain set of players becomes its roster, positions 1, 2, … in
    the order of the players' names, none a substitute; the season keeps working without a
    league."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("skatliga")
    old = migrate([("skatliga", "0032_rating")])
    Season, Team, Player = (old.get_model("skatliga", m) for m in ("Season", "Team", "Player"))
    season = Season.objects.create(name="Liga 2025", slug="liga-2025", year=2025)
    team = Team.objects.create(season=season, name="Kreuz Bube")
    for name in ("Carla", "Anna", "Bernd"):
        team.players.add(Player.objects.create(name=name))

    new = migrate(latest)

    roster = new.get_model("skatliga", "RosterEntry").objects.order_by("position")
    assert [(e.player.name, e.position, e.substitute) for e in roster] == [
        ("Anna", 1, False),
        ("Bernd", 2, False),
        ("Carla", 3, False),
    ]
    moved = new.get_model("skatliga", "Team").objects.get()
    assert (moved.division_id, moved.captain_id, moved.season.league_id) == (None, None, None)

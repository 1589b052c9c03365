"""Writing services take their locks in one order (``services.common.lock_tournaments``): a
game saved while the tournament's settings re-score every list neither deadlocks nor loses
either write.

Numbers from ``conftest.small_season`` (worked out there by hand): table 3 (a3 b3 c3 d3)
has b3's spades hand with 1 (83 under Seeger-Fabian) and three passed games.
"""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connections

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.models import Game, Table, Tournament
from skatliga.ops.consistency import inconsistent_tables
from tests.web.test_caching import csv_totals
from tests.web.test_server import lock_connection, wait_for

pytestmark = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").split(":")[0] not in {"postgres", "postgresql"},
    reason="needs PostgreSQL: SQLite takes one lock for the whole database, so two writers "
    "cannot wait for each other's rows",
)

# Game 2 at table 3 (seat 2 deals): c3 (seat 3) plays grand with 1 and wins with 70 points,
# 2 × 24 = 48; or the game is passed in again.
GRAND = services.GameEntry(3, Declaration(GameType.GRAND, 18, 1), Outcome(70, 7))
PASSED = services.GameEntry()


def in_thread(work, errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            work()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def waiting_for_locks(watcher) -> int:
    """Connections of the test database waiting for a lock (``watcher`` in autocommit: the
    activity view is read afresh each time)."""
    return watcher.execute(
        "SELECT count(DISTINCT pid) FROM pg_locks JOIN pg_stat_activity USING (pid) "
        "WHERE NOT granted AND datname = current_database()"
    ).fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_game_save_and_a_rescore_at_once(client, small_season):
    tournament = Tournament.objects.get(slug="spieltag-1")
    table = Table.objects.get(series__tournament=tournament, number=3)
    rounds = [("classic", GRAND), ("seeger-fabian", PASSED)] * 3
    for scoring, entry in rounds:
        version = Game.objects.get(table=table, number=2).version

        def save(entry=entry, version=version) -> None:
            services.record_game(table, 2, entry, expected_version=version, reason="Korrektur")

        def rescore(scoring=scoring) -> None:
            services.update_tournament(tournament, scoring=scoring)

        errors: list[BaseException] = []
        with lock_connection() as gate, lock_connection() as watcher:
            # The gate holds the tournament's row: both services queue behind it and then
            # run at once.
            watcher.autocommit = True
            gate.execute(
                "SELECT 1 FROM skatliga_tournament WHERE id = %s FOR UPDATE", [tournament.pk]
            )
            threads = [in_thread(save, errors), in_thread(rescore, errors)]
            waiting = lambda: waiting_for_locks(watcher) == 2 or bool(errors)  # noqa: B023, E731
            wait_for(waiting, "both services to wait")
            assert errors == []
            gate.rollback()
            for thread in threads:
                thread.join(timeout=60)
        assert errors == []
        assert not any(thread.is_alive() for thread in threads)
        tournament.refresh_from_db()
        assert tournament.scoring == scoring
        assert Game.objects.get(table=table, number=2).passed == (entry is PASSED)
        totals = csv_totals(client, "standings", "spieltag-1")
        if entry is GRAND:
            # Classic: game values only. c3 48, b3 33.
            assert (totals["c3"], totals["b3"]) == (48, 33)
        else:
            # Seeger-Fabian, game 2 passed again: b3 33 + 50 = 83, c3 0.
            assert (totals["c3"], totals["b3"]) == (0, 83)
        assert list(inconsistent_tables()) == []

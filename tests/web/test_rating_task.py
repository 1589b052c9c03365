"""The Skat rating recomputed in the background (``skatliga.tasks.rating``, docs/rating.md):
a correction of an older list enqueues one job, which leaves the figures of a replay of every
list from the first; a second run, or a job that finds nothing owed, changes nothing. Where no
task worker can run, the request replays within its bound as before."""

from __future__ import annotations

import pytest

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.models import Job, RatingBook, RatingChange
from skatliga.tasks import jobs
from skatliga.tasks.rating import KIND, _rate, enqueue
from tests.web.test_rating import _figures, league_lists  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def cheap(monkeypatch):
    """A request replays at once at most two lists' seats (the fixture's 12 lists are 48)."""
    monkeypatch.setattr(services.rating, "CHEAP_ROWS", 8)


def _correct(table) -> None:
    """Reopen ``table``, turn its first game around and close it again."""
    services.reopen_table(table, reason="Spiel 1 falsch")
    game = table.games.get(number=1)
    entry = services.GameEntry.from_game(game)
    flipped = services.GameEntry(
        entry.declarer or 2,
        Declaration(GameType.GRAND, 18, 1),
        Outcome(40, 3) if game.won else Outcome(70, 6),
    )
    services.record_game(table, 1, flipped, expected_version=game.version, reason="Korrektur")
    services.close_table(table)


def test_a_closed_list_at_the_end_is_rated_in_the_request(league_lists, cheap):  # noqa: F811
    for table in league_lists:
        services.close_table(table)
    assert RatingChange.objects.count() == 12 * 4
    assert not Job.objects.filter(kind=KIND).exists()
    assert RatingBook.objects.get().stale_from is None


def test_a_correction_of_an_older_list_is_recomputed_by_one_job(league_lists, cheap):  # noqa: F811
    for table in league_lists:
        services.close_table(table)
    stored = _figures()
    first = league_lists[0]
    _correct(first)  # reopened and closed: two replays asked for, one job
    assert RatingBook.objects.get().stale_from == first.series.tournament.date
    assert _figures() == stored  # the request left the rows as they were
    job = Job.objects.get(kind=KIND)
    assert job.state == Job.State.WAITING
    assert enqueue() is None  # none while one waits

    jobs.run(str(job.pk), _rate)
    job.refresh_from_db()
    assert job.state == Job.State.DONE
    assert job.result["lists"] > 0 and job.done == job.total == 12
    assert RatingBook.objects.get().stale_from is None
    recomputed = _figures()
    assert recomputed != stored
    services.rate_everything()  # a replay of every list from the first
    assert _figures() == recomputed

    jobs.run(str(job.pk), _rate)  # a second run of the same job: returns at once
    assert _figures() == recomputed
    again = enqueue()  # a new one finds nothing owed and ends at once
    assert again is not None
    jobs.run(str(again.pk), _rate)
    again.refresh_from_db()
    assert again.state == Job.State.DONE and again.result == {"lists": 0, "players": 0}
    assert _figures() == recomputed
    # Later lists closed at the end are rated in the request again.
    services.reopen_table(league_lists[-1], reason="nachsehen")
    services.close_table(league_lists[-1])
    assert Job.objects.filter(kind=KIND, state=Job.State.WAITING).count() == 0


def test_a_closed_list_while_a_recompute_is_owed_waits_for_it(league_lists, cheap):  # noqa: F811
    for table in league_lists[:-1]:
        services.close_table(table)
    _correct(league_lists[0])
    services.close_table(league_lists[-1])  # owed from the first day: the job's
    assert Job.objects.filter(kind=KIND).count() == 1
    jobs.run(str(Job.objects.get(kind=KIND).pk), _rate)
    assert RatingChange.objects.count() == 12 * 4
    recomputed = _figures()
    services.rate_everything()
    assert _figures() == recomputed


def test_without_a_task_worker_the_request_replays_within_its_bound(
    league_lists,  # noqa: F811
    cheap,
    settings,
):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    assert not services.rating.worker_can_run()
    for table in league_lists:
        services.close_table(table)
    _correct(league_lists[0])
    assert not Job.objects.filter(kind=KIND).exists()
    assert RatingBook.objects.get().stale_from is None
    corrected = _figures()
    services.rate_everything()
    assert _figures() == corrected

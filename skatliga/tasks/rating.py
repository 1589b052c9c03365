"""The Skat rating recomputed in the background (docs/rating.md): a correction of an older
list, a change of the model's parameters or anything else that leaves the stored ratings
owed (``RatingBook.stale_from``, ``services.rating``) enqueues one job that replays from
the stale point on, with its progress reported. One at a time: none is enqueued while one
waits or runs (the book's lock, which the request holds, orders the two); a job that
finds nothing owed ends at once, and a second run of it is harmless."""

from __future__ import annotations

from django.db import transaction
from django_tasks import task

from skatliga.models import Job
from skatliga.services import rating
from skatliga.tasks import jobs

KIND = "rate_lists"


def enqueue() -> Job | None:
    """Enqueue the recompute unless one waits or runs; the job, or None."""
    busy = Job.objects.filter(kind=KIND, state__in=[Job.State.WAITING, Job.State.RUNNING])
    if busy.exists():
        return None
    return jobs.start(rate_lists, KIND)


@task()
def rate_lists(job_id: str) -> None:
    jobs.run(job_id, _rate)


def _rate(job: Job, progress: jobs.Progress) -> None:
    with transaction.atomic():
        done = rating.rate_owed(progress=progress)
        result = {"lists": 0, "players": 0}
        if done is not None:
            result = {"lists": done.lists, "players": len(done.players)}
        jobs.finish(job, result, progress)

"""Rolling a league season over as a background job (``services.season_end.roll_over``): the
next season is written in one transaction with the job's end, so that a run after a
worker's death writes it once."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.urls import reverse
from django_tasks import task

from skatliga.models import Job, Season
from skatliga.services import ServiceError
from skatliga.services.season_end import roll_over
from skatliga.tasks import jobs

KIND = "roll_over"


def start_roll_over(
    season: Season,
    *,
    name: str,
    year: int,
    up: Collection[int],
    down: Collection[int],
    user: Any = None,
) -> Job:
    """Enqueue the next season of ``season`` with the teams ``up`` and ``down`` moved."""
    options = {
        "season": season.pk,
        "name": name,
        "year": year,
        "up": sorted(up),
        "down": sorted(down),
    }
    return jobs.start(season_roll_over, KIND, user=user, options=options)


@task()
def season_roll_over(job_id: str) -> None:
    jobs.run(job_id, _roll_over)


def _roll_over(job: Job, progress: jobs.Progress) -> None:
    options = job.options
    season = Season.objects.get(pk=options["season"])
    try:
        with transaction.atomic():
            done = roll_over(
                season,
                name=options["name"],
                year=options["year"],
                up=set(options["up"]),
                down=set(options["down"]),
                progress=lambda n, total: progress(n, total, "writing"),
            )
            url = reverse("league:divisions")  # the new season's divisions, for its officials
            result = {"slug": done.season.slug, "url": url, "dropped": done.dropped}
            jobs.finish(job, result, progress)
    except ServiceError as error:
        jobs.fail(job, {"problems": [{"path": "", "code": error.code, "params": {}}]})

"""A season's long work as background jobs: rolling a league season over
(``services.season_end.roll_over``) and re-scoring its tournaments under corrected rules
(``services.tournaments.rescore_season``). Each writes in one transaction with the job's
end, so that a run after a worker's death writes once."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.urls import reverse
from django_tasks import task

from skatliga.models import Job, Season
from skatliga.services import ServiceError
from skatliga.services.season_end import roll_over
from skatliga.services.tournaments import rescore_season
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


RESCORE = "rescore_season"


def start_rescore(season: Season, *, user: Any = None) -> Job:
    """Enqueue re-scoring every tournament of ``season`` under the season's rules."""
    return jobs.start(season_rescore, RESCORE, user=user, options={"season": season.pk})


@task()
def season_rescore(job_id: str) -> None:
    jobs.run(job_id, _rescore)


def _rescore(job: Job, progress: jobs.Progress) -> None:
    season = Season.objects.get(pk=job.options["season"])
    try:
        with transaction.atomic():
            done = rescore_season(
                season, user=job.user, progress=lambda n, total: progress(n, total, "writing")
            )
            url = reverse("league:season", args=[season.slug])
            jobs.finish(job, {"url": url, "tournaments": [t.slug for t in done]}, progress)
    except ServiceError as error:
        where = str(error.params.get("tournament", ""))
        count = len(error.params.get("blocking", ())) or 1
        problem = {"path": where, "code": error.code, "params": {"count": count}}
        jobs.fail(job, {"problems": [problem]})

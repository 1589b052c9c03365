"""Importing an archive as a background job: the referee's upload, ``import_archive
--background``. The whole document is checked and written as ``load_archive`` always does,
in one transaction with the job's end, so that a run after a worker's death imports it
once."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse
from django_tasks import task

from skatliga.archive import ArchiveError, load_archive
from skatliga.models import Job, Tournament
from skatliga.tasks import jobs

KIND = "import_archive"


def start_import(text: str, *, user: Any = None, again: bool = False) -> Job:
    """Enqueue the import of the archive ``text`` (JSON, checked to parse) for ``user``."""
    return jobs.start(import_archive, KIND, user=user, source=text, options={"again": again})


@task()
def import_archive(job_id: str) -> None:
    jobs.run(job_id, _import)


def _import(job: Job, progress: jobs.Progress) -> None:
    data = json.loads(job.source)
    user = job.user

    def then(tournament: Tournament) -> None:
        """In the import's transaction: its referee, and the job done."""
        if user is not None:
            tournament.referees.add(user)
        url = reverse("referee:tournament", args=[tournament.slug])
        jobs.finish(job, {"slug": tournament.slug, "url": url}, progress)

    try:
        load_archive(
            data, user=user, once=not job.options.get("again"), progress=progress, then=then
        )
    except ArchiveError as error:
        problems = [
            {
                "path": p.path,
                "code": p.code,
                "params": json.loads(json.dumps(p.params, default=str)),
            }
            for p in error.problems
        ]
        already = [p for p in error.problems if p.code == "already_imported"]
        result: dict[str, Any] = {"problems": problems}
        if already:
            result["existing_url"] = reverse("referee:tournament", args=[already[0].params["slug"]])
        jobs.fail(job, result)

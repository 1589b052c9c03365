"""Jobs: long work as a background task, with a progress record the starter can watch.

:func:`start` saves a :class:`~skatliga.models.Job` and enqueues a task of Django's tasks
framework (the ``django-tasks`` backport with its database backend) that carries the job's
id; the task hands the job to :func:`run`, which marks it running, gives the work a
:class:`Progress` to report how far it is, and records the result or the failure. The page
``/jobs/<id>/`` (``skatliga.tasks.views``) shows it.

A task may run more than once: when its worker dies in the middle, ``skatliga.tasks.worker``
enqueues it again. The work makes that harmless by finishing the job (:func:`finish`) in the
same transaction as what it writes: a run that committed leaves the job done, and a second
run of a done job returns at once; a run that did not commit left nothing behind.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from django.db import close_old_connections, connection, transaction
from django.db.models import F
from django.utils import timezone
from django_tasks.base import Task

from skatliga.models import Job

Work = Callable[[Job, "Progress"], None]


def start(
    task: Task[[str], None],
    kind: str,
    *,
    user: Any = None,
    source: str = "",
    options: Mapping[str, Any] | None = None,
) -> Job:
    """Save a job of ``kind`` and enqueue ``task`` for it; the task gets the job's id."""
    job = Job.objects.create(
        kind=kind,
        user=user if user is not None and user.is_authenticated else None,
        source=source,
        options=dict(options or {}),
    )
    result = task.enqueue(str(job.pk))
    Job.objects.filter(pk=job.pk).update(task_id=str(result.id))
    job.task_id = str(result.id)
    return job


class Progress:
    """How far a job is: ``progress(done, total, step)``, at most a few writes a second.

    Outside a transaction it writes the job's row at once. Inside one (an import writing
    all or nothing) on PostgreSQL, a thread with a connection of its own writes it, so that
    the progress page sees it before the transaction ends; on SQLite, whose one writer holds
    the lock until then, the row is written in the transaction and seen when it ends.
    """

    EVERY = 0.5
    """Seconds between two writes of the row."""

    def __init__(self, job: Job) -> None:
        self.job_id = job.pk
        self.latest: tuple[int, int, str] | None = None
        self.written = 0.0
        self.wake = threading.Event()
        self.thread: threading.Thread | None = None
        self.closing = False

    def __call__(self, done: int, total: int, step: str = "") -> None:
        new_step = self.latest is None or self.latest[2] != step
        self.latest = (done, total, step)
        now = time.monotonic()
        if now - self.written < self.EVERY and not new_step:
            return
        self.written = now
        if connection.vendor == "postgresql" and connection.in_atomic_block:
            if self.thread is None:
                self.thread = threading.Thread(target=self._report, daemon=True)
                self.thread.start()
            self.wake.set()
        else:
            self._write()

    def _write(self) -> None:
        if self.latest is not None:
            done, total, step = self.latest
            Job.objects.filter(pk=self.job_id).update(done=done, total=total, step=step)

    def _report(self) -> None:
        try:
            while not self.closing:
                self.wake.wait()
                self.wake.clear()
                self._write()
        finally:
            close_old_connections()
            connection.close()

    def close(self) -> None:
        if self.thread is not None:
            self.closing = True
            self.wake.set()
            self.thread.join(timeout=10)


def finish(job: Job, result: Mapping[str, Any], progress: Progress | None = None) -> None:
    """Mark ``job`` done with ``result``; inside the transaction of what it wrote."""
    total = progress.latest[1] if progress is not None and progress.latest else 0
    Job.objects.filter(pk=job.pk).update(
        state=Job.State.DONE,
        result=dict(result),
        done=total,
        total=total,
        source="",
        finished_at=timezone.now(),
    )


def fail(job: Job, result: Mapping[str, Any]) -> None:
    """Mark ``job`` failed, with what the starter needs to know (``{"problems": [...]}``)."""
    Job.objects.filter(pk=job.pk).update(
        state=Job.State.FAILED, result=dict(result), source="", finished_at=timezone.now()
    )


def run(job_id: str, work: Work) -> None:
    """Run ``work`` for the job, once: a job finished before is left as it is.

    ``work`` calls :func:`finish` in the transaction of what it writes, or :func:`fail` for
    a failure it expects; any other exception fails the job ("unexpected") and the task.
    """
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished:
            return
        Job.objects.filter(pk=job.pk).update(
            state=Job.State.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1
        )
    progress = Progress(job)
    try:
        work(job, progress)
    except BaseException:
        fail(job, {"problems": [{"code": "unexpected", "path": "", "params": {}}]})
        raise
    finally:
        progress.close()

"""Long work in the background: a job's progress record, and the task workers' heartbeats.

The work itself runs as a task of Django's tasks framework (the ``django-tasks`` backport,
its database backend ``django_tasks_db``); ``skatliga.tasks`` enqueues it with a :class:`Job`,
which the task fills in as it goes (how far, what it does now, its result) and which a
progress page reads. :class:`TaskWorker` is one row per running worker process, renewed every
few seconds: ``/healthz`` says when none is alive, and a worker that died in the middle of a
task is recognised by it, so that its task runs again.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Job(models.Model):
    """One piece of background work as its starter sees it: waiting, running, done, failed."""

    class State(models.TextChoices):
        WAITING = "waiting", _("wartet")
        RUNNING = "running", _("läuft")
        DONE = "done", _("fertig")
        FAILED = "failed", _("fehlgeschlagen")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=40, blank=True)
    """What it does now, as a code its kind puts in words (``reading``, ``writing``)."""
    attempts = models.PositiveSmallIntegerField(default=0)
    source = models.TextField(blank=True)
    """The input (an archive's text), emptied once the job has finished."""
    options = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    """What it made (``{"slug": …}``) or why it failed (``{"problems": [...]}``)."""
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.state})"

    @property
    def finished(self) -> bool:
        return self.state in {self.State.DONE, self.State.FAILED}

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        return self.done * 100 // self.total if self.total else 0


class TaskWorker(models.Model):
    """A running task worker (``manage.py task_worker``): where it runs and when it last said
    so. It renews ``seen_at`` every few seconds and deletes its row when it stops."""

    worker_id = models.CharField(max_length=64, unique=True)
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker_id} ({self.host}, pid {self.pid})"

"""The task worker's life: its heartbeat, the tasks of workers that died, and its health.

``manage.py task_worker`` runs ``django_tasks_db``'s ``db_worker`` (which takes a waiting task,
marks it running under its worker id and runs it) and beside it a :class:`Heartbeat`: a row
in :class:`~skatliga.models.TaskWorker` renewed every few seconds, deleted when the worker
stops. A task left running by a worker that is gone — killed, out of memory, its machine
restarted — would stay "running" for ever; :func:`recover` marks it failed ("the worker
ended during the task") and enqueues it again, and the jobs (``skatliga.tasks.jobs``) make
a second run harmless. A worker is gone when its row is missing, when it ran on this
machine and its process is not there any more, or when another machine's row has not been
renewed for :data:`STALE` seconds.
"""

from __future__ import annotations

import datetime
import os
import socket
import threading

from django.db import DatabaseError, close_old_connections, connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from skatliga.models import TaskWorker

HEARTBEAT = 5
"""Seconds between two renewals of a worker's row."""
STALE = 60
"""Seconds without a renewal after which another machine's worker counts as gone."""
MISSING = 60
"""Seconds without any worker's renewal after which /healthz warns."""
WAITING = 120
"""Seconds a task may wait for a worker before /healthz warns."""


class WorkerLost(Exception):
    """The reason recorded on a task whose worker ended while it ran."""


def host() -> str:
    return socket.gethostname()[:255]


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def alive(worker: TaskWorker, now: datetime.datetime | None = None) -> bool:
    """Whether the worker of this row still runs (see the module)."""
    now = now or timezone.now()
    if worker.host == host() and not _process_exists(worker.pid):
        return False
    return now - worker.seen_at < datetime.timedelta(seconds=STALE)


def register(worker_id: str) -> None:
    TaskWorker.objects.update_or_create(
        worker_id=worker_id,
        defaults={"host": host(), "pid": os.getpid(), "seen_at": timezone.now()},
    )


def unregister(worker_id: str) -> None:
    TaskWorker.objects.filter(worker_id=worker_id).delete()


def recover(own_id: str = "") -> int:
    """Fail and enqueue again every running task whose worker is gone; how many."""
    workers = {w.worker_id: w for w in TaskWorker.objects.all()}
    now = timezone.now()
    again = 0
    for result in DBTaskResult.objects.running():
        last = result.worker_ids[-1] if result.worker_ids else ""
        if last == own_id or (last in workers and alive(workers[last], now)):
            continue
        with transaction.atomic():
            locked = (
                DBTaskResult.objects.select_for_update(skip_locked=True)
                .filter(pk=result.pk, status=result.status)
                .first()
            )
            if locked is None:
                continue
            locked.set_failed(WorkerLost(f"the worker {last} ended during the task"))
            arguments = locked.args_kwargs
            locked.task.enqueue(*arguments["args"], **arguments["kwargs"])
            again += 1
    gone = [w.pk for w in workers.values() if w.worker_id != own_id and not alive(w, now)]
    TaskWorker.objects.filter(pk__in=gone).delete()
    return again


class Heartbeat(threading.Thread):
    """Renews the worker's row every :data:`HEARTBEAT` seconds and recovers the tasks of
    workers that are gone, with a database connection of its own."""

    def __init__(self, worker_id: str) -> None:
        super().__init__(name="task-worker-heartbeat", daemon=True)
        self.worker_id = worker_id
        self.stopping = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopping.wait(HEARTBEAT):
                try:
                    close_old_connections()
                    register(self.worker_id)
                    recover(self.worker_id)
                except DatabaseError:
                    # SQLite's one writer may hold the lock through a long import; the
                    # next beat tries again.
                    continue
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=2 * HEARTBEAT)


def health_warnings() -> list[str]:
    """No worker seen lately; tasks waiting too long. For /healthz."""
    now = timezone.now()
    found = []
    try:
        seen = TaskWorker.objects.filter(
            seen_at__gte=now - datetime.timedelta(seconds=MISSING)
        ).exists()
        late = DBTaskResult.objects.ready().filter(
            enqueued_at__lte=now - datetime.timedelta(seconds=WAITING)
        )
        waiting = late.count()
        oldest = late.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    except DatabaseError:
        return []
    if not seen:
        found.append(
            f"no task worker has reported for {MISSING} s: background work such as an "
            "archive import waits (the start command starts one beside gunicorn)"
        )
    if waiting and oldest is not None:
        seconds = int((now - oldest).total_seconds())
        found.append(f"{waiting} task(s) waiting for a worker, the oldest for {seconds} s")
    return found

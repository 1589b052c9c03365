"""``python manage.py task_worker [--batch]``: the background worker (skatliga.tasks.worker).

django_tasks_db's ``db_worker`` with a heartbeat: tasks of a worker that died run again. The
start command (``python -m skatliga.ops.serve``) keeps one running beside gunicorn, through
``skatliga.tasks.keeper``; ``dev.py start`` does the same beside the development server.
SIGTERM or SIGINT: finish the task at hand, then stop. SIGHUP: finish it, then start again
with the code on disk (``systemctl reload skatliga`` sends it).
"""

import os
import secrets
import signal
import sys
from types import FrameType
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from skatliga.tasks.worker import Heartbeat, host, recover, register, unregister

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGHUP)


class Command(BaseCommand):
    help = (
        "Run the background tasks (imports and other long work) as they come, with a "
        "heartbeat; --batch runs those waiting and stops."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="run the tasks waiting now, then stop"
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="seconds between two looks for a task while none waits (default 1)",
        )

    def handle(self, *args: Any, batch: bool, interval: float, **options: Any) -> None:
        worker_id = f"{host()[:40]}-{os.getpid()}-{secrets.token_hex(4)}"
        previous = {number: signal.getsignal(number) for number in SIGNALS}
        again = False

        def reload(number: int, frame: FrameType | None) -> None:
            nonlocal again
            again = True
            os.kill(os.getpid(), signal.SIGTERM)  # db_worker: finish the task, then stop

        register(worker_id)
        recover(worker_id)
        heartbeat = None if batch else Heartbeat(worker_id)
        if heartbeat is not None:
            heartbeat.start()
            signal.signal(signal.SIGHUP, reload)
        try:
            call_command(
                "db_worker",
                worker_id=worker_id,
                interval=interval,
                batch=batch,
                reload=False,
                startup_delay=False,
                verbosity=options["verbosity"],
            )
        except SystemExit:
            pass
        finally:
            if heartbeat is not None:
                heartbeat.stop()
            unregister(worker_id)
            for number, handler in previous.items():
                signal.signal(number, handler)
        if again:
            sys.stdout.flush()
            sys.stderr.flush()
            os.execv(sys.executable, [sys.executable, *sys.argv])

"""The production start command: ``python -m skatliga.ops.serve [gunicorn options]``.

It checks what would otherwise fail later and loudly — the settings (debug off, a strong
secret key), the database (reachable, every migration applied) and gunicorn's settings — and
answers each problem with one line and exit status 1. Then it collects the static files
(hashed and compressed, for whitenoise), starts the task worker's keeper
(``skatliga.tasks.keeper``, unless ``SKATLIGA_TASK_WORKER=0``) and replaces itself with
gunicorn, whose master the keeper then belongs to: it ends with it, and a reload
(``kill -HUP``) reaches the worker too (``skatliga.ops.gunicorn``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

PREFIX = "skatliga: "


class StartupError(Exception):
    """A problem that stops the start, told in one line."""


def check_and_collect() -> None:
    """Raise :class:`StartupError` for the first problem; collect the static files."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatliga.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        from skatliga.ops import gunicorn as gunicorn_config

        django.setup()
    except (ImproperlyConfigured, ValueError) as error:
        raise StartupError(str(error)) from None

    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    from skatliga.ops.health import problems

    if settings.DEBUG:
        raise StartupError("SKATLIGA_DEBUG must be 0 for the production server.")
    found = problems()
    connections.close_all()
    if found:
        raise StartupError("; ".join(found))
    call_command("collectstatic", interactive=False, verbosity=0)
    del gunicorn_config


KEEPER = "SKATLIGA_TASK_KEEPER"
"""The keeper's process id, for gunicorn's hooks."""


def start_keeper() -> None:
    """The task worker's keeper, unless ``SKATLIGA_TASK_WORKER`` is 0."""
    wanted = os.environ.get("SKATLIGA_TASK_WORKER", "1").strip().lower()
    if wanted in {"0", "false", "no", "off"}:
        return
    keeper = subprocess.Popen([sys.executable, "-m", "skatliga.tasks.keeper"])
    os.environ[KEEPER] = str(keeper.pid)


def main(argv: Sequence[str]) -> int:
    try:
        check_and_collect()
    except StartupError as error:
        print(PREFIX + str(error), file=sys.stderr)
        return 1
    start_keeper()
    command = [sys.executable, "-m", "gunicorn", "--config", "python:skatliga.ops.gunicorn", *argv]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

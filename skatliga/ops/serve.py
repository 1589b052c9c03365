"""The production start command: ``python -m skatliga.ops.serve [gunicorn options]``.

It checks what would otherwise fail later and loudly — the settings (debug off, a strong
secret key), the database (reachable, every migration applied) and gunicorn's settings — and
answers each problem with one line and exit status 1. Then it collects the static files
(hashed and compressed, for whitenoise) and replaces itself with gunicorn.
"""

from __future__ import annotations

import os
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


def main(argv: Sequence[str]) -> int:
    try:
        check_and_collect()
    except StartupError as error:
        print(PREFIX + str(error), file=sys.stderr)
        return 1
    command = [sys.executable, "-m", "gunicorn", "--config", "python:skatliga.ops.gunicorn", *argv]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""gunicorn's configuration, from the environment: ``gunicorn -c python:skatliga.ops.gunicorn``.

SKATLIGA_BIND       address to listen on, default 127.0.0.1:8000 (the reverse proxy's upstream)
SKATLIGA_WORKERS    worker processes, default 2 × cores + 1
SKATLIGA_TIMEOUT    seconds before a stuck worker is killed and replaced, default 60
SKATLIGA_LOG_LEVEL  as for the site; the access log and the errors go to stderr

``kill -HUP`` of the master (``systemctl reload skatliga``) starts new workers with the new
code and lets the old ones finish their requests: the socket stays open, no request is
refused. A worker ends with its master, so after ``kill -9`` of the master no orphaned worker
keeps the port and the next start binds at once. The task worker's keeper, which the start
command left as the master's child (``SKATLIGA_TASK_KEEPER``), hears of a reload (the task
worker starts again with the new code) and of the master's end.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from skatliga.table.redaction import RedactTableTokens


def default_workers() -> int:
    """gunicorn's rule of thumb: two per core plus one (3 on a one-core server)."""
    return 2 * (os.cpu_count() or 1) + 1


def positive_int(name: str, default: int) -> int:
    """An environment variable that must be a whole number of at least 1."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {raw!r}.")
    return int(raw)


bind = os.environ.get("SKATLIGA_BIND", "").strip() or "127.0.0.1:8000"
workers = positive_int("SKATLIGA_WORKERS", default_workers())
timeout = positive_int("SKATLIGA_TIMEOUT", 60)  # a large archive import takes tens of seconds
graceful_timeout = timeout
wsgi_app = "skatliga.wsgi:application"
accesslog = "-"
errorlog = "-"


class StderrLogger(Logger):  # type: ignore[misc]  # gunicorn has no types: Logger is Any
    """gunicorn's logs, the access log included, on stderr, with table tokens blanked."""

    def _set_handler(
        self, log: logging.Logger, output: Any, fmt: logging.Formatter, stream: Any = None
    ) -> None:
        super()._set_handler(log, output, fmt, stream=sys.stderr)
        handler = self._get_gunicorn_handler(log)
        if handler is not None:
            handler.addFilter(RedactTableTokens())


logger_class = StderrLogger
loglevel = os.environ.get("SKATLIGA_LOG_LEVEL", "INFO").strip().lower() or "info"
# The proxy on the same machine says whether the visitor came by HTTPS (X-Forwarded-Proto).
forwarded_allow_ips = os.environ.get("SKATLIGA_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# gunicorn's control socket (one path per user, shared by every instance) is not used here.
control_socket_disable = True


PR_SET_PDEATHSIG = 1


def _tell_keeper(number: int) -> None:
    keeper = os.environ.get("SKATLIGA_TASK_KEEPER", "")
    if keeper.isdigit():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(keeper), number)


def on_reload(server: Any) -> None:
    """``kill -HUP``: the task worker finishes its task and starts again with the new code."""
    _tell_keeper(signal.SIGHUP)


def on_exit(server: Any) -> None:
    """The master ends: so does the task worker, once its task is done."""
    _tell_keeper(signal.SIGTERM)


def post_fork(server: Any, worker: Any) -> None:
    """The kernel sends the worker SIGTERM (finish the request, then exit) when its master
    dies; a master that died before this line is caught by the parent check."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != worker.ppid:
        os.kill(os.getpid(), signal.SIGTERM)

"""gunicorn's configuration, from the environment: ``gunicorn -c python:skatliga.ops.gunicorn``.

SKATLIGA_BIND       address to listen on, default 127.0.0.1:8000 (the reverse proxy's upstream)
SKATLIGA_WORKERS    worker processes, default 2 × cores + 1
SKATLIGA_TIMEOUT    seconds before a stuck worker is killed and replaced, default 60
SKATLIGA_LOG_LEVEL  as for the site; the access log goes to stdout, errors to stderr
"""

from __future__ import annotations

import os


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
loglevel = os.environ.get("SKATLIGA_LOG_LEVEL", "INFO").strip().lower() or "info"
# The proxy on the same machine says whether the visitor came by HTTPS (X-Forwarded-Proto).
forwarded_allow_ips = os.environ.get("SKATLIGA_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# gunicorn's control socket (one path per user, shared by every instance) is not used here.
control_socket_disable = True

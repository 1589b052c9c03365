"""The production start command refuses to start on a fault, with one clear line."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = secrets.token_urlsafe(50)


def start(tmp_path: Path, **env: str | None) -> subprocess.CompletedProcess[str]:
    """``python -m skatliga.ops.serve`` with production settings and ``env`` on top."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SKATLIGA_")}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    environment.update(
        SKATLIGA_DEBUG="0",
        SKATLIGA_SECRET_KEY=STRONG_KEY,
        SKATLIGA_ALLOWED_HOSTS="example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}",
    )
    for name, value in env.items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return subprocess.run(
        [sys.executable, "-m", "skatliga.ops.serve", "--bind", "127.0.0.1:8109"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("skatliga: ")
    return lines[0]


def test_a_missing_secret_key_stops_the_start(tmp_path):
    line = one_line(start(tmp_path, SKATLIGA_SECRET_KEY=None))

    assert line.startswith("skatliga: SKATLIGA_SECRET_KEY must be set")


@pytest.mark.parametrize(
    "key",
    ["geheim", "a" * 60, "django-insecure-" + secrets.token_urlsafe(50)],
    ids=["short", "one-character", "django-insecure"],
)
def test_a_weak_secret_key_stops_the_start(tmp_path, key):
    line = one_line(start(tmp_path, SKATLIGA_SECRET_KEY=key))

    assert line.startswith("skatliga: SKATLIGA_SECRET_KEY is too weak")


def test_an_unreachable_database_stops_the_start(tmp_path):
    line = one_line(start(tmp_path, DATABASE_URL="postgres://postgres@127.0.0.1:1/skatliga"))

    assert line.startswith("skatliga: database unreachable: OperationalError")
    assert "port 1 failed" in line


def test_unapplied_migrations_stop_the_start(tmp_path):
    line = one_line(start(tmp_path))

    assert re.match(r"skatliga: \d+ migration\(s\) not applied \(contenttypes\.0001_initial", line)
    assert line.endswith("run manage.py migrate")


def test_debug_on_stops_the_production_start(tmp_path):
    line = one_line(start(tmp_path, SKATLIGA_DEBUG="1"))

    assert line == "skatliga: SKATLIGA_DEBUG must be 0 for the production server."


def test_a_bad_worker_count_stops_the_start(tmp_path):
    line = one_line(start(tmp_path, SKATLIGA_WORKERS="viele"))

    assert line == "skatliga: SKATLIGA_WORKERS must be a whole number of at least 1, not 'viele'."


def test_an_unknown_log_level_stops_the_start(tmp_path):
    line = one_line(start(tmp_path, SKATLIGA_LOG_LEVEL="laut"))

    assert line == (
        "skatliga: SKATLIGA_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not 'LAUT'."
    )


def test_sentry_without_its_package_stops_the_start(tmp_path):
    try:
        import sentry_sdk  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("sentry-sdk is installed here")

    line = one_line(start(tmp_path, SENTRY_DSN="https://key@sentry.example.org/1"))

    assert line == (
        "skatliga: SENTRY_DSN is set but sentry-sdk is not installed: pip install sentry-sdk"
    )


def test_gunicorn_reads_its_settings_from_the_environment(monkeypatch):
    import importlib

    from skatliga.ops import gunicorn

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    for name in ("SKATLIGA_BIND", "SKATLIGA_WORKERS", "SKATLIGA_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    defaults = importlib.reload(gunicorn)
    defaults = (defaults.bind, defaults.workers, defaults.timeout)
    monkeypatch.setenv("SKATLIGA_BIND", "0.0.0.0:8000")
    monkeypatch.setenv("SKATLIGA_WORKERS", "4")
    monkeypatch.setenv("SKATLIGA_TIMEOUT", "120")
    chosen = importlib.reload(gunicorn)
    chosen = (chosen.bind, chosen.workers, chosen.timeout)
    monkeypatch.undo()
    importlib.reload(gunicorn)

    assert defaults == ("127.0.0.1:8000", 5, 60)  # 2 × 2 cores + 1
    assert chosen == ("0.0.0.0:8000", 4, 120)


def test_a_cache_directory_that_cannot_be_made_stops_the_start(tmp_path):
    (tmp_path / "file").write_text("")
    location = tmp_path / "file" / "cache"

    line = one_line(start(tmp_path, SKATLIGA_CACHE_URL=f"file://{location}"))

    assert f"cache {location} unusable: " in line


def test_gunicorn_logs_the_access_log_to_stderr_without_table_tokens():
    import logging
    import sys

    from gunicorn.config import Config

    from skatliga.ops.gunicorn import StderrLogger

    config = Config()
    config.set("accesslog", "-")
    logger = StderrLogger(config)
    [handler] = logger.access_log.handlers
    record = logging.LogRecord("gunicorn.access", 20, "", 1, '"GET /t/Zx9-tok/ HTTP/1.1"', (), None)

    assert handler.stream is sys.stderr
    assert handler.filter(record)
    assert record.getMessage() == '"GET /t/…/ HTTP/1.1"'

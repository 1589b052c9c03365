"""The health check, the error pages, the security headers and the favicon."""

import io
import json
import logging
import os
import time
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.test.utils import CaptureQueriesContext

from skatliga import migrations
from skatliga.ops import proxies
from skatliga.ops.health import PROXY_COUNT_ZERO, known_migrations, problems


@pytest.fixture(autouse=True)
def a_task_worker_runs(request):
    """A task worker's heartbeat, as beside every started site: /healthz warns without one
    (tests/web/test_tasks.py), which the tests here are not about."""
    if "db" in request.fixturenames or request.node.get_closest_marker("django_db"):
        from skatliga.tasks.worker import register

        request.getfixturevalue("db")
        register("a-worker")


@pytest.mark.django_db
def test_healthz_is_200_with_the_database_reachable_and_migrated(client, settings, monkeypatch):
    monkeypatch.setattr(proxies, "seen", False)
    response = client.get("/healthz")

    assert response.status_code == 200
    [(_app, newest)] = MigrationLoader(connection).graph.leaf_nodes("skatliga")
    assert json.loads(response.content) == {
        "status": "ok",
        "version": settings.VERSION,
        "migration": f"skatliga.{newest}",
        "problems": [],
        "warnings": [],
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_neither_writes_nor_starts_a_session(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.cookies == {}
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().split()[0].upper() in {"INSERT", "UPDATE", "DELETE", "CREATE"}
    ]
    assert writes == []


@pytest.mark.django_db
def test_healthz_is_503_when_a_migration_is_not_applied(client):
    [(app, latest)] = MigrationLoader(connection).graph.leaf_nodes("skatliga")
    MigrationRecorder(connection).record_unapplied(app, latest)

    response = client.get("/healthz")

    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["status"] == "unavailable"
    assert body["problems"] == [
        f"1 migration(s) not applied (skatliga.{latest}): run manage.py migrate"
    ]


@pytest.mark.django_db
def test_healthz_is_503_without_a_traceback_for_a_migration_put_on_disk_since_the_start(
    client, caplog
):
    """Between `git pull` and `migrate` the old process answers 503, naming the new
    migration, which it neither imports nor could (its code is the old one)."""
    known_migrations()  # as wsgi.py does at the start
    new = Path(migrations.__file__).parent / "0999_the_next_version.py"
    new.write_text('raise ImportError("only the next version loads this")\n')
    try:
        with caplog.at_level(logging.WARNING):
            response = client.get("/healthz")
    finally:
        new.unlink()

    assert response.status_code == 503
    assert json.loads(response.content)["problems"] == [
        "1 migration(s) not applied (skatliga.0999_the_next_version): run manage.py migrate"
    ]
    # Django notes the 503 in one line ("Service Unavailable: /healthz"), no traceback.
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "Service Unavailable: /healthz"
    ]
    assert [r for r in caplog.records if r.exc_info] == []


@pytest.mark.django_db
def test_healthz_warns_when_the_database_is_ahead_of_the_process(client, monkeypatch):
    """After `migrate`, before the reload: the old process serves, and says to reload."""
    monkeypatch.setattr(proxies, "seen", False)
    MigrationRecorder(connection).record_applied("skatliga", "0999_the_next_version")

    response = client.get("/healthz")

    assert response.status_code == 200
    assert json.loads(response.content)["warnings"] == [
        "the database has migrations this process does not run "
        "(skatliga.0999_the_next_version): reload"
    ]


@pytest.mark.django_db
def test_health_problems_name_an_unreachable_database(settings):
    from django.db import connections

    broken = connections.create_connection("default")
    broken.settings_dict = {**broken.settings_dict}
    if broken.vendor == "sqlite":
        broken.settings_dict["NAME"] = "/nonexistent-directory/skatliga.sqlite3"
    else:
        broken.settings_dict["PORT"] = "1"
    connections["unreachable"] = broken
    try:
        found = problems("unreachable")
    finally:
        broken.close()
        del connections["unreachable"]

    assert len(found) == 1
    assert found[0].startswith("database unreachable: OperationalError")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "heading"),
    [("/keine-seite/", "Seite nicht gefunden"), ("/en/no-such-page/", "Page not found")],
)
def test_404_is_the_sites_own_page_in_the_pages_language(client, path, heading):
    response = client.get(path)

    assert response.status_code == 404
    assert "404.html" in [t.name for t in response.templates]
    assert "base.html" in [t.name for t in response.templates]
    assert f"<h1>{heading}</h1>" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "heading"),
    [("/boom/", "Das hat nicht geklappt"), ("/en/boom/", "That did not work")],
)
def test_500_is_the_sites_own_page_and_the_error_is_logged_with_its_traceback(
    client, settings, caplog, path, heading
):
    settings.ROOT_URLCONF = "tests.web.boom_urls"
    client.raise_request_exception = False

    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(path)

    assert response.status_code == 500
    assert f"<h1>{heading}</h1>" in response.content.decode()
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
    assert str(record.exc_info[1]) == "a failure in a view"


def test_errors_are_logged_to_stderr(settings):
    handlers = settings.LOGGING["handlers"]
    root = settings.LOGGING["root"]
    django_logger = settings.LOGGING["loggers"]["django"]

    assert handlers["stderr"]["class"] == "logging.StreamHandler"
    assert "stream" not in handlers["stderr"]  # StreamHandler's default: sys.stderr
    assert root["handlers"] == django_logger["handlers"] == ["stderr"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/en/", "/tournaments/", "/healthz", "/keine-seite/"])
def test_every_response_has_a_content_security_policy_without_inline_code(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))

    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


@pytest.mark.django_db
def test_favicon_is_linked_and_served(client):
    page = client.get("/").content.decode()
    redirect = client.get("/favicon.ico")

    assert '<link rel="icon" href="/static/skatliga/favicon.svg"' in page
    assert redirect.status_code == 302
    assert redirect.url == "/static/skatliga/favicon.svg"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "heading"), [("/login/", "Formular abgelaufen"), ("/en/login/", "Form expired")]
)
def test_a_form_without_a_valid_csrf_token_gets_the_sites_own_page(path, heading):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)

    response = client.post(path, {"username": "anna", "password": "x"})

    assert response.status_code == 403
    assert f"<h1>{heading}</h1>" in response.content.decode()


# --- what /healthz checks besides the database ------------------------------------------------


@pytest.mark.django_db
def test_healthz_is_503_when_the_file_cache_cannot_be_written(client, settings, tmp_path):
    (tmp_path / "file").write_text("")  # a directory cannot be made below a file, even as root
    location = tmp_path / "file" / "cache"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(location),
        }
    }

    response = client.get("/healthz")

    assert response.status_code == 503
    [problem] = json.loads(response.content)["problems"]
    assert problem.startswith(f"cache {location} unusable: ")


def test_backup_warning_names_a_missing_or_old_backup(tmp_path):
    from skatliga.ops.health import backup_warning

    assert backup_warning(tmp_path) == f"no backup in {tmp_path}"
    backup = tmp_path / "skatliga-2026-11-20.backup"
    backup.write_bytes(b"PGDMP")
    assert backup_warning(tmp_path) is None
    day_and_a_half = time.time() - 36 * 3600
    os.utime(backup, (day_and_a_half, day_and_a_half))
    assert backup_warning(tmp_path) == f"the newest backup in {tmp_path} is 36 hours old"


@pytest.mark.django_db
def test_healthz_warns_of_an_old_backup_but_still_serves(client, settings, tmp_path, monkeypatch):
    monkeypatch.setattr(proxies, "seen", False)
    settings.BACKUP_DIR = tmp_path

    response = client.get("/healthz")

    assert response.status_code == 200
    assert json.loads(response.content)["warnings"] == [f"no backup in {tmp_path}"]


def test_check_backup_fails_on_an_old_backup_and_passes_on_a_new_one(tmp_path):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="no backup in"):
        call_command("check_backup", str(tmp_path))
    (tmp_path / "skatliga-2026-11-21.backup").write_bytes(b"PGDMP")
    out = io.StringIO()
    call_command("check_backup", str(tmp_path), stdout=out)
    assert "less than a day old" in out.getvalue()


@pytest.mark.django_db
def test_forwarded_requests_without_a_proxy_count_are_told(client, settings, monkeypatch, caplog):
    monkeypatch.setattr(proxies, "seen", False)
    settings.PROXY_COUNT = 1
    counted = client.get("/healthz", HTTP_X_FORWARDED_FOR="203.0.113.9")
    settings.PROXY_COUNT = 0

    with caplog.at_level(logging.WARNING, logger="skatliga.proxies"):
        uncounted = client.get("/healthz", HTTP_X_FORWARDED_FOR="203.0.113.9")
        client.get("/", HTTP_X_FORWARDED_FOR="203.0.113.9")
    direct = client.get("/healthz")

    assert json.loads(counted.content)["warnings"] == []
    assert json.loads(uncounted.content)["warnings"] == [PROXY_COUNT_ZERO]
    assert json.loads(direct.content)["warnings"] == [PROXY_COUNT_ZERO]  # seen before
    [record] = [r for r in caplog.records if r.name == "skatliga.proxies"]  # once per process
    assert "SKATLIGA_PROXY_COUNT is 0" in record.getMessage()


def test_link_tokens_are_blanked_at_the_handler_for_every_logger():
    [handler] = [h for h in logging.getLogger("django").handlers if h.name == "stderr"]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    try:
        logging.getLogger("django.security.csrf").warning(
            "Forbidden (%s): %s", "CSRF cookie not set.", "/t/Zx9_secret-Token/"
        )
        logging.getLogger("django.request").warning(
            "Not Found: %s", "/en/c/secret-Check_in/search/"
        )
    finally:
        handler.setStream(previous)

    assert "django.security.csrf Forbidden (CSRF cookie not set.): /t/…/" in stream.getvalue()
    assert "django.request Not Found: /en/c/…/search/" in stream.getvalue()
    assert "secret" not in stream.getvalue()

"""The install as docs/operations.md does it: the skatliga-manage wrapper, manage.py without
the server's settings, the two requirement files, dev.py's installs and the version."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WRAPPER = ROOT / "deploy" / "skatliga-manage"
PRINT_DATABASE = "from django.conf import settings; print(settings.DATABASES['default']['NAME'])"


def clean_environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKATLIGA_", "DATABASE_"))}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return {**env, **extra}


def test_skatliga_manage_runs_manage_py_with_the_settings_file(tmp_path):
    database = tmp_path / "site.sqlite3"
    env_file = tmp_path / "env"
    env_file.write_text(f"SKATLIGA_DEBUG=1\nDATABASE_URL=sqlite:///{database}\n")
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    env = clean_environment(
        SKATLIGA_APP=str(ROOT), SKATLIGA_ENV_FILE=str(env_file), SKATLIGA_USER=user
    )

    result = subprocess.run(
        [str(WRAPPER), "shell", "--no-imports", "-c", PRINT_DATABASE],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(database)


@pytest.mark.parametrize("url", ["postgres://skatliga@/skatliga", "'postgres://s:p@db/s'"])
def test_manage_py_refuses_to_run_without_the_servers_database(tmp_path, url):
    env_file = tmp_path / "env"
    env_file.write_text(f"SKATLIGA_DEBUG=0\nDATABASE_URL={url}\n")

    result = subprocess.run(
        [sys.executable, "manage.py", "backup", str(tmp_path / "x.backup")],
        cwd=ROOT,
        env=clean_environment(SKATLIGA_ENV_FILE=str(env_file)),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"manage.py: {env_file} names the site's database but DATABASE_URL is not set; "
        "run it as skatliga-manage …, which loads that file."
    ]
    assert not (tmp_path / "x.backup").exists()


def test_manage_py_runs_as_usual_without_a_servers_settings_file(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", PRINT_DATABASE],
        cwd=ROOT,
        env=clean_environment(
            SKATLIGA_ENV_FILE=str(tmp_path / "none"),
            DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.stdout.strip() == str(tmp_path / "db.sqlite3"), result.stderr


def requirement_names(path: Path) -> set[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return {re.split(r"[=\[<>]", line)[0].lower() for line in lines if line and line[0] != "-"}


def test_the_server_installs_only_what_the_site_runs_on():
    runtime = requirement_names(ROOT / "requirements.txt")
    development = requirement_names(ROOT / "requirements-dev.txt")

    assert {"django", "gunicorn", "psycopg", "whitenoise"} <= runtime
    assert not runtime & {"pytest", "playwright", "mypy", "ruff", "hypothesis", "django-stubs"}
    assert not runtime & development
    assert (ROOT / "requirements-dev.txt").read_text().count("-r requirements.txt") == 1
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "requirements-dev" not in dockerfile and "-r requirements.txt" in dockerfile


@pytest.fixture
def dev(tmp_path, monkeypatch):
    """dev.py with its .venv in tmp_path and pip replaced by a note of what it installs."""
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    monkeypatch.setattr(module, "VENV", venv)
    monkeypatch.setattr(module, "VENV_PYTHON", venv / "bin" / "python")
    monkeypatch.setattr(module, "STAMP", venv / "requirements.sha256")
    module.installs = []
    monkeypatch.setattr(
        module, "run_or_fail", lambda command, message: module.installs.append(command[-1])
    )
    return module


def test_dev_py_installs_both_files_for_the_tests_and_the_first_for_the_site(dev):
    dev.ensure_venv(dev.RUNTIME)
    dev.ensure_venv(dev.RUNTIME)  # nothing changed: no install
    dev.ensure_venv(dev.DEVELOPMENT)
    dev.ensure_venv(dev.DEVELOPMENT)
    dev.ensure_venv(dev.RUNTIME)

    assert dev.installs == [str(dev.RUNTIME), str(dev.DEVELOPMENT)]
    assert set(dev.installed()) == {"requirements.txt", "requirements-dev.txt"}


def test_dev_py_reinstalls_when_either_file_changed(dev):
    dev.ensure_venv(dev.DEVELOPMENT)
    stamp = dev.STAMP.read_text()
    dev.STAMP.write_text(
        re.sub(r"^\w+ requirements-dev.txt$", "0 requirements-dev.txt", stamp, flags=re.M)
    )

    dev.ensure_venv(dev.RUNTIME)
    dev.ensure_venv(dev.DEVELOPMENT)

    assert dev.installs == [str(dev.DEVELOPMENT), str(dev.DEVELOPMENT)]


def release_rules():
    spec = importlib.util.spec_from_file_location("ci_version", ROOT / ".ci" / "version.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_version_follows_the_changelog():
    rules = release_rules()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text()

    assert rules.problems(version, changelog, rules.tag_exists(version)) == []


@pytest.mark.parametrize(
    ("version", "heading", "tagged", "wrong"),
    [
        ("0.3.0.dev0", "Unreleased", None, False),
        ("0.3.0rc1", "Unreleased", None, False),
        ("0.2.0", "Unreleased", None, True),  # main calling itself the last release
        ("0.2.0", "0.2.0 (2026-11-27)", True, False),
        ("0.2.0", "0.2.0 (2026-11-27)", False, True),  # a release without its tag
        ("0.3.0.dev0", "0.2.0 (2026-11-27)", None, True),
        ("0.2.1", "0.2.0 (2026-11-27)", True, True),
    ],
)
def test_a_version_is_a_tagged_release_or_says_it_is_none(version, heading, tagged, wrong):
    changelog = f"# Changes\n\nText.\n\n## {heading}\n\n- a change\n\n## 0.1.0 (2026-11-23)\n"

    assert bool(release_rules().problems(version, changelog, tagged)) == wrong


def test_each_release_tag_is_at_a_commit_of_that_version():
    tags = subprocess.run(
        ["git", "tag", "--list", "v*"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    rules = release_rules()

    for tag in tags:
        pyproject = subprocess.run(
            ["git", "show", f"{tag}:pyproject.toml"], cwd=ROOT, capture_output=True, text=True
        ).stdout
        assert tomllib.loads(pyproject)["project"]["version"] == tag[1:], tag
        changelog = subprocess.run(
            ["git", "show", f"{tag}:CHANGELOG.md"], cwd=ROOT, capture_output=True, text=True
        ).stdout
        if changelog:  # 0.1.0 had none yet
            assert rules.newest_heading(changelog).split()[0] == tag[1:], tag


def test_every_deployment_file_counts_the_proxy_in_front():
    assert "\nSKATLIGA_PROXY_COUNT=1\n" in (ROOT / "deploy" / "env.example").read_text()
    assert (
        "SKATLIGA_PROXY_COUNT: ${SKATLIGA_PROXY_COUNT:-1}"
        in (ROOT / "deploy" / "compose.yaml").read_text()
    )
    assert (
        "SKATLIGA_WORKERS: ${SKATLIGA_WORKERS:-3}" in (ROOT / "deploy" / "compose.yaml").read_text()
    )


def test_the_unit_reloads_by_hup_and_comes_back_after_any_crash():
    unit = (ROOT / "deploy" / "skatliga.service").read_text().splitlines()

    assert "ExecReload=/bin/kill -HUP $MAINPID" in unit
    assert "Restart=always" in unit  # kill -9 of the master included (test_reload.py)
    assert "CacheDirectory=skatliga" in unit


def test_the_operations_guide_runs_as_root_and_through_skatliga_manage():
    guide = (ROOT / "docs" / "operations.md").read_text()
    debian = guide[: guide.index("### In containers")] + guide[guide.index("## Settings") :]
    commands = [line for line in debian.splitlines() if "manage.py " in line]

    assert "sudo " not in guide
    assert not [line for line in commands if line.startswith((".venv", "runuser"))]
    assert "runuser -u skatliga -- git clone https://YOUR-GIT-HOST/skatliga.git" in guide
    assert "apt-get update\napt-get install" in guide
    assert "…" not in "".join(line for line in debian.splitlines() if "git clone" in line)

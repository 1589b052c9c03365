"""The engine is pure Python: no Django, and its doctests pass."""

import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import scoring

REPO = Path(__file__).resolve().parents[2]


def test_importing_scoring_loads_no_django():
    code = (
        "import sys, scoring\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(loaded)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout.strip()) == (0, "[]"), result.stderr


def scoring_modules():
    """scoring and every module below it, except the `python -m scoring` entry point
    (importing __main__ would run the command line)."""
    names = ["scoring"]
    names += [
        m.name
        for m in pkgutil.walk_packages(scoring.__path__, prefix="scoring.")
        if m.name.rsplit(".", 1)[-1] != "__main__"
    ]
    return names


@pytest.mark.parametrize("name", scoring_modules())
def test_doctests_pass(name):
    result = doctest.testmod(importlib.import_module(name), verbose=False, report=True)
    assert result.failed == 0


def test_the_engine_has_doctests():
    attempted = sum(
        doctest.testmod(importlib.import_module(name), verbose=False, report=False).attempted
        for name in scoring_modules()
    )
    assert attempted > 0

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]

Completed = subprocess.CompletedProcess[str]
RunManage = Callable[..., Completed]


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Start every test in the default language; requests activate others on this thread."""
    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture
def run_manage() -> RunManage:
    """Run manage.py in a fresh interpreter, with extra environment variables (None unsets)."""

    def run(*args: str, env: dict[str, str | None] | None = None) -> Completed:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("SKATLIGA_")}
        environment.pop("DJANGO_SETTINGS_MODULE", None)
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        return subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run

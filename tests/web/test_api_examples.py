"""docs/api.md's Python example, run as written against a live server."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from skatliga.models import Series
from tests.web.conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def example(language: str) -> str:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    found = re.search(rf"```{language}\n(.*?)```", text, re.S)
    assert found is not None
    return found.group(1)


def test_the_python_example_has_five_lines_and_prints_the_season_table(
    small_season, live_server, capsys
):
    Series.objects.update(published_at=timezone.now())
    code = example("python")
    assert len(code.splitlines()) == 5
    exec(code.replace("https://skat.example.org", live_server.url), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 12
    assert lines[0].split() == ["1.", "b1", "128"]
    assert lines[-1].split() == ["12.", "d2", "-104"]

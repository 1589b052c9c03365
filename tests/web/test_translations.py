import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale"
SOURCES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def catalog(mo: Path) -> dict[object, str]:
    with mo.open("rb") as file:
        return dict(gettext.GNUTranslations(file)._catalog)  # type: ignore[attr-defined]


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs msgfmt from gettext")
@pytest.mark.parametrize("po", SOURCES, ids=lambda po: po.relative_to(LOCALE).as_posix())
def test_compiled_catalog_matches_its_source(po, tmp_path):
    fresh = tmp_path / "fresh.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True)

    assert catalog(po.with_suffix(".mo")) == catalog(fresh), "run manage.py compilemessages"


def test_every_language_but_the_source_has_a_catalog():
    from django.conf import settings

    translated = {code for code, _ in settings.LANGUAGES} - {"de"}
    assert {po.parts[-3] for po in SOURCES} == translated


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs msgfmt from gettext")
@pytest.mark.parametrize("po", SOURCES, ids=lambda po: po.relative_to(LOCALE).as_posix())
def test_catalog_is_complete(po):
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "untranslated" not in checked.stderr
    assert "fuzzy" not in checked.stderr


MAKEMESSAGES_IGNORES = ("--ignore=.venv", "--ignore=tests", "--ignore=bench")


@pytest.mark.skipif(shutil.which("msgattrib") is None, reason="needs msgattrib from gettext")
def test_every_message_of_the_source_is_in_every_catalog(tmp_path):
    """makemessages, run on a copy of the sources as the README says, finds no message that
    a catalog lacks: a new string wrapped for translation fails here until every catalog
    has it, translated."""
    root = LOCALE.parent
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("manage.py", "pyproject.toml"):
        shutil.copy2(root / name, copy / name)
    for name in ("scoring", "skatliga", "templates", "locale"):
        shutil.copytree(root / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    languages = [f"-l{po.parts[-3]}" for po in SOURCES]
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", *languages, *MAKEMESSAGES_IGNORES],
        cwd=copy,
        check=True,
        capture_output=True,
        env={**os.environ, "DATABASE_URL": "sqlite://:memory:"},
    )
    missing = {}
    for po in SOURCES:
        refreshed = copy / po.relative_to(root)
        untranslated = subprocess.run(
            ["msgattrib", "--untranslated", "--no-obsolete", "--no-wrap", str(refreshed)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        fuzzy = subprocess.run(
            ["msgattrib", "--only-fuzzy", "--no-obsolete", "--no-wrap", str(refreshed)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        ids = [
            line.removeprefix("msgid ")
            for line in (untranslated + fuzzy).splitlines()
            if line.startswith('msgid "') and line != 'msgid ""'
        ]
        if ids:
            missing[po.parts[-3]] = ids
    assert not missing, "run makemessages and translate: " + repr(missing)

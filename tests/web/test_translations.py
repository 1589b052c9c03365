import gettext
import shutil
import subprocess
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

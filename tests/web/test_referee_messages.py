"""Every error code the engine, the services, the forms and the archive raise has words."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from skatliga.messages import MESSAGES, message

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(
    r'(?:Problem|ServiceError|CardError|coded_error|LineError|ShapeError)\(\s*"([a-z_]+)"'
    r'|self\.add\((?:[^(),]|\([^()]*\))+,\s*"([a-z_]+)"'
)


def raised_codes() -> set[str]:
    sources = [*(ROOT / "scoring").glob("*.py"), *(ROOT / "skatliga" / "services").glob("*.py")]
    sources += [*(ROOT / "skatliga" / "forms").glob("*.py")]
    sources += [*(ROOT / "skatliga" / "views").glob("*.py")]
    sources += [*(ROOT / "skatliga" / "archive").glob("*.py")]
    sources += [*(ROOT / "skatliga" / "league").glob("*.py")]
    found = (match for path in sources for match in RAISED.findall(path.read_text()))
    return {code for groups in found for code in groups if code} - CLI_ONLY


CLI_ONLY = {"invalid_json"}
"""Codes only the engine's command line uses; it has its own English messages."""


@pytest.mark.parametrize("code", sorted(raised_codes()))
def test_every_raised_code_has_a_message(code):
    assert code in MESSAGES


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_is_translated_to_english(code):
    with translation.override("de"):
        german = message(code)
    with translation.override("en"):
        english = message(code)

    assert english != german


def test_a_message_takes_its_parameters():
    with translation.override("en"):
        text = message("players_cannot_be_seated", players=5)

    assert text.startswith("5 players cannot be seated at tables of three and four")


def test_an_unknown_code_still_reads_as_an_error():
    with translation.override("en"):
        assert message("no_such_code") == "Error: no_such_code"

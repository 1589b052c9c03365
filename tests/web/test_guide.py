"""The referee's guide in five languages: one structure, the interface's own words."""

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
GUIDES = {
    "de": "guide.md",
    "en": "guide.en.md",
    "da": "guide.da.md",
    "sv": "guide.sv.md",
    "nl": "guide.nl.md",
}
NAMES = "Deutsch · English · Dansk · Svenska · Nederlands"
# Each translation quotes what the interface shows the way its own catalog quotes.
QUOTES = {"da": "„([^“]+)“", "sv": "”([^”]+)”", "nl": "„([^”]+)”"}
# Link text the templates print as it is, in every language; numbers (a matadors key) too.
UNTRANSLATED = {"PDF"}
# A value the page puts into a catalog text: a count or a clock time, or "…" for a name.
VALUE = r"(?:\d+(?::\d\d)?|…)"


def text(language: str) -> str:
    return (DOCS / GUIDES[language]).read_text()


def sections(guide: str) -> list[str]:
    return re.findall(r"^## (.+)$", guide, flags=re.MULTILINE)


def images(guide: str) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)]+)\)", guide)


def labels(guide: str) -> list[str]:
    """The italic labels (buttons, links, pages), a path like *A → B.* as its parts."""
    plain = re.sub(r"\*\*[^*]+\*\*", "", guide)
    found = []
    for span in re.findall(r"\*([^*]+)\*", plain):
        found += [" ".join(part.split()).rstrip(".") for part in span.split("→")]
    return found


def quotes(guide: str, language: str) -> list[str]:
    return [" ".join(found.split()) for found in re.findall(QUOTES[language], guide)]


def shown(language: str) -> set[str]:
    """Every text the language's catalog gives the interface, plural forms included."""
    with (ROOT / "locale" / language / "LC_MESSAGES" / "django.mo").open("rb") as file:
        catalog = gettext.GNUTranslations(file)._catalog  # type: ignore[attr-defined]
    return {value for value in catalog.values() if value}


def on_screen(quoted: str, catalog: set[str]) -> bool:
    """A catalog text, a value standing for each placeholder (``%(name)s`` or the scripts'
    ``__N__``); parts joined by ': ' each one."""
    patterns = [
        re.compile(re.sub(r"%\\\(\w+\\\)[sd]|__N__", lambda _: VALUE, re.escape(entry)))
        for entry in catalog
        if "%(" in entry or "__N__" in entry
    ]

    def one(part: str) -> bool:
        return part in catalog or any(pattern.fullmatch(part) for pattern in patterns)

    return one(quoted) or all(one(part) for part in quoted.split(": "))


@pytest.mark.parametrize("language", GUIDES)
def test_every_guide_links_all_five(language):
    guide = text(language)
    line = next(row for row in guide.splitlines() if row.startswith(("[Deutsch]", "**Deutsch**")))

    assert re.sub(r"\[([^\]]+)\]\([^)]+\)|\*\*", r"\1", line) == NAMES
    assert set(re.findall(r"\]\(([^)]+)\)", line)) == set(GUIDES.values()) - {GUIDES[language]}


@pytest.mark.parametrize("language", GUIDES)
def test_every_guide_has_the_german_sections_and_pictures(language):
    german, guide = text("de"), text(language)

    assert len(sections(guide)) == len(sections(german))
    assert [image for image in images(guide) if image in images(german)] == images(german)
    assert all((DOCS / image).is_file() for image in images(guide))


@pytest.mark.parametrize("language", QUOTES)
def test_a_guide_quotes_the_interface_in_its_own_language(language):
    guide, catalog = text(language), shown(language)
    quoted = {
        words
        for words in set(labels(guide) + quotes(guide, language)) - UNTRANSLATED
        if not words.isdigit()
    }

    assert len(labels(guide)) == len(labels(text("de")))
    assert sorted(words for words in quoted if not on_screen(words, catalog)) == []

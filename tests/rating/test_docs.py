"""docs/rating.md in the guide's five languages: one structure, and the parameters it states
are those the site rates with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skatliga.rating.model import PARAMETERS

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = {
    "de": "rating.md",
    "en": "rating.en.md",
    "da": "rating.da.md",
    "sv": "rating.sv.md",
    "nl": "rating.nl.md",
}


def text(language: str) -> str:
    return (DOCS / PAGES[language]).read_text(encoding="utf-8")


@pytest.mark.parametrize("language", PAGES)
def test_every_page_links_all_five_and_has_the_german_sections(language):
    page = text(language)
    line = next(row for row in page.splitlines() if row.startswith(("[Deutsch]", "**Deutsch**")))
    assert all(name in line for name in PAGES.values() if name != PAGES[language])
    sections = re.findall(r"^## (\d+)\.", page, flags=re.MULTILINE)
    assert sections == re.findall(r"^## (\d+)\.", text("de"), flags=re.MULTILINE)


@pytest.mark.parametrize("language", PAGES)
def test_every_page_states_the_parameters_the_site_rates_with(language):
    page = text(language)
    rows = {name: value.strip() for name, value in re.findall(r"\(`(\w+)`\) \| ([^|]+) \|", page)}
    assert set(rows) == {
        "mu",
        "sigma",
        "beta",
        "tau",
        "k",
        "provisional_lists",
        "idle_sigma_per_year",
    }
    assert float(rows["mu"]) == PARAMETERS.mu
    assert rows["sigma"].startswith("25/3") and PARAMETERS.sigma == 25 / 3
    assert rows["beta"].startswith("25/3") and PARAMETERS.beta == 25 / 3
    assert rows["tau"] == "25/300" and PARAMETERS.tau == 25 / 300
    assert float(rows["k"]) == PARAMETERS.k
    assert rows["provisional_lists"].split()[0] == str(PARAMETERS.provisional_lists)
    assert float(rows["idle_sigma_per_year"]) == PARAMETERS.idle_sigma_per_year
    assert "σ' = min(25/3, √(σ² + 2² · d / 365))" in page

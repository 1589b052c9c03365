"""The roster's CSV import has a column for "initials only", named in the heading in any of
the site's languages, or fourth without a heading."""

from __future__ import annotations

import pytest

from skatliga.services import rosters


def flags(report) -> list[tuple[str, bool]]:
    return [(p.name, p.initials_only) for p in report.created]


def test_the_fourth_column_says_initials_only(db):
    report = rosters.import_roster(
        "Anna Schmidt; SC Altenburg; 0815; ja\nBernd Kuhn; SC Altenburg; 0816; nein\n"
        "Carla Weiß;;;x\nDieter Krüger\n"
    )

    assert flags(report) == [
        ("Anna Schmidt", True),
        ("Bernd Kuhn", False),
        ("Carla Weiß", True),
        ("Dieter Krüger", False),
    ]


@pytest.mark.parametrize(
    "heading",
    [
        "Name; Verein; Nummer; nur Initialen",
        "Player; Club; Number; Initials only",
        "Navn; Klub; Medlemsnummer; Kun initialer",
        "Namn; Klubb; Medlemsnummer; Bara initialer",
        "Naam; Vereniging; Lidnummer; Alleen initialen",
    ],
)
def test_a_heading_in_any_language_names_the_column(db, heading):
    report = rosters.import_roster(f"{heading}\nAnna Schmidt; SC Altenburg; 0815; yes\n")

    assert flags(report) == [("Anna Schmidt", True)]
    assert report.problems == []


def test_the_heading_gives_the_columns_order(db):
    report = rosters.import_roster("Name; Initialen; Verein\nAnna Schmidt; ja; SC Altenburg\n")

    (anna,) = report.created
    assert (anna.initials_only, anna.club.name) == (True, "SC Altenburg")


def test_an_unknown_value_is_refused_with_its_line(db):
    report = rosters.import_roster("Anna Schmidt; SC Altenburg; 0815; vielleicht\n")

    assert report.created == []
    assert report.problems == [(1, "roster_initials_invalid")]

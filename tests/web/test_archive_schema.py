"""docs/archive-schema.json (JSON Schema 2020-12) against every archive the tests and the
benchmarks use, against every export, and against the engine's closed sets."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator

import scoring
from bench.league import SIZES as LEAGUE_SIZES
from bench.league import documents, roster
from skatliga.archive import ArchiveError, dump_archive, load_archive
from skatliga.models import Tournament
from tests.web.conftest import ROOT
from tests.web.test_archive import example, random_document
from tests.web.test_rule_options import HOUSE, house_document

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((ROOT / "docs" / "archive-schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

SYSTEMS = [s.value for s in scoring.ListSystem]
RANDOM = [
    (rules, system)
    for rules, system in itertools.product(scoring.RULE_SETS, SYSTEMS)
    if not scoring.check_table(3, scoring.ListSystem(system), scoring.get_rules(rules))
]


def problems(document: object) -> list[str]:
    return [
        f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}"
        for error in VALIDATOR.iter_errors(document)
    ]


def test_the_schema_is_a_valid_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_names_the_engines_presets_options_and_games():
    defs = SCHEMA["$defs"]
    assert defs["preset"]["enum"] == list(scoring.RULE_SETS)
    options = defs["rule_options"]["properties"]
    assert set(options) == {"preset", *scoring.OPTION_CHOICES, "null_values"}
    for name, choices in scoring.OPTION_CHOICES.items():
        if name == "ramsch":
            assert options[name] == {"type": "boolean"}
        else:
            assert options[name]["enum"] == [
                c.value if hasattr(c, "value") else c for c in choices
            ], name
    assert defs["declared_game"]["properties"]["game"]["enum"] == [
        g.value for g in scoring.GameType
    ]
    assert SCHEMA["properties"]["tournament"]["$ref"] == "#/$defs/tournament"
    assert defs["tournament"]["properties"]["scoring"]["enum"] == SYSTEMS


def test_the_documented_example_is_valid():
    assert problems(example()) == []


@pytest.mark.parametrize(("rules", "system"), RANDOM)
def test_random_documents_and_their_exports_are_valid(rules, system):
    document = random_document(3, rules=rules, scoring_system=system)
    assert problems(document) == []
    assert problems(dump_archive(load_archive(document))) == []


@pytest.mark.parametrize("preset", list(HOUSE))
def test_house_rule_documents_with_supra_ramsch_and_5_tables_and_their_exports_are_valid(preset):
    document = house_document(preset, seed=len(preset))
    assert problems(document) == []
    exported = dump_archive(load_archive(document))
    assert isinstance(exported["tournament"]["rules"], dict)
    assert problems(exported) == []


def test_the_benchmark_league_documents_are_valid():
    rng = random.Random(1)
    size = LEAGUE_SIZES["small"]
    teams = roster(rng, size.teams)
    checked = 0
    for _, _, document in itertools.islice(documents(size, teams, rng), 3):
        assert problems(document) == []
        checked += 1
    assert checked == 3


def test_the_export_of_the_hand_computed_season_is_valid(small_season):
    assert problems(dump_archive(Tournament.objects.get())) == []


def test_the_export_command_writes_a_valid_document(small_season, capfdbinary):
    call_command("export_archive", "spieltag-1")
    assert problems(json.loads(capfdbinary.readouterr().out.decode("utf-8"))) == []


@pytest.mark.parametrize(
    ("edit", "path"),
    [
        (lambda d: d["tournament"].update(rules="skat"), "tournament/rules"),
        (
            lambda d: d["tournament"].update(rules={"preset": "se", "supra": True}),
            "tournament/rules",
        ),
        (lambda d: d["players"][0].update(nickname="A"), "players/0"),
        (
            lambda d: d["series"][0]["tables"][0]["seats"].extend(["a", "b"]),
            "series/0/tables/0/seats",
        ),
        (
            lambda d: d["series"][0]["tables"][0]["games"].append({"ramsch": {"card_points": [1]}}),
            "series/0/tables/0/games/5",
        ),
        (
            lambda d: d["series"][0]["tables"][0]["games"].append({"passed": True, "bid": 18}),
            "series/0/tables/0/games/5",
        ),
        (
            lambda d: d["series"][0]["tables"][0]["games"][0].update(matadors=0),
            "series/0/tables/0/games/0",
        ),
        (lambda d: d.pop("format"), ""),
        (
            lambda d: d["series"][0]["tables"][0]["games"][0].pop("declarer"),
            "series/0/tables/0/games/0",
        ),
    ],
)
def test_the_schema_refuses_what_the_import_refuses(edit, path):
    document = example()
    edit(document)
    found = problems(document)
    assert found and all(p.startswith(path) for p in found), found


def test_the_import_refuses_what_the_schema_requires():
    for edit, path in (
        (lambda d: d.pop("format"), "format"),
        (lambda d: d["series"][0]["tables"][0]["games"][0].pop("declarer"), "declarer"),
    ):
        document = example()
        edit(document)
        with pytest.raises(ArchiveError) as refused:
            load_archive(document)
        assert any(p.path.endswith(path) for p in refused.value.problems)

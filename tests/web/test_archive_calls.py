"""An archive carries a tournament's start time, address and objection window, each series'
window, and the tables' calls and objections: an export and its import give them back."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from skatliga import services
from skatliga.archive import ArchiveError, dump_archive, load_archive
from skatliga.models import Objection, RefereeCall, Series
from tests.web.test_archive import example, random_document


def facts(tournament):
    """What the round trip must keep, without ids."""
    series = Series.objects.filter(tournament=tournament).order_by("number")
    return {
        "tournament": (tournament.starts_at, tournament.address, tournament.objection_minutes),
        "windows": [s.objections_until for s in series],
        "calls": [
            (c.table.number, c.reason, c.device, c.created_at, c.acknowledged_at)
            for c in RefereeCall.objects.filter(table__series__tournament=tournament).order_by(
                "created_at", "id"
            )
        ],
        "objections": [
            (
                o.game.table.number,
                o.game.number,
                o.seat.position,
                o.reason,
                o.device,
                o.created_at,
                o.decided_at,
                o.decision,
                o.decision_reason,
            )
            for o in Objection.objects.filter(game__table__series__tournament=tournament).order_by(
                "created_at", "id"
            )
        ],
    }


def at_second(moment: datetime.datetime) -> datetime.datetime:
    return moment.replace(microsecond=0)


@pytest.fixture
def finished(db):
    """Two series of complete lists, imported (finished, so published), with a start time,
    an address, a window, two calls and two objections at series 1's table 1."""
    tournament = load_archive(random_document(7, rounds=1))
    tournament.starts_at = datetime.time(18, 30)
    tournament.address = "Am Markt 3, 04600 Altenburg"
    tournament.objection_minutes = 15
    tournament.save()
    until = at_second(timezone.now() + datetime.timedelta(minutes=15))
    Series.objects.filter(tournament=tournament).update(objections_until=until)
    table = tournament.series.get(number=1).tables.get(number=1)
    seen = services.call_referee(table, "rule", device="Tisch 1 Tablet")
    services.acknowledge_call(seen)
    services.call_referee(table, "device", device="Tisch 1 Tablet")
    game = table.games.get(number=1)
    decided = services.file_objection(
        game, table.seats.get(position=3), "Falsch gezählt", device="Handy"
    )
    services.decide_objection(decided, reason="Augen nachgezählt: 78")
    services.file_objection(table.games.get(number=2), table.seats.get(position=2), "Null?")
    # The archive keeps moments to the second.
    for model in (RefereeCall, Objection):
        for row in model.objects.all():
            fields = {"created_at": at_second(row.created_at)}
            if model is RefereeCall and row.acknowledged_at:
                fields["acknowledged_at"] = at_second(row.acknowledged_at)
            if model is Objection and row.decided_at:
                fields["decided_at"] = at_second(row.decided_at)
            model.objects.filter(pk=row.pk).update(**fields)
    tournament.refresh_from_db()
    return tournament


def test_export_and_import_keep_start_address_window_calls_and_objections(finished):
    document = dump_archive(finished)

    again = load_archive(document)

    before, after = facts(finished), facts(again)
    assert before["tournament"] == (datetime.time(18, 30), "Am Markt 3, 04600 Altenburg", 15)
    assert len(before["calls"]) == 2 and len(before["objections"]) == 2
    assert after == before


def test_the_export_writes_them_in_the_documented_keys(finished):
    document = dump_archive(finished)

    head = document["tournament"]
    assert (head["starts_at"], head["objection_minutes"]) == ("18:30", 15)
    assert all(s["objections_until"].endswith("+00:00") for s in document["series"])
    table = document["series"][0]["tables"][0]
    assert [c["reason"] for c in table["calls"]] == ["rule", "device"]
    assert "acknowledged_at" in table["calls"][0] and "acknowledged_at" not in table["calls"][1]
    decided, open_one = table["objections"]
    assert (decided["game"], decided["seat"], decided["decision"]) == (1, 3, "kept")
    assert "decision" not in open_one


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["tournament"].update(starts_at="18.30"), "tournament.starts_at"),
        (lambda d: d["tournament"].update(objection_minutes=500), "tournament.objection_minutes"),
        (lambda d: d["series"][0].update(objections_until="morgen"), "series[0].objections_until"),
        (
            lambda d: d["series"][0]["tables"][0].update(
                objections=[{"game": 99, "seat": 1, "reason": "x", "at": "2026-11-21T20:00Z"}]
            ),
            "series[0].tables[0].objections[0].game",
        ),
        (
            lambda d: d["series"][0]["tables"][0].update(
                calls=[
                    {"reason": "rule", "at": "2026-11-21T20:00:00+00:00"},
                    {"reason": "device", "at": "2026-11-21T20:05:00+00:00"},
                ]
            ),
            "series[0].tables[0].calls[1].acknowledged_at",
        ),
    ],
)
def test_bad_values_are_refused_with_their_path(db, change, path):
    document = example()
    change(document)

    with pytest.raises(ArchiveError) as error:
        load_archive(document)

    assert path in [problem.path for problem in error.value.problems]


def test_the_export_with_calls_and_objections_is_valid_by_the_schema(finished):
    from tests.web.test_archive_schema import problems

    document = json.loads(json.dumps(dump_archive(finished)))

    assert problems(document) == []
    open_call = document["series"][0]["tables"][0]["calls"][1]
    open_call["acknowledged_at"] = "später"
    assert problems(document) != []

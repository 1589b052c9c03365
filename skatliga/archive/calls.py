"""What an archive carries of a list beside its games: the table's calls to the referee and
its seats' objections with the referee's decisions (``models.calls``), and the moments they
hold; read, checked and dumped here (docs/archive-format.md)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from skatliga.archive.document import Checks, path_of
from skatliga.models import Objection, RefereeCall

CALL_KEYS = ("reason", "device", "at", "acknowledged_at")
OBJECTION_KEYS = (
    "game",
    "seat",
    "reason",
    "device",
    "at",
    "decided_at",
    "decision",
    "decision_reason",
)


@dataclass(frozen=True, slots=True)
class ReadCall:
    reason: str
    device: str
    at: datetime.datetime
    acknowledged_at: datetime.datetime | None


@dataclass(frozen=True, slots=True)
class ReadObjection:
    game: int
    seat: int
    reason: str
    device: str
    at: datetime.datetime
    decided_at: datetime.datetime | None
    decision: str
    decision_reason: str


def moment_json(moment: datetime.datetime | None) -> str | None:
    """A moment as the archive writes it: ISO 8601 in UTC, to the second."""
    if moment is None:
        return None
    return moment.astimezone(datetime.UTC).isoformat(timespec="seconds")


def read_moment(checks: Checks, data: Mapping[str, Any], key: str, path: str) -> Any:
    """``data[key]`` as an aware moment; None where it is missing, ``False`` where it is bad
    (its problem added)."""
    value = data.get(key)
    if value is None:
        return None
    moment = None
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.datetime.fromisoformat(value)
        except ValueError:
            moment = None
    if moment is None or timezone.is_naive(moment):
        checks.add(path_of(path, key), "invalid_moment", value=value)
        return False
    return moment


def read_calls(checks: Checks, table: Mapping[str, Any], path: str) -> list[ReadCall]:
    """A table's optional ``calls``: a reason, the device, when, and when the referee saw it;
    at most one not seen yet."""
    calls: list[ReadCall] = []
    for index, item in enumerate(checks.list(table, "calls", path) or []):
        item_path = f"{path}.calls[{index}]"
        data = checks.object(item, item_path, CALL_KEYS, ("reason", "at"))
        if data is None:
            continue
        reason = checks.choice(
            data, "reason", item_path, RefereeCall.Reason.values, "unknown_call_reason"
        )
        device = checks.text(data, "device", item_path, 60) or ""
        at = read_moment(checks, data, "at", item_path)
        seen = read_moment(checks, data, "acknowledged_at", item_path)
        if reason is None or not at or seen is False:
            continue
        if seen is None and any(call.acknowledged_at is None for call in calls):
            checks.add(path_of(item_path, "acknowledged_at"), "call_open_twice")
            continue
        calls.append(ReadCall(reason, device, at, seen))
    return calls


def read_objections(
    checks: Checks, table: Mapping[str, Any], path: str, seats: int, games: int
) -> list[ReadObjection]:
    """A table's optional ``objections``: a seat's objection to one of the list's ``games``,
    when, and the referee's decision (both ``decided_at`` and ``decision``, or neither); one
    undecided objection per game and seat."""
    objections: list[ReadObjection] = []
    for index, item in enumerate(checks.list(table, "objections", path) or []):
        item_path = f"{path}.objections[{index}]"
        data = checks.object(item, item_path, OBJECTION_KEYS, ("game", "seat", "reason", "at"))
        if data is None:
            continue
        game = checks.integer(data, "game", item_path, 1, max(games, 1), "objection_game_unknown")
        seat = checks.integer(data, "seat", item_path, 1, max(seats, 1), "substitute_seat_invalid")
        reason = checks.text(data, "reason", item_path, 200, required=True)
        device = checks.text(data, "device", item_path, 60) or ""
        at = read_moment(checks, data, "at", item_path)
        decided = read_moment(checks, data, "decided_at", item_path)
        decision = checks.choice(
            data, "decision", item_path, Objection.Decision.values, "objection_decision_invalid"
        )
        if (decided is None) != (data.get("decision") is None):
            checks.add(path_of(item_path, "decision"), "objection_decision_invalid")
            continue
        text = checks.text(data, "decision_reason", item_path, 2000, clean=False) or ""
        if game is None or seat is None or reason is None or not at or decided is False:
            continue
        if decided is None and any(
            o.game == game and o.seat == seat and o.decided_at is None for o in objections
        ):
            checks.add(item_path, "objection_open_twice")
            continue
        objections.append(
            ReadObjection(game, seat, reason, device, at, decided, decision or "", text)
        )
    return objections


def dump_calls(calls: Sequence[RefereeCall]) -> list[dict[str, Any]]:
    dumped = []
    for call in calls:
        data: dict[str, Any] = {"reason": call.reason}
        if call.device:
            data["device"] = call.device
        data["at"] = moment_json(call.created_at)
        if call.acknowledged_at is not None:
            data["acknowledged_at"] = moment_json(call.acknowledged_at)
        dumped.append(data)
    return dumped


def dump_objections(objections: Sequence[Objection], numbers: Mapping[int, int]) -> list[Any]:
    """The objections of one table; ``numbers`` gives each game's number by its id."""
    dumped = []
    for objection in objections:
        data: dict[str, Any] = {
            "game": numbers[objection.game_id],
            "seat": objection.seat.position,
            "reason": objection.reason,
        }
        if objection.device:
            data["device"] = objection.device
        data["at"] = moment_json(objection.created_at)
        if objection.decided_at is not None:
            data["decided_at"] = moment_json(objection.decided_at)
            data["decision"] = objection.decision
            if objection.decision_reason:
                data["decision_reason"] = objection.decision_reason
        dumped.append(data)
    return dumped

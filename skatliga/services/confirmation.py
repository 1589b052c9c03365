"""Confirming a list: the players' signatures at the table, the second entry under double
entry and its comparison with the list, and closing the list.

A list is *signed* when every seated player has signed it; any change to its games deletes
the signatures (:func:`~skatliga.services.games.clear_signatures`). A list *kept at the
table* (a game entered through its table link) closes without a reason only when signed;
under double entry a list closes only when its second entry agrees with it row by row, or
the referee picked one version of each differing row (:func:`pick_entry`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from skatliga import revisions
from skatliga.models import Change, Game, GameRow, SecondEntry, Signature, Table
from skatliga.models.limits import hit, hits
from skatliga.services.common import ServiceError, User, acting_user, log_at_table
from skatliga.services.games import (
    GameEntry,
    apply_entry,
    lock_table,
    record_game,
    row_to_write,
    score_entry,
)
from skatliga.services.rating import rate_list

GAME_ACTIONS = (
    Change.Action.GAME_RECORDED,
    Change.Action.GAME_CORRECTED,
    Change.Action.GAME_DELETED,
)


def list_state(table: Table) -> int:
    """A number that changes with every change to the list's games (the latest such change):
    a player signs the state they saw."""
    return int(
        table.changes.filter(action__in=GAME_ACTIONS).aggregate(state=Max("id"))["state"] or 0
    )


def kept_at_table(table: Table) -> bool:
    """Whether a game of the list was entered or corrected through its table link."""
    return table.changes.filter(action__in=GAME_ACTIONS).exclude(device="").exists()


# --- signatures ------------------------------------------------------------------------------


# Wrong seat codes: a device that typed this many for one seat in the hour may try that
# seat's code again only once a minute. The limit is the device's, never the seat's: the right
# code typed on any other device always signs (docs/security.md, "Signatures").
WRONG_SEAT_CODES_PER_HOUR = 5
SEAT_CODE_PAUSE = 60


def sign_list(
    table: Table,
    position: int,
    *,
    state: int,
    device: str = "",
    user: User = None,
    substitute: bool = False,
    code: str | None = None,
    by_referee: bool = False,
    tries_from: str = "",
) -> Signature:
    """The player in seat ``position`` (or, with ``substitute``, the substitute who took it
    over) confirms the complete list as it was in ``state`` (:func:`list_state`); signing
    twice keeps the first signature.

    Where the tournament asks for seat codes (``Tournament.seat_codes``) the signer types
    ``code``, his seat's code (``Seat.sign_code``, a substitute's ``Seat.substitute_code``);
    spaces do not matter. ``tries_from`` names the device typing it (the table page's
    browser session): wrong codes are counted per seat and device. ``by_referee``: the
    referee (``user``) confirms the signature for the player, no code needed. The signature
    records how it was made (``Signature.Method``).

    Refused: a missing code (``seat_code_missing``), a wrong one (``seat_code_wrong``) and,
    from a device that typed :data:`WRONG_SEAT_CODES_PER_HOUR` wrong ones for the seat in
    the hour, any code within :data:`SEAT_CODE_PAUSE` seconds of its last wrong one
    (``seat_code_limited``); a closed list (``list_closed``), an incomplete one
    (``list_incomplete``), a seat nobody sits in or without a substitute (``seat_unknown``)
    and a list changed since (``list_changed``).
    """
    if by_referee:
        method = Signature.Method.REFEREE
    elif table.series.tournament.seat_codes:
        # Outside the signature's transaction: a wrong code counts even though it is refused.
        _check_code(table, position, substitute, code or "", tries_from)
        method = Signature.Method.CODE
    else:
        method = Signature.Method.DEVICE
    return _sign(
        table,
        position,
        state=state,
        device=device,
        user=user,
        substitute=substitute,
        method=method,
    )


def _check_code(table: Table, position: int, substitute: bool, typed: str, device: str) -> None:
    """Refuse a missing or wrong code for the signer of seat ``position``; a wrong one counts
    for the seat and ``device`` (``models.limits``). A device over the limit waits a minute
    after each wrong code before its next is looked at: a guesser is slowed, while the
    seat's player signs with the right code on any other device at once, and on this one
    within the minute."""
    seat = table.seats.filter(position=position).first()
    if seat is None:
        raise ServiceError("seat_unknown", "position")
    key = f"seat-code:{table.pk}:{position}:{int(substitute)}:{device}"
    if hits(key, 3600)[0] >= WRONG_SEAT_CODES_PER_HOUR:
        recent, left = hits(key, SEAT_CODE_PAUSE)
        if recent:
            raise ServiceError("seat_code_limited", "code", seconds=left)
    code = "".join(typed.split())
    if not code:
        raise ServiceError("seat_code_missing", "code")
    expected = seat.substitute_code if substitute else seat.sign_code
    if secrets.compare_digest(code.encode(), expected.encode()):
        return
    hit(key, 3600)
    hit(key, SEAT_CODE_PAUSE)
    raise ServiceError("seat_code_wrong", "code")


@transaction.atomic
def _sign(
    table: Table,
    position: int,
    *,
    state: int,
    device: str,
    user: User,
    substitute: bool,
    method: Signature.Method,
) -> Signature:
    table = lock_table(table)
    tournament = table.series.tournament
    if table.is_closed:
        raise ServiceError("list_closed")
    expected = tournament.games_per_list(table.size)
    if table.games.count() != expected:
        raise ServiceError("list_incomplete", expected=expected)
    seat = table.seats.select_related("player", "substitute").filter(position=position).first()
    if seat is None or (substitute and seat.substitute is None):
        raise ServiceError("seat_unknown", "position")
    if list_state(table) != state:
        raise ServiceError("list_changed")
    mine = Signature.objects.filter(table=table, position=position, substitute=substitute)
    existing = mine.first()
    if existing is not None:
        return existing
    signature = Signature.objects.create(
        table=table, position=position, device=device, substitute=substitute, method=method
    )
    log_at_table(
        table,
        user=user,
        action=Change.Action.LIST_SIGNED,
        after={
            "seat": position,
            "player": str(seat.substitute if substitute else seat.player),
            "signed_with": method.value,
        },
        device=device,
    )
    revisions.touch(tournament)
    return signature


# --- double entry ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difference:
    """Row ``number`` as the list has it (``first``) and as the second entry has it, each as
    the archive writes a game (None: not entered)."""

    number: int
    first: dict[str, Any] | None
    second: dict[str, Any] | None


def entry_json(row: GameRow) -> dict[str, Any]:
    """What a row declares and its outcome, without who entered it when."""
    return GameEntry.from_game(row).to_json()


def compare(
    first: Mapping[int, dict[str, Any]], second: Mapping[int, dict[str, Any]], games: int
) -> list[Difference]:
    """The rows 1..``games`` (and any beyond) where the two entries differ.

    >>> compare({1: {"passed": True}, 2: {"passed": True}}, {1: {"passed": True}}, 3)
    [Difference(number=2, first={'passed': True}, second=None)]
    """
    numbers = range(1, max(games, *first, *second, 0) + 1)
    return [
        Difference(number, first.get(number), second.get(number))
        for number in numbers
        if first.get(number) != second.get(number)
    ]


def differences(table: Table) -> list[Difference]:
    """Where the list and its second entry differ, row by row (declaration and outcome)."""
    games = table.series.tournament.games_per_list(table.size)
    return compare(
        {game.number: entry_json(game) for game in table.games.all()},
        {row.number: entry_json(row) for row in table.second_entries.all()},
        games,
    )


def differing_numbers(
    tables: Iterable[Table], games: Iterable[Game], seconds: Iterable[SecondEntry], expected: Any
) -> dict[int, list[int]]:
    """Per table id, the numbers of the rows that differ; ``expected(table)`` is its number
    of games. Two queries' rows in, no query out."""
    first: dict[int, dict[int, dict[str, Any]]] = {}
    second: dict[int, dict[int, dict[str, Any]]] = {}
    for game in games:
        first.setdefault(game.table_id, {})[game.number] = entry_json(game)
    for row in seconds:
        second.setdefault(row.table_id, {})[row.number] = entry_json(row)
    return {
        table.pk: [
            d.number
            for d in compare(first.get(table.pk, {}), second.get(table.pk, {}), expected(table))
        ]
        for table in tables
    }


@transaction.atomic
def record_second_entry(
    table: Table,
    number: int,
    entry: GameEntry,
    *,
    user: User = None,
    expected_version: int | None = None,
    device: str = "",
) -> SecondEntry:
    """Enter row ``number`` of the list's second entry, or correct it, checked by the same
    engine as the list (:func:`~skatliga.services.games.score_entry`).

    Refused: a tournament without double entry (``double_entry_off``), a closed list, a row
    number out of range or after a gap, and a row changed meanwhile (:class:`Conflict`).
    """
    table = lock_table(table)
    tournament = table.series.tournament
    if not tournament.double_entry:
        raise ServiceError("double_entry_off")
    if table.is_closed:
        raise ServiceError("list_closed")
    rows = {row.number: row for row in SecondEntry.objects.filter(table=table)}
    existing = row_to_write(rows, number, expected_version, tournament.games_per_list(table.size))
    score_entry(entry, number, table.size, tournament.rule_set)
    before = entry_json(existing) if existing else None
    row = _write_second_entry(table, number, existing, entry, user=user, device=device)
    log_at_table(
        table,
        user=user,
        game_number=number,
        action=Change.Action.SECOND_ENTRY,
        before=before,
        after=entry.to_json(),
        device=device,
    )
    revisions.touch(tournament)
    return row


def _write_second_entry(
    table: Table,
    number: int,
    existing: SecondEntry | None,
    entry: GameEntry,
    *,
    user: User,
    device: str,
) -> SecondEntry:
    """Row ``number`` of the second entry set to ``entry``: a new row, or the next version
    of ``existing``."""
    row = existing or SecondEntry(table=table, number=number)
    apply_entry(row, entry)
    row.updated_by = acting_user(user)
    row.device = device
    if existing is not None:
        row.version += 1
    row.save()
    return row


@transaction.atomic
def pick_entry(
    table: Table,
    number: int,
    choice: str,
    *,
    reason: str,
    user: User = None,
) -> None:
    """Settle a differing row: keep the list's version (``choice`` "first"; the second
    entry takes it over) or the second entry's ("second": saved into the list through
    ``record_game``), with a ``reason``. Both entries of the row agree afterwards."""
    if choice not in ("first", "second"):
        raise ServiceError("entry_choice_invalid", "choice")
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    table = lock_table(table)
    tournament = table.series.tournament
    if not tournament.double_entry:
        raise ServiceError("double_entry_off")
    if table.is_closed:
        raise ServiceError("list_closed")
    game = Game.objects.filter(table=table, number=number).first()
    second = SecondEntry.objects.filter(table=table, number=number).first()
    before = {
        "first": entry_json(game) if game else None,
        "second": entry_json(second) if second else None,
    }
    if choice == "second":
        if second is None:
            raise ServiceError("second_entry_missing", "choice")
        record_game(
            table,
            number,
            GameEntry.from_game(second),
            user=user,
            expected_version=game.version if game else None,
            reason=reason.strip(),
        )
    else:
        if game is None:
            raise ServiceError("first_entry_missing", "choice")
        _write_second_entry(
            table,
            number,
            second,
            GameEntry.from_game(game),
            user=user,
            device=second.device if second else "",
        )
    log_at_table(
        table,
        user=user,
        game_number=number,
        action=Change.Action.ENTRY_PICKED,
        before=before,
        after={"picked": choice},
        reason=reason.strip(),
    )
    revisions.touch(tournament)


# --- closing ---------------------------------------------------------------------------------


@transaction.atomic
def close_table(table: Table, *, user: User = None, reason: str = "") -> Table:
    """Close a complete list: every game of the series recorded.

    Under double entry the second entry must agree row by row (``entries_differ``, with the
    row numbers). A list kept at the table that not every seated player signed needs a
    ``reason`` (``unsigned_reason_required``), stored with the change.
    """
    table = lock_table(table)
    tournament = table.series.tournament
    if table.is_closed:
        raise ServiceError("list_closed")
    expected = tournament.games_per_list(table.size)
    if table.games.count() != expected:
        raise ServiceError("list_incomplete", expected=expected)
    if tournament.double_entry:
        differing = differences(table)
        if differing:
            games = ", ".join(str(d.number) for d in differing)
            raise ServiceError("entries_differ", "entries", games=games)
    after = None
    if kept_at_table(table):
        signed = Signature.objects.filter(table=table).count()
        signers = table.size + table.seats.exclude(substitute=None).count()
        after = {"signed": signed, "seats": signers}
        if signed < signers and not reason.strip():
            raise ServiceError("unsigned_reason_required", "reason", signed=signed, seats=signers)
    table.closed_at = timezone.now()
    table.closed_by = acting_user(user)
    table.save(update_fields=["closed_at", "closed_by"])
    log_at_table(
        table,
        user=user,
        action=Change.Action.LIST_CLOSED,
        after=after,
        reason=reason.strip(),
    )
    revisions.touch(tournament)
    rate_list(table)
    return table

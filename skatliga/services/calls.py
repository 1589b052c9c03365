"""What a table asks of the referee: calling the referee to the table, and objections
(Einspruch) against a game of its list, which the referee decides.

A call or an objection raises the tournament's revision: the referee's dashboard and the
table's device ask for it by that revision."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from skatliga import revisions
from skatliga.models import Change, Game, Objection, RefereeCall, Seat, Table
from skatliga.services.common import ServiceError, User, acting_user, log_at_table
from skatliga.services.games import GameEntry, lock_table, record_game

REASON_LENGTH = 200
"""The longest reason a seat may give for an objection."""


@transaction.atomic
def call_referee(table: Table, reason: str, *, device: str = "") -> RefereeCall:
    """Call the referee to ``table`` for ``reason`` (``RefereeCall.Reason``); while a call
    of the table is open, calling again returns that call."""
    if reason not in RefereeCall.Reason.values:
        raise ServiceError("call_reason_unknown", "reason")
    table = lock_table(table)
    call = RefereeCall.objects.filter(table=table, acknowledged_at__isnull=True).first()
    if call is not None:
        return call
    call = RefereeCall.objects.create(table=table, reason=reason, device=device)
    revisions.touch(table.series.tournament)
    return call


@transaction.atomic
def acknowledge_call(call: RefereeCall, *, user: User = None) -> RefereeCall:
    """The referee saw the call: it leaves the dashboard and the table sees it was seen."""
    lock_table(call.table)
    call = RefereeCall.objects.select_related("table__series__tournament").get(pk=call.pk)
    if call.acknowledged_at is not None:
        return call
    call.acknowledged_at = timezone.now()
    call.acknowledged_by = acting_user(user)
    call.save(update_fields=["acknowledged_at", "acknowledged_by"])
    revisions.touch(call.table.series.tournament)
    return call


@transaction.atomic
def file_objection(game: Game, seat: Seat, reason: str, *, device: str = "") -> Objection:
    """``seat`` objects to ``game`` of its own table's list, giving a short ``reason``.

    Refused: a seat of another table (``seat_not_at_table``), no reason
    (``reason_required``) or a longer one than :data:`REASON_LENGTH`
    (``objection_reason_too_long``), and after the series' objection window
    (``objection_window_closed``). The seat's open objection to the game is returned
    again rather than filed twice."""
    if seat.table_id != game.table_id:
        raise ServiceError("seat_not_at_table", "seat")
    reason = reason.strip()
    if not reason:
        raise ServiceError("reason_required", "reason")
    if len(reason) > REASON_LENGTH:
        raise ServiceError("objection_reason_too_long", "reason", most=REASON_LENGTH)
    table = lock_table(game.table)
    if not table.series.objections_open(timezone.now()):
        raise ServiceError("objection_window_closed")
    game = Game.objects.get(pk=game.pk)
    objection = Objection.objects.filter(game=game, seat=seat, decided_at__isnull=True).first()
    if objection is not None:
        return objection
    objection = Objection.objects.create(game=game, seat=seat, reason=reason, device=device)
    log_at_table(
        table,
        game_number=game.number,
        action=Change.Action.OBJECTION_FILED,
        after={"seat": seat.position, "player": str(seat.player_for(game.number))},
        reason=reason,
        device=device,
    )
    revisions.touch(table.series.tournament)
    return objection


@transaction.atomic
def decide_objection(
    objection: Objection,
    *,
    reason: str,
    user: User = None,
    correction: GameEntry | None = None,
    expected_version: int | None = None,
    signatures_confirmed: bool = True,
) -> Objection:
    """The referee decides ``objection``, giving a ``reason``: the game stands, or, with a
    ``correction``, the game is corrected through :func:`record_game` (its change logged as
    every correction is) and ``objection.game`` is the saved row.

    Refused: a decided objection (``objection_decided``), no reason (``reason_required``);
    a correction as :func:`record_game` refuses it (a closed list: ``list_closed``; a row
    changed meanwhile: :class:`~skatliga.services.Conflict`)."""
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    objection = Objection.objects.select_related("game__table", "seat").get(pk=objection.pk)
    table = lock_table(objection.game.table)
    objection = Objection.objects.select_for_update().get(pk=objection.pk)
    if objection.decided_at is not None:
        raise ServiceError("objection_decided")
    game = Game.objects.get(pk=objection.game_id)
    if correction is not None:
        game = record_game(
            table,
            game.number,
            correction,
            user=user,
            expected_version=expected_version,
            reason=reason.strip(),
            signatures_confirmed=signatures_confirmed,
        )
    objection.game = game
    objection.decision = (
        Objection.Decision.KEPT if correction is None else Objection.Decision.CORRECTED
    )
    objection.decision_reason = reason.strip()
    objection.decided_at = timezone.now()
    objection.decided_by = acting_user(user)
    objection.save(update_fields=["decision", "decision_reason", "decided_at", "decided_by"])
    log_at_table(
        table,
        user=user,
        game_number=game.number,
        action=Change.Action.OBJECTION_DECIDED,
        after={"seat": objection.seat.position, "decision": objection.decision},
        reason=objection.decision_reason,
    )
    revisions.touch(table.series.tournament)
    return objection

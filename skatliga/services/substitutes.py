"""A player who leaves during a list, and the substitute the referee appoints (SkWO 4.4).

The list stays valid. The player who left keeps the seat's games before the substitute's
first game, the substitute has the games from it on; both count for the team of the player
who left (``docs/rules.md`` section 10.7, :func:`~skatliga.services.games.result_lines`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from skatliga import revisions
from skatliga.models import Change, ListResult, Player, Seat, Table
from skatliga.services.common import ServiceError, User, log_at_table
from skatliga.services.games import lock_table, recompute_results
from skatliga.services.seating import find_or_create_player


def _sitting(seat: Seat) -> dict[str, Any] | None:
    if seat.substitute is None:
        return None
    return {
        "seat": seat.position,
        "player": {"id": seat.player_id, "name": seat.player.name},
        "substitute": {"id": seat.substitute.pk, "name": seat.substitute.name},
        "from_game": seat.substitute_from,
    }


def _lock(table: Table, position: int | None) -> tuple[Table, Seat]:
    table = lock_table(table)
    if table.is_closed:
        raise ServiceError("list_closed", "seat")
    if position is None:
        raise ServiceError("seat_invalid", "seat")
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("player", "substitute")
        .filter(table=table, position=position)
        .first()
    )
    if seat is None:
        raise ServiceError("seat_invalid", "seat")
    return table, seat


@transaction.atomic
def appoint_substitute(
    table: Table,
    position: int | None,
    from_game: int | None,
    *,
    player: Player | None = None,
    name: str = "",
    club: str = "",
    user: User = None,
    reason: str = "",
) -> Seat:
    """The player at seat ``position`` left: ``player`` (or the roster's player ``name`` of
    ``club``, created if unknown) plays his seat from game ``from_game`` on.

    Appointing again corrects the seat's substitute. Refused, each at its field: a closed
    list (``list_closed``, seat), a seat not at the table (``seat_invalid``), no player
    (``substitute_missing``), one who sits at a table of the series or substitutes there
    already (``substitute_seated``), a game outside 2 … the list's last
    (``substitute_game_out_of_range``), a name too long (``name_too_long``).
    """
    table, seat = _lock(table, position)
    tournament = table.series.tournament
    last = tournament.games_per_list(table.size)
    if from_game is None or not 2 <= from_game <= last:
        raise ServiceError("substitute_game_out_of_range", "from_game", last=last)
    if player is None and name.strip():
        player = find_or_create_player(name, club)
    if player is None:
        raise ServiceError("substitute_missing", "player")
    seated = Seat.objects.filter(series=table.series, player=player).select_related("table").first()
    elsewhere = (
        Seat.objects.filter(series=table.series, substitute=player)
        .exclude(pk=seat.pk)
        .select_related("table")
        .first()
    )
    taken = seated or elsewhere
    if taken is not None:
        raise ServiceError(
            "substitute_seated", "player", player=player.name, table=taken.table.number
        )
    before = _sitting(seat)
    if seat.substitute_id not in (None, player.pk):
        ListResult.objects.filter(table=table, player_id=seat.substitute_id).delete()
    seat.substitute, seat.substitute_from = player, from_game
    seat.save(update_fields=["substitute", "substitute_from"])
    recompute_results(table)
    log_at_table(
        table,
        user=user,
        game_number=from_game,
        action=Change.Action.SUBSTITUTE_APPOINTED,
        before=before,
        after=_sitting(seat),
        reason=reason.strip(),
    )
    revisions.touch(tournament)
    return seat


@transaction.atomic
def remove_substitute(
    table: Table, position: int | None, *, user: User = None, reason: str = ""
) -> Seat:
    """Undo a substitute while the list is open: the seat's player has the whole list again."""
    table, seat = _lock(table, position)
    if seat.substitute is None:
        raise ServiceError("substitute_missing", "seat")
    before = _sitting(seat)
    ListResult.objects.filter(table=table, player=seat.substitute).delete()
    seat.substitute, seat.substitute_from = None, None
    seat.save(update_fields=["substitute", "substitute_from"])
    recompute_results(table)
    log_at_table(
        table,
        user=user,
        action=Change.Action.SUBSTITUTE_REMOVED,
        before=before,
        reason=reason.strip(),
    )
    revisions.touch(table.series.tournament)
    return seat

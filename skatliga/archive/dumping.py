"""Dumping a tournament as an archive document, with the ``computed`` numbers an export adds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import scoring
from skatliga.archive.calls import dump_calls, dump_objections, moment_json
from skatliga.archive.document import BATCH, COMPUTED, FORMAT
from skatliga.models import (
    Game,
    ListResult,
    Objection,
    Player,
    RefereeCall,
    Registration,
    Seat,
    Table,
    Tournament,
)
from skatliga.services import GameEntry


def dump_archive(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a ``skatliga-archive/1`` document, with ``computed`` numbers added.

    Players get the ids ``p1``, ``p2``, ... in the order they are first seated (series,
    table, seat), then the registered players not seated, by name, then the substitutes who
    are neither (a table's optional ``substitutes``).
    """
    seats = list(
        Seat.objects.filter(series__tournament=tournament)
        .select_related("player__club", "substitute__club")
        .order_by("series__number", "table__number", "position")
    )
    registrations = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club")
        .order_by("player__name", "player_id")
    )
    ids: dict[int, str] = {}
    players: list[dict[str, Any]] = []
    for player in [seat.player for seat in seats] + [r.player for r in registrations]:
        if player.pk not in ids:
            ids[player.pk] = f"p{len(ids) + 1}"
            players.append(_player_json(ids[player.pk], player))

    for seat in seats:
        if seat.substitute is not None and seat.substitute.pk not in ids:
            ids[seat.substitute.pk] = f"p{len(ids) + 1}"
            players.append(_player_json(ids[seat.substitute.pk], seat.substitute))

    seated: dict[int, list[str]] = defaultdict(list)
    substitutes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat in seats:
        seated[seat.table_id].append(ids[seat.player_id])
        if seat.substitute_id is not None:
            substitutes[seat.table_id].append(
                {
                    "seat": seat.position,
                    "player": ids[seat.substitute_id],
                    "from_game": seat.substitute_from,
                }
            )
    results: dict[int, dict[str, Any]] = defaultdict(dict)
    for result in ListResult.objects.filter(tournament=tournament).order_by("table_id", "position"):
        results[result.table_id][ids[result.player_id]] = {
            "game_points": result.game_points,
            "won": result.won,
            "lost": result.lost,
            "others_lost": result.others_lost,
            "bonus": result.bonus,
            "total": result.total,
        }
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in (
        Game.objects.filter(table__series__tournament=tournament)
        .order_by("table_id", "number")
        .iterator(chunk_size=BATCH)
    ):
        games[game.table_id].append(game_json(game, seated[game.table_id]))
    calls: dict[int, list[RefereeCall]] = defaultdict(list)
    for call in RefereeCall.objects.filter(table__series__tournament=tournament):
        calls[call.table_id].append(call)
    objections: dict[int, list[Objection]] = defaultdict(list)
    numbers: dict[int, int] = {}
    for objection in Objection.objects.filter(
        game__table__series__tournament=tournament
    ).select_related("game", "seat"):
        objections[objection.game.table_id].append(objection)
        numbers[objection.game_id] = objection.game.number
    tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in Table.objects.filter(series__tournament=tournament).order_by("number"):
        listed: dict[str, Any] = {"number": table.number, "seats": seated[table.pk]}
        if substitutes[table.pk]:
            listed["substitutes"] = substitutes[table.pk]
        if calls[table.pk]:
            listed["calls"] = dump_calls(calls[table.pk])
        if objections[table.pk]:
            listed["objections"] = dump_objections(objections[table.pk], numbers)
        tables[table.series_id].append(
            listed | {"games": games[table.pk], COMPUTED: results[table.pk]}
        )
    head: dict[str, Any] = {"name": tournament.name, "date": tournament.date.isoformat()}
    if tournament.starts_at is not None:
        head["starts_at"] = tournament.starts_at.isoformat(timespec="minutes")
    if tournament.venue:
        head["venue"] = tournament.venue
    if tournament.address:
        head["address"] = tournament.address
    head |= {
        "rules": scoring.rules_to_json(tournament.rule_set),
        "scoring": tournament.scoring,
        "rounds_per_series": tournament.rounds_per_series,
    }
    if tournament.objection_minutes:
        head["objection_minutes"] = tournament.objection_minutes
    return {
        "format": FORMAT,
        "tournament": head,
        "players": players,
        "series": [
            {"number": series.number}
            | (
                {"objections_until": moment_json(series.objections_until)}
                if series.objections_until is not None
                else {}
            )
            | {"tables": tables[series.pk]}
            for series in tournament.series.order_by("number")
        ],
    }


def _player_json(player_id: str, player: Player) -> dict[str, Any]:
    data = {"id": player_id, "name": player.name}
    if player.club is not None:
        data["club"] = player.club.name
    if player.number:
        data["number"] = player.number
    return data


def game_json(game: Game, seats: Sequence[object]) -> dict[str, Any]:
    """A stored game as the archive writes it, ``declarer`` taken from ``seats`` (the ids of the
    players in seat order), with the engine's ``computed`` numbers of a declared game."""
    entry = GameEntry.from_game(game)
    data = scoring.game_to_json(entry.ramsch or entry.declaration, entry.outcome)
    if game.declarer is None or entry.ramsch is not None:
        return data
    return {
        "declarer": seats[game.declarer - 1],
        **data,
        COMPUTED: {
            "value": game.value,
            "won": game.won,
            "overbid": game.overbid,
            "list_score": game.list_score,
        },
    }

"""A list's result rows: one per player who sat in it, with the six result figures of
``models.RESULT_FIGURES``, written at every change to the list and read by every standing.

Two statements are written by hand, both on the save's path (``services.games``), where
compiling the ORM's query cost more than running it (PostgreSQL, the bench's medium season):
who sits where with his team (:func:`table_sittings`, one join by the table's key), and the
rows' upsert (:func:`upsert_results`, ``INSERT … ON CONFLICT … DO UPDATE``, which
``bulk_create(update_conflicts=True)`` writes the same, compiled per call). The save's other
reads and writes go through the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

import scoring
from skatliga.models import RESULT_FIGURES, Game, ListResult, Registration, Seat, Table


def _quote(name: str) -> str:
    return str(connection.ops.quote_name(name))


def _column(model: type[Seat] | type[Registration] | type[ListResult], name: str) -> str:
    return _quote(str(model._meta.get_field(name).column))  # type: ignore[union-attr]


def list_row(
    number: int, declarer: int | None, scored: scoring.Entry, table_size: int
) -> scoring.ListRow:
    """Row ``number`` of a list as the engine sums it (``declarer`` is a 1-based seat)."""
    return scoring.ListRow(
        scored,
        None if declarer is None else declarer - 1,
        scoring.dealer_seat(number, table_size),
    )


def summarize(
    scored_games: Iterable[tuple[Game, scoring.Entry]],
    table_size: int,
    system: scoring.ListSystem,
    rules: scoring.RuleSet = scoring.ISKO,
) -> tuple[scoring.ListSummary, ...]:
    """The summary rows of a list from its scored games."""
    return scoring.summarize_list(
        [list_row(game.number, game.declarer, scored, table_size) for game, scored in scored_games],
        table_size,
        system,
        rules,
    )


@dataclass(frozen=True, slots=True)
class Sitting:
    """Who sat at one seat of a list: the player, and the substitute who took the seat over
    from game ``substitute_from`` on (SkWO 4.4), if one did. Players are ids."""

    position: int
    player: int
    team: int | None = None
    substitute: int | None = None
    substitute_from: int | None = None

    @classmethod
    def of(cls, seat: Seat, team: int | None = None) -> Sitting:
        return cls(seat.position, seat.player_id, team, seat.substitute_id, seat.substitute_from)


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One player's figures of one list: his seat, his team, his summary rows."""

    position: int
    player: int
    team: int | None
    summary: scoring.ListSummary


def result_lines(
    rows: Sequence[scoring.ListRow],
    sittings: Sequence[Sitting],
    table_size: int,
    system: scoring.ListSystem,
    rules: scoring.RuleSet = scoring.ISKO,
) -> list[ResultLine]:
    """Every player's summary rows of a list whose ``rows`` are games 1, 2, … in order.

    A seat without a substitute has the whole list. Where a substitute took a seat over from
    game k on, the player who left has that seat's figures of games 1 … k−1 and the
    substitute those of games k … to the end, each with the bonuses of the games he sat in
    (the others' lost games too); both count for the team of the player who left
    (``docs/rules.md`` section 10.7). The other seats keep the whole list.
    """
    whole = scoring.summarize_list(rows, table_size, system, rules)
    halves: dict[int, tuple[tuple[scoring.ListSummary, ...], ...]] = {}
    lines = []
    for sitting in sittings:
        index = sitting.position - 1
        if sitting.substitute is None or sitting.substitute_from is None:
            lines.append(ResultLine(sitting.position, sitting.player, sitting.team, whole[index]))
            continue
        first = sitting.substitute_from
        if first not in halves:
            halves[first] = tuple(
                scoring.summarize_list(part, table_size, system, rules)
                for part in (rows[: first - 1], rows[first - 1 :])
            )
        before, after = halves[first]
        lines += [
            ResultLine(sitting.position, sitting.player, sitting.team, before[index]),
            ResultLine(sitting.position, sitting.substitute, sitting.team, after[index]),
        ]
    return lines


def upsert_results(results: Sequence[ListResult]) -> None:
    """Insert the result rows, or update the figures, team and seat of those there already:
    ``ListResult.objects.bulk_create(results, update_conflicts=True, …)`` as one statement;
    the rows' ids stay as they were."""
    if not results:
        return
    fields = [field for field in ListResult._meta.concrete_fields if not field.primary_key]
    values = "(" + ", ".join(["%s"] * len(fields)) + ")"
    updated = [_column(ListResult, name) for name in (*RESULT_FIGURES, "team", "position")]
    sql = (
        f"INSERT INTO {_quote(ListResult._meta.db_table)} "
        f"({', '.join(_quote(str(field.column)) for field in fields)}) "
        f"VALUES {', '.join([values] * len(results))} "
        f"ON CONFLICT ({_column(ListResult, 'table')}, {_column(ListResult, 'player')}) "
        "DO UPDATE SET " + ", ".join(f"{name} = EXCLUDED.{name}" for name in updated)
    )
    params = [
        field.get_db_prep_save(getattr(row, field.attname), connection)
        for row in results
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def table_sittings(table: Table) -> list[Sitting]:
    """Who sits where at ``table``, by position, each with the team he is registered for in
    its tournament (None: none). One statement, without the query compiler."""
    column = _column
    # (tournament, player) is unique among registrations: at most one row joins each seat.
    sql = (
        f"SELECT s.{column(Seat, 'position')}, s.{column(Seat, 'player')}, "
        f"r.{column(Registration, 'team')}, s.{column(Seat, 'substitute')}, "
        f"s.{column(Seat, 'substitute_from')} "
        f"FROM {_quote(Seat._meta.db_table)} s LEFT JOIN {_quote(Registration._meta.db_table)} r "
        f"ON r.{column(Registration, 'tournament')} = %s "
        f"AND r.{column(Registration, 'player')} = s.{column(Seat, 'player')} "
        f"WHERE s.{column(Seat, 'table')} = %s ORDER BY s.{column(Seat, 'position')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.series.tournament_id, table.pk])
        return [Sitting(*row) for row in cursor.fetchall()]


def table_results(
    table: Table,
    scored_games: Sequence[tuple[Game, scoring.Entry]],
    sittings: Sequence[Sitting],
) -> list[ListResult]:
    """Unsaved result rows of one list from its scored games (1, 2, … in order) and who sat
    where (:func:`result_rows`)."""
    tournament = table.series.tournament
    where = {
        "table_id": table.pk,
        "series_id": table.series_id,
        "tournament_id": tournament.pk,
        "season_id": tournament.season_id,
    }
    games = [(game.number, game.declarer, scored) for game, scored in scored_games]
    rows = result_rows(
        where, games, sittings, table.size, tournament.list_system, tournament.rule_set
    )
    return [ListResult(**row) for row in rows]


def result_rows(
    where: Mapping[str, int | None],
    games: Iterable[tuple[int, int | None, scoring.Entry]],
    sittings: Sequence[Sitting],
    table_size: int,
    system: scoring.ListSystem,
    rules: scoring.RuleSet,
) -> list[dict[str, Any]]:
    """A list's result rows, as :class:`ListResult`'s attributes: one per player who sat in
    it (:func:`result_lines`) with the six :data:`RESULT_FIGURES`, each with ``where`` (the
    ids of its table, series, tournament and season). ``games`` are (number, declarer seat,
    verdict) of games 1, 2, … in order. The save and the archive import both write these."""
    rows = [list_row(number, declarer, scored, table_size) for number, declarer, scored in games]
    return [
        {
            **where,
            "player_id": line.player,
            "team_id": line.team,
            "position": line.position,
            **{name: getattr(line.summary, name) for name in RESULT_FIGURES},
        }
        for line in result_lines(rows, sittings, table_size, system, rules)
    ]

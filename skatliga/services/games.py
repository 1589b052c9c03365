"""Rows of a list: enter, correct and delete games, close and reopen lists, and write each
list's result rows from the engine's summary."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

import scoring
from skatliga import revisions
from skatliga.models import (
    Change,
    Game,
    ListResult,
    Registration,
    Table,
    Tournament,
)
from skatliga.services.common import Conflict, ServiceError, User, acting_user

# --- games -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    """One row as entered: passed in (no declaration), a Ramsch, or a declaration, outcome
    and declarer.

    ``declarer`` is the seat position, 1-based.
    """

    declarer: int | None = None
    declaration: scoring.Declaration | None = None
    outcome: scoring.Outcome | None = None
    ramsch: scoring.Ramsch | None = None

    @property
    def passed(self) -> bool:
        return self.declaration is None and self.ramsch is None

    @classmethod
    def from_game(cls, game: Game) -> GameEntry:
        if game.passed:
            return cls()
        if game.ramsch is not None:
            data = game.ramsch
            return cls(ramsch=scoring.Ramsch(tuple(data["card_points"]), tuple(data["tricks"])))
        return cls(
            declarer=game.declarer,
            declaration=scoring.Declaration(
                game=scoring.GameType(game.game),
                bid=game.bid or 0,
                matadors=game.matadors,
                hand=game.hand,
                schneider_announced=game.schneider_announced,
                schwarz_announced=game.schwarz_announced,
                ouvert=game.ouvert,
                kontra=game.kontra,
                re=game.re,
                supra=game.supra,
                resupra=game.resupra,
            ),
            outcome=scoring.Outcome(
                card_points=game.card_points,
                tricks=game.tricks,
                won=game.won_flag,
                schneider=game.schneider_flag,
                schwarz=game.schwarz_flag,
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """The archive's game object, with the declarer as a seat position."""
        data = scoring.game_to_json(self.ramsch or self.declaration, self.outcome)
        if self.declarer is not None:
            data = {"declarer_seat": self.declarer, **data}
        return data


def score_entry(
    entry: GameEntry, number: int, table_size: int, rules: scoring.RuleSet
) -> scoring.Entry:
    """The engine's verdict on one row; raises ServiceError with every problem found."""
    if entry.ramsch is not None:
        problems = [
            scoring.Problem(p.code, f"ramsch_{p.field}") for p in scoring.check_ramsch(entry.ramsch)
        ]
        if not rules.ramsch:
            problems.insert(0, scoring.Problem("ramsch_not_in_rules", "ramsch"))
        if problems:
            raise ServiceError(problems[0].code, problems[0].field, problems)
        return scoring.score_ramsch(entry.ramsch)
    if entry.declaration is None:
        return None
    problems = []
    if entry.declarer is None:
        problems.append(scoring.Problem("declarer_missing", "declarer"))
    else:
        problems += scoring.check_seat(
            entry.declarer - 1, scoring.dealer_seat(number, table_size), table_size, rules
        )
    try:
        scored = scoring.score_game(entry.declaration, entry.outcome or scoring.Outcome(), rules)
    except scoring.InvalidGame as invalid:
        problems += invalid.problems
        scored = None
    if problems or scored is None:
        raise ServiceError(problems[0].code, problems[0].field, problems)
    return scored


def _apply(game: Game, entry: GameEntry, scored: scoring.Entry) -> None:
    d, o = entry.declaration, entry.outcome or scoring.Outcome()
    r = entry.ramsch
    game.ramsch = (
        None if r is None else {"card_points": list(r.card_points), "tricks": list(r.tricks)}
    )
    game.passed = entry.passed
    game.declarer = entry.declarer if d is not None else None
    game.game = str(d.game) if d else ""
    game.bid = d.bid if d else None
    game.matadors = d.matadors if d else None
    for flag in scoring.shape.FLAGS:
        setattr(game, flag, bool(d and getattr(d, flag)))
    game.card_points = o.card_points if d else None
    game.tricks = o.tricks if d else None
    game.won_flag = o.won if d else None
    game.schneider_flag = o.schneider if d else None
    game.schwarz_flag = o.schwarz if d else None
    derive(game, scored)


DERIVED = ("won", "overbid", "value", "list_score", "opponents_list_score")
"""The fields of a game that the engine's verdict sets."""


def derive(game: Game, scored: scoring.Entry) -> None:
    """Set the :data:`DERIVED` fields of ``game`` from the engine's verdict (None: passed in;
    a Ramsch has no declarer and so none of these)."""
    if isinstance(scored, scoring.RamschScore):
        scored = None
    game.won = bool(scored and scored.won)
    game.overbid = bool(scored and scored.overbid)
    game.value = scored.value if scored else 0
    game.list_score = scored.list_score if scored else 0
    game.opponents_list_score = scored.opponents_list_score if scored else 0


def new_game(table: Table, number: int, entry: GameEntry, scored: scoring.Entry) -> Game:
    """An unsaved row ``number`` of ``table`` for ``entry`` and the engine's verdict."""
    game = Game(table=table, number=number, table_size=table.size)
    _apply(game, entry, scored)
    return game


def _lock_table(table: Table) -> Table:
    return Table.objects.select_for_update().select_related("series__tournament").get(pk=table.pk)


@transaction.atomic
def record_game(
    table: Table,
    number: int,
    entry: GameEntry,
    *,
    user: User = None,
    expected_version: int | None = None,
    reason: str = "",
    device: str = "",
) -> Game:
    """Enter row ``number`` of a list, or correct it; the list's result rows follow.

    ``device`` names the device at the table when the row comes through a table link.

    Turning a declared game into a passed-in one needs a ``reason`` (``reason_required``).

    ``expected_version`` is the version of the row the user saw (None: a new row). If the
    row changed meanwhile, :class:`Conflict` carries the current row and nothing is saved.
    """
    table = _lock_table(table)
    tournament = table.series.tournament
    if table.is_closed:
        raise ServiceError("list_closed")
    if not 1 <= number <= tournament.games_per_list(table.size):
        raise ServiceError("game_number_invalid", "number")
    games = {game.number: game for game in Game.objects.filter(table=table)}
    existing = games.get(number)
    if existing is None and expected_version is not None:
        raise Conflict(None)
    if existing is not None and existing.version != expected_version:
        raise Conflict(existing)
    if existing is None and number > 1 and number - 1 not in games:
        raise ServiceError("game_number_gap", "number")
    if existing is not None and not existing.passed and entry.passed and not reason.strip():
        # A declared game that becomes passed in loses its whole row: like reopening a
        # list, that takes a reason.
        raise ServiceError("reason_required", "reason")
    scored = score_entry(entry, number, table.size, tournament.rule_set)

    game = existing or Game(table=table, number=number, table_size=table.size)
    before = GameEntry.from_game(existing).to_json() if existing else None
    _apply(game, entry, scored)
    game.updated_by = acting_user(user)
    if existing is not None:
        game.version += 1
    game.save()
    games[number] = game
    recompute_results(table, games.values())
    Change.objects.create(
        user=acting_user(user),
        tournament=tournament,
        series=table.series,
        table=table,
        game_number=number,
        action=Change.Action.GAME_CORRECTED if existing else Change.Action.GAME_RECORDED,
        before=before,
        after=entry.to_json(),
        reason=reason,
        device=device,
    )
    if tournament.status == Tournament.Status.PLANNED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    revisions.touch(tournament)
    return game


@transaction.atomic
def delete_last_game(
    table: Table, number: int, *, user: User = None, expected_version: int, reason: str = ""
) -> None:
    """Remove the last row of an open list (a row entered by mistake), giving a ``reason``."""
    table = _lock_table(table)
    if table.is_closed:
        raise ServiceError("list_closed")
    game = Game.objects.filter(table=table).order_by("-number").first()
    if game is None or game.number != number:
        raise ServiceError("only_last_game_deleted", "number")
    if game.version != expected_version:
        raise Conflict(game)
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    before = GameEntry.from_game(game).to_json()
    game.delete()
    recompute_results(table)
    Change.objects.create(
        user=acting_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        game_number=number,
        action=Change.Action.GAME_DELETED,
        before=before,
        reason=reason,
    )
    revisions.touch(table.series.tournament)


def list_rows(
    games: Iterable[Game], table_size: int, rules: scoring.RuleSet
) -> list[tuple[Game, scoring.Entry]]:
    """Each stored game with the engine's verdict on it."""
    return [
        (game, score_entry(GameEntry.from_game(game), game.number, table_size, rules))
        for game in games
    ]


def summarize(
    scored_games: Iterable[tuple[Game, scoring.Entry]],
    table_size: int,
    system: scoring.ListSystem,
    rules: scoring.RuleSet = scoring.ISKO,
) -> tuple[scoring.ListSummary, ...]:
    """The summary rows of a list from its scored games."""
    return scoring.summarize_list(
        [
            scoring.ListRow(
                scored,
                None if game.declarer is None else game.declarer - 1,
                scoring.dealer_seat(game.number, table_size),
            )
            for game, scored in scored_games
        ],
        table_size,
        system,
        rules,
    )


def recompute_results(table: Table, games: Iterable[Game] | None = None) -> list[ListResult]:
    """Write the per-player result rows of one list from its games (read unless given).

    One statement inserts the rows or updates those there already; a player who left the
    table (:func:`~skatliga.services.seating.swap_seats`) has his row deleted there.
    """
    tournament = table.series.tournament
    seats = list(
        table.seats.order_by("position").annotate(
            team_id=Subquery(
                Registration.objects.filter(
                    tournament=tournament, player=OuterRef("player_id")
                ).values("team_id")[:1]
            )
        )
    )
    if games is None:
        games = table.games.all()
    rows = list_rows(sorted(games, key=lambda game: game.number), table.size, tournament.rule_set)
    summaries = summarize(rows, table.size, tournament.list_system, tournament.rule_set)
    teams = {seat.player_id: seat.team_id for seat in seats}
    results = list_results(table, [seat.player_id for seat in seats], teams, summaries)
    ListResult.objects.bulk_create(
        results,
        update_conflicts=True,
        unique_fields=["table", "player"],
        update_fields=[*RESULT_FIGURES, "team", "position"],
    )
    return results


RESULT_FIGURES = ("game_points", "won", "lost", "others_lost", "bonus", "total")
"""The figures of a result row that follow every change to its list."""


def list_results(
    table: Table,
    players: Sequence[int],
    teams: Mapping[int, int | None],
    summaries: Sequence[scoring.ListSummary],
) -> list[ListResult]:
    """Unsaved result rows of one list.

    ``players`` are the player ids in seat order; ``teams`` maps a player id to the id of
    the team he plays for.
    """
    series = table.series
    tournament = series.tournament
    return [
        ListResult(
            table=table,
            series=series,
            tournament=tournament,
            season_id=tournament.season_id,
            player_id=player_id,
            team_id=teams.get(player_id),
            position=position,
            game_points=s.game_points,
            won=s.won,
            lost=s.lost,
            others_lost=s.others_lost,
            bonus=s.bonus,
            total=s.total,
        )
        for position, (player_id, s) in enumerate(zip(players, summaries, strict=True), start=1)
    ]


# --- lists -----------------------------------------------------------------------------------


@transaction.atomic
def close_table(table: Table, *, user: User = None) -> Table:
    """Close a complete list: every game of the series recorded."""
    table = _lock_table(table)
    if table.is_closed:
        raise ServiceError("list_closed")
    expected = table.series.tournament.games_per_list(table.size)
    if table.games.count() != expected:
        raise ServiceError("list_incomplete", expected=expected)
    table.closed_at = timezone.now()
    table.closed_by = acting_user(user)
    table.save(update_fields=["closed_at", "closed_by"])
    Change.objects.create(
        user=acting_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        action=Change.Action.LIST_CLOSED,
    )
    revisions.touch(table.series.tournament)
    return table


@transaction.atomic
def reopen_table(table: Table, *, user: User = None, reason: str) -> Table:
    """Reopen a closed list for corrections; a reason is required."""
    table = _lock_table(table)
    if not table.is_closed:
        raise ServiceError("list_not_closed")
    if table.series.is_published:
        raise ServiceError("series_published")
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    table.closed_at = None
    table.closed_by = None
    table.save(update_fields=["closed_at", "closed_by"])
    Change.objects.create(
        user=acting_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        action=Change.Action.LIST_REOPENED,
        reason=reason.strip(),
    )
    revisions.touch(table.series.tournament)
    return table

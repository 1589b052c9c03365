"""Rows of a list: enter, correct and delete games, close and reopen lists, and write each
list's result rows from the engine's summary."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import Exists, OuterRef

import scoring
from skatliga import revisions
from skatliga.models import (
    Change,
    Game,
    GameRow,
    ListResult,
    Seat,
    SecondEntry,
    Signature,
    Table,
    Tournament,
)
from skatliga.services.common import (
    Conflict,
    ServiceError,
    User,
    acting_user,
    lock_tournament,
    log_at_table,
)
from skatliga.services.rating import rate_list
from skatliga.services.results import table_results, table_sittings, upsert_results

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
    def from_game(cls, game: GameRow) -> GameEntry:
        if game.passed:
            return cls()
        if game.ramsch is not None:
            data = game.ramsch
            return cls(ramsch=scoring.Ramsch(tuple(data["card_points"]), tuple(data["tricks"])))
        return cls(
            declarer=game.declarer,
            declaration=scoring.Declaration(
                game=scoring.GameType(game.game),
                bid=game.bid,
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


def apply_entry(game: GameRow, entry: GameEntry) -> None:
    """Write what ``entry`` says into the row's fields (a game or a second entry)."""
    for name, value in entry_values(entry).items():
        setattr(game, name, value)


def _apply(game: Game, entry: GameEntry, scored: scoring.Entry) -> None:
    for name, value in game_values(entry, scored).items():
        setattr(game, name, value)


def game_values(entry: GameEntry, scored: scoring.Entry) -> dict[str, Any]:
    """The fields of a game row that ``entry`` and the engine's verdict set, by name."""
    values = entry_values(entry)
    values.update(_derived(scored))
    return values


_NOT_DECLARED: dict[str, Any] = {
    "declarer": None,
    "game": "",
    "bid": None,
    "matadors": None,
    "card_points": None,
    "tricks": None,
    "won_flag": None,
    "schneider_flag": None,
    "schwarz_flag": None,
    **dict.fromkeys(scoring.shape.FLAGS, False),
}
"""The fields of a row without a declaration (passed in, or a Ramsch)."""
_NO_OUTCOME = scoring.Outcome()


def entry_values(entry: GameEntry) -> dict[str, Any]:
    """The fields of a row (a game or a second entry) that ``entry`` says, by name."""
    d, r = entry.declaration, entry.ramsch
    values: dict[str, Any] = {
        "ramsch": (
            None if r is None else {"card_points": list(r.card_points), "tricks": list(r.tricks)}
        ),
        "passed": entry.passed,
    }
    if d is None:
        values.update(_NOT_DECLARED)
        return values
    o = entry.outcome or _NO_OUTCOME
    values.update(
        declarer=entry.declarer,
        game=str(d.game),
        bid=d.bid,
        matadors=d.matadors,
        card_points=o.card_points,
        tricks=o.tricks,
        won_flag=o.won,
        schneider_flag=o.schneider,
        schwarz_flag=o.schwarz,
    )
    values.update({flag: bool(getattr(d, flag)) for flag in scoring.shape.FLAGS})
    return values


DERIVED = ("won", "overbid", "value", "list_score", "opponents_list_score")
"""The fields of a game that the engine's verdict sets."""


def derive(game: Game, scored: scoring.Entry) -> None:
    """Set the :data:`DERIVED` fields of ``game`` from the engine's verdict (None: passed in;
    a Ramsch has no declarer and so none of these)."""
    for name, value in _derived(scored).items():
        setattr(game, name, value)


def _derived(scored: scoring.Entry) -> dict[str, Any]:
    if isinstance(scored, scoring.RamschScore):
        scored = None
    return {
        "won": bool(scored and scored.won),
        "overbid": bool(scored and scored.overbid),
        "value": scored.value if scored else 0,
        "list_score": scored.list_score if scored else 0,
        "opponents_list_score": scored.opponents_list_score if scored else 0,
    }


def new_game(table: Table, number: int, entry: GameEntry, scored: scoring.Entry) -> Game:
    """An unsaved row ``number`` of ``table`` for ``entry`` and the engine's verdict."""
    game = Game(table=table, number=number, table_size=table.size)
    _apply(game, entry, scored)
    return game


def lock_table(table: Table, *, signed: bool = False) -> Table:
    """The table locked after its tournament (``common.lock_tournament``), series loaded;
    with ``signed``, its attribute ``signed`` says whether the list has any signature."""
    if Table.series.is_cached(table):
        # The tournament's id is known: its row is locked without a join.
        tournament = lock_tournament(pk=table.series.tournament_id)
    else:
        tournament = lock_tournament(series__tables=table.pk)
    # Read after the tournament's lock, which every change to a series takes first: the
    # table locked, its series with it in the same statement.
    tables = Table.objects.select_for_update(of=("self",)).select_related("series")
    if signed:
        # In the same statement; a signature is only written under the same locks.
        tables = tables.annotate(signed=Exists(Signature.objects.filter(table=OuterRef("pk"))))
    locked = tables.get(pk=table.pk)
    locked.series.tournament = tournament
    return locked


def clear_signatures(
    table: Table, number: int, *, user: User = None, device: str = "", signed: bool = True
) -> int:
    """A change to a signed list deletes every signature of it, and the history says so.
    ``signed`` False: the caller read under the table's lock that there is none."""
    if not signed:
        return 0
    cleared, _ = Signature.objects.filter(table=table).delete()
    if cleared:
        log_at_table(
            table,
            user=user,
            game_number=number,
            action=Change.Action.SIGNATURES_CLEARED,
            before={"signatures": cleared},
            device=device,
        )
    return cleared


RowT = TypeVar("RowT", Game, SecondEntry)


def row_to_write(
    rows: Mapping[int, RowT], number: int, expected_version: int | None, last: int
) -> RowT | None:
    """Row ``number`` of ``rows`` (a list's games or its second entry), about to be written
    by someone who saw it at ``expected_version`` (None: a new row).

    Refused: a number outside 1..``last`` (``game_number_invalid``), a row changed meanwhile
    (:class:`Conflict` with the current row), and a new row after a gap (``game_number_gap``).
    """
    if not 1 <= number <= last:
        raise ServiceError("game_number_invalid", "number")
    existing = rows.get(number)
    if existing is None and expected_version is not None:
        raise Conflict(None)
    if existing is not None and existing.version != expected_version:
        raise Conflict(existing)
    if existing is None and number > 1 and number - 1 not in rows:
        raise ServiceError("game_number_gap", "number")
    return existing


def dispute_entry(game: Game) -> GameEntry | None:
    """The table's version of ``game`` that waits for the referee, if any."""
    if not game.disputed:
        return None
    data = dict(game.disputed["game"])
    declarer = data.pop("declarer_seat", None)
    played = scoring.parse_game(data)
    if played is None:
        return GameEntry()
    if isinstance(played, scoring.Ramsch):
        return GameEntry(ramsch=played)
    return GameEntry(declarer=declarer, declaration=played[0], outcome=played[1])


@transaction.atomic
def settle_dispute(table: Table, number: int, *, accept: bool, user: User = None) -> Game:
    """The referee takes the table's version of row ``number`` (``accept``) or keeps the own."""
    game = Game.objects.select_for_update().get(table=table, number=number)
    entry = dispute_entry(game)
    if entry is None:
        raise ServiceError("no_dispute", "number")
    if accept:
        disputed: dict[str, Any] = game.disputed or {}
        reason = f"Fassung des Tisches ({disputed.get('device', '')})"
        return record_game(
            table, number, entry, user=user, expected_version=game.version, reason=reason
        )
    game.disputed = None
    game.save(update_fields=["disputed"])
    revisions.touch(table.series.tournament)
    return game


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
    signatures_confirmed: bool = True,
) -> Game:
    """Enter row ``number`` of a list, or correct it; the list's result rows follow.

    ``device`` names the device at the table when the row comes through a table link.
    A change to a signed list deletes its signatures; unless ``signatures_confirmed`` it is
    refused (``signatures_would_clear``), so that the page asks first.

    Turning a declared game into a passed-in one needs a ``reason`` (``reason_required``).

    A table's change (``device``) of a row the referee wrote last is not saved: it waits
    for the referee in ``game.disputed`` (:func:`settle_dispute`), ``dispute_filed`` set.

    ``expected_version`` is the version of the row the user saw (None: a new row). If the
    row changed meanwhile, :class:`Conflict` carries the current row and nothing is saved;
    unless it now says what ``entry`` says: then it is returned unchanged.
    """
    table = lock_table(table, signed=True)
    tournament = table.series.tournament
    if table.is_closed:
        raise ServiceError("list_closed")
    games = {game.number: game for game in list_games(table)}
    try:
        existing = row_to_write(
            games, number, expected_version, tournament.games_per_list(table.size)
        )
    except Conflict:
        current = games.get(number)
        if current is not None and GameEntry.from_game(current) == entry:
            # The row as sent is already saved (a save sent again after its answer was lost).
            return current
        raise
    if existing is not None and not existing.passed and entry.passed and not reason.strip():
        # A declared game that becomes passed in loses its whole row: like reopening a
        # list, that takes a reason.
        raise ServiceError("reason_required", "reason")
    scored = score_entry(entry, number, table.size, tournament.rule_set)
    if device and existing is not None and existing.updated_by_id is not None:
        # The referee wrote this row last: the table's version waits for the referee.
        existing.disputed = {"device": device, "game": entry.to_json()}
        existing.save(update_fields=["disputed"])
        existing.dispute_filed = True
        revisions.touch(tournament)
        return existing

    game = existing or Game(table=table, number=number, table_size=table.size)
    before = GameEntry.from_game(existing).to_json() if existing else None
    _apply(game, entry, scored)
    game.updated_by = acting_user(user)
    game.disputed = None
    if existing is not None:
        game.version += 1
    game.save()
    games[number] = game
    game.list_games = tuple(sorted(games.values(), key=lambda row: row.number))
    recompute_results(table, game.list_games)
    log_at_table(
        table,
        user=user,
        game_number=number,
        action=Change.Action.GAME_CORRECTED if existing else Change.Action.GAME_RECORDED,
        before=before,
        after=entry.to_json(),
        reason=reason,
        device=device,
    )
    game.signatures_cleared = clear_signatures(
        table, number, user=user, device=device, signed=getattr(table, "signed", True)
    )
    if game.signatures_cleared and not signatures_confirmed:
        # Rolls the whole save back, the signatures included.
        raise ServiceError("signatures_would_clear", "clear_signatures")
    # (The locked rows' revisions as read: the updates below raise them in the database.)
    frame, revision = tournament.frame_revision, table.revision
    if tournament.status == Tournament.Status.PLANNED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
        revisions.touch(tournament)  # every page says it is running
        frame += 1
    else:
        revisions.touch_list(table)
        revision += 1
    game.list_revisions = (
        revisions.list_mark(tournament.frame_revision, table.revision),
        revisions.list_mark(frame, revision),
    )
    return game


@transaction.atomic
def delete_last_game(
    table: Table, number: int, *, user: User = None, expected_version: int, reason: str = ""
) -> None:
    """Remove the last row of an open list (a row entered by mistake), giving a ``reason``."""
    table = lock_table(table)
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
    log_at_table(
        table,
        user=user,
        game_number=number,
        action=Change.Action.GAME_DELETED,
        before=before,
        reason=reason,
    )
    clear_signatures(table, number, user=user)
    revisions.touch_list(table)


def list_games(table: Table) -> list[Game]:
    """The games of a list in their numbers' order (not the model's, which joins the series
    and tournament): read on every save and preview."""
    return list(Game.objects.filter(table=table.pk).order_by("number"))


def list_seats(table: Table) -> list[Seat]:
    """The seats of a list in order, with the players' and substitutes' names: read on every
    preview and list page."""
    return list(
        Seat.objects.filter(table=table.pk)
        .select_related("player", "substitute")
        .order_by("position")
    )


def list_rows(
    games: Iterable[Game], table_size: int, rules: scoring.RuleSet
) -> list[tuple[Game, scoring.Entry]]:
    """Each stored game with the engine's verdict on it."""
    return [
        (game, score_entry(GameEntry.from_game(game), game.number, table_size, rules))
        for game in games
    ]


def recompute_results(table: Table, games: Iterable[Game] | None = None) -> list[ListResult]:
    """Write the per-player result rows of one list from its games (read unless given).

    One statement inserts the rows or updates those there already; a player who left the
    table (:func:`~skatliga.services.seating.swap_seats`) has his row deleted there.
    """
    tournament = table.series.tournament
    sittings = table_sittings(table)
    if games is None:
        games = table.games.all()
    scored = list_rows(sorted(games, key=lambda game: game.number), table.size, tournament.rule_set)
    results = table_results(table, scored, sittings)
    upsert_results(results)
    return results


# --- lists -----------------------------------------------------------------------------------


@transaction.atomic
def reopen_table(table: Table, *, user: User = None, reason: str) -> Table:
    """Reopen a closed list for corrections; a reason is required."""
    table = lock_table(table)
    if not table.is_closed:
        raise ServiceError("list_not_closed")
    if table.series.is_published:
        raise ServiceError("series_published")
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    table.closed_at = None
    table.closed_by = None
    table.save(update_fields=["closed_at", "closed_by"])
    log_at_table(
        table,
        user=user,
        action=Change.Action.LIST_REOPENED,
        reason=reason.strip(),
    )
    revisions.touch(table.series.tournament)
    rate_list(table)
    return table

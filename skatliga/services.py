"""Use cases: one function each, in a transaction, locking what it writes.

Every value, verdict and point comes from the engine (``scoring``); this module stores
them, keeps each list's result rows (``ListResult``) up to date and records every change.
Errors are raised as :class:`ServiceError` with a stable code that the UI translates.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.text import slugify

import scoring
from skatliga.models import (
    Change,
    Club,
    Game,
    ListResult,
    Player,
    Registration,
    Seat,
    Series,
    Table,
    Tournament,
)

User = AbstractBaseUser | AnonymousUser | None


class ServiceError(Exception):
    """A request the rules or the state refuse, with a stable ``code`` and every problem."""

    def __init__(
        self,
        code: str,
        field: str | None = None,
        problems: Sequence[scoring.Problem] = (),
        **params: Any,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.field = field
        self.problems = tuple(problems) or (scoring.Problem(code, field),)
        self.params = params


class Conflict(ServiceError):
    """Someone else changed the row meanwhile; ``current`` is the row as it is now."""

    def __init__(self, current: Game | None) -> None:
        super().__init__("conflict")
        self.current = current


def _user(user: User) -> Any:
    return user if user is not None and user.is_authenticated else None


# --- games -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    """One row as entered: passed in (no declaration), or a declaration, outcome and declarer.

    ``declarer`` is the seat position, 1-based.
    """

    declarer: int | None = None
    declaration: scoring.Declaration | None = None
    outcome: scoring.Outcome | None = None

    @property
    def passed(self) -> bool:
        return self.declaration is None

    @classmethod
    def from_game(cls, game: Game) -> GameEntry:
        if game.passed:
            return cls()
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
        data = scoring.game_to_json(self.declaration, self.outcome)
        if self.declarer is not None:
            data = {"declarer_seat": self.declarer, **data}
        return data


def score_entry(
    entry: GameEntry, number: int, table_size: int, rules: scoring.RuleSet
) -> scoring.ScoredGame | None:
    """The engine's verdict on one row; raises ServiceError with every problem found."""
    if entry.declaration is None:
        return None
    problems: list[scoring.Problem] = []
    if entry.declarer is None:
        problems.append(scoring.Problem("declarer_missing", "declarer"))
    else:
        problems += scoring.check_seat(
            entry.declarer - 1, scoring.dealer_seat(number, table_size), table_size
        )
    try:
        scored = scoring.score_game(entry.declaration, entry.outcome or scoring.Outcome(), rules)
    except scoring.InvalidGame as invalid:
        problems += invalid.problems
        scored = None
    if problems or scored is None:
        raise ServiceError(problems[0].code, problems[0].field, problems)
    return scored


def _apply(game: Game, entry: GameEntry, scored: scoring.ScoredGame | None) -> None:
    d, o = entry.declaration, entry.outcome or scoring.Outcome()
    game.passed = d is None
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
    game.won = bool(scored and scored.won)
    game.overbid = bool(scored and scored.overbid)
    game.value = scored.value if scored else 0
    game.list_score = scored.list_score if scored else 0
    game.opponents_list_score = scored.opponents_list_score if scored else 0


def new_game(
    table: Table, number: int, entry: GameEntry, scored: scoring.ScoredGame | None
) -> Game:
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
) -> Game:
    """Enter row ``number`` of a list, or correct it; the list's result rows follow.

    ``expected_version`` is the version of the row the user saw (None: a new row). If the
    row changed meanwhile, :class:`Conflict` carries the current row and nothing is saved.
    """
    table = _lock_table(table)
    tournament = table.series.tournament
    if table.is_closed:
        raise ServiceError("list_closed")
    if not 1 <= number <= tournament.games_per_list(table.size):
        raise ServiceError("game_number_invalid", "number")
    existing = Game.objects.filter(table=table, number=number).first()
    if existing is None and expected_version is not None:
        raise Conflict(None)
    if existing is not None and existing.version != expected_version:
        raise Conflict(existing)
    if (
        existing is None
        and number > 1
        and not Game.objects.filter(table=table, number=number - 1).exists()
    ):
        raise ServiceError("game_number_gap", "number")
    scored = score_entry(entry, number, table.size, tournament.rule_set)

    game = existing or Game(table=table, number=number, table_size=table.size)
    before = GameEntry.from_game(existing).to_json() if existing else None
    _apply(game, entry, scored)
    game.updated_by = _user(user)
    if existing is not None:
        game.version += 1
    game.save()
    recompute_results(table)
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        series=table.series,
        table=table,
        game_number=number,
        action=Change.Action.GAME_CORRECTED if existing else Change.Action.GAME_RECORDED,
        before=before,
        after=entry.to_json(),
        reason=reason,
    )
    if tournament.status == Tournament.Status.PLANNED:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    return game


@transaction.atomic
def delete_last_game(
    table: Table, number: int, *, user: User = None, expected_version: int, reason: str = ""
) -> None:
    """Remove the last row of an open list (a row entered by mistake)."""
    table = _lock_table(table)
    if table.is_closed:
        raise ServiceError("list_closed")
    game = Game.objects.filter(table=table).order_by("-number").first()
    if game is None or game.number != number:
        raise ServiceError("only_last_game_deleted", "number")
    if game.version != expected_version:
        raise Conflict(game)
    before = GameEntry.from_game(game).to_json()
    game.delete()
    recompute_results(table)
    Change.objects.create(
        user=_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        game_number=number,
        action=Change.Action.GAME_DELETED,
        before=before,
        reason=reason,
    )


def list_rows(
    games: Iterable[Game], table_size: int, rules: scoring.RuleSet
) -> list[tuple[Game, scoring.ScoredGame | None]]:
    """Each stored game with the engine's verdict on it."""
    return [
        (game, score_entry(GameEntry.from_game(game), game.number, table_size, rules))
        for game in games
    ]


def summarize(
    scored_games: Iterable[tuple[Game, scoring.ScoredGame | None]],
    table_size: int,
    system: scoring.ListSystem,
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
    )


def recompute_results(table: Table) -> list[ListResult]:
    """Write the per-player result rows of one list from its games."""
    series = table.series
    tournament = series.tournament
    seats = list(table.seats.order_by("position"))
    teams = dict(
        Registration.objects.filter(
            tournament=tournament, player__in=[seat.player_id for seat in seats]
        ).values_list("player_id", "team_id")
    )
    rows = list_rows(table.games.order_by("number"), table.size, tournament.rule_set)
    summaries = summarize(rows, table.size, tournament.list_system)
    results = list_results(table, [seat.player_id for seat in seats], teams, summaries)
    ListResult.objects.filter(table=table).delete()
    ListResult.objects.bulk_create(results)
    return results


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
    table.closed_by = _user(user)
    table.save(update_fields=["closed_at", "closed_by"])
    Change.objects.create(
        user=_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        action=Change.Action.LIST_CLOSED,
    )
    return table


@transaction.atomic
def reopen_table(table: Table, *, user: User = None, reason: str) -> Table:
    """Reopen a closed list for corrections; a reason is required."""
    table = _lock_table(table)
    if not table.is_closed:
        raise ServiceError("list_not_closed")
    if not reason.strip():
        raise ServiceError("reason_required", "reason")
    table.closed_at = None
    table.closed_by = None
    table.save(update_fields=["closed_at", "closed_by"])
    Change.objects.create(
        user=_user(user),
        tournament=table.series.tournament,
        series=table.series,
        table=table,
        action=Change.Action.LIST_REOPENED,
        reason=reason.strip(),
    )
    return table


# --- tournaments -----------------------------------------------------------------------------


@transaction.atomic
def create_tournament(*, user: User = None, **fields: Any) -> Tournament:
    """A new tournament with a unique slug made from its name and date; its creator referees it."""
    tournament = Tournament(**fields)
    base = slugify(f"{tournament.name} {tournament.date}")[:70].strip("-") or "turnier"
    slug, suffix = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        suffix += 1
        slug = f"{base}-{suffix}"
    tournament.slug = slug
    tournament.save()
    if _user(user) is not None:
        tournament.referees.add(user)
    return tournament


# --- players and tables ----------------------------------------------------------------------


def parse_roster(text: str) -> list[tuple[str, str]]:
    """Pasted lines "Name" or "Name; Club" (also tab- or comma-separated) as (name, club).

    >>> parse_roster("Anna Schmidt; SC Altenburg\\n\\nBernd Łukasz")
    [('Anna Schmidt', 'SC Altenburg'), ('Bernd Łukasz', '')]
    """
    roster = []
    for line in text.splitlines():
        for separator in (";", "\t", ","):
            if separator in line:
                name, _, club = line.partition(separator)
                break
        else:
            name, club = line, ""
        if name.strip():
            roster.append((" ".join(name.split()), " ".join(club.split())))
    return roster


@transaction.atomic
def register_players(
    tournament: Tournament, roster: Iterable[tuple[str, str]]
) -> list[Registration]:
    """Enter players by name (and club), creating players and clubs not known yet."""
    registrations = []
    for name, club_name in roster:
        club = Club.objects.get_or_create(name=club_name)[0] if club_name else None
        player = Player.objects.filter(name=name, club=club).first()
        if player is None:
            player = Player.objects.create(name=name, club=club)
        registrations.append(
            Registration.objects.get_or_create(tournament=tournament, player=player)[0]
        )
    return registrations


@transaction.atomic
def remove_registration(registration: Registration) -> None:
    """Withdraw a player from a tournament before its first series is drawn."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    if tournament.series.exists():
        raise ServiceError("series_drawn")
    Registration.objects.filter(pk=registration.pk).delete()


def table_sizes(players: int) -> list[int]:
    """As many 4-tables as possible, the rest 3-tables; ServiceError if none fits.

    >>> table_sizes(12), table_sizes(13), table_sizes(14), table_sizes(15)
    ([4, 4, 4], [4, 3, 3, 3], [4, 4, 3, 3], [4, 4, 4, 3])
    """
    for threes in range(4):
        rest = players - 3 * threes
        if rest >= 0 and rest % 4 == 0 and players >= 3:
            return [4] * (rest // 4) + [3] * threes
    raise ServiceError("players_cannot_be_seated", "players", players=players)


@transaction.atomic
def draw_tables(
    tournament: Tournament, *, user: User = None, seed: int | None = None, attempts: int = 500
) -> Series:
    """Draw the tables of the next series by lot."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    registrations = list(tournament.registrations.order_by("player__name", "player_id"))
    sizes = table_sizes(len(registrations))
    rng = random.Random(seed)
    for _ in range(attempts):
        rng.shuffle(registrations)
        tables, start = [], 0
        for size in sizes:
            tables.append(registrations[start : start + size])
            start += size
        if not tournament.keep_teammates_apart or all(_teams_apart(group) for group in tables):
            break
    else:
        raise ServiceError("teammates_cannot_be_separated")
    number = (
        tournament.series.order_by("-number").values_list("number", flat=True).first() or 0
    ) + 1
    series = Series.objects.create(tournament=tournament, number=number)
    for table_number, group in enumerate(tables, start=1):
        table = Table.objects.create(series=series, number=table_number, size=len(group))
        Seat.objects.bulk_create(
            Seat(table=table, series=series, position=position, player_id=r.player_id)
            for position, r in enumerate(group, start=1)
        )
        recompute_results(table)
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        series=series,
        action=Change.Action.TABLES_DRAWN,
        after={"tables": [[r.player_id for r in group] for group in tables]},
    )
    return series


def _teams_apart(group: Sequence[Registration]) -> bool:
    teams = [r.team_id for r in group if r.team_id is not None]
    return len(teams) == len(set(teams))


@transaction.atomic
def swap_seats(
    series: Series, first: Seat, second: Seat, *, user: User = None, reason: str = ""
) -> None:
    """Swap two players' seats before the series has started."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if Game.objects.filter(table__series=series).exists():
        raise ServiceError("series_started")
    a = Seat.objects.select_for_update().get(pk=first.pk, series=series)
    b = Seat.objects.select_for_update().get(pk=second.pk, series=series)
    if a.pk == b.pk:
        raise ServiceError("same_seat")
    players = a.player_id, b.player_id
    # Swapping in place would break seat_one_table_per_series midway: re-create both seats.
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table_id=a.table_id, series=series, position=a.position, player_id=players[1]),
            Seat(table_id=b.table_id, series=series, position=b.position, player_id=players[0]),
        ]
    )
    for table in Table.objects.filter(pk__in={a.table_id, b.table_id}):
        recompute_results(table)
    Change.objects.create(
        user=_user(user),
        tournament=series.tournament,
        series=series,
        action=Change.Action.SEATS_SWAPPED,
        before={
            "seats": [[a.table_id, a.position, players[0]], [b.table_id, b.position, players[1]]]
        },
        after={
            "seats": [[a.table_id, a.position, players[1]], [b.table_id, b.position, players[0]]]
        },
        reason=reason,
    )


def delete_player(player: Player) -> None:
    """Delete a player who has never played; one with seats or results is kept."""
    try:
        player.delete()
    except ProtectedError as error:
        raise ServiceError("player_has_results") from error

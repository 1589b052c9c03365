"""Use cases: one function each, in a transaction, locking what it writes.

Every value, verdict and point comes from the engine (``scoring``); this module stores
them, keeps each list's result rows (``ListResult``) up to date and records every change.
Errors are raised as :class:`ServiceError` with a stable code that the UI translates.
"""

from __future__ import annotations

import datetime
import random
from collections import Counter, defaultdict, deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
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
    Season,
    Seat,
    Series,
    Table,
    Team,
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
    _derive(game, scored)


DERIVED = ("won", "overbid", "value", "list_score", "opponents_list_score")
"""The fields of a game that the engine's verdict sets."""


def _derive(game: Game, scored: scoring.ScoredGame | None) -> None:
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
        )
        .order_by()  # a lookup table: no join to the players for Meta.ordering
        .values_list("player_id", "team_id")
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


SETTINGS = (
    "name",
    "date",
    "venue",
    "season",
    "match_day",
    "rules",
    "scoring",
    "rounds_per_series",
    "keep_teammates_apart",
)
"""The fields of a tournament that :func:`update_tournament` changes."""

RESCORING = ("rules", "scoring", "rounds_per_series")
"""The settings whose change re-scores every list."""


@dataclass(frozen=True, slots=True)
class Blocking:
    """A list, or a game of it (``game``), that new settings would make invalid, and why."""

    series: int
    table: int
    game: int | None
    code: str


@transaction.atomic
def update_tournament(tournament: Tournament, *, user: User = None, **fields: Any) -> Tournament:
    """Change a tournament's settings (:data:`SETTINGS`), all or nothing.

    A new rule set, list system or number of rounds re-scores every game of every list with
    the engine and rewrites each game's derived fields and all result rows. If a recorded
    game is invalid under the new settings (a Kontra under ``isko``, more games than the new
    rounds allow) or a closed list would no longer be complete, ServiceError
    ``settings_invalidate_games`` lists each of them in ``params["blocking"]`` and nothing
    changes. A new season drops the registrations' teams of the old one. The Change row
    holds the changed fields before and after.
    """
    unknown = set(fields) - set(SETTINGS)
    if unknown:
        raise TypeError(f"not a tournament setting: {', '.join(sorted(unknown))}")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    changed = [name for name, value in fields.items() if getattr(tournament, name) != value]
    if not changed:
        return tournament
    before = {name: _setting_json(getattr(tournament, name)) for name in changed}
    for name in changed:
        setattr(tournament, name, fields[name])
    _check_settings(tournament)
    after = {name: _setting_json(getattr(tournament, name)) for name in changed}
    dropped: dict[int, int] = {}
    if "season" in changed:
        teamed = tournament.registrations.filter(team__isnull=False)
        if tournament.season_id is not None:
            teamed = teamed.exclude(team__season_id=tournament.season_id)
        dropped = dict(teamed.values_list("player_id", "team_id"))
    rescore = "season" in changed or any(name in RESCORING for name in changed)
    lists = _rescore(tournament) if rescore else []
    tournament.save(update_fields=changed)
    if dropped:
        before["teams"] = {str(player): team for player, team in dropped.items()}
        after["teams"] = {str(player): None for player in dropped}
        Registration.objects.filter(tournament=tournament, player_id__in=dropped).update(team=None)
    if rescore:
        Game.objects.bulk_update(
            [game for _table, _players, rows in lists for game, _scored in rows],
            DERIVED,
            batch_size=500,
        )
        _rewrite_results(tournament, lists)
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        before=before,
        after=after,
    )
    return tournament


def _setting_json(value: Any) -> Any:
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Season):
        return value.pk
    return value


def _check_settings(tournament: Tournament) -> None:
    if tournament.rules not in scoring.RULE_SETS:
        raise ServiceError("unknown_rules", "rules")
    if tournament.scoring not in set(scoring.ListSystem):
        raise ServiceError("unknown_scoring", "scoring")
    if not 1 <= tournament.rounds_per_series <= 30:
        raise ServiceError("rounds_out_of_range", "rounds_per_series")


ScoredList = tuple[Table, list[int], list[tuple[Game, scoring.ScoredGame | None]]]
"""A list re-scored: the table, its players in seat order, each game with its new verdict."""


def _rescore(tournament: Tournament) -> list[ScoredList]:
    """Every list of ``tournament`` scored under its (unsaved) settings, games' derived fields
    set; ServiceError ``settings_invalidate_games`` with every list and game in the way."""
    rules = tournament.rule_set
    tables = list(
        Table.objects.select_for_update()
        .filter(series__tournament=tournament)
        .select_related("series")
        .order_by("series__number", "number")
    )
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__series__tournament=tournament).order_by(
        "table_id", "number"
    ):
        games[game.table_id].append(game)
    players: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in (
        Seat.objects.filter(table__series__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "player_id")
    ):
        players[table_id].append(player_id)
    blocking: list[Blocking] = []
    lists: list[ScoredList] = []
    for table in tables:
        where = table.series.number, table.number
        limit = tournament.games_per_list(table.size)
        if table.is_closed and len(games[table.pk]) < limit:
            blocking.append(Blocking(*where, None, "closed_list_incomplete"))
        rows = []
        for game in games[table.pk]:
            if game.number > limit:
                blocking.append(Blocking(*where, game.number, "game_beyond_rounds"))
                continue
            try:
                scored = score_entry(GameEntry.from_game(game), game.number, table.size, rules)
            except ServiceError as error:
                blocking.append(Blocking(*where, game.number, error.code))
                continue
            _derive(game, scored)
            rows.append((game, scored))
        lists.append((table, players[table.pk], rows))
    if blocking:
        raise ServiceError(
            "settings_invalidate_games", blocking=tuple(blocking), count=len(blocking)
        )
    return lists


def _rewrite_results(tournament: Tournament, lists: Sequence[ScoredList]) -> None:
    teams = dict(tournament.registrations.values_list("player_id", "team_id"))
    results = []
    for table, players, rows in lists:
        table.series.tournament = tournament
        summaries = summarize(rows, table.size, tournament.list_system)
        results += list_results(table, players, teams, summaries)
    ListResult.objects.filter(tournament=tournament).delete()
    ListResult.objects.bulk_create(results, batch_size=500)


# --- referees --------------------------------------------------------------------------------


def _referee_names(tournament: Tournament) -> list[str]:
    return sorted(user.get_username() for user in tournament.referees.all())


@transaction.atomic
def add_referee(tournament: Tournament, username: str, *, user: User = None) -> Any:
    """Make the active user named ``username`` (any case) a referee of ``tournament``."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    name = username.strip()
    users = get_user_model().objects.filter(is_active=True)
    field = get_user_model().USERNAME_FIELD
    referee = users.filter(**{field: name}).first()
    if referee is None and name:
        similar = list(users.filter(**{f"{field}__iexact": name})[:2])
        referee = similar[0] if len(similar) == 1 else None
    if referee is None:
        raise ServiceError("user_unknown", "username", username=name)
    if tournament.referees.filter(pk=referee.pk).exists():
        raise ServiceError("user_already_referee", "username", username=referee.get_username())
    before = _referee_names(tournament)
    tournament.referees.add(referee)
    _log_referees(tournament, user, before)
    return referee


@transaction.atomic
def remove_referee(tournament: Tournament, referee: Any, *, user: User = None) -> None:
    """Take ``referee`` off the tournament; only a superuser may remove the last one."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.referees.filter(pk=referee.pk).exists():
        raise ServiceError("not_a_referee")
    before = _referee_names(tournament)
    if len(before) == 1 and not getattr(user, "is_superuser", False):
        raise ServiceError("last_referee")
    tournament.referees.remove(referee)
    _log_referees(tournament, user, before)


def _log_referees(tournament: Tournament, user: User, before: list[str]) -> None:
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        before={"referees": before},
        after={"referees": _referee_names(tournament)},
    )


# --- teams -----------------------------------------------------------------------------------


def _lock_with_season(tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.season_id is None:
        raise ServiceError("tournament_without_season")
    return tournament


@transaction.atomic
def create_team(tournament: Tournament, name: str, club: str = "", *, user: User = None) -> Team:
    """A new team of the tournament's season, with its club (created if not known yet)."""
    tournament = _lock_with_season(tournament)
    name, club = " ".join(name.split()), " ".join(club.split())
    if not name:
        raise ServiceError("team_name_missing", "name")
    if Team.objects.filter(season_id=tournament.season_id, name__iexact=name).exists():
        raise ServiceError("team_name_taken", "name")
    team = Team.objects.create(
        season_id=tournament.season_id,
        name=name,
        club=Club.objects.get_or_create(name=club)[0] if club else None,
    )
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        after={"team": {"id": team.pk, "name": team.name, "club": club or None}},
    )
    return team


@transaction.atomic
def assign_teams(
    tournament: Tournament, teams: Mapping[int, Team | None], *, user: User = None
) -> list[Registration]:
    """Set the team each registration (by id) plays for: a team of the tournament's season,
    or None. The result rows of the lists these players sit at follow; returns the
    registrations changed."""
    tournament = _lock_with_season(tournament)
    registrations = list(
        Registration.objects.select_for_update().filter(tournament=tournament, pk__in=teams)
    )
    if len(registrations) != len(teams):
        raise ServiceError("registration_not_in_tournament")
    if any(team is not None and team.season_id != tournament.season_id for team in teams.values()):
        raise ServiceError("team_not_in_season", "team")
    changed = [r for r in registrations if r.team_id != getattr(teams[r.pk], "pk", None)]
    if not changed:
        return []
    before = {str(r.player_id): r.team_id for r in changed}
    for registration in changed:
        registration.team = teams[registration.pk]
    Registration.objects.bulk_update(changed, ["team"])
    seated = Seat.objects.filter(
        series__tournament=tournament, player__in=[r.player_id for r in changed]
    ).values("table_id")
    for table in Table.objects.select_for_update().filter(pk__in=seated).order_by("pk"):
        table.series.tournament = tournament
        recompute_results(table)
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        before={"teams": before},
        after={"teams": {str(r.player_id): r.team_id for r in changed}},
    )
    return changed


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


DRAW_METHODS = ("lot", "standings")
"""How :func:`draw_tables` seats the players: by lot, or seeded by the standings so far."""


@transaction.atomic
def draw_tables(
    tournament: Tournament,
    *,
    user: User = None,
    method: str = "lot",
    seed: int | None = None,
    attempts: int = 500,
) -> Series:
    """Draw the tables of the next series (rules.md section 6).

    ``lot``: at random. ``standings``: in the order of the tournament standings so far,
    players without results last in an order drawn by lot; table 1 takes the first four,
    table 2 the next, the 3-tables (:func:`table_sizes`) come last. Team-mates are kept
    apart when the tournament says so (for ``standings`` see :func:`seat_in_order`).
    """
    if method not in DRAW_METHODS:
        raise ServiceError("draw_method_unknown", "method")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    registrations = list(tournament.registrations.order_by("player__name", "player_id"))
    sizes = table_sizes(len(registrations))
    rng = random.Random(seed)
    if method == "standings":
        order = _standings_order(tournament, registrations, rng)
        tables = seat_in_order(order, sizes, apart=tournament.keep_teammates_apart)
    else:
        tables = _draw_by_lot(tournament, registrations, sizes, rng, attempts)
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
    after: dict[str, Any] = {"tables": [[r.player_id for r in group] for group in tables]}
    if method != "lot":
        after["method"] = method
    Change.objects.create(
        user=_user(user),
        tournament=tournament,
        series=series,
        action=Change.Action.TABLES_DRAWN,
        after=after,
    )
    return series


def _draw_by_lot(
    tournament: Tournament,
    registrations: list[Registration],
    sizes: Sequence[int],
    rng: random.Random,
    attempts: int,
) -> list[list[Registration]]:
    for _ in range(attempts):
        rng.shuffle(registrations)
        tables = _split(registrations, sizes)
        if not tournament.keep_teammates_apart or all(_teams_apart(group) for group in tables):
            return tables
    raise ServiceError("teammates_cannot_be_separated")


def _standings_order(
    tournament: Tournament, registrations: Sequence[Registration], rng: random.Random
) -> list[Registration]:
    """The registrations in the order of the standings, those without results last by lot."""
    unranked = {r.player_id: r for r in registrations}
    rows = ListResult.objects.for_tournament(tournament).standings(lots_of=tournament)
    ranked = [unranked.pop(row.player_id) for row in rows if row.player_id in unranked]
    rest = list(unranked.values())
    rng.shuffle(rest)
    return ranked + rest


def _split(order: Sequence[Registration], sizes: Sequence[int]) -> list[list[Registration]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _teams_apart(group: Sequence[Registration]) -> bool:
    teams = [r.team_id for r in group if r.team_id is not None]
    return len(teams) == len(set(teams))


def seat_in_order(
    order: Sequence[Registration], sizes: Sequence[int], *, apart: bool
) -> list[list[Registration]]:
    """Tables of ``sizes`` filled in ``order``: table 1 takes the first players, and so on.

    With ``apart``, each seat in turn takes the first player of ``order`` not seated yet
    whose team has nobody at that table and after whom the others can still be seated with
    team-mates apart: a player moves down only as far as a team-mate forces him, and the
    next ones move up by as much. ServiceError ``teammates_cannot_be_separated`` when no
    seating keeps team-mates apart.
    """
    if not apart:
        return _split(order, sizes)
    tables: list[list[Registration]] = [[] for _ in sizes]
    rest = list(order)
    if not _can_seat_apart(rest, tables, sizes):
        raise ServiceError("teammates_cannot_be_separated")
    for table, size in zip(tables, sizes, strict=True):
        while len(table) < size:
            teams = {r.team_id for r in table if r.team_id is not None}
            for index, candidate in enumerate(rest):
                if candidate.team_id in teams:
                    continue
                table.append(candidate)
                others = rest[:index] + rest[index + 1 :]
                if _can_seat_apart(others, tables, sizes):
                    rest = others
                    break
                table.pop()
            else:  # pragma: no cover - a seating exists, so some candidate keeps one open
                raise ServiceError("teammates_cannot_be_separated")
    return tables


def _can_seat_apart(
    rest: Sequence[Registration], tables: Sequence[Sequence[Registration]], sizes: Sequence[int]
) -> bool:
    """Whether ``rest`` fits the free seats of ``tables`` with no two team-mates at a table.

    Seating them in order is tried first; otherwise a flow from each team (as many as it
    has players left) to the tables without one of it (one each, as many as seats are free)
    decides. Players without a team take whatever seats remain.
    """
    free = [size - len(table) for table, size in zip(tables, sizes, strict=True)]
    filled = _split(rest, free)
    if all(_teams_apart([*table, *more]) for table, more in zip(tables, filled, strict=True)):
        return True
    needed = Counter(r.team_id for r in rest if r.team_id is not None)
    edges: dict[Hashable, dict[Hashable, int]] = {"source": {}}
    for team, count in needed.items():
        edges["source"][("team", team)] = count
        edges[("team", team)] = {
            ("table", index): 1
            for index, table in enumerate(tables)
            if free[index] and team not in {r.team_id for r in table}
        }
    for index, seats in enumerate(free):
        edges[("table", index)] = {"sink": seats}
    return _max_flow(edges, "source", "sink") == sum(needed.values())


def _max_flow(edges: Mapping[Hashable, Mapping[Hashable, int]], source: str, sink: str) -> int:
    """The maximum flow through ``edges`` (node → node → capacity), by shortest paths."""
    residual: dict[Hashable, dict[Hashable, int]] = defaultdict(dict)
    for node, targets in edges.items():
        for target, capacity in targets.items():
            residual[node][target] = residual[node].get(target, 0) + capacity
            residual[target].setdefault(node, 0)
    flow = 0
    while True:
        parent: dict[Hashable, Hashable] = {source: source}
        queue: deque[Hashable] = deque([source])
        while queue and sink not in parent:
            node = queue.popleft()
            for target, capacity in residual[node].items():
                if capacity > 0 and target not in parent:
                    parent[target] = node
                    queue.append(target)
        if sink not in parent:
            return flow
        path, node = [], sink
        while node != source:
            path.append((parent[node], node))
            node = parent[node]
        push = min(residual[a][b] for a, b in path)
        for a, b in path:
            residual[a][b] -= push
            residual[b][a] += push
        flow += push


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

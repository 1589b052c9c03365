"""Tournaments: create them, change their settings (re-scoring every list where needed),
and manage their referees and teams."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import PermissionsMixin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.text import slugify

import scoring
from skatliga import revisions
from skatliga.models import (
    Change,
    Club,
    Game,
    ListResult,
    Registration,
    Season,
    Seat,
    Table,
    Team,
    Tournament,
)
from skatliga.services.common import ServiceError, User, acting_user, lock_tournament
from skatliga.services.games import DERIVED, GameEntry, derive, recompute_results, score_entry
from skatliga.services.rating import rate_tournament
from skatliga.services.results import Sitting, table_results

# --- tournaments -----------------------------------------------------------------------------


SEASON_PERMISSION = "skatliga.change_player"
"""Who may put a tournament or a team into a season: its league table and standings change.
The league pages' permission; creating tournaments alone does not give it."""


def may_change_seasons(user: User) -> bool:
    """None is the site itself (commands, imports)."""
    return user is None or (isinstance(user, PermissionsMixin) and user.has_perm(SEASON_PERMISSION))


def _season_allowed(user: User) -> None:
    if not may_change_seasons(user):
        raise PermissionDenied


@transaction.atomic
def create_tournament(*, user: User = None, **fields: Any) -> Tournament:
    """A new tournament with a unique slug made from its name and date; its creator referees it.

    A tournament of a season plays the season's rule set and list system and speaks its
    language unless ``fields`` name others.
    """
    if (season := fields.get("season")) is not None:
        _season_allowed(user)
        fields = {**season.rule_fields(), "language": season.language, **fields}
    tournament = Tournament(**fields)
    base = slugify(f"{tournament.name} {tournament.date}")[:70].strip("-") or "turnier"
    slug, suffix = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        suffix += 1
        slug = f"{base}-{suffix}"
    tournament.slug = slug
    tournament.save()
    author = acting_user(user)
    if author is not None:
        tournament.referees.add(author)
    return tournament


SETTINGS = (
    "name",
    "date",
    "starts_at",
    "venue",
    "address",
    "season",
    "match_day",
    "rules",
    "rule_options",
    "scoring",
    "rounds_per_series",
    "keep_teammates_apart",
    "hide_unpublished",
    "double_entry",
    "objection_minutes",
    "seat_codes",
    "language",
)
"""The fields of a tournament that :func:`update_tournament` changes."""

RESCORING = ("rules", "rule_options", "scoring", "rounds_per_series")
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
    tournament = lock_tournament(pk=tournament.pk)
    old_season = tournament.season_id
    changed = [name for name, value in fields.items() if getattr(tournament, name) != value]
    if not changed:
        return tournament
    if "season" in changed:
        _season_allowed(user)
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
    if rescore or "date" in changed:
        old_date = datetime.date.fromisoformat(before["date"]) if "date" in before else None
        rate_tournament(tournament, since=old_date)
    Change.objects.create(
        user=acting_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        before=before,
        after=after,
    )
    revisions.touch(tournament)
    if old_season is not None and old_season != tournament.season_id:
        revisions.touch_seasons([old_season])
    return tournament


def playing_other_rules(season: Season) -> list[Tournament]:
    """The season's tournaments whose rule set, options or list system are not the season's
    (the season's rules were corrected after they were set up), by date."""
    return [
        tournament
        for tournament in season.tournaments.order_by("date", "pk")
        if (tournament.rules, tournament.rule_options, tournament.scoring)
        != (season.rules, season.rule_options, season.scoring)
    ]


@transaction.atomic
def rescore_season(
    season: Season,
    *,
    user: User = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Tournament]:
    """Every tournament of ``season`` playing other rules than the season's set to the
    season's and re-scored (:func:`update_tournament`, logged in each), all or nothing: the
    first tournament whose games the rules would invalidate stops it with
    ``settings_invalidate_games`` naming it (``tournament``)."""
    changed = playing_other_rules(season)
    for done, tournament in enumerate(changed, start=1):
        try:
            update_tournament(
                tournament,
                user=user,
                rules=season.rules,
                rule_options=dict(season.rule_options),
                scoring=season.scoring,
            )
        except ServiceError as error:
            raise ServiceError(
                error.code, error.field, error.problems, tournament=tournament.name, **error.params
            ) from None
        if progress is not None:
            progress(done, len(changed))
    return changed


def _setting_json(value: Any) -> Any:
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return value.isoformat(timespec="minutes")
    if isinstance(value, Season):
        return value.pk
    return value


def _check_settings(tournament: Tournament) -> None:
    if tournament.rules not in scoring.RULE_SETS:
        raise ServiceError("unknown_rules", "rules")
    if not isinstance(tournament.rule_options, dict) or "preset" in tournament.rule_options:
        raise ServiceError("option_value_invalid", "rule_options")
    try:
        rules = tournament.rule_set
    except scoring.RulesError as error:
        raise ServiceError(error.code, "rule_options", option=error.field) from None
    # Only the options that differ from the preset are kept (the archive's form).
    tournament.rule_options = rules.changes()
    if tournament.scoring not in set(scoring.ListSystem):
        raise ServiceError("unknown_scoring", "scoring")
    for problem in scoring.check_table(3, tournament.list_system, rules):
        raise ServiceError(problem.code, "scoring")
    if not 1 <= tournament.rounds_per_series <= 30:
        raise ServiceError("rounds_out_of_range", "rounds_per_series")


ScoredList = tuple[Table, list[Seat], list[tuple[Game, scoring.Entry]]]
"""A list re-scored: the table, its seats in order, each game with its new verdict."""


def _rescore(tournament: Tournament) -> list[ScoredList]:
    """Every list of ``tournament`` scored under its (unsaved) settings, games' derived fields
    set; ServiceError ``settings_invalidate_games`` with every list and game in the way."""
    rules = tournament.rule_set
    tables = list(
        Table.objects.select_for_update(of=("self",))
        .filter(series__tournament=tournament)
        .select_related("series")
        .order_by("series__number", "number")
    )
    games: dict[int, list[Game]] = defaultdict(list)
    for game in Game.objects.filter(table__series__tournament=tournament).order_by(
        "table_id", "number"
    ):
        games[game.table_id].append(game)
    players: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table__series__tournament=tournament).order_by(
        "table_id", "position"
    ):
        players[seat.table_id].append(seat)
    blocking: list[Blocking] = []
    lists: list[ScoredList] = []
    for table in tables:
        where = table.series.number, table.number
        limit = tournament.games_per_list(table.size)
        if table.is_closed and len(games[table.pk]) < limit:
            blocking.append(Blocking(*where, None, "closed_list_incomplete"))
        for problem in scoring.check_table(table.size, tournament.list_system):
            blocking.append(Blocking(*where, None, problem.code))
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
            derive(game, scored)
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
    for table, seats, rows in lists:
        table.series.tournament = tournament
        sittings = [Sitting.of(seat, teams.get(seat.player_id)) for seat in seats]
        results += table_results(table, rows, sittings)
    ListResult.objects.filter(tournament=tournament).delete()
    ListResult.objects.bulk_create(results, batch_size=500)


# --- referees --------------------------------------------------------------------------------


def _referee_names(tournament: Tournament) -> list[str]:
    return sorted(user.get_username() for user in tournament.referees.all())


@transaction.atomic
def add_referee(tournament: Tournament, username: str, *, user: User = None) -> Any:
    """Make the active user named ``username`` (any case) a referee of ``tournament``."""
    tournament = lock_tournament(pk=tournament.pk)
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
    tournament = lock_tournament(pk=tournament.pk)
    if not tournament.referees.filter(pk=referee.pk).exists():
        raise ServiceError("not_a_referee")
    before = _referee_names(tournament)
    if len(before) == 1 and not getattr(user, "is_superuser", False):
        raise ServiceError("last_referee")
    tournament.referees.remove(referee)
    _log_referees(tournament, user, before)


def _log_referees(tournament: Tournament, user: User, before: list[str]) -> None:
    Change.objects.create(
        user=acting_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        before={"referees": before},
        after={"referees": _referee_names(tournament)},
    )


# --- teams -----------------------------------------------------------------------------------


def _lock_with_season(tournament: Tournament) -> tuple[Tournament, int]:
    """The tournament locked, and its season's id."""
    tournament = lock_tournament(pk=tournament.pk)
    if tournament.season_id is None:
        raise ServiceError("tournament_without_season")
    return tournament, tournament.season_id


@transaction.atomic
def create_team(tournament: Tournament, name: str, club: str = "", *, user: User = None) -> Team:
    """A new team of the tournament's season, with its club (created if not known yet)."""
    _season_allowed(user)
    tournament, season_id = _lock_with_season(tournament)
    name, club = " ".join(name.split()), " ".join(club.split())
    if not name:
        raise ServiceError("team_name_missing", "name")
    if Team.objects.filter(season_id=season_id, name__iexact=name).exists():
        raise ServiceError("team_name_taken", "name")
    team = Team.objects.create(
        season_id=season_id,
        name=name,
        club=Club.objects.get_or_create(name=club)[0] if club else None,
    )
    Change.objects.create(
        user=acting_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        after={"team": {"id": team.pk, "name": team.name, "club": club or None}},
    )
    revisions.touch(tournament)
    return team


@transaction.atomic
def assign_teams(
    tournament: Tournament, teams: Mapping[int, Team | None], *, user: User = None
) -> list[Registration]:
    """Set the team each registration (by id) plays for: a team of the tournament's season,
    or None. The result rows of the lists these players sit at follow; returns the
    registrations changed."""
    tournament, season_id = _lock_with_season(tournament)
    registrations = list(
        Registration.objects.select_for_update().filter(tournament=tournament, pk__in=teams)
    )
    if len(registrations) != len(teams):
        raise ServiceError("registration_not_in_tournament")
    if any(team is not None and team.season_id != season_id for team in teams.values()):
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
        user=acting_user(user),
        tournament=tournament,
        action=Change.Action.TOURNAMENT_CHANGED,
        before={"teams": before},
        after={"teams": {str(r.player_id): r.team_id for r in changed}},
    )
    revisions.touch(tournament)
    return changed

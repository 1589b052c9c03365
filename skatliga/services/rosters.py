"""Use cases of rosters and seasons, each in a transaction; errors are ``ServiceError`` codes.

A merge moves every row of one player record onto the other (registrations, seats, result
rows, teams) and logs a ``Change`` in every tournament it touches; the result rows move
unchanged, so every standing keeps its numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

import scoring as engine
from skatliga import revisions
from skatliga.models import (
    Category,
    Change,
    Club,
    League,
    LineUpPlayer,
    ListResult,
    ListSystem,
    Player,
    Registration,
    RosterEntry,
    RuleSetName,
    Season,
    Seat,
    Team,
    Tournament,
    Transfer,
)
from skatliga.services.common import ServiceError, User, acting_user, lock_tournaments
from skatliga.services.rating import rate_player_lists


def one_line(text: str) -> str:
    """``text`` on one line, its runs of white space one space."""
    return " ".join(text.split())


def unique_slug(model: type[Season] | type[League], name: str, default: str) -> str:
    """A slug for ``name`` that no row of ``model`` has: the name's, else with -2, -3 …"""
    base = slugify(name)[:40].strip("-") or default
    slug, suffix = base, 1
    while model.objects.filter(slug=slug).exists():
        suffix += 1
        slug = f"{base}-{suffix}"
    return slug


# --- clubs -----------------------------------------------------------------------------------


@transaction.atomic
def save_club(club: Club | None, *, name: str) -> Club:
    """Create a club (``club`` None) or rename one; names are unique, ignoring case."""
    name = one_line(name)
    if not name:
        raise ServiceError("club_name_missing", "name")
    others = Club.objects.filter(name__iexact=name)
    if club is not None:
        others = others.exclude(pk=club.pk)
    if others.exists():
        raise ServiceError("club_name_taken", "name")
    club = club or Club()
    club.name = name
    club.save()
    return club


def _club(name: str) -> Club | None:
    name = one_line(name)
    if not name:
        return None
    club = Club.objects.filter(name__iexact=name).first()
    return club or Club.objects.create(name=name)


# --- players ---------------------------------------------------------------------------------


@transaction.atomic
def save_player(
    player: Player | None,
    *,
    name: str,
    club: str = "",
    number: str = "",
    category: str = "",
    initials_only: bool = False,
    rating_listed: bool | None = None,
) -> Player:
    """Create a player (``player`` None) or change one; a new club name creates the club.
    ``initials_only``: the public sees him by his initials (``models.public_name``);
    ``rating_listed``: his choice whether the public sees his rating (None: the site's
    default, ``settings.RATING_LISTED_DEFAULT``)."""
    name, number = one_line(name), number.strip()
    if not name:
        raise ServiceError("player_name_missing", "name")
    if category not in {"", *Category.values}:
        raise ServiceError("category_unknown", "category")
    if number:
        taken = Player.objects.filter(number=number)
        if player is not None:
            taken = taken.exclude(pk=player.pk)
        if taken.exists():
            raise ServiceError("player_number_taken", "number", number=number)
    player = player or Player()
    player.name, player.number, player.category = name, number, category
    player.initials_only = initials_only
    player.rating_listed = rating_listed
    player.club = _club(club)
    player.save()
    return player


@transaction.atomic
def merge_players(keep: Player, drop: Player, *, user: User = None) -> Player:
    """Move every row of ``drop`` onto ``keep`` and delete ``drop``.

    Refused (``players_share_tournament``) where both played the same tournament: one person
    cannot have two results there. ``keep`` takes ``drop``'s club, number and category where
    it has none, and is listed by initials where either asked for it. Each tournament of
    ``drop`` logs the merge.
    """
    if keep.pk == drop.pk:
        raise ServiceError("merge_same_player")
    # Every tournament of either shows the merged player: locked first, raised at the end.
    locked = lock_tournaments(registrations__player__in=[keep.pk, drop.pk])
    players = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, drop.pk])
    }
    keep, drop = players[keep.pk], players[drop.pk]
    shared = Tournament.objects.filter(
        Q(registrations__player=keep) | Q(results__player=keep)
    ).values("pk")
    clash = list(
        Tournament.objects.filter(
            Q(registrations__player=drop) | Q(results__player=drop), pk__in=shared
        )
        .distinct()
        .values_list("name", flat=True)
    )
    if clash:
        raise ServiceError("players_share_tournament", tournament=", ".join(clash))
    tournaments = list(
        Tournament.objects.filter(
            Q(registrations__player=drop) | Q(results__player=drop)
        ).distinct()
    )
    Registration.objects.filter(player=drop).update(player=keep)
    Seat.objects.filter(player=drop).update(player=keep)
    Seat.objects.filter(substitute=drop).update(substitute=keep)
    ListResult.objects.filter(player=drop).update(player=keep)
    rate_player_lists(drop)
    # His rosters, line-ups, transfers and captaincies move too; a roster with both keeps
    # the one it has.
    RosterEntry.objects.filter(player=drop).exclude(team__in=keep.teams.all()).update(player=keep)
    LineUpPlayer.objects.filter(player=drop).update(player=keep)
    Transfer.objects.filter(player=drop).exclude(on__in=keep.transfers.values("on")).update(
        player=keep
    )
    Team.objects.filter(captain=drop).update(captain=keep)
    drop_number = drop.number
    summary = {"id": drop.pk, "name": drop.name, "number": drop.number}
    changed = []
    for name in ("club", "category"):
        if not getattr(keep, name) and getattr(drop, name):
            setattr(keep, name, getattr(drop, name))
            changed.append(name)
    if drop.initials_only and not keep.initials_only:
        keep.initials_only = True
        changed.append("initials_only")
    if drop.rating_listed is False and keep.rating_listed is not False:
        keep.rating_listed = False  # one who kept his rating private stays private
        changed.append("rating_listed")
    drop.delete()
    if not keep.number and drop_number:
        keep.number = drop_number
        changed.append("number")
    if changed:
        keep.save(update_fields=changed)
    for tournament in tournaments:
        Change.objects.create(
            user=acting_user(user),
            tournament=tournament,
            action=Change.Action.PLAYERS_MERGED,
            before={"player": summary},
            after={"player": {"id": keep.pk, "name": keep.name, "number": keep.number}},
        )
    revisions.touch_tournaments(Tournament.objects.filter(pk__in=[t.pk for t in locked]))
    return keep


# --- importing a roster ----------------------------------------------------------------------


@dataclass
class RosterReport:
    """What an import did: players created, lines skipped as duplicates, lines refused."""

    created: list[Player] = field(default_factory=list)
    duplicates: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, name, why): ``number_known`` or ``name_and_club_known`` or ``repeated_in_file``."""
    problems: list[tuple[int, str]] = field(default_factory=list)
    """(line, code) of lines that are not a roster line."""
    longest: dict[int, int] = field(default_factory=dict)
    """The most characters a field of that line may have, where it had more."""


def _rows(text: str) -> Iterable[tuple[int, list[str]]]:
    sample = text[:2048]
    delimiter = ";" if sample.count(";") >= sample.count(",") else ","
    for number, row in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter), start=1):
        if any(cell.strip() for cell in row):
            yield number, [one_line(cell) for cell in row]


ROSTER_HEADINGS: dict[str, frozenset[str]] = {
    # The words a roster's heading line may name its columns by, in the site's languages.
    "name": frozenset({"name", "spieler", "player", "navn", "spiller", "namn", "spelare", "naam"}),
    "club": frozenset({"verein", "club", "klub", "klubb", "förening", "vereniging"}),
    "number": frozenset(
        {"nummer", "mitgliedsnummer", "nr", "number", "membership number", "medlemsnummer"}
        | {"lidnummer", "nr."}
    ),
    "initials_only": frozenset(
        {"initialen", "nur initialen", "nur mit initialen", "initials", "initials only"}
        | {"initialer", "kun initialer", "bara initialer", "alleen initialen"}
    ),
}
"""A heading's words per column, lower case; the first line is a heading when its first
field is a name word."""

ROSTER_YES = frozenset({"ja", "j", "yes", "y", "x", "1", "true", "wahr"})
ROSTER_NO = frozenset({"", "nein", "n", "no", "nej", "nee", "0", "false", "falsch"})
"""The values of the initials column: yes or no in the site's languages."""

ROSTER_COLUMNS = ("name", "club", "number", "initials_only")
"""The columns of a roster without a heading, in this order; club and the rest optional."""


def _roster_columns(cells: list[str]) -> list[str] | None:
    """The columns a heading line names, in its order; None where the line is no heading (its
    first field is no name word) or names a column twice or an unknown one."""
    words = [cell.lower() for cell in cells]
    if not words or words[0] not in ROSTER_HEADINGS["name"]:
        return None
    columns = []
    for word in words:
        column = next((c for c, known in ROSTER_HEADINGS.items() if word in known), None)
        if column is None or column in columns:
            return None
        columns.append(column)
    return columns


@transaction.atomic
def import_roster(text: str) -> RosterReport:
    """Create the players of a CSV roster "name; club; number; initials only" (all but the
    name optional; initials only: yes or no, e.g. "ja", "x", "nein" or empty).

    A line whose number is known, or whose name and club are known, is a duplicate: it is
    reported and creates nothing; so is a line repeating an earlier one of the file. A first
    line "Name; Verein; Nummer; Initialen" is a heading and skipped; its words (in any of
    the site's languages, ``ROSTER_HEADINGS``) give the order of the columns.
    """
    report = RosterReport()
    seen_numbers: set[str] = set()
    seen_names: set[tuple[str, str]] = set()
    columns = list(ROSTER_COLUMNS)
    for line, cells in _rows(text):
        if line == 1 and cells and cells[0].lower() in ROSTER_HEADINGS["name"]:
            columns = _roster_columns(cells) or columns
            continue
        if len(cells) > len(columns):
            report.problems.append((line, "roster_too_many_fields"))
            continue
        fields = dict(zip(columns, cells, strict=False))
        name, club, number = (fields.get(key, "") for key in ("name", "club", "number"))
        initials = fields.get("initials_only", "").lower()
        if initials not in ROSTER_YES | ROSTER_NO:
            report.problems.append((line, "roster_initials_invalid"))
            continue
        if not name:
            report.problems.append((line, "player_name_missing"))
            continue
        most = 120 if max(len(name), len(club)) > 120 else 32 if len(number) > 32 else None
        if most is not None:
            report.problems.append((line, "too_long"))
            report.longest[line] = most
            continue
        key = (name.lower(), club.lower())
        if number in seen_numbers or key in seen_names:
            report.duplicates.append((line, name, "repeated_in_file"))
            continue
        if number and Player.objects.filter(number=number).exists():
            report.duplicates.append((line, name, "number_known"))
            continue
        if Player.objects.filter(name__iexact=name, club__name__iexact=club or None).exists() or (
            not club and Player.objects.filter(name__iexact=name, club__isnull=True).exists()
        ):
            report.duplicates.append((line, name, "name_and_club_known"))
            continue
        if number:
            seen_numbers.add(number)
        seen_names.add(key)
        report.created.append(
            save_player(
                None, name=name, club=club, number=number, initials_only=initials in ROSTER_YES
            )
        )
    return report


# --- seasons and teams -----------------------------------------------------------------------


@transaction.atomic
def save_season(
    season: Season | None,
    *,
    name: str,
    year: int,
    ranking: str = Season.Ranking.SUM,
    ranking_series: int = 1,
    rules: str = RuleSetName.ISKO,
    rule_options: dict[str, Any] | None = None,
    scoring: str = ListSystem.SEEGER_FABIAN,
    match_points: str = Season.MatchPoints.PLACES,
    language: str = "de",
) -> Season:
    """Create a season (a unique slug from its name) or change its settings: name, year,
    ranking mode (``Season.Ranking``; ``ranking_series``: the best N, or the minimum for an
    average), the rule set (preset and house ``rule_options``) and list system its new
    tournaments start with, and the team match-point scheme (``Season.MatchPoints``).

    The season's pages show all of them: saving raises its revision and its tournaments'
    (``revisions``' signal for a saved season, in this transaction).
    """
    name = one_line(name)
    if not name:
        raise ServiceError("season_name_missing", "name")
    if not 1900 <= year <= 2999:
        raise ServiceError("season_year_invalid", "year")
    if season is None:
        season = Season(slug=unique_slug(Season, name, "saison"))
    if ranking not in Season.Ranking.values:
        raise ServiceError("ranking_unknown", "ranking")
    if not 1 <= ranking_series <= 99:
        raise ServiceError("ranking_series_invalid", "ranking_series")
    if scoring not in ListSystem.values:
        raise ServiceError("unknown_list_system", "scoring")
    if match_points not in Season.MatchPoints.values:
        raise ServiceError("match_points_unknown", "match_points")
    try:
        rule_set = engine.rules_from_json({"preset": rules, **(rule_options or {})})
    except engine.RulesError as error:
        raise ServiceError(error.code, "rules") from None
    problems = engine.check_table(3, engine.ListSystem(scoring), rule_set)
    if problems:
        raise ServiceError(problems[0].code, "scoring")
    if season.pk is not None:
        # Its tournaments show the season: their rows first, the season's after (the order
        # of every writing service), then the signal raises them.
        lock_tournaments(season=season.pk)
    season.name, season.year = name, year
    season.ranking, season.ranking_series = ranking, ranking_series
    season.rules, season.rule_options, season.scoring = rules, rule_set.changes(), scoring
    season.match_points, season.language = match_points, language
    season.save()
    return season


@transaction.atomic
def save_team(
    season: Season, team: Team | None, *, name: str, club: str = "", players: Iterable[Player] = ()
) -> Team:
    """Create a team of ``season`` or change one: its name, club and players."""
    name = one_line(name)
    if not name:
        raise ServiceError("team_name_missing", "name")
    others = Team.objects.filter(season=season, name__iexact=name)
    if team is not None:
        others = others.exclude(pk=team.pk)
    if others.exists():
        raise ServiceError("team_name_taken", "name")
    if team is not None:
        lock_tournaments(registrations__team=team.pk)
    team = team or Team(season=season)
    team.name, team.club = name, _club(club)
    team.save()
    team.players.set(list(players))
    return team

"""The tournament archive ``skatliga-archive/1``: load a document into the database, dump one.

:func:`load_archive` checks a parsed document completely before it writes anything: every
problem is collected with the path of the offending value (``series[1].tables[0].games[17].bid``)
and a stable code, and :class:`ArchiveError` carries them all. A valid document is written in
one transaction. Games are read and written in the engine's game shape (``scoring.shape``) and
scored once each by the engine, through ``services``.
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import json
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

import scoring
from skatliga import bulk, revisions, services, statements
from skatliga.messages import message
from skatliga.models import (
    Change,
    Club,
    Game,
    ListResult,
    ListSystem,
    Player,
    Registration,
    RuleSetName,
    Season,
    Seat,
    Series,
    Table,
    Team,
    Tournament,
)
from skatliga.services import GameEntry, ServiceError

FORMAT = "skatliga-archive/1"
DEFAULT_RULES = RuleSetName.ISKO.value
DEFAULT_SCORING = ListSystem.SEEGER_FABIAN.value
DEFAULT_ROUNDS = 12
MOST_ROUNDS = 30
MOST_NUMBER = 32767
"""Series and table numbers are stored as small integers."""
COMPUTED = "computed"
"""Derived numbers an export adds per game and per list; import ignores them."""

DOCUMENT_KEYS = ("format", "tournament", "players", "series")
TOURNAMENT_KEYS = ("name", "date", "venue", "rules", "scoring", "rounds_per_series")
PLAYER_KEYS = ("id", "name", "club", "number")
SERIES_KEYS = ("number", "tables")
TABLE_KEYS = ("number", "seats", "substitutes", "games", COMPUTED)
SUBSTITUTE_KEYS = ("seat", "player", "from_game")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_BATCH = 5000


@dataclass(frozen=True, slots=True)
class ArchiveProblem:
    """One problem of a document: where (``path``), what (``code``), and ``params``."""

    path: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The problem in the active language, with the offending value where there is one."""
        text = message(self.code, **self.params)
        if "value" in self.params:
            text += " (" + json.dumps(self.params["value"], ensure_ascii=False) + ")"
        return text

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ArchiveError(Exception):
    """A document that cannot be loaded; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[ArchiveProblem]) -> None:
        super().__init__("; ".join(str(p) for p in problems[:3]))
        self.problems = tuple(problems)


# --- reading ---------------------------------------------------------------------------------


@dataclass
class _Player:
    id: str
    name: str
    club: str
    number: str
    path: str
    existing: int | None = None
    """The primary key of the database's player this one is, if known already."""


@dataclass
class _Table:
    number: int
    seats: list[str]
    games: list[tuple[GameEntry, scoring.Entry]]
    substitutes: dict[int, tuple[str, int]] = field(default_factory=dict)
    """Seat position → (player id, first game) of each substitute (SkWO 4.4)."""


@dataclass
class _Series:
    number: int
    tables: list[_Table]


@dataclass
class _Document:
    name: str
    date: datetime.date
    venue: str
    rules: scoring.RuleSet
    scoring: str
    rounds: int
    players: list[_Player]
    series: list[_Series]


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _chunks(items: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class _Reader:
    """Reads a parsed document into plain objects, collecting every problem on the way."""

    def __init__(self) -> None:
        self.problems: list[ArchiveProblem] = []
        self.player_ids: set[str] = set()
        self.system: scoring.ListSystem | None = None

    def add(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(ArchiveProblem(path, code, params))

    # Small readers: each reports its own problems and returns None where the value is bad.

    def object(
        self, value: object, path: str, keys: Sequence[str], required: Sequence[str] = ()
    ) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add(path, "not_an_object")
            return None
        for key in value:
            if key not in keys:
                self.add(_key(path, str(key)), "unknown_key")
        for key in required:
            if value.get(key) is None:
                self.add(_key(path, key), "required")
        return value

    def list(self, data: Mapping[str, Any], key: str, path: str) -> list[Any] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            self.add(_key(path, key), "not_a_list")
            return None
        return value

    def text(
        self,
        data: Mapping[str, Any],
        key: str,
        path: str,
        most: int,
        *,
        clean: bool = True,
        required: bool = False,
    ) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        path = _key(path, key)
        if not isinstance(value, str):
            self.add(path, "wrong_type", value=value)
            return None
        if "\x00" in value:
            self.add(path, "invalid_characters")
            return None
        if clean:
            value = " ".join(value.split())
        if required and not value:
            self.add(path, "empty")
            return None
        if len(value) > most:
            self.add(path, "too_long", most=most)
            return None
        return value

    def integer(
        self, data: Mapping[str, Any], key: str, path: str, low: int, high: int, code: str
    ) -> int | None:
        value = data.get(key)
        if value is None:
            return None
        path = _key(path, key)
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "wrong_type", value=value)
            return None
        if not low <= value <= high:
            self.add(path, code, value=value)
            return None
        return value

    def choice(
        self, data: Mapping[str, Any], key: str, path: str, choices: Sequence[str], code: str
    ) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.add(_key(path, key), "wrong_type", value=value)
            return None
        if value not in choices:
            self.add(_key(path, key), code, value=value)
            return None
        return value

    # The document, top down.

    def document(self, data: object) -> _Document | None:
        if not isinstance(data, dict):
            self.add("", "not_an_object")
            return None
        if data.get("format") is None:
            self.add("format", "required")
        elif data["format"] != FORMAT:
            self.add("format", "unknown_format", value=data["format"])
        if self.problems:
            # Not this format: its other problems would only be noise.
            return None
        root = self.object(data, "", DOCUMENT_KEYS, required=("tournament", "players", "series"))
        assert root is not None
        tournament = self.tournament(root.get("tournament"))
        players = self.players(root.get("players"))
        rules = tournament["rules"]
        series = self.series(root.get("series"), rules, tournament["rounds"])
        if self.problems:
            return None
        return _Document(players=players, series=series, **tournament)

    def tournament(self, value: object) -> dict[str, Any]:
        path = "tournament"
        data = {} if value is None else self.object(value, path, TOURNAMENT_KEYS, ("name", "date"))
        if data is None:
            data = {}
        date = None
        raw_date = data.get("date")
        if isinstance(raw_date, str) and _DATE.fullmatch(raw_date):
            with contextlib.suppress(ValueError):
                date = datetime.date.fromisoformat(raw_date)
        if date is None and raw_date is not None:
            self.add(_key(path, "date"), "invalid_date", value=raw_date)
        rules: scoring.RuleSet | None = scoring.get_rules(DEFAULT_RULES)
        system, rounds = DEFAULT_SCORING, DEFAULT_ROUNDS
        if data.get("rules") is not None:
            try:
                rules = scoring.rules_from_json(data["rules"])
            except scoring.RulesError as error:
                field = "rules" if error.field is None else f"rules.{error.field}"
                self.add(_key(path, field), error.code)
                rules = None
        if data.get("scoring") is not None:
            system = self.choice(data, "scoring", path, ListSystem.values, "unknown_scoring")
        self.system = scoring.ListSystem(system) if system in ListSystem.values else None
        if rules is not None and self.system is not None:
            for problem in scoring.check_table(3, self.system, rules):
                self.add(_key(path, "rules"), problem.code)
        if data.get("rounds_per_series") is not None:
            rounds = self.integer(
                data, "rounds_per_series", path, 1, MOST_ROUNDS, "rounds_out_of_range"
            )
        return {
            "name": self.text(data, "name", path, 160, required=True),
            "date": date,
            "venue": self.text(data, "venue", path, 160) or "",
            "rules": rules,
            "scoring": system,
            "rounds": rounds,
        }

    def players(self, value: object) -> list[_Player]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add("players", "not_a_list")
            return []
        players = []
        for index, item in enumerate(value):
            path = f"players[{index}]"
            data = self.object(item, path, PLAYER_KEYS, required=("id", "name"))
            if data is None:
                continue
            player_id = self.text(data, "id", path, 200, clean=False, required=True)
            name = self.text(data, "name", path, 120, required=True)
            club = self.text(data, "club", path, 120) or ""
            number = self.text(data, "number", path, 32) or ""
            if player_id is None:
                continue
            if player_id in self.player_ids:
                self.add(_key(path, "id"), "duplicate_player_id", value=player_id)
                continue
            self.player_ids.add(player_id)
            if name is not None:
                players.append(_Player(player_id, name, club, number, path))
        self.match(players)
        return players

    def match(self, players: list[_Player]) -> None:
        """Find the database's players among ``players``; two entries for one person are a problem.

        A player is known by his number where he has one, else by name and club.
        """
        numbers = [p.number for p in players if p.number]
        by_number: dict[str, int] = {}
        table, number = statements.table_of(Player), statements.column(Player, "number")
        with connection.cursor() as cursor:
            # Numbers are unique among players: a plain statement, without the query compiler.
            for chunk in _chunks(numbers):
                marks = ", ".join(["%s"] * len(chunk))
                cursor.execute(
                    f"SELECT {number}, {statements.column(Player, 'id')} FROM {table} "
                    f"WHERE {number} IN ({marks})",
                    list(chunk),
                )
                by_number.update(cursor.fetchall())
        names = sorted({p.name for p in players if not p.number})
        by_name: dict[tuple[str, str], int] = {}
        for chunk in _chunks(names):
            rows = Player.objects.filter(name__in=chunk).order_by("pk")
            for pk, name, club in rows.values_list("pk", "name", "club__name"):
                by_name.setdefault((name, club or ""), pk)
        seen: dict[tuple[object, ...], str] = {}
        for player in players:
            if player.number:
                player.existing = by_number.get(player.number)
                identity: tuple[object, ...] = ("number", player.number)
                path = _key(player.path, "number")
            else:
                player.existing = by_name.get((player.name, player.club))
                identity = ("name", player.name, player.club)
                path = player.path
            if player.existing is not None:
                identity = ("pk", player.existing)
            if identity in seen:
                self.add(path, "duplicate_player", other=seen[identity])
            else:
                seen[identity] = player.id

    def series(
        self, value: object, rules: scoring.RuleSet | None, rounds: int | None
    ) -> list[_Series]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add("series", "not_a_list")
            return []
        result = []
        numbers: set[int] = set()
        for index, item in enumerate(value):
            path = f"series[{index}]"
            data = self.object(item, path, SERIES_KEYS, required=("number", "tables"))
            if data is None:
                continue
            number = self.integer(data, "number", path, 1, MOST_NUMBER, "series_number_invalid")
            if number is not None:
                if number in numbers:
                    self.add(_key(path, "number"), "series_number_taken", value=number)
                numbers.add(number)
            tables = self.tables(data, path, rules, rounds)
            result.append(_Series(number or 0, tables))
        return result

    def tables(
        self,
        series: Mapping[str, Any],
        series_path: str,
        rules: scoring.RuleSet | None,
        rounds: int | None,
    ) -> list[_Table]:
        result = []
        numbers: set[int] = set()
        seated: dict[str, object] = {}
        for index, item in enumerate(self.list(series, "tables", series_path) or []):
            path = f"{series_path}.tables[{index}]"
            data = self.object(item, path, TABLE_KEYS, required=("number", "seats"))
            if data is None:
                continue
            number = self.integer(data, "number", path, 1, MOST_NUMBER, "table_number_invalid")
            if number is not None:
                if number in numbers:
                    self.add(_key(path, "number"), "table_number_taken", value=number)
                numbers.add(number)
            seats = self.seats(data, path, seated, number)
            games = self.games(data, path, seats, rules, rounds)
            substitutes = self.substitutes(data, path, seats, seated, number, rounds)
            result.append(_Table(number or 0, seats or [], games, substitutes))
        return result

    def substitutes(
        self,
        table: Mapping[str, Any],
        path: str,
        seats: list[str] | None,
        seated: dict[str, object],
        number: int | None,
        rounds: int | None,
    ) -> dict[int, tuple[str, int]]:
        """The optional ``substitutes`` of a table: who took which seat over from which game;
        nobody seated in the series, one per seat, from game 2 to the last of the list."""
        result: dict[int, tuple[str, int]] = {}
        for index, item in enumerate(self.list(table, "substitutes", path) or []):
            item_path = f"{path}.substitutes[{index}]"
            data = self.object(item, item_path, SUBSTITUTE_KEYS, SUBSTITUTE_KEYS)
            if data is None or seats is None:
                continue
            seat = self.integer(data, "seat", item_path, 1, len(seats), "substitute_seat_invalid")
            last = (rounds or 0) * len(seats)
            first = data.get("from_game")
            if first is not None and (
                not isinstance(first, int) or isinstance(first, bool) or not 2 <= first <= last
            ):
                self.add(
                    _key(item_path, "from_game"),
                    "substitute_game_out_of_range",
                    value=first,
                    last=last,
                )
                first = None
            player = data.get("player")
            if player is None:
                continue
            if not isinstance(player, str) or player not in self.player_ids:
                self.add(_key(item_path, "player"), "unknown_player", value=player)
                continue
            if player in seated:
                self.add(
                    _key(item_path, "player"),
                    "substitute_seated",
                    player=player,
                    table=seated[player],
                )
                continue
            if seat is None or first is None:
                continue
            if seat in result:
                self.add(_key(item_path, "seat"), "substitute_seat_taken", value=seat)
                continue
            seated[player] = "?" if number is None else number
            result[seat] = (player, first)
        return result

    def seats(
        self, table: Mapping[str, Any], path: str, seated: dict[str, object], number: int | None
    ) -> list[str] | None:
        raw = self.list(table, "seats", path)
        if raw is None:
            return None
        valid = len(raw) in scoring.TABLE_SIZES
        if not valid:
            self.add(_key(path, "seats"), "table_size_invalid", count=len(raw))
        elif self.system is not None:
            for problem in scoring.check_table(len(raw), self.system):
                self.add(_key(path, "seats"), problem.code)
                valid = False
        seats = []
        for index, player_id in enumerate(raw):
            seat_path = f"{path}.seats[{index}]"
            if not isinstance(player_id, str):
                self.add(seat_path, "wrong_type", value=player_id)
            elif player_id not in self.player_ids:
                self.add(seat_path, "unknown_player", value=player_id)
            elif player_id in seated:
                self.add(
                    seat_path, "player_already_seated", value=player_id, table=seated[player_id]
                )
            else:
                seated[player_id] = "?" if number is None else number
                seats.append(player_id)
                continue
            valid = False
        return seats if valid else None

    def games(
        self,
        table: Mapping[str, Any],
        path: str,
        seats: list[str] | None,
        rules: scoring.RuleSet | None,
        rounds: int | None,
    ) -> list[tuple[GameEntry, scoring.ScoredGame | None]]:
        raw = self.list(table, "games", path)
        if raw is None:
            return []
        if seats is not None and rounds is not None and len(raw) > rounds * len(seats):
            self.add(
                _key(path, "games"), "too_many_games", count=len(raw), most=rounds * len(seats)
            )
        games = []
        for index, item in enumerate(raw):
            game = self.game(item, f"{path}.games[{index}]", index + 1, seats, rules)
            if game is not None:
                games.append(game)
        return games

    def game(
        self,
        data: object,
        path: str,
        number: int,
        seats: list[str] | None,
        rules: scoring.RuleSet | None,
    ) -> tuple[GameEntry, scoring.Entry] | None:
        try:
            parsed = scoring.parse_game(data, _GAME_EXTRA_KEYS)
        except scoring.ShapeError as error:
            params = _value(data, error.field) if error.code != "unknown_key" else {}
            self.add(_key(path, error.field) if error.field else path, error.code, **params)
            return None
        if parsed is None:
            return GameEntry(), None
        assert isinstance(data, dict)
        if isinstance(parsed, scoring.Ramsch):
            if rules is None or seats is None:
                return None
            ramsch = GameEntry(ramsch=parsed)
            try:
                return ramsch, services.score_entry(ramsch, number, len(seats), rules)
            except ServiceError as error:
                for problem in error.problems:
                    field = (problem.field or "ramsch").replace("ramsch_", "ramsch.")
                    self.add(_key(path, field), problem.code)
                return None
        declaration, outcome = parsed
        declarer = data.get("declarer")
        position = None
        if declarer is None:
            self.add(_key(path, "declarer"), "required")
        elif declarer not in self.player_ids:
            self.add(_key(path, "declarer"), "unknown_player", value=declarer)
        elif seats is not None:
            if declarer in seats:
                position = seats.index(declarer) + 1
            else:
                self.add(_key(path, "declarer"), "declarer_not_at_table", value=declarer)
        if rules is None:
            return None
        entry = GameEntry(position, declaration, outcome)
        try:
            if seats is None:
                scoring.score_game(declaration, outcome, rules)
                return None
            return entry, services.score_entry(entry, number, len(seats), rules)
        except scoring.InvalidGame as invalid:
            problems: Sequence[scoring.Problem] = invalid.problems
        except ServiceError as error:
            problems = error.problems
        for problem in problems:
            if problem.code == "declarer_missing" and position is None:
                continue
            self.add(
                _key(path, problem.field) if problem.field else path,
                problem.code,
                **_value(data, problem.field),
            )
        return None


_GAME_EXTRA_KEYS = frozenset((COMPUTED,))


def _value(data: object, key: str | None) -> dict[str, Any]:
    """``{"value": ...}``: the offending value, for the message, where there is one."""
    if isinstance(data, dict) and key is not None and data.get(key) is not None:
        return {"value": data[key]}
    return {}


def _read_archive(data: object) -> _Document:
    """The document, checked completely; :class:`ArchiveError` with every problem found."""
    reader = _Reader()
    document = reader.document(data)
    if reader.problems or document is None:
        raise ArchiveError(reader.problems)
    return document


# --- writing ---------------------------------------------------------------------------------


def load_archive(
    data: object,
    *,
    season: Season | None = None,
    match_day: int | None = None,
    teams: Mapping[str, Team] | None = None,
    user: services.User = None,
    once: bool = False,
) -> Tournament:
    """Create the tournament of a parsed ``skatliga-archive/1`` document, all or nothing.

    The whole document is checked first; :class:`ArchiveError` lists every problem and
    nothing is saved. ``season`` and ``match_day`` place the tournament in a league;
    ``teams`` gives the team a player (by his id in the document) plays for. With ``once``,
    a document whose tournament (name, date, venue) is here already is refused
    (``already_imported``), so that importing it again takes a deliberate second step.
    A finished tournament (every list complete) is published.
    """
    with _collector_paused():
        return _load(data, season, match_day, teams, user, once)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: an import makes tens of thousands of small objects
    and frees none before it ends, and the collector would only scan them again and again
    (an eighth of an import's time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load(
    data: object,
    season: Season | None,
    match_day: int | None,
    teams: Mapping[str, Team] | None,
    user: services.User,
    once: bool,
) -> Tournament:
    document = _read_archive(data)
    if once:
        existing = Tournament.objects.filter(
            name=document.name, date=document.date, venue=document.venue
        ).first()
        if existing is not None:
            raise ArchiveError(
                [
                    ArchiveProblem(
                        path="tournament", code="already_imported", params={"slug": existing.slug}
                    )
                ]
            )
    with transaction.atomic():
        return _write(
            document,
            season,
            match_day,
            teams or {},
            user if user is not None and user.is_authenticated else None,
        )


def _write(
    document: _Document,
    season: Season | None,
    match_day: int | None,
    teams: Mapping[str, Team],
    user: Any,
) -> Tournament:
    players = _create_players(document.players)
    now = timezone.now()
    complete = [
        len(table.games) == document.rounds * len(table.seats)
        for series in document.series
        for table in series.tables
    ]
    game_count = sum(len(t.games) for s in document.series for t in s.tables)
    if complete and all(complete):
        status = Tournament.Status.FINISHED
    elif game_count:
        status = Tournament.Status.RUNNING
    else:
        status = Tournament.Status.PLANNED
    tournament = Tournament.objects.create(
        name=document.name,
        slug=_unique_slug(document.name, document.date),
        date=document.date,
        venue=document.venue,
        season=season,
        match_day=match_day,
        rules=document.rules.preset,
        rule_options=document.rules.changes(),
        scoring=document.scoring,
        rounds_per_series=document.rounds,
        status=status,
    )
    team_ids = {players[p.id]: teams[p.id].pk for p in document.players if p.id in teams}
    # A player who only took a seat over during a list is not a participant: not registered.
    seated = {p for s in document.series for t in s.tables for p in t.seats}
    only_substitutes = {
        player
        for s in document.series
        for t in s.tables
        for player, _first in t.substitutes.values()
        if player not in seated
    }
    # Nobody needs the registrations' ids: written in the bulk path, without model instances.
    bulk.insert(
        Registration,
        [
            {
                "tournament_id": tournament.pk,
                "player_id": players[p.id],
                "team_id": team_ids.get(players[p.id]),
            }
            for p in document.players
            if p.id not in only_substitutes
        ],
    )
    # Plain statements (the query compiler cost more than the database, here and below).
    series_rows = statements.create_all(
        [Series(tournament=tournament, number=s.number) for s in document.series]
    )
    tables = statements.create_all(
        [
            Table(
                series=series_row,
                number=table.number,
                size=len(table.seats),
                closed_at=now if len(table.games) == document.rounds * len(table.seats) else None,
            )
            for series_row, series in zip(series_rows, document.series, strict=True)
            for table in series.tables
        ]
    )
    read_tables = [table for series in document.series for table in series.tables]
    bulk.insert(
        Seat,
        [
            {
                "table_id": row.pk,
                "series_id": row.series_id,
                "position": position,
                "player_id": players[player_id],
                "substitute_id": players[table.substitutes[position][0]]
                if position in table.substitutes
                else None,
                "substitute_from": table.substitutes[position][1]
                if position in table.substitutes
                else None,
            }
            for row, table in zip(tables, read_tables, strict=True)
            for position, player_id in enumerate(table.seats, start=1)
        ],
    )
    system = scoring.ListSystem(document.scoring)
    batch: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for row, table in zip(tables, read_tables, strict=True):
        size = len(table.seats)
        for number, (entry, scored) in enumerate(table.games, start=1):
            game = services.game_values(entry, scored)
            game.update(table_id=row.pk, number=number, table_size=size)
            batch.append(game)
        if len(batch) >= _BATCH:
            bulk.insert(Game, batch)
            batch = []
        sittings = []
        for position, player in enumerate(table.seats, start=1):
            substitute, first = table.substitutes.get(position, (None, None))
            sittings.append(
                services.Sitting(
                    position,
                    players[player],
                    team_ids.get(players[player]),
                    None if substitute is None else players[substitute],
                    first,
                )
            )
        rows = [
            services.list_row(number, entry.declarer, scored, size)
            for number, (entry, scored) in enumerate(table.games, start=1)
        ]
        lines = services.result_lines(rows, sittings, size, system, document.rules)
        # The columns of services.list_results, as plain rows (no model instance each).
        results += [
            {
                "table_id": row.pk,
                "series_id": row.series_id,
                "tournament_id": tournament.pk,
                "season_id": tournament.season_id,
                "player_id": line.player,
                "team_id": line.team,
                "position": line.position,
                "game_points": line.summary.game_points,
                "won": line.summary.won,
                "lost": line.summary.lost,
                "others_lost": line.summary.others_lost,
                "bonus": line.summary.bonus,
                "total": line.summary.total,
            }
            for line in lines
        ]
    bulk.insert(Game, batch)
    bulk.insert(ListResult, results)
    statements.insert(
        Change(
            user=user,
            tournament=tournament,
            action=Change.Action.IMPORTED,
            after={
                "format": FORMAT,
                "players": len(document.players),
                "series": len(document.series),
                "tables": len(tables),
                "games": game_count,
            },
        )
    )
    published = []
    if status == Tournament.Status.FINISHED:
        # A finished tournament's lists are all closed: its results are final.
        published = services.publish_complete_series(tournament, user=user)
    if not published:
        # Publishing raised the revisions already, in this transaction.
        revisions.touch(tournament)
    return tournament


def _create_players(players: Sequence[_Player]) -> dict[str, int]:
    """The database's player id for every player of the document, creating those not known."""
    new = [p for p in players if p.existing is None]
    club_names = sorted({p.club for p in new if p.club})
    clubs: dict[str, int] = {}
    for chunk in _chunks(club_names):
        clubs.update(Club.objects.filter(name__in=chunk).values_list("name", "pk"))
    created = Club.objects.bulk_create(Club(name=name) for name in club_names if name not in clubs)
    clubs.update((club.name, club.pk) for club in created)
    rows = Player.objects.bulk_create(
        Player(name=p.name, club_id=clubs.get(p.club), number=p.number) for p in new
    )
    ids = {p.id: row.pk for p, row in zip(new, rows, strict=True)}
    ids.update((p.id, p.existing) for p in players if p.existing is not None)
    return ids


def _unique_slug(name: str, date: datetime.date) -> str:
    base = slugify(f"{name} {date.isoformat()}")[:72].strip("-") or "turnier"
    # The slug and every "<base>-…" in one statement, by the slug's index on both databases:
    # PostgreSQL's LIKE uses its pattern index, SQLite's GLOB (case-sensitive) its unique
    # index. A slug is [-a-z0-9_]: no wildcard of GLOB; LIKE's "_" only finds a few more.
    table, slug = statements.table_of(Tournament), statements.column(Tournament, "slug")
    pattern = "GLOB %s" if connection.vendor == "sqlite" else "LIKE %s"
    wildcard = "*" if connection.vendor == "sqlite" else "%"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {slug} FROM {table} WHERE {slug} = %s OR {slug} {pattern}",
            [base, f"{base}-{wildcard}"],
        )
        taken = {row[0] for row in cursor.fetchall()}
    if base not in taken:
        return base
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"


# --- dumping ---------------------------------------------------------------------------------


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
        .iterator(chunk_size=_BATCH)
    ):
        games[game.table_id].append(game_json(game, seated[game.table_id]))
    tables: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for table in Table.objects.filter(series__tournament=tournament).order_by("number"):
        listed: dict[str, Any] = {"number": table.number, "seats": seated[table.pk]}
        if substitutes[table.pk]:
            listed["substitutes"] = substitutes[table.pk]
        tables[table.series_id].append(
            listed | {"games": games[table.pk], COMPUTED: results[table.pk]}
        )
    head: dict[str, Any] = {"name": tournament.name, "date": tournament.date.isoformat()}
    if tournament.venue:
        head["venue"] = tournament.venue
    head |= {
        "rules": scoring.rules_to_json(tournament.rule_set),
        "scoring": tournament.scoring,
        "rounds_per_series": tournament.rounds_per_series,
    }
    return {
        "format": FORMAT,
        "tournament": head,
        "players": players,
        "series": [
            {"number": series.number, "tables": tables[series.pk]}
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
    if game.passed or entry.ramsch is not None:
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

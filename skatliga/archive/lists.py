"""Reading a series' lists from an archive document: tables, seats, substitutes and games,
each game scored by the engine through ``services`` as it is read."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import scoring
from skatliga import services
from skatliga.archive.calls import read_calls, read_objections
from skatliga.archive.document import (
    GAME_EXTRA_KEYS,
    SUBSTITUTE_KEYS,
    TABLE_KEYS,
    Checks,
    ReadTable,
    path_of,
    value_of,
)
from skatliga.services import GameEntry, ServiceError


class ListReader(Checks):
    """Reads the tables of a series; ``player_ids`` are the document's players, ``system`` its
    list system (None: not known)."""

    def __init__(self) -> None:
        super().__init__()
        self.player_ids: set[str] = set()
        self.system: scoring.ListSystem | None = None
        self.on_table: Callable[[], None] | None = None
        """Called after each table read: how far a long import is."""

    def tables(
        self,
        series: Mapping[str, Any],
        series_path: str,
        rules: scoring.RuleSet | None,
        rounds: int | None,
    ) -> list[ReadTable]:
        result = []
        numbers: set[int] = set()
        seated: dict[str, object] = {}
        for index, item in enumerate(self.list(series, "tables", series_path) or []):
            path = f"{series_path}.tables[{index}]"
            data = self.object(item, path, TABLE_KEYS, required=("number", "seats"))
            if data is None:
                continue
            number = self.numbered(data, path, numbers, "table")
            seats = self.seats(data, path, seated, number)
            games = self.games(data, path, seats, rules, rounds)
            substitutes = self.substitutes(data, path, seats, seated, number, rounds)
            calls = read_calls(self, data, path)
            objections = read_objections(self, data, path, len(seats or []), len(games))
            result.append(
                ReadTable(number or 0, seats or [], games, substitutes, calls, objections)
            )
            if self.on_table is not None:
                self.on_table()
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
                    path_of(item_path, "from_game"),
                    "substitute_game_out_of_range",
                    value=first,
                    last=last,
                )
                first = None
            player = data.get("player")
            if player is None:
                continue
            if not isinstance(player, str) or player not in self.player_ids:
                self.add(path_of(item_path, "player"), "unknown_player", value=player)
                continue
            if player in seated:
                self.add(
                    path_of(item_path, "player"),
                    "substitute_seated",
                    player=player,
                    table=seated[player],
                )
                continue
            if seat is None or first is None:
                continue
            if seat in result:
                self.add(path_of(item_path, "seat"), "substitute_seat_taken", value=seat)
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
            self.add(path_of(path, "seats"), "table_size_invalid", count=len(raw))
        elif self.system is not None:
            for problem in scoring.check_table(len(raw), self.system):
                self.add(path_of(path, "seats"), problem.code)
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
    ) -> list[tuple[GameEntry, scoring.Entry]]:
        raw = self.list(table, "games", path)
        if raw is None:
            return []
        if seats is not None and rounds is not None and len(raw) > rounds * len(seats):
            self.add(
                path_of(path, "games"), "too_many_games", count=len(raw), most=rounds * len(seats)
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
            parsed = scoring.parse_game(data, GAME_EXTRA_KEYS)
        except scoring.ShapeError as error:
            params = value_of(data, error.field) if error.code != "unknown_key" else {}
            self.add(path_of(path, error.field) if error.field else path, error.code, **params)
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
                    self.add(path_of(path, field), problem.code)
                return None
        declaration, outcome = parsed
        declarer = data.get("declarer")
        position = None
        if declarer is None:
            self.add(path_of(path, "declarer"), "required")
        elif declarer not in self.player_ids:
            self.add(path_of(path, "declarer"), "unknown_player", value=declarer)
        elif seats is not None:
            if declarer in seats:
                position = seats.index(declarer) + 1
            else:
                self.add(path_of(path, "declarer"), "declarer_not_at_table", value=declarer)
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
                path_of(path, problem.field) if problem.field else path,
                problem.code,
                **value_of(data, problem.field),
            )
        return None

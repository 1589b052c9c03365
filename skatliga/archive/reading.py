"""Reading an archive document: the whole document is checked before anything is written,
every problem collected with the path of the offending value
(``series[1].tables[0].games[17].bid``) and a stable code; :class:`ArchiveError` carries
them all."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from typing import Any

import scoring
from skatliga.archive.calls import read_moment
from skatliga.archive.document import (
    DATE,
    DEFAULT_ROUNDS,
    DEFAULT_RULES,
    DEFAULT_SCORING,
    DOCUMENT_KEYS,
    FORMAT,
    MOST_ROUNDS,
    PLAYER_KEYS,
    SERIES_KEYS,
    TIME,
    TOURNAMENT_KEYS,
    ArchiveError,
    Document,
    ReadPlayer,
    ReadSeries,
    chunks,
    path_of,
)
from skatliga.archive.lists import ListReader
from skatliga.models import ListSystem, Player
from skatliga.models.tournaments import OBJECTION_MINUTES_MOST


class Reader(ListReader):
    """Reads a parsed document into plain objects, collecting every problem on the way."""

    def document(self, data: object) -> Document | None:
        if not isinstance(data, dict):
            self.add("", "not_an_object")
            return None
        if data.get("format") is None:
            self.add("format", "required")
        elif data["format"] != FORMAT:
            self.add("format", "unknown_format", value=data["format"])
        root = self.object(data, "", DOCUMENT_KEYS, required=("tournament", "players", "series"))
        assert root is not None
        tournament = self.tournament(root.get("tournament"))
        players = self.players(root.get("players"))
        rules = tournament["rules"]
        series = self.series(root.get("series"), rules, tournament["rounds"])
        if self.problems:
            return None
        return Document(players=players, series=series, **tournament)

    def tournament(self, value: object) -> dict[str, Any]:
        path = "tournament"
        data = {} if value is None else self.object(value, path, TOURNAMENT_KEYS, ("name", "date"))
        if data is None:
            data = {}
        date = None
        raw_date = data.get("date")
        if isinstance(raw_date, str) and DATE.fullmatch(raw_date):
            with contextlib.suppress(ValueError):
                date = datetime.date.fromisoformat(raw_date)
        if date is None and raw_date is not None:
            self.add(path_of(path, "date"), "invalid_date", value=raw_date)
        rules: scoring.RuleSet | None = scoring.get_rules(DEFAULT_RULES)
        system: str | None = DEFAULT_SCORING
        rounds: int | None = DEFAULT_ROUNDS
        if data.get("rules") is not None:
            try:
                rules = scoring.rules_from_json(data["rules"])
            except scoring.RulesError as error:
                field = "rules" if error.field is None else f"rules.{error.field}"
                self.add(path_of(path, field), error.code)
                rules = None
        if data.get("scoring") is not None:
            system = self.choice(data, "scoring", path, ListSystem.values, "unknown_scoring")
        self.system = scoring.ListSystem(system) if system in ListSystem.values else None
        if rules is not None and self.system is not None:
            for problem in scoring.check_table(3, self.system, rules):
                self.add(path_of(path, "rules"), problem.code)
        if data.get("rounds_per_series") is not None:
            rounds = self.integer(
                data, "rounds_per_series", path, 1, MOST_ROUNDS, "rounds_out_of_range"
            )
        starts_at = None
        raw_time = data.get("starts_at")
        if isinstance(raw_time, str) and TIME.fullmatch(raw_time):
            with contextlib.suppress(ValueError):
                starts_at = datetime.time.fromisoformat(raw_time)
        if starts_at is None and raw_time is not None:
            self.add(path_of(path, "starts_at"), "invalid_time", value=raw_time)
        minutes = self.integer(
            data,
            "objection_minutes",
            path,
            0,
            OBJECTION_MINUTES_MOST,
            "objection_minutes_out_of_range",
        )
        return {
            "name": self.text(data, "name", path, 160, required=True),
            "date": date,
            "starts_at": starts_at,
            "venue": self.text(data, "venue", path, 160) or "",
            "address": self.text(data, "address", path, 200) or "",
            "objection_minutes": minutes or 0,
            "rules": rules,
            "scoring": system,
            "rounds": rounds,
        }

    def players(self, value: object) -> list[ReadPlayer]:
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
                self.add(path_of(path, "id"), "duplicate_player_id", value=player_id)
                continue
            self.player_ids.add(player_id)
            if name is not None:
                players.append(ReadPlayer(player_id, name, club, number, path))
        self.match(players)
        return players

    def match(self, players: list[ReadPlayer]) -> None:
        """Find the database's players among ``players``; two entries for one person are a problem.

        A player is known by his number where he has one, else by name and club.
        """
        numbers = [p.number for p in players if p.number]
        by_number: dict[str, int] = {}
        for chunk in chunks(numbers):
            # Numbers are unique among players.
            by_number.update(Player.objects.filter(number__in=chunk).values_list("number", "pk"))
        names = sorted({p.name for p in players if not p.number})
        by_name: dict[tuple[str, str], int] = {}
        for chunk in chunks(names):
            rows = Player.objects.filter(name__in=chunk).order_by("pk")
            for pk, name, club in rows.values_list("pk", "name", "club__name"):
                by_name.setdefault((name, club or ""), pk)
        seen: dict[tuple[object, ...], str] = {}
        for player in players:
            if player.number:
                player.existing = by_number.get(player.number)
                identity: tuple[object, ...] = ("number", player.number)
                path = path_of(player.path, "number")
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
    ) -> list[ReadSeries]:
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
            number = self.numbered(data, path, numbers, "series")
            until = read_moment(self, data, "objections_until", path)
            tables = self.tables(data, path, rules, rounds)
            result.append(ReadSeries(number or 0, tables, until or None))
        return result


def read_archive(data: object, on_table: Callable[[], None] | None = None) -> Document:
    """The document, checked completely; :class:`ArchiveError` with every problem found.

    ``on_table`` is called after each table read."""
    reader = Reader()
    reader.on_table = on_table
    document = reader.document(data)
    if reader.problems or document is None:
        raise ArchiveError(reader.problems)
    return document

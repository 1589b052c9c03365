"""Rankings over the metrics (``standings.metrics``): a ranking is the ordered tuple of
metric keys a standing shows and the metrics that rank it, as a ranking is in Tabbycat's
standings. Tournament, series, table, season, category and team standings, a player's lists,
the hall, the API and the command are each one :class:`Ranking` here; a row of any of them
becomes a record, a dict of its metrics' values (:meth:`Ranking.record`), django-tables2's own
shape for table data, sorted by its values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar, overload

from skatliga.standings.metrics import DECLARED, FIGURES, METRICS, Metric, Record

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Row = TypeVar("_Row", bound="DataclassInstance")


@dataclass(frozen=True)
class Ranking:
    """A standing's columns (metric keys, in order), the metrics that rank it, most
    significant first (an ``ascending`` metric ranks less higher), and the figures it marks
    (bold, and kept on a phone): by default the first that ranks."""

    columns: tuple[str, ...]
    precedence: tuple[str, ...] = ()
    marked: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        unknown = {*self.columns, *self.precedence, *self.marked} - set(METRICS)
        assert not unknown, unknown
        if not self.marked and self.precedence:
            object.__setattr__(self, "marked", self.precedence[:1])

    @property
    def metrics(self) -> list[Metric]:
        return [METRICS[key] for key in self.columns]

    def css(self, key: str) -> str:
        """A column's classes: ``number`` for a figure, ``total`` for one it marks, ``fold``
        where a phone leaves it out."""
        found = METRICS[key]
        parts = ["number"] if found.number else []
        if key in self.marked:
            parts.append("total")
        elif found.fold:
            parts.append("fold")
        return " ".join(parts)

    def record(self, row: Any) -> Record:
        """``row`` as its metrics read it (:data:`Record`), without the orders of its own
        that some metrics sort by (:meth:`with_orders`)."""
        record: Record = {"row": row}
        for key in self.columns:
            record[key] = METRICS[key].value(row)
        return record

    def with_orders(self, record: Record) -> Record:
        """``record`` with what a table sorts it by where a metric sorts by more than its
        value (``Metric.order``: names as German sorts them), made only for a sorted table."""
        for key in self.columns:
            order = METRICS[key].order(record[key])
            if order is not None:
                record[f"{key}_order"] = order
        return record

    def records(self, rows: Iterable[Any]) -> list[Record]:
        return [self.record(row) for row in rows]

    def api(self, rows: Iterable[Any]) -> list[dict[str, Any]]:
        """``rows`` as the API answers them: each metric's value under its key
        (``Metric.api``), the fields of the schema made from this ranking
        (``api.schemas.row_schema``)."""
        metrics = self.metrics
        answered = []
        for row in rows:
            record = self.record(row)
            answered.append({found.key: found.api(record) for found in metrics})
        return answered

    def ranked(self, rows: Iterable[_Row], name: Callable[[_Row], Any]) -> list[_Row]:
        """``rows`` (frozen dataclasses with a ``rank``) ordered by the precedence, then by
        ``name``, each with its rank: rows level on the whole precedence share it (1, 2,
        2, 4)."""
        signs = [1 if METRICS[key].ascending else -1 for key in self.precedence]

        def level(row: _Row) -> tuple[Any, ...]:
            return tuple(
                sign * METRICS[key].value(row)
                for sign, key in zip(signs, self.precedence, strict=True)
            )

        keyed = sorted(((level(row), name(row), row) for row in rows), key=lambda k: k[:2])
        ranks: list[int] = []
        for index, (found, _name, _row) in enumerate(keyed):
            ranks.append(ranks[-1] if index and keyed[index - 1][0] == found else index + 1)
        return [replace(row, rank=rank) for (_, _, row), rank in zip(keyed, ranks, strict=True)]


PLAYERS = Ranking(
    ("rank", "player", "club", "games", *FIGURES), precedence=("total", "won", "lost")
)
"""A standing of players: a table's, a series', a tournament's, a season's, a category's, a
team's players. Ranked by the grouped query (``models.ListResultQuerySet.standings``)."""
PLAYERS_WITH_LISTS = Ranking(
    ("rank", "player", "club", "lists", "games", *FIGURES), PLAYERS.precedence
)
"""As printed for a tournament or a season: with the series each played."""
AVERAGE = Ranking(
    ("rank", "player", "club", "lists", "games", *FIGURES, "average"),
    precedence=("average", "won", "lost"),
    marked=("total", "average"),
)
"""A season ranked by the average per series played."""
TEAMS = Ranking(
    ("rank", "team", "club", "series", "match_points", "match_points_against", "game_points"),
    precedence=("match_points", "game_points"),
    marked=("match_points", "game_points"),
)
"""A league table: match points, then Spielpunkte (docs/rules.md section 7)."""
DIVISION = Ranking(
    (
        "rank",
        "team",
        "club",
        "match_days",
        "series",
        "match_points",
        "match_points_against",
        "game_points",
    ),
    precedence=("match_points", "game_points"),
    marked=("match_points", "game_points"),
)
"""A division's table (``standings.league``): match points for and against, then game
points, then the league's tie rule (``standings.league.tie_ranking``; docs/rules.md 11.6)."""
GROUP = Ranking(
    ("rank", "team", "series_results", "match_points", "game_points"),
    precedence=("match_points", "game_points"),
    marked=("match_points", "game_points"),
)
"""A group's match-day table: each series' match points, their sum, the game points."""
API_DIVISION = Ranking(
    (
        "rank",
        "team_id",
        "team",
        "club",
        "match_days",
        "series",
        "match_points",
        "match_points_against",
        "match_points_text",
        "game_points",
        "head_to_head",
    )
)
"""A team's line in the API's division table."""
API_GROUP = Ranking(
    (
        "rank",
        "team_id",
        "team",
        "club",
        "series_results",
        "match_points",
        "match_points_against",
        "game_points",
    )
)
"""A team's line in a group of the API's schedule."""
HISTORY = Ranking(("tournament", "series_number", "table", *FIGURES), marked=("total",))
"""A player's lists, newest first."""
HALL = Ranking(("rank", "player", "club", *DECLARED, "total"), marked=("total",))
"""The hall display: large type, few columns."""
COMMAND = Ranking(("rank", "player", "club", *FIGURES))
"""``manage.py standings``: the keys are its CSV's headings and its JSON's names."""
API_PLAYERS = Ranking(
    ("rank", "player_id", "player", "club", "lists", "games", *FIGURES, "withdrawn", "average")
)
"""A player's line in the API's standings."""
API_TEAMS = Ranking(
    (
        "rank",
        "team_id",
        "team",
        "club",
        "series",
        "match_points",
        "match_points_against",
        "match_points_text",
        "game_points",
        "scheme",
        "scheme_text",
    )
)
"""A team's line in the API's league tables."""
RATINGS = Ranking(("rank", "player", "club", "rating", "lists"), marked=("rating",))
"""The public rating list (``models.PlayerRating``): highest first."""
API_RATINGS = Ranking(("rank", "player_id", "player", "club", "rating", "lists"))
"""A line of the API's rating list."""
API_LIST = Ranking(FIGURES)
"""A player's figures on one list (``ListResult``), in the API."""


class Records(Sequence[Record]):
    """``rows`` (a sequence, perhaps read a slice at a time) as records of ``ranking``:
    made when read, so that a paged table makes only its page's; sorting makes them all.
    The players in ``running`` play a list in progress (``running`` in their records)."""

    def __init__(
        self, rows: Sequence[Any], ranking: Ranking, running: frozenset[int] = frozenset()
    ) -> None:
        self.rows, self.ranking, self.running = rows, ranking, running
        self._all: list[Record] | None = None

    def _made(self, rows: Iterable[Any]) -> list[Record]:
        """The records of ``rows``, each saying under ``running`` whether its player plays
        a list in progress."""
        made = self.ranking.records(rows)
        for record in made:
            record["running"] = getattr(record["row"], "player_id", None) in self.running
        return made

    def __len__(self) -> int:
        return len(self.rows) if self._all is None else len(self._all)

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if self._all is not None:
            return self._all[index]
        if isinstance(index, slice):
            return self._made(self.rows[index])
        return self._made([self.rows[index]])[0]

    def __iter__(self) -> Iterator[Record]:
        return iter(self._all if self._all is not None else self._made(self.rows))

    def sort(self, *, key: Callable[[Record], Any], reverse: bool = False) -> None:
        """Order every record by ``key`` (a table sorted by a column)."""
        if self._all is None:
            self._all = self._made(self.rows)
        for record in self._all:
            self.ranking.with_orders(record)
        self._all.sort(key=key, reverse=reverse)

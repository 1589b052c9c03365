"""Per-list result rows and the standings grouped over them."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass
from fractions import Fraction
from typing import Any, overload

from django.db import connection, models
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Sum, Value, Window
from django.db.models.functions import Rank
from django.utils.translation import gettext_lazy as _

from skatliga.models.choices import Category
from skatliga.models.clubs import Club, Player, public_name
from skatliga.models.league import Season, Team
from skatliga.models.tournaments import Registration, Series, SeriesQuerySet, Table, Tournament

RESULT_FIGURES = ("game_points", "won", "lost", "others_lost", "bonus", "total")
"""The figures of a player's list (docs/rules.md section 5), in the order every table, PDF, export
and API answer shows them: each a field of ``ListResult``, summed in a standing."""

_SCOPE_PK, _LOTS_PK = 2_000_000_001, 2_000_000_002
"""Stand-ins for the scope's and the tournament's keys in SQL compiled once (``scoped_sql``)."""
_SCOPED_SQL: dict[Hashable, tuple[str, list[Any]]] = {}


class ListResultQuerySet(models.QuerySet["ListResult"]):
    """Result rows narrowed to a scope, and the standings over them.

    The rows of one series, tournament or season, narrowed by nothing else (``for_series``,
    ``for_tournament``, ``for_season`` on all rows), remember their scope: the statements over
    them are compiled by the ORM once per kind of scope and reused with the scope's key
    (:meth:`scoped_sql`), not compiled again on every request.

    The one place of the site's hand-written SQL beside the saves and the import: the
    grouped ranking (:meth:`standings`) and the team standing (:meth:`team_points`) wrap
    the ORM's grouped query in a statement that joins the names after the sums and places
    the teams with window functions. Measured on SQLite, the bench's small season (20
    match days, 64 players), best of 5 × 100: a tournament's ranking 0.48 ms reused, 4.8 ms
    compiled on each request, 2.2 ms as an ORM query grouped by the names (without the draw
    by lot); a season's 1.7 ms, 5.2 ms and 6.3 ms; the team standing 1.8 ms reused against
    2.0 ms compiled. The floor of the pages (``bench/run.py``) is set by these statements.
    """

    _fields: tuple[str, ...] | None
    """Django's own: the fields ``values()`` or ``values_list()`` asked for, else None."""
    _scope: tuple[str, int] | None = None
    """Set on the queryset ``for_…`` returns; a clone (any further filter, order or slice)
    has none, and its statements are compiled as usual."""

    def _scoped(self, field: str, pk: int) -> ListResultQuerySet:
        rows = self.filter(**{field: pk})
        query = self.query
        plain = not (
            query.where
            or query.annotations
            or query.is_sliced
            or query.distinct
            or query.combinator
            or query.extra
            or self._fields is not None
            or self.db != "default"
        )
        if plain:
            rows._scope = (field, pk)
        return rows

    def scoped_sql(
        self,
        name: Hashable,
        build: Callable[[ListResultQuerySet, int | None], tuple[str, Sequence[Any]]],
        lots_of: int | None = None,
    ) -> tuple[str, list[Any]]:
        """``build(rows, lots_of)``: a statement over these rows and its parameters.

        For rows with a scope, ``build`` runs once per ``name``, kind of scope and database
        (with stand-in keys), and its SQL is reused with this scope's key and ``lots_of``.
        """
        if self._scope is None:
            sql, params = build(self, lots_of)
            return sql, list(params)
        field, pk = self._scope
        key = (connection.vendor, name, field, lots_of is not None)
        found = _SCOPED_SQL.get(key)
        if found is None:
            template = ListResult.objects.all()._scoped(field, _SCOPE_PK)
            sql, params = build(template, None if lots_of is None else _LOTS_PK)
            found = _SCOPED_SQL[key] = (sql, list(params))
        sql, params = found
        keys = {_SCOPE_PK: pk, _LOTS_PK: lots_of}
        return sql, [keys.get(p, p) if type(p) is int else p for p in params]

    def _fetch(
        self, name: Hashable, build: Callable[[ListResultQuerySet], models.QuerySet[Any]]
    ) -> list[tuple[Any, ...]]:
        """The rows of the query ``build(rows)`` makes, its SQL compiled once per scope kind."""
        sql, params = self.scoped_sql(name, lambda rows, _lots: build(rows).query.sql_with_params())
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows

    def public(self, *, final: bool = False) -> ListResultQuerySet:
        """The rows of the series the public may see (``SeriesQuerySet.shown``); with
        ``final``, of published series alone (the API)."""
        return self.filter(SeriesQuerySet.shown("series__", final=final))

    def public_in(self, scope: Tournament | Season) -> ListResultQuerySet:
        """:meth:`public` for rows of ``scope`` alone: where none of its tournaments hides its
        unpublished series (the usual case) every row is public, and the rows are read
        without joining series and tournaments to each of them."""
        if isinstance(scope, Tournament):
            hides = scope.hide_unpublished
        else:
            hides = scope.tournaments.filter(hide_unpublished=True).exists()
        return self.public() if hides else self

    def provisional(self) -> bool:
        """Whether any of these rows belongs to a series not yet published."""
        return bool(self._fetch("provisional", lambda rows: rows._unpublished()))

    def _unpublished(self) -> models.QuerySet[Any]:
        """A row (of a series not yet published) if there is one: for the rows of a scope,
        read from the scope's unpublished series, each asked by its index whether it has
        rows (a series' rows are all in its tournament's and season's scope); otherwise
        from these rows."""
        if self._scope is None:
            return self.filter(series__published_at__isnull=True).order_by().values("pk")[:1]
        field, pk = self._scope
        of_scope = {
            "series_id": "pk",
            "tournament_id": "tournament_id",
            "season_id": "tournament__season_id",
        }
        return (
            Series.objects.filter(published_at__isnull=True, **{of_scope[field]: pk})
            .filter(Exists(ListResult.objects.filter(series=OuterRef("pk")).order_by()))
            .order_by()
            .values("pk")[:1]
        )

    def provisional_and_categories(self) -> tuple[bool, list[str]]:
        """:meth:`provisional` and :meth:`categories` in one statement."""
        sql, params = self.scoped_sql("facts", lambda rows, _lots: rows._facts_sql())
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            provisional, *found = cursor.fetchone()
        categories = [c for c, there in zip(Category.values, found, strict=True) if there]
        return bool(provisional), categories

    def _facts_sql(self) -> tuple[str, list[Any]]:
        queries = [
            self._unpublished(),
            *(
                Player.objects.filter(category=category)
                .filter(Exists(self.filter(player=OuterRef("pk")).order_by()))
                .order_by()
                .values("pk")[:1]
                for category in Category.values
            ),
        ]
        compiled = [query.query.sql_with_params() for query in queries]
        sql = "SELECT " + ", ".join(f"EXISTS ({part})" for part, _params in compiled)
        return sql, [param for _part, params in compiled for param in params]

    def for_table(self, table: Table) -> ListResultQuerySet:
        return self.filter(table=table)

    def for_series(self, series: Series) -> ListResultQuerySet:
        return self._scoped("series_id", series.pk)

    def for_tournament(self, tournament: Tournament) -> ListResultQuerySet:
        return self._scoped("tournament_id", tournament.pk)

    def for_season(self, season: Season) -> ListResultQuerySet:
        return self._scoped("season_id", season.pk)

    def for_player(self, player_pk: int) -> ListResultQuerySet:
        return self._scoped("player_id", player_pk)

    def history(self) -> list[HistoryRow]:
        """These rows as a player's page lists them: those the public sees (:meth:`public`),
        newest first, with where each list was played."""
        found = self._fetch(
            "history",
            lambda rows: (
                rows.public()
                .order_by("-tournament__date", "-series__number")
                .values_list(
                    "tournament__name",
                    "tournament__slug",
                    "tournament__date",
                    "series__number",
                    "series__published_at",
                    "table__number",
                    *RESULT_FIGURES,
                )
            ),
        )
        return [
            HistoryRow(
                name,
                slug,
                date,
                series,
                published is not None,
                table,
                *figures,
            )
            for name, slug, date, series, published, table, *figures in found
        ]

    def in_category(self, category: str) -> ListResultQuerySet:
        """The rows of players in ``category`` (``Category``), as their records say now:
        a standing over them ranks within the category."""
        return self.filter(player__category=category)

    def categories(self) -> list[str]:
        """The categories (``Category`` values, in its order) that players of these rows
        have: one query, over the players with a category (each asked whether he has such a
        row), not over every row."""
        found = {
            category
            for (category,) in self._fetch(
                "categories",
                lambda rows: (
                    Player.objects.exclude(category="")
                    .filter(Exists(rows.filter(player=OuterRef("pk")).order_by()))
                    .order_by()
                    .values_list("category")
                    .distinct()
                ),
            )
        }
        return [category for category in Category.values if category in found]

    def standings(self, *, lots_of: Tournament | None = None) -> list[StandingRow]:
        """One row per player: the summed summary rows and the rank, in one grouped query.

        Ranked by total, then more games won, then fewer lost (docs/rules.md section 5); players
        still level share the rank unless ``lots_of`` names the tournament whose recorded
        draw by lot decides.
        """
        return list(self.ranked(lots_of=lots_of))

    def ranked(self, *, lots_of: Tournament | None = None) -> Standings:
        """:meth:`standings` as a sequence read a slice at a time: a page of the standings
        costs one query for its rows (LIMIT/OFFSET) and one for the number of players."""
        return Standings(self, lots_of)

    def _ranked_sql(self, lots_of: Tournament | None) -> tuple[str, list[Any]]:
        """The grouped and ranked query: the result rows are summed per player first, and the
        players' names and clubs joined to the sums (not the sums grouped by names)."""
        return self.scoped_sql(
            "ranked",
            lambda rows, lots: rows._compile_ranked_sql(lots),
            None if lots_of is None else lots_of.pk,
        )

    def team_series_points(self) -> dict[tuple[int, int], dict[int, int]]:
        """Each team's game points (Spielpunkte: its players' summed series totals) per
        series of each tournament among these rows, keyed by (tournament id, series number):
        for a league group's match day, what match points per series are ranked on
        (``scoring.series_match_points``, docs/rules.md section 11.3). One grouped query."""
        found: dict[tuple[int, int], dict[int, int]] = {}
        for tournament, series, team, points in (
            self.filter(team__isnull=False)
            .order_by()
            .values_list("tournament_id", "series__number", "team_id")
            .annotate(points=Sum("total"))
            .order_by("tournament_id", "series__number", "team_id")
        ):
            found.setdefault((tournament, series), {})[team] = points
        return found

    def team_points(self, unit: str) -> list[tuple[Any, ...]]:
        """Each team's (id, match points won and lost in halves, Spielpunkte, series played,
        name, club's name) over these rows, its Spielpunkte compared per ``unit``
        (``series_id`` or ``tournament_id``): one statement, compiled once per kind of scope
        (:meth:`scoped_sql`).

        By hand, as the ranking is (:meth:`_compile_ranked_sql`): the window functions that
        place the teams within each unit sit over a grouped subquery that the ORM cannot
        group again."""
        sql, params = self.scoped_sql(("teams", unit), lambda rows, _lots: rows._team_sql(unit))
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
            return rows

    def _team_sql(self, unit: str) -> tuple[str, tuple[Any, ...]]:
        """Each team's match points won and lost (in halves), Spielpunkte and series played,
        with its name and club: one statement over the result rows alone.

        The teams' Spielpunkte are summed per ``unit`` (series or match day); within a unit
        of n teams, those in places p..q (level on Spielpunkte, places counted from 0) win
        2(n-1) - p - q halves each (``standings.queries.half_match_points``), that is
        2(n-1) - 2p - k + 1 for the k teams level there; the halves are summed per team and
        the names joined last.
        """
        # Per series a team played that one series: a constant, not a COUNT(DISTINCT …) that
        # makes PostgreSQL sort the rows instead of hashing them.
        played = Count("series_id", distinct=True) if unit == "tournament_id" else Value(1)
        per_unit = (
            self.filter(team__isnull=False)
            .order_by()
            .values_list(unit, "team_id")
            .annotate(points=Sum("total"), played=played)
        )
        inner, params = per_unit.query.sql_with_params()
        q = connection.ops.quote_name
        by, team, points = q(unit), q("team_id"), q("points")
        # Over the unit's teams by Spielpunkte, most first, RANK() is p + 1, and COUNT(*) with
        # the default frame (the first row up to this row's last peer) counts the teams ahead
        # and those level with this one, p + k: the halves lost, 2p + k - 1, are their sum - 2.
        placed = (
            f"SELECT {team}, {points}, {q('played')}, "
            f"2 * COUNT(*) OVER (PARTITION BY {by}) - 2 AS most, "
            f"RANK() OVER w + COUNT(*) OVER w - 2 AS lost FROM ({inner}) s "
            f"WINDOW w AS (PARTITION BY {by} ORDER BY {points} DESC)"
        )
        sums = ", ".join(
            f"CAST(SUM({value}) AS BIGINT) AS {name}"
            for name, value in (
                ("won", "most - lost"),
                ("lost", "lost"),
                ("points", points),
                ("played", q("played")),
            )
        )
        sql = (
            f"SELECT a.{team}, a.won, a.lost, a.points, a.played, t.{q('name')}, c.{q('name')} "
            f"FROM (SELECT {team}, {sums} FROM ({placed}) p GROUP BY {team}) a "
            f"JOIN {q(Team._meta.db_table)} t ON t.{q('id')} = a.{team} "
            f"LEFT JOIN {q(Club._meta.db_table)} c ON c.{q('id')} = t.{q('club_id')}"
        )
        return sql, params

    def _compile_ranked_sql(self, lots_of: int | None) -> tuple[str, list[Any]]:
        sums = {f"sum_{name}": Sum(name) for name in RESULT_FIGURES}
        order = [F("sum_total").desc(), F("sum_won").desc(), F("sum_lost").asc()]
        rows = self.order_by().values("player_id").annotate(lists=Count("id"), **sums)
        if lots_of is not None:
            rows = rows.annotate(
                lot=Subquery(
                    Registration.objects.filter(
                        tournament_id=lots_of, player=OuterRef("player_id")
                    ).values("lot")[:1]
                )
            )
            order.append(F("lot").asc(nulls_last=True))
            rows = rows.annotate(
                withdrawn=Exists(
                    Registration.objects.filter(
                        tournament_id=lots_of,
                        player=OuterRef("player_id"),
                        withdrawn_at__isnull=False,
                    )
                )
            )
        rows = rows.annotate(rank=Window(Rank(), order_by=order))
        inner, params = rows.query.sql_with_params()
        q = connection.ops.quote_name
        figures = ", ".join(f"r.{q('sum_' + name)}" for name in RESULT_FIGURES)
        withdrawn = f"r.{q('withdrawn')}" if lots_of is not None else "0"
        sql = (
            f"SELECT r.{q('rank')}, r.{q('player_id')}, p.{q('name')}, p.{q('initials_only')}, "
            f"c.{q('name')}, "
            f"r.{q('lists')}, {figures}, {withdrawn}, COUNT(*) OVER () FROM ({inner}) r "
            f"JOIN {q(Player._meta.db_table)} p ON p.{q('id')} = r.{q('player_id')} "
            f"LEFT JOIN {q(Club._meta.db_table)} c ON c.{q('id')} = p.{q('club_id')} "
            f"ORDER BY r.{q('rank')}, p.{q('name')}, r.{q('player_id')}"
        )
        return sql, list(params)


class Standings(Sequence["StandingRow"]):
    """The ranked rows of a standing, read lazily: ``len()`` counts the players, a slice
    reads just those rows; iterating or sorting reads them all once."""

    def __init__(self, results: ListResultQuerySet, lots_of: Tournament | None) -> None:
        self._results = results
        self._lots_of = lots_of
        self._all: list[StandingRow] | None = None
        self._count: int | None = None
        self._slices: dict[tuple[int, int], list[StandingRow]] = {}

    def _read(self, limit: int | None = None, offset: int = 0) -> list[StandingRow]:
        sql, params = self._results._ranked_sql(self._lots_of)
        if limit is not None:
            sql += " LIMIT %s OFFSET %s"
            params += [limit, offset]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        if fetched:
            self._count = fetched[0][-1]
        elif offset == 0:
            self._count = 0
        return [
            StandingRow(
                rank,
                player_id,
                public_name(name, initials),
                club or "",
                lists,
                *figures,
                withdrawn=bool(withdrawn),
            )
            for rank, player_id, name, initials, club, lists, *figures, withdrawn, _count in fetched
        ]

    def prefetch(self, start: int, stop: int) -> None:
        """Read rows ``start:stop`` now, and with them the number of players (one query
        where a paginator would ask for the count first and the page after)."""
        self._slices[start, stop] = self._read(stop - start, start)

    def rows(self) -> list[StandingRow]:
        if self._all is None:
            self._all = self._read()
            self._count = len(self._all)
        return self._all

    def __len__(self) -> int:
        if self._count is None:
            self._count = self._results.order_by().values("player_id").distinct().count()
        return self._count

    @overload
    def __getitem__(self, index: int) -> StandingRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[StandingRow]: ...

    def __getitem__(self, index: int | slice) -> StandingRow | list[StandingRow]:
        if self._all is None and isinstance(index, slice) and index.step in (None, 1):
            start, stop, _ = index.indices(len(self))
            if (start, stop) in self._slices:
                return self._slices[start, stop]
            return self._read(max(stop - start, 0), start) if stop > start else []
        return self.rows()[index]

    def __iter__(self) -> Iterator[StandingRow]:
        return iter(self.rows())

    def sort(self, *, key: Callable[[StandingRow], Any], reverse: bool = False) -> None:
        """Order every row by ``key`` (a table sorted by another column)."""
        self.rows().sort(key=key, reverse=reverse)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One list on a player's page: where it was played and its figures."""

    tournament: str
    slug: str
    date: datetime.date
    series: int
    published: bool
    """Whether the list's series is published (its figures are final)."""
    table: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    bonus: int
    total: int


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in a standing: the HTML table, the CSV and the PDF all use it."""

    rank: int
    player_id: int
    player: str
    club: str
    lists: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    bonus: int
    total: int
    _: KW_ONLY
    withdrawn: bool = False
    """In a tournament's standing: the player withdrew (he is no longer drawn)."""
    average: Fraction | None = None
    """In a season ranked by average: total per series played."""


class ListResult(models.Model):
    """One player's summary rows of one list, written whenever the list changes.

    Series, tournament, season and the player's team are copied here so that every standing
    is one grouped query over this table.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    position = models.PositiveSmallIntegerField()
    game_points = models.IntegerField(_("Spielpunkte"), default=0)
    won = models.PositiveSmallIntegerField(_("gewonnen"), default=0)
    lost = models.PositiveSmallIntegerField(_("verloren"), default=0)
    others_lost = models.PositiveSmallIntegerField(_("verloren (andere)"), default=0)
    bonus = models.IntegerField(_("Wertungspunkte"), default=0)
    total = models.IntegerField(_("Gesamt"), default=0)

    objects = ListResultQuerySet.as_manager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "player"],
                name="list_result_unique",
                violation_error_code="list_result_exists",
            ),
            models.CheckConstraint(
                condition=Q(total=F("game_points") + F("bonus")),
                name="list_result_total_is_sum",
                violation_error_code="list_result_total_wrong",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "player"], name="list_result_tournament"),
            models.Index(fields=["season", "player"], name="list_result_season"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.player}: {self.total}"

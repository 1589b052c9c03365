"""Per-list result rows and the standings grouped over them."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator, Sequence
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


class ListResultQuerySet(models.QuerySet["ListResult"]):
    """Result rows narrowed to a scope, and the standings over them.

    The rows of one series, tournament or season, narrowed by nothing else (``for_series``,
    ``for_tournament``, ``for_season``), remember their scope. Over them the grouped ranking
    (:meth:`ranked_rows`) and the team standing's sums (:meth:`team_points`) are plain
    statements (:func:`_ranked_sql`, :func:`_team_sql`) with the scope's key as their
    parameter: the ORM compiles a statement anew on every request, and on a tournament's
    page (16 players, the bench's medium season on SQLite) compiling the windowed ranking
    took longer than running it. Over any other rows (public only, a category, a team) the
    same figures come from the ORM's grouped query (:meth:`_ranked`). The teams are placed
    within each series or match day in Python, the same for both.

    For the rows of a scope, whether any is unpublished is asked of the scope's series
    (:meth:`_unpublished`).
    """

    _fields: tuple[str, ...] | None
    """Django's own: the fields ``values()`` or ``values_list()`` asked for, else None."""
    _scope: tuple[str, int] | None = None
    """Set on the queryset ``for_…`` returns; a clone (any further filter, order or slice)
    has none."""

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
        return self._unpublished().exists()

    def _unpublished(self) -> models.QuerySet[Any]:
        """The series not yet published that hold any of these rows (their ids): for the
        rows of a scope, read from the scope's unpublished series, each asked by its index
        whether it has rows (a series' rows are all in its tournament's and season's scope);
        otherwise from these rows."""
        if self._scope is None:
            return (
                self.filter(series__published_at__isnull=True)
                .order_by()
                .values("series_id")
                .distinct()
            )
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
            .values("pk")
        )

    def provisional_and_categories(self) -> tuple[bool, list[str]]:
        """:meth:`provisional` and :meth:`categories` in one statement: the categories of
        the players with a row here and, for the unpublished series holding any (as the
        empty category), one UNION of the ORM's queries."""
        players = (
            Player.objects.exclude(category="")
            .filter(Exists(self.filter(player=OuterRef("pk")).order_by()))
            .order_by()
            .values_list("category")
        )
        unpublished = self._unpublished().annotate(category=Value("")).values_list("category")
        found = {category for (category,) in players.union(unpublished)}
        provisional = "" in found
        return provisional, [c for c in Category.values if c in found]

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
        found = (
            self.public()
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
            for (category,) in Player.objects.exclude(category="")
            .filter(Exists(self.filter(player=OuterRef("pk")).order_by()))
            .order_by()
            .values_list("category")
            .distinct()
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
        (``series_id`` or ``tournament_id``): for the rows of a scope one statement by hand
        that also places the teams (:func:`_team_sql`); for any others one grouped ORM
        statement, the teams placed within each unit here, as that statement does.

        Within a unit of n teams, those in places p..q (level on Spielpunkte, places counted
        from 0) win 2(n-1) - p - q halves each (``standings.queries.half_match_points``),
        that is 2(n-1) - 2p - k + 1 for the k teams level there.
        """
        if self._scope is not None:
            return self._by_hand(*_team_sql(unit, *self._scope))
        played = Count("series_id", distinct=True) if unit == "tournament_id" else Value(1)
        per_unit = (
            self.filter(team__isnull=False)
            .order_by()
            .values_list(unit, "team_id", "team__name", "team__club__name")
            .annotate(points=Sum("total"), played=played)
        )
        units: dict[int, list[tuple[int, int]]] = {}
        teams: dict[int, list[Any]] = {}
        for of_unit, team, name, club, points, count in per_unit:
            units.setdefault(of_unit, []).append((points, team))
            found = teams.setdefault(team, [team, 0, 0, 0, 0, name, club])
            found[3] += points
            found[4] += count
        for placed in units.values():
            placed.sort(reverse=True)
            most = 2 * len(placed) - 2
            start = 0
            while start < len(placed):
                level = start
                while level < len(placed) and placed[level][0] == placed[start][0]:
                    level += 1
                lost = 2 * start + (level - start) - 1
                for _points, team in placed[start:level]:
                    teams[team][1] += most - lost
                    teams[team][2] += lost
                start = level
        return [tuple(found) for found in teams.values()]

    def _by_hand(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows

    def ranked_rows(
        self, lots_of: Tournament | None, limit: int | None = None, offset: int = 0
    ) -> list[tuple[Any, ...]]:
        """The rows of :meth:`_ranked` (``limit`` of them from ``offset``): for the rows of a
        scope one statement by hand (:func:`_ranked_sql`), for any others the ORM's."""
        if self._scope is None:
            rows = self._ranked(lots_of)
            return list(rows if limit is None else rows[offset : offset + limit])
        sql, params = _ranked_sql(*self._scope, None if lots_of is None else lots_of.pk)
        if limit is not None:
            sql += " LIMIT %s OFFSET %s"
            params += [limit, offset]
        return self._by_hand(sql, params)

    def _ranked(self, lots_of: Tournament | None) -> models.QuerySet[Any]:
        """The grouped and ranked rows: the result rows summed per player with his name,
        initials and club, ranked by total, won and lost (and the draw by lot of
        ``lots_of``), each with the number of players; ordered by rank, then name."""
        sums = {f"sum_{name}": Sum(name) for name in RESULT_FIGURES}
        order = [F("sum_total").desc(), F("sum_won").desc(), F("sum_lost").asc()]
        rows = (
            self.order_by()
            .values("player_id", "player__name", "player__initials_only", "player__club__name")
            .annotate(lists=Count("id"), **sums)
        )
        if lots_of is not None:
            registered = Registration.objects.filter(
                tournament_id=lots_of.pk, player=OuterRef("player_id")
            )
            rows = rows.annotate(
                lot=Subquery(registered.values("lot")[:1]),
                withdrawn=Exists(registered.filter(withdrawn_at__isnull=False)),
            )
            order.append(F("lot").asc(nulls_last=True))
        else:
            rows = rows.annotate(withdrawn=Value(False))
        return (
            rows.annotate(rank=Window(Rank(), order_by=order), players=Window(Count("player_id")))
            .values_list(
                "rank",
                "player_id",
                "player__name",
                "player__initials_only",
                "player__club__name",
                "lists",
                *sums,
                "withdrawn",
                "players",
            )
            .order_by("rank", "player__name", "player_id")
        )


def _team_sql(unit: str, field: str, pk: int) -> tuple[str, list[Any]]:
    """``ListResultQuerySet.team_points`` over the rows of a scope (the rows whose ``field``
    is ``pk``), by hand: each team's Spielpunkte and series played per ``unit``, the teams
    placed within each unit by window functions, the halves summed per team and the names
    joined last. By hand because the window functions sit over a grouped subquery that the
    ORM cannot group again, and because placing 2,100 (series, team) rows of the bench's
    medium season in Python took longer than the statement.

    Over the unit's teams by Spielpunkte, most first, RANK() is p + 1, and COUNT(*) with the
    default frame (the first row up to this row's last peer) counts the teams ahead and those
    level with this one, p + k: the halves lost, 2p + k - 1, are their sum - 2.
    """
    q = connection.ops.quote_name
    assert field in SCOPES and unit in ("series_id", "tournament_id"), (field, unit)
    # Per series a team played that one series: a constant, not a COUNT(DISTINCT …) that
    # makes PostgreSQL sort the rows instead of hashing them.
    played = f"COUNT(DISTINCT {q('series_id')})" if unit == "tournament_id" else "1"
    grouped = (
        f"SELECT {q(unit)} AS unit, {q('team_id')} AS team, SUM({q('total')}) AS points, "
        f"{played} AS played FROM {q(ListResult._meta.db_table)} "
        f"WHERE {q(field)} = %s AND {q('team_id')} IS NOT NULL GROUP BY {q(unit)}, {q('team_id')}"
    )
    placed = (
        "SELECT team, points, played, 2 * COUNT(*) OVER (PARTITION BY unit) - 2 AS most, "
        f"RANK() OVER w + COUNT(*) OVER w - 2 AS lost FROM ({grouped}) g "
        "WINDOW w AS (PARTITION BY unit ORDER BY points DESC)"
    )
    sums = ", ".join(
        f"CAST(SUM({value}) AS BIGINT) AS {name}"
        for name, value in (
            ("won", "most - lost"),
            ("lost", "lost"),
            ("points", "points"),
            ("played", "played"),
        )
    )
    sql = (
        f"SELECT a.team, a.won, a.lost, a.points, a.played, t.{q('name')}, c.{q('name')} "
        f"FROM (SELECT team, {sums} FROM ({placed}) p GROUP BY team) a "
        f"JOIN {q(Team._meta.db_table)} t ON t.{q('id')} = a.team "
        f"LEFT JOIN {q(Club._meta.db_table)} c ON c.{q('id')} = t.{q('club_id')}"
    )
    return sql, [pk]


SCOPES = ("series_id", "tournament_id", "season_id", "player_id")
"""The fields a scope narrows the result rows by (``ListResultQuerySet._scoped``)."""


def _ranked_sql(field: str, pk: int, lots_of: int | None) -> tuple[str, list[Any]]:
    """``ListResultQuerySet._ranked`` over the rows of a scope (the rows whose ``field`` is
    ``pk``), by hand: the result rows summed per player first, the players' names, clubs and
    registrations (draw by lot, withdrawal) joined to the sums, then ranked."""
    q = connection.ops.quote_name
    assert field in SCOPES, field
    sums = ", ".join(f"SUM({q(name)}) AS {q('sum_' + name)}" for name in RESULT_FIGURES)
    figures = ", ".join(f"g.{q('sum_' + name)}" for name in RESULT_FIGURES)
    order = f"g.{q('sum_total')} DESC, g.{q('sum_won')} DESC, g.{q('sum_lost')} ASC"
    params: list[Any] = []
    withdrawn, registered = "0", ""
    if lots_of is not None:
        order += f", reg.{q('lot')} ASC NULLS LAST"
        withdrawn = f"CASE WHEN reg.{q('withdrawn_at')} IS NULL THEN 0 ELSE 1 END"
        registered = (
            f"LEFT JOIN {q(Registration._meta.db_table)} reg "
            f"ON reg.{q('tournament_id')} = %s AND reg.{q('player_id')} = g.player"
        )
        params.append(lots_of)
    sql = (
        f"SELECT RANK() OVER (ORDER BY {order}) AS rank, g.player, p.{q('name')}, "
        f"p.{q('initials_only')}, c.{q('name')}, g.lists, {figures}, {withdrawn}, "
        f"COUNT(*) OVER () FROM ("
        f"SELECT {q('player_id')} AS player, COUNT(*) AS lists, {sums} "
        f"FROM {q(ListResult._meta.db_table)} WHERE {q(field)} = %s GROUP BY {q('player_id')}"
        f") g JOIN {q(Player._meta.db_table)} p ON p.{q('id')} = g.player "
        f"LEFT JOIN {q(Club._meta.db_table)} c ON c.{q('id')} = p.{q('club_id')} "
        f"{registered} ORDER BY rank, p.{q('name')}, g.player"
    )
    return sql, [pk, *params]  # the scope's key comes first in the statement


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
        fetched = self._results.ranked_rows(self._lots_of, limit, offset)
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

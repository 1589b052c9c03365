"""Team standings, match points and players' statistics, from the per-list result rows.

Player standings are ``ListResult.objects.for_…(…).standings()``; this module adds what
needs a little arithmetic after the grouped query: league match points (rules.md section 7)
and the statistics on a player's page.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import Count, F, Subquery, Sum, Value, Window
from django.db.models.functions import RowNumber
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from skatliga.collation import german_key
from skatliga.models import (
    Club,
    Game,
    GameType,
    HistoryRow,
    ListResult,
    ListResultQuerySet,
    Player,
    Season,
    Seat,
    Series,
    StandingRow,
    Table,
    Team,
    Tournament,
    match_points_rule,
)


@dataclass(frozen=True, slots=True)
class TeamRow:
    """One team's line: match points for and against, then Spielpunkte."""

    rank: int
    team_id: int
    team: str
    club: str
    series: int
    match_points: Fraction
    match_points_against: Fraction
    game_points: int
    scheme: str = Season.MatchPoints.PLACES
    """How the match points were given (``Season.MatchPoints``)."""

    @property
    def team_key(self) -> tuple[int, str, str]:
        """The team's name as sorted in German (``collation.german_key``)."""
        return german_key(self.team)

    @property
    def club_key(self) -> tuple[int, str, str]:
        return german_key(self.club)

    @property
    def scheme_text(self) -> str:
        """The scheme in words (``models.league.match_points_rule``)."""
        return match_points_rule(self.scheme)

    @property
    def match_points_text(self) -> str:
        """As printed: "7½ : 1½" (n−1 … 0 per series), "5 : 1" (2/1/0 per pair)."""
        return f"{half_points(self.match_points)} : {half_points(self.match_points_against)}"


def half_points(value: Fraction) -> str:
    """Match points as printed: whole numbers, or with a half.

    >>> half_points(Fraction(5, 2)), half_points(Fraction(3)), half_points(Fraction(1, 2))
    ('2½', '3', '½')
    """
    whole, rest = divmod(value.numerator, value.denominator)  # halves and wholes alone
    if not rest:
        return str(int(whole))
    return f"{int(whole)}½" if whole else "½"


def match_points(points: Mapping[int, int]) -> dict[int, tuple[Fraction, Fraction]]:
    """Match points of the teams of one series, by their Spielpunkte.

    The best of n teams gets n-1 : 0, the next n-2 : 1, down to 0 : n-1 (with four teams
    3:0, 2:1, 1:2, 0:3). Teams level on Spielpunkte share the places' points evenly.

    >>> mp = match_points({1: 3000, 2: 2500, 3: 2500, 4: 1000})
    >>> [tuple(str(x) for x in mp[t]) for t in (1, 2, 3, 4)]
    [('3', '0'), ('3/2', '3/2'), ('3/2', '3/2'), ('0', '3')]
    """
    most = 2 * (len(points) - 1)
    return {
        team: (Fraction(half, 2), Fraction(most - half, 2))
        for team, half in half_match_points(points).items()
    }


def half_match_points(points: Mapping[int, int]) -> dict[int, int]:
    """:func:`match_points` won, counted in halves: whole numbers, cheap to add up.

    Teams level on places p..q share (n-1-p + n-1-q) / 2 each, i.e. 2(n-1) - p - q halves.

    >>> half_match_points({1: 3000, 2: 2500, 3: 2500, 4: 1000})
    {1: 6, 2: 3, 3: 3, 4: 0}
    """
    ordered = sorted(points.values(), reverse=True)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for place, value in enumerate(ordered):
        first.setdefault(value, place)
        last[value] = place
    most = 2 * (len(points) - 1)
    return {team: most - first[value] - last[value] for team, value in points.items()}


def match_points_scheme(scope: Season | Tournament | None) -> str:
    """The team match-point scheme of a season, or of a match day's season (``places``
    for a tournament outside a season)."""
    if isinstance(scope, Tournament):
        scope = scope.season
    return scope.match_points if scope is not None else Season.MatchPoints.PLACES


def _team_sql(results: ListResultQuerySet, unit: str) -> tuple[str, tuple[Any, ...]]:
    """Each team's match points won and lost (in halves), Spielpunkte and series played,
    with its name and club: one statement over the result rows alone.

    The teams' Spielpunkte are summed per ``unit`` (series or match day); within a unit of
    n teams, those in places p..q (level on Spielpunkte, places counted from 0) win
    2(n-1) - p - q halves each (:func:`half_match_points`), that is 2(n-1) - 2p - k + 1 for
    the k teams level there; the halves are summed per team and the names joined last.
    """
    # Per series a team played that one series: a constant, not a COUNT(DISTINCT …) that
    # makes PostgreSQL sort the rows instead of hashing them.
    played = Count("series_id", distinct=True) if unit == "tournament_id" else Value(1)
    per_unit = (
        results.filter(team__isnull=False)
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


def team_standings(
    results: ListResultQuerySet, scheme: str = Season.MatchPoints.PLACES
) -> list[TeamRow]:
    """Teams ranked by match points, then Spielpunkte, over the series in ``results``.

    One query (:func:`_team_sql`): within each series (match day under ``pairings``) the
    teams that played it meet in pairs: more Spielpunkte wins the pair, equal Spielpunkte
    share it (:func:`half_match_points`). ``scheme`` (``Season.MatchPoints``) says how that
    is written: ``places`` n−1 … 0 per series (a pair won is 1), the others 2 for a pair won
    and 1 for a pair shared, per series (``series-points``, Wertungspunkte) or per match day
    (``pairings``).
    """
    unit = "tournament_id" if scheme == Season.MatchPoints.PAIRINGS else "series_id"
    sql, params = results.scoped_sql(("teams", unit), lambda rows, _lots: _team_sql(rows, unit))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    found.sort(key=lambda row: (-row[1], -row[3], row[5], row[0]))
    unit_of_points = 2 if scheme == Season.MatchPoints.PLACES else 1
    rows: list[TeamRow] = []
    for position, (team, plus, minus, points, series, name, club) in enumerate(found, start=1):
        level = position > 1 and (found[position - 2][1], found[position - 2][3]) == (plus, points)
        rows.append(
            TeamRow(
                rank=rows[-1].rank if level else position,
                team_id=team,
                team=name,
                club=club or "",
                series=series,
                match_points=Fraction(plus, unit_of_points),
                match_points_against=Fraction(minus, unit_of_points),
                game_points=points,
                scheme=scheme,
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    """What a player's page shows about the games he declared."""

    lists: int
    games_declared: int
    games_won: int
    average_value: float
    grand: int
    null: int
    hand: int

    def share(self, count: int) -> float:
        """``count`` as a percentage of the games declared."""
        return 100 * count / self.games_declared if self.games_declared else 0.0

    @property
    def won_percent(self) -> float:
        return self.share(self.games_won)


def player_statistics(player: Player, season: Season | None = None) -> PlayerStatistics:
    """Statistics over every game ``player`` declared (in ``season``, if given), and his
    lists: one plain statement. The games he declared are those from his seat before a
    substitute's first game, and those he declared as the substitute from it on."""
    q = connection.ops.quote_name
    won, value, game, hand, number = (
        f"g.{q(name)}" for name in ("won", "value", "game", "hand", "number")
    )
    since = f"s.{q('substitute_from')}"
    lists = f"SELECT COUNT(*) FROM {q(ListResult._meta.db_table)} r WHERE r.{q('player_id')} = %s"
    games = (
        f"FROM {q(Game._meta.db_table)} g JOIN {q(Seat._meta.db_table)} s "
        f"ON s.{q('table_id')} = g.{q('table_id')} AND s.{q('position')} = g.{q('declarer')} "
        f"WHERE NOT g.{q('passed')} AND ((s.{q('player_id')} = %s "
        f"AND ({since} IS NULL OR {number} < {since})) "
        f"OR (s.{q('substitute_id')} = %s AND {number} >= {since}))"
    )
    in_season: list[Any] = []
    if season is not None:
        lists += f" AND r.{q('season_id')} = %s"
        games += f" AND g.{q('table_id')} IN (SELECT t.{q('id')} {_tables_in(season)[0]})"
        in_season = [season.pk]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ({lists}), COUNT(*), COUNT(CASE WHEN {won} THEN 1 END), AVG({value}), "
            f"COUNT(CASE WHEN {game} = %s THEN 1 END), "
            f"COUNT(CASE WHEN {game} IN (%s, %s) THEN 1 END), "
            f"COUNT(CASE WHEN {hand} THEN 1 END) {games}",
            [
                player.pk,
                *in_season,
                GameType.GRAND.value,
                GameType.NULL.value,
                GameType.REVOLUTION.value,
                player.pk,
                player.pk,
                *in_season,
            ],
        )
        lists_played, declared, games_won, average, grand, null, hands = cursor.fetchone()
    return PlayerStatistics(
        lists=lists_played,
        games_declared=declared,
        games_won=games_won,
        average_value=float(average or 0),
        grand=grand,
        null=null,
        hand=hands,
    )


def series_totals(history: Iterable[HistoryRow]) -> list[tuple[str, int]]:
    """(label, total) per series, in order, for a player's chart."""
    return [
        (f"{r.date:%d.%m.} S{r.series}", r.total)
        for r in sorted(history, key=lambda r: (r.date, r.series))
    ]


def average_text(value: Fraction | None) -> str:
    """An average to two decimals in the active language (``24,50``), rounded half up.

    >>> from django.utils import translation
    >>> with translation.override("de"):
    ...     average_text(Fraction(49, 2)), average_text(Fraction(-37, 3))
    ('24,50', '-12,33')
    """
    if value is None:
        return ""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return formats.number_format(exact.quantize(Decimal("0.01"), ROUND_HALF_UP), 2)


def season_player_standings(season: Season, results: ListResultQuerySet) -> list[StandingRow]:
    """The season's individual ranking in its mode (``Season.ranking``).

    ``sum``: every series. ``best``: each player's best ``ranking_series`` series (by total;
    of equal totals the earlier list), summed and ranked as usual. ``average``: total per
    series played, exactly (a fraction), for players with at least ``ranking_series``
    series; then more games won, fewer lost. Each is one grouped query.
    """
    n = season.ranking_series
    if season.ranking == Season.Ranking.BEST:
        ranked = results.annotate(
            place=Window(
                RowNumber(), partition_by=[F("player_id")], order_by=[F("total").desc(), F("id")]
            )
        )
        best = ranked.filter(place__lte=n).values("pk")
        return results.filter(pk__in=Subquery(best)).standings()
    if season.ranking == Season.Ranking.AVERAGE:
        rows = [
            replace(row, average=Fraction(row.total, row.lists))
            for row in results.standings()
            if row.lists >= n
        ]
        rows.sort(key=lambda r: (-(r.average or 0), -r.won, r.lost, r.player, r.player_id))
        ranked_rows: list[StandingRow] = []
        for index, row in enumerate(rows):
            previous = ranked_rows[-1] if ranked_rows else None
            same = previous is not None and (previous.average, previous.won, previous.lost) == (
                row.average,
                row.won,
                row.lost,
            )
            ranked_rows.append(replace(row, rank=previous.rank if same and previous else index + 1))
        return ranked_rows
    return results.standings()


@dataclass(frozen=True, slots=True)
class Progress:
    """How many lists of a tournament (or a series) are closed, and when this was read.

    A standing is provisional ("vorläufig") while any list is open.
    """

    closed: int
    lists: int
    at: datetime.datetime

    @property
    def provisional(self) -> bool:
        return self.closed < self.lists

    def text(self) -> str:
        """ "vorläufig · Stand 21.11.2026, 14:05 Uhr · 3 von 4 Listen abgeschlossen"."""
        at = formats.date_format(timezone.localtime(self.at), "SHORT_DATETIME_FORMAT")
        return _("vorläufig · Stand %(at)s Uhr · %(closed)s von %(lists)s Listen abgeschlossen") % {
            "at": at,
            "closed": self.closed,
            "lists": self.lists,
        }


def _tables_in(scope: Season | Tournament | Series) -> tuple[str, int]:
    """The tables of ``scope`` as SQL: ``FROM`` and ``WHERE`` over the table ``t`` (with its
    series ``se`` and tournament ``tr``), one parameter (the scope's key)."""
    q = connection.ops.quote_name
    column = {Season: "tr.season_id", Tournament: "se.tournament_id", Series: "t.series_id"}
    sql = (
        f"FROM {q(Table._meta.db_table)} t "
        f"JOIN {q(Series._meta.db_table)} se ON se.{q('id')} = t.{q('series_id')} "
        f"JOIN {q(Tournament._meta.db_table)} tr ON tr.{q('id')} = se.{q('tournament_id')} "
        f"WHERE {column[type(scope)]} = %s"
    )
    return sql, scope.pk


def progress_in(scope: Season | Tournament | Series) -> Progress:
    """How many lists of a season, tournament or series are closed: one plain statement."""
    tables, pk = _tables_in(scope)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), COUNT(t.{connection.ops.quote_name('closed_at')}) {tables}", [pk]
        )
        lists, closed = cursor.fetchone()
    return Progress(closed=closed, lists=lists, at=timezone.now())


@dataclass(frozen=True, slots=True)
class RunningList:
    """An open list with some games: its points already count, provisionally ("läuft")."""

    tournament: str
    slug: str
    series: int
    table: int
    games: int
    expected: int


@dataclass(frozen=True, slots=True)
class Running:
    """The lists in progress among some tables, and the players seated at them."""

    lists: list[RunningList]
    players: frozenset[int]


def running_in(scope: Season | Tournament | Series) -> Running:
    """The open lists with at least one game in a season, tournament or series that the
    public may see (not in a tournament that hides unpublished series), and the players
    seated at them: one plain statement."""
    tables, pk = _tables_in(scope)
    q = connection.ops.quote_name
    games = f"SELECT COUNT(*) FROM {q(Game._meta.db_table)} g WHERE g.{q('table_id')} = t.{q('id')}"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT o.name, o.slug, o.series, o.number, o.expected, o.games, s.{q('player_id')} "
            f"FROM (SELECT t.{q('id')} AS id, tr.{q('name')} AS name, tr.{q('slug')} AS slug, "
            f"se.{q('number')} AS series, t.{q('number')} AS number, "
            f"t.{q('size')} * tr.{q('rounds_per_series')} AS expected, ({games}) AS games, "
            f"tr.{q('date')} AS date, se.{q('tournament_id')} AS tournament "
            f"{tables} AND t.{q('closed_at')} IS NULL AND NOT tr.{q('hide_unpublished')} "
            f"AND EXISTS ({games.replace('COUNT(*)', '1', 1)})) o "
            f"LEFT JOIN {q(Seat._meta.db_table)} s ON s.{q('table_id')} = o.id "
            "ORDER BY o.date, o.tournament, o.series, o.number",
            [pk],
        )
        found = cursor.fetchall()
    lists: dict[tuple[str, int, int], RunningList] = {}
    for name, slug, series, table, expected, count, _player in found:
        if (slug, series, table) not in lists:
            lists[slug, series, table] = RunningList(
                tournament=name,
                slug=slug,
                series=series,
                table=table,
                games=count,
                expected=expected,
            )
    return Running(
        lists=list(lists.values()),
        players=frozenset(row[-1] for row in found if row[-1] is not None),
    )

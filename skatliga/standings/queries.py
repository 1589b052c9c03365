"""Team standings, match points and players' statistics, from the per-list result rows.

Player standings are ``ListResult.objects.for_…(…).standings()``; this module adds what
needs a little arithmetic after the grouped query: league match points (docs/rules.md section 7)
and the statistics on a player's page.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.db.models import (
    Avg,
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import RowNumber
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring import series_match_points
from skatliga.entries import half_points, plain
from skatliga.models import (
    Game,
    GameType,
    HistoryRow,
    ListResult,
    ListResultQuerySet,
    Player,
    Season,
    Series,
    SeriesQuerySet,
    StandingRow,
    Table,
    Tournament,
    match_points_rule,
)
from skatliga.standings.rankings import AVERAGE, TEAMS


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
    def scheme_text(self) -> str:
        """The scheme in words (``models.league.match_points_rule``)."""
        return match_points_rule(self.scheme)

    @property
    def match_points_text(self) -> str:
        """As printed: "7½ : 1½" (n−1 … 0 per series), "5 : 1" (2/1/0 per pair)."""
        return f"{half_points(self.match_points)} : {half_points(self.match_points_against)}"

    @property
    def game_points_text(self) -> str:
        return plain(self.game_points)


def match_points(points: Mapping[int, int]) -> dict[int, tuple[Fraction, Fraction]]:
    """Match points of the teams of one series, by their Spielpunkte.

    The best of n teams gets n-1 : 0, the next n-2 : 1, down to 0 : n-1 (with four teams
    3:0, 2:1, 1:2, 0:3). Teams level on Spielpunkte share the places' points evenly: the
    engine's ``scoring.series_match_points`` (docs/rules.md section 11.3).

    >>> mp = match_points({1: 3000, 2: 2500, 3: 2500, 4: 1000})
    >>> [tuple(str(x) for x in mp[t]) for t in (1, 2, 3, 4)]
    [('3', '0'), ('3/2', '3/2'), ('3/2', '3/2'), ('0', '3')]
    """
    return series_match_points(points)


def half_match_points(points: Mapping[int, int]) -> dict[int, int]:
    """:func:`match_points` won, counted in halves: whole numbers, cheap to add up.

    Teams level on places p..q share (n-1-p + n-1-q) / 2 each, i.e. 2(n-1) - p - q halves.

    >>> half_match_points({1: 3000, 2: 2500, 3: 2500, 4: 1000})
    {1: 6, 2: 3, 3: 3, 4: 0}
    """
    return {team: int(2 * won) for team, (won, _lost) in series_match_points(points).items()}


def match_points_scheme(scope: Season | Tournament | None) -> str:
    """The team match-point scheme of a season, or of a match day's season (``places``
    for a tournament outside a season)."""
    if isinstance(scope, Tournament):
        scope = scope.season
    return scope.match_points if scope is not None else Season.MatchPoints.PLACES


def team_standings(
    results: ListResultQuerySet, scheme: str = Season.MatchPoints.PLACES
) -> list[TeamRow]:
    """Teams ranked by match points, then Spielpunkte, over the series in ``results``.

    One query (``ListResultQuerySet.team_points``): within each series (match day under
    ``pairings``) the teams that played it meet in pairs: more Spielpunkte wins the pair,
    equal Spielpunkte share it (:func:`half_match_points`). ``scheme``
    (``Season.MatchPoints``) says how that is written: ``places`` n−1 … 0 per series (a pair
    won is 1), the others 2 for a pair won and 1 for a pair shared, per series
    (``series-points``, Wertungspunkte) or per match day (``pairings``).
    """
    unit = "tournament_id" if scheme == Season.MatchPoints.PAIRINGS else "series_id"
    unit_of_points = 2 if scheme == Season.MatchPoints.PLACES else 1
    rows = [
        TeamRow(
            rank=0,
            team_id=team,
            team=name,
            club=club or "",
            series=series,
            match_points=Fraction(plus, unit_of_points),
            match_points_against=Fraction(minus, unit_of_points),
            game_points=points,
            scheme=scheme,
        )
        for team, plus, minus, points, series, name, club in results.team_points(unit)
    ]
    return TEAMS.ranked(rows, name=lambda row: (row.team, row.team_id))


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


def player_statistics(
    player: Player | int, season: Season | None = None, *, lists: int | None = None
) -> PlayerStatistics:
    """Statistics over the games ``player`` (or his key) declared (in ``season``, if given)
    and his lists, of the series the public may see (``SeriesQuerySet.shown``); ``lists``:
    their number where the page has already read them. The games he declared are those from
    his seat before a substitute's first game, and those he declared as the substitute from
    it on. One statement (two without ``lists``)."""
    pk = player if isinstance(player, int) else player.pk
    keys = (pk,) if season is None else (pk, season.pk)

    def declared(key: int, season_key: int | None = None) -> QuerySet[Any]:
        games = Game.objects.filter(SeriesQuerySet.shown("table__series__"), passed=False)
        if season_key is not None:
            games = games.filter(table__series__tournament__season=season_key)
        # One filter(): every condition on the declarer's seat is on the same seat.
        seat_of = Q(table__seats__player=key) & (
            Q(table__seats__substitute_from__isnull=True)
            | Q(number__lt=F("table__seats__substitute_from"))
        )
        taken_over = Q(table__seats__substitute=key, number__gte=F("table__seats__substitute_from"))
        return (
            games.filter(Q(table__seats__position=F("declarer")) & (seat_of | taken_over))
            .order_by()
            .annotate(every=Value(1))
            .values("every")
            .annotate(
                declared=Count("pk"),
                won_games=Count("pk", filter=Q(won=True)),
                average=Avg("value"),
                grand=Count("pk", filter=Q(game=GameType.GRAND)),
                null=Count("pk", filter=Q(game__in=[GameType.NULL, GameType.REVOLUTION])),
                hand_games=Count("pk", filter=Q(hand=True)),
            )
            .values_list("declared", "won_games", "average", "grand", "null", "hand_games")
        )

    found = list(declared(*keys))
    count, won, average, grand, null, hand = found[0] if found else (0, 0, None, 0, 0, 0)
    if lists is None:
        rows = ListResult.objects.filter(player=pk).public()
        lists = (rows if season is None else rows.filter(season=season)).count()
    return PlayerStatistics(
        lists=lists,
        games_declared=count,
        games_won=won,
        average_value=float(average or 0),
        grand=grand,
        null=null,
        hand=hand,
    )


def series_totals(history: Iterable[HistoryRow]) -> list[tuple[str, int]]:
    """(label, total) per series, in order, for a player's chart."""
    return [
        (f"{r.date:%d.%m.} S{r.series}", r.total)
        for r in sorted(history, key=lambda r: (r.date, r.series))
    ]


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
        return AVERAGE.ranked(rows, name=lambda row: (row.player, row.player_id))
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


_TABLES_OF = {
    Season: "series__tournament__season",
    Tournament: "series__tournament",
    Series: "series",
}


def _tables_in(scope: type[Season | Tournament | Series], pk: int) -> QuerySet[Table]:
    return Table.objects.filter(**{_TABLES_OF[scope]: pk}).order_by()


def progress_in(scope: Season | Tournament | Series) -> Progress:
    """How many lists of a season, tournament or series are closed."""
    found = list(
        _tables_in(type(scope), scope.pk)
        .annotate(every=Value(1))
        .values("every")
        .values_list(Count("pk"), Count("closed_at"))
    )
    lists, closed = found[0] if found else (0, 0)
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
    public may see (``SeriesQuerySet.shown``), and the players seated at them: one
    statement, a row per seat."""

    def build(pk: int) -> QuerySet[Any]:
        games = Game.objects.filter(table=OuterRef("pk")).order_by()
        count = games.values("table").annotate(count=Count("pk")).values("count")
        return (
            _tables_in(type(scope), pk)
            .filter(SeriesQuerySet.shown("series__"), Exists(games), closed_at__isnull=True)
            .annotate(
                played=Subquery(count),
                expected=F("size") * F("series__tournament__rounds_per_series"),
            )
            .order_by("series__tournament__date", "series__tournament", "series__number", "number")
            .values_list(
                "series__tournament__name",
                "series__tournament__slug",
                "series__number",
                "number",
                "expected",
                "played",
                "seats__player",
            )
        )

    found = list(build(scope.pk))
    lists: dict[tuple[str, int, int], RunningList] = {}
    players: set[int] = set()
    for name, slug, series, table, expected, count, player in found:
        if (slug, series, table) not in lists:
            lists[slug, series, table] = RunningList(name, slug, series, table, count, expected)
        if player is not None:
            players.add(player)
    return Running(lists=list(lists.values()), players=frozenset(players))

"""Team standings, match points and players' statistics, from the per-list result rows.

Player standings are ``ListResult.objects.for_…(…).standings()``; this module adds what
needs a little arithmetic after the grouped query: league match points (rules.md section 7)
and the statistics on a player's page.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Avg, Count, F, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from skatliga.collation import german_key
from skatliga.models import (
    Game,
    ListResult,
    ListResultQuerySet,
    Player,
    Season,
    StandingRow,
    Table,
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

    @property
    def team_key(self) -> tuple[int, str, str]:
        """The team's name as sorted in German (``collation.german_key``)."""
        return german_key(self.team)

    @property
    def club_key(self) -> tuple[int, str, str]:
        return german_key(self.club)

    @property
    def match_points_text(self) -> str:
        """As printed: "7½ : 1½"."""
        return f"{half_points(self.match_points)} : {half_points(self.match_points_against)}"


def half_points(value: Fraction) -> str:
    """Match points as printed: whole numbers, or with a half.

    >>> half_points(Fraction(5, 2)), half_points(Fraction(3)), half_points(Fraction(1, 2))
    ('2½', '3', '½')
    """
    whole, rest = divmod(value, 1)
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


def team_standings(results: ListResultQuerySet) -> list[TeamRow]:
    """Teams ranked by match points, then Spielpunkte, over the series in ``results``.

    One grouped query: the teams' Spielpunkte per series; match points are given within
    each series among the teams that played it.
    """
    per_series = (
        results.filter(team__isnull=False)
        .values("series_id", "team_id")
        .annotate(points=Sum("total"), team_name=F("team__name"), club_name=F("team__club__name"))
        .order_by()
    )
    by_series: dict[int, dict[int, int]] = defaultdict(dict)
    names: dict[int, tuple[str, str]] = {}
    for row in per_series:
        by_series[row["series_id"]][row["team_id"]] = row["points"]
        names[row["team_id"]] = (row["team_name"], row["club_name"] or "")
    # Match points in halves (integers): Fractions only for the rows, not for every series.
    plus: dict[int, int] = defaultdict(int)
    minus: dict[int, int] = defaultdict(int)
    game_points: dict[int, int] = defaultdict(int)
    series: dict[int, int] = defaultdict(int)
    for points in by_series.values():
        most = 2 * (len(points) - 1)
        for team, won in half_match_points(points).items():
            plus[team] += won
            minus[team] += most - won
            game_points[team] += points[team]
            series[team] += 1
    ordered = sorted(names, key=lambda t: (-plus[t], -game_points[t], names[t][0]))
    rows: list[TeamRow] = []
    for position, team in enumerate(ordered, start=1):
        level = rows and (rows[-1].match_points, rows[-1].game_points) == (
            Fraction(plus[team], 2),
            game_points[team],
        )
        rows.append(
            TeamRow(
                rank=rows[-1].rank if level else position,
                team_id=team,
                team=names[team][0],
                club=names[team][1],
                series=series[team],
                match_points=Fraction(plus[team], 2),
                match_points_against=Fraction(minus[team], 2),
                game_points=game_points[team],
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
    """Statistics over every game ``player`` declared (in ``season``, if given): one query."""
    games = Game.objects.filter(
        passed=False, table__seats__player=player, table__seats__position=F("declarer")
    )
    lists = ListResult.objects.filter(player=player)
    if season is not None:
        games = games.filter(table__series__tournament__season=season)
        lists = lists.filter(season=season)
    figures = games.aggregate(
        declared=Count("id"),
        won=Count("id", filter=Q(won=True)),
        average=Avg("value"),
        grand=Count("id", filter=Q(game="grand")),
        null=Count("id", filter=Q(game__in=["null", "revolution"])),
        hand=Count("id", filter=Q(hand=True)),
    )
    return PlayerStatistics(
        lists=lists.count(),
        games_declared=figures["declared"],
        games_won=figures["won"],
        average_value=float(figures["average"] or 0),
        grand=figures["grand"],
        null=figures["null"],
        hand=figures["hand"],
    )


def series_totals(results: Iterable[ListResult]) -> list[tuple[str, int]]:
    """(label, total) per series, in order, for a player's chart."""
    return [
        (f"{r.tournament.date:%d.%m.} S{r.series.number}", r.total)
        for r in sorted(results, key=lambda r: (r.tournament.date, r.series.number))
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


def progress(tables: QuerySet[Table]) -> Progress:
    """The :class:`Progress` of ``tables`` (e.g. ``Table.objects.filter(series=…)``): one query."""
    counts = tables.aggregate(
        lists=Count("id"), closed=Count("id", filter=Q(closed_at__isnull=False))
    )
    return Progress(closed=counts["closed"], lists=counts["lists"], at=timezone.now())

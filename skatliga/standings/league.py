"""A division's table and its match days' tables (docs/rules.md section 11.6): read from the
list results of the groups' tournaments, the match points per series given by the engine
(``scoring.series_match_points``), each table a ranking over the registry's metrics
(``standings.rankings.DIVISION``, ``GROUP``).

Per series each team's game points are its players' summed totals; a team of the group
without a player in a series that the others played counts 0. The division's table sums the
match points for and against and the game points over every group its teams played in, and
ranks by match points, then game points, then the league's tie rule (``League.TieRule``). A
group whose series are not all published is provisional, and so is every table it counts in.

A withdrawn team (a confirmed ``Withdrawal``) ranks after the others, its name marked. Where
its results are annulled, the division's table counts each series without it: the others'
match points against it are dropped (a team beaten by everyone else loses one point each), and
it keeps none of its own; the match days' tables still show the series as played.

Bounded: five statements for a division, however many teams and match days it has.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations

from django.db.models import Sum
from django.utils.translation import gettext as _

from scoring import series_match_points
from skatliga.entries import half_points
from skatliga.models import Division, GroupTeam, League, ListResult, MatchGroup, Team, Withdrawal
from skatliga.standings.rankings import DIVISION, GROUP, Ranking


class State:
    """Where a group's (or a match day's, a table's) figures stand."""

    PLANNED = "planned"
    """Nothing played yet."""
    PROVISIONAL = "provisional"
    """Played in part, or not every series published: the figures may change."""
    FINAL = "final"
    """Every series of the level played and published."""


@dataclass(frozen=True, slots=True)
class SeriesScore:
    """A team's figures in one series of its group."""

    number: int
    game_points: int
    match_points: Fraction
    match_points_against: Fraction

    @property
    def match_points_text(self) -> str:
        """As printed: "2:1", "1½:1½"."""
        return f"{half_points(self.match_points)}:{half_points(self.match_points_against)}"


@dataclass(frozen=True, slots=True)
class GroupRow:
    """A team's line in its group's match-day table."""

    rank: int
    team_id: int
    team: str
    club: str
    scores: tuple[SeriesScore, ...]
    match_points: Fraction
    match_points_against: Fraction
    game_points: int

    @property
    def series(self) -> int:
        return len(self.scores)

    @property
    def match_points_text(self) -> str:
        """As printed: "7½ : 1½"."""
        return f"{half_points(self.match_points)} : {half_points(self.match_points_against)}"


@dataclass(frozen=True, slots=True)
class DivisionRow:
    """A team's line in the division's table."""

    rank: int
    team_id: int
    team: str
    club: str
    match_days: int
    series: int
    match_points: Fraction
    match_points_against: Fraction
    game_points: int
    head_to_head: Fraction = Fraction(0)
    """Match points won in the series against the teams level with it on match points and
    game points (one per team beaten, a half per team level): the head-to-head rule's figure,
    0 where nobody is level."""
    withdrawn: bool = False

    @property
    def match_points_text(self) -> str:
        """As printed: "7½ : 1½"."""
        return f"{half_points(self.match_points)} : {half_points(self.match_points_against)}"


@dataclass(frozen=True, slots=True)
class GroupTable:
    """A group of a match day: where it plays, its tournament, its teams' table."""

    number: int
    date: datetime.date
    host: str
    venue: str
    address: str
    tournament: str
    """The tournament's slug, empty while the group is not set up."""
    rows: list[GroupRow]
    state: str

    @property
    def provisional(self) -> bool:
        return self.state == State.PROVISIONAL


@dataclass(frozen=True, slots=True)
class MatchDayTable:
    number: int
    date: datetime.date
    central: bool
    venue: str
    groups: list[GroupTable]

    @property
    def state(self) -> str:
        states = {group.state for group in self.groups}
        if states <= {State.PLANNED}:
            return State.PLANNED
        return State.FINAL if states == {State.FINAL} else State.PROVISIONAL

    @property
    def provisional(self) -> bool:
        return self.state == State.PROVISIONAL


@dataclass(frozen=True, slots=True)
class DivisionTable:
    division: Division
    rows: list[DivisionRow]
    match_days: list[MatchDayTable] = field(default_factory=list)
    ranking: Ranking = DIVISION

    @property
    def provisional(self) -> bool:
        return any(day.provisional for day in self.match_days)

    @property
    def played(self) -> int:
        """Match days with figures, final or provisional."""
        return sum(1 for day in self.match_days if day.state != State.PLANNED)


def tie_ranking(rule: str) -> Ranking:
    """The division's ranking under the league's tie rule."""
    if rule == League.TieRule.HEAD_TO_HEAD:
        return Ranking(DIVISION.columns, (*DIVISION.precedence, "head_to_head"), DIVISION.marked)
    if rule == League.TieRule.FEWER_AGAINST:
        return Ranking(
            DIVISION.columns, (*DIVISION.precedence, "match_points_against"), DIVISION.marked
        )
    return DIVISION


def _group_rows(
    places: list[int],
    names: dict[int, tuple[str, str]],
    series: dict[int, dict[int, int]],
) -> list[GroupRow]:
    """The group's teams (``places``) ranked over its series (number → team → game
    points; teams missing from a series count 0)."""
    scores: dict[int, list[SeriesScore]] = {team: [] for team in places}
    for number in sorted(series):
        points = {team: series[number].get(team, 0) for team in places}
        for team, (won, lost) in series_match_points(points).items():
            scores[team].append(SeriesScore(number, points[team], won, lost))
    rows = [
        GroupRow(
            rank=0,
            team_id=team,
            team=names[team][0],
            club=names[team][1],
            scores=tuple(found),
            match_points=sum((s.match_points for s in found), Fraction(0)),
            match_points_against=sum((s.match_points_against for s in found), Fraction(0)),
            game_points=sum(s.game_points for s in found),
        )
        for team, found in scores.items()
    ]
    return GROUP.ranked(rows, name=lambda row: (row.team, row.team_id))


def _head_to_head(
    rows: list[DivisionRow], played: list[dict[int, dict[int, int]]]
) -> list[DivisionRow]:
    """``rows`` with the head-to-head figure of each team level with others on match points
    and game points: over every series of ``played`` (each group's series, number → team →
    game points), one point per level team it beat, a half per one it drew with."""
    level: dict[tuple[Fraction, int], list[int]] = defaultdict(list)
    for row in rows:
        level[row.match_points, row.game_points].append(row.team_id)
    figure: dict[int, Fraction] = defaultdict(Fraction)
    for teams in level.values():
        if len(teams) < 2:
            continue
        for series in played:
            for points in series.values():
                for a, b in combinations([t for t in teams if t in points], 2):
                    if points[a] == points[b]:
                        figure[a] += Fraction(1, 2)
                        figure[b] += Fraction(1, 2)
                    else:
                        figure[a if points[a] > points[b] else b] += 1
    return [replace(row, head_to_head=figure[row.team_id]) for row in rows]


def division_table(division: Division) -> DivisionTable:
    """The division's table and its match days' tables, from the public list results of its
    groups' tournaments (``ListResult.public``): five statements."""
    division = Division.objects.select_related("level", "season__league").get(pk=division.pk)
    series_count = division.level.series
    rule = division.season.league.tie_rule if division.season.league else League.TieRule.SHARED
    names: dict[int, tuple[str, str]] = {}
    withdrawn: set[int] = set()
    annulled: set[int] = set()
    for pk, name, club, state, annul in Team.objects.filter(division=division).values_list(
        "pk", "name", "club__name", "withdrawal__state", "withdrawal__annulled"
    ):
        names[pk] = (name, club or "")
        if state == Withdrawal.State.CONFIRMED:
            withdrawn.add(pk)
            if annul:
                annulled.add(pk)
    groups = list(
        MatchGroup.objects.filter(match_day__division=division)
        .select_related("match_day", "host", "tournament")
        .order_by("match_day__number", "number")
    )
    places: dict[int, list[int]] = defaultdict(list)
    for group_id, team in (
        GroupTeam.objects.filter(match_day__division=division)
        .order_by("group", "team__name")
        .values_list("group_id", "team_id")
    ):
        places[group_id].append(team)
    sums: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    published: dict[int, dict[int, bool]] = defaultdict(dict)
    for tournament, number, at, team, points in (
        ListResult.objects.public()
        .filter(tournament__match_group__match_day__division=division, team__isnull=False)
        .order_by()
        .values_list("tournament_id", "series__number", "series__published_at", "team_id")
        .annotate(points=Sum("total"))
    ):
        sums[tournament][number][team] = points
        published[tournament][number] = at is not None

    days: dict[int, MatchDayTable] = {}
    totals: dict[int, list[GroupRow]] = defaultdict(list)
    played: list[dict[int, dict[int, int]]] = []
    for group in groups:
        series = dict(sums.get(group.tournament_id or 0, {}))
        flags = published.get(group.tournament_id or 0, {})
        if not series:
            state = State.PLANNED
        elif sorted(flags) == list(range(1, series_count + 1)) and all(flags.values()):
            state = State.FINAL
        else:
            state = State.PROVISIONAL
        teams = [team for team in places[group.pk] if team in names]
        ranked = _group_rows(teams, names, series) if series else []
        if series:
            played.append({n: {t: p.get(t, 0) for t in teams} for n, p in series.items()})
        counted = ranked
        if series and annulled.intersection(teams):
            kept = [team for team in teams if team not in annulled]
            counted = _group_rows(kept, names, series) if kept else []
        for line in counted:
            totals[line.team_id].append(line)
        day = group.match_day
        found = days.setdefault(
            day.number, MatchDayTable(day.number, day.date, day.central, day.venue, [])
        )
        found.groups.append(
            GroupTable(
                number=group.number,
                date=group.date,
                host=group.host.name if group.host else "",
                venue=group.venue,
                address=group.address,
                tournament=group.tournament.slug if group.tournament else "",
                rows=ranked if series else _unplayed(teams, names),
                state=state,
            )
        )
    table = [
        DivisionRow(
            rank=0,
            team_id=team,
            team=name,
            club=club,
            match_days=len(totals[team]),
            series=sum(row.series for row in totals[team]),
            match_points=sum((row.match_points for row in totals[team]), Fraction(0)),
            match_points_against=sum(
                (row.match_points_against for row in totals[team]), Fraction(0)
            ),
            game_points=sum(row.game_points for row in totals[team]),
            withdrawn=team in withdrawn,
        )
        for team, (name, club) in names.items()
    ]
    ranking = tie_ranking(rule)
    if rule == League.TieRule.HEAD_TO_HEAD:
        table = _head_to_head(table, played)
    active = ranking.ranked(
        [row for row in table if not row.withdrawn], name=lambda row: (row.team, row.team_id)
    )
    out = ranking.ranked(
        [
            replace(row, team=_("%(team)s (zurückgezogen)") % {"team": row.team})
            for row in table
            if row.withdrawn
        ],
        name=lambda row: (row.team, row.team_id),
    )
    return DivisionTable(
        division=division,
        rows=active + [replace(row, rank=len(active) + row.rank) for row in out],
        match_days=[days[number] for number in sorted(days)],
        ranking=ranking,
    )


def _unplayed(teams: list[int], names: dict[int, tuple[str, str]]) -> list[GroupRow]:
    """A group not played yet: its teams by name, without a rank."""
    return [
        GroupRow(0, team, names[team][0], names[team][1], (), Fraction(0), Fraction(0), 0)
        for team in sorted(teams, key=lambda t: names[t][0])
    ]

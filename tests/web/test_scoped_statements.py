"""Statements over one series, tournament or season are written by hand with the scope's key
as their parameter: they read what the ORM's own statements read."""

import datetime
from fractions import Fraction

import pytest
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatliga.models import (
    RESULT_FIGURES,
    HistoryRow,
    ListResult,
    Player,
    Season,
    Seat,
    Series,
    Table,
    Team,
    Tournament,
)
from skatliga.standings.queries import (
    Progress,
    Running,
    RunningList,
    half_match_points,
    progress_in,
    running_in,
    team_standings,
)
from tests.web.factories import entry, make_table, make_tournament, play

pytestmark = pytest.mark.django_db

GRAND = entry(2, "grand", bid=24, matadors=2, card_points=78, tricks=7)


def unscoped(rows):
    """The same rows with no scope: a filter that changes nothing, read through the ORM."""
    unscoped = rows.filter(pk__gte=0)
    assert unscoped._scope is None
    return unscoped


def scopes(season):
    tournament = season.tournaments.get()
    series = Series.objects.get(tournament=tournament)
    return [
        ListResult.objects.for_season(season),
        ListResult.objects.for_tournament(tournament),
        ListResult.objects.for_series(series),
    ]


def test_scoped_statements_read_what_the_orms_read(small_season):
    tournament = small_season.tournaments.get()
    Player.objects.filter(name__in=["a1", "b2"]).update(category="senioren")
    for rows in scopes(small_season):
        assert rows._scope is not None
        assert rows.standings() == unscoped(rows).standings()
        assert rows.standings(lots_of=tournament) == unscoped(rows).standings(lots_of=tournament)
        assert rows.ranked()[2:5] == unscoped(rows).standings()[2:5]
        assert team_standings(rows) == team_standings(unscoped(rows))
        pairings = Season.MatchPoints.PAIRINGS
        assert team_standings(rows, pairings) == team_standings(unscoped(rows), pairings)
        assert rows.categories() == unscoped(rows).categories() == ["senioren"]
        assert rows.provisional() == unscoped(rows).provisional()
        facts = (rows.provisional(), rows.categories())
        assert rows.provisional_and_categories() == facts
        assert unscoped(rows).provisional_and_categories() == facts


def test_a_scopes_statement_reads_its_own_rows_alone(small_season):
    """The second season's statements are the first's with its own key: its rows alone."""
    first = ListResult.objects.for_season(small_season).standings()
    other = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    tournament = make_tournament(season=other, rounds=1)
    table = make_table(tournament, players=[Player.objects.create(name=n) for n in "xyz"])
    play(table, GRAND)

    rows = ListResult.objects.for_season(other)
    assert [r.player for r in rows.standings()] == ["y", "x", "z"]
    assert rows.standings() == unscoped(rows).standings()
    Series.objects.filter(tournament__season=small_season).update(published_at="2026-11-21T20:00Z")
    assert rows.provisional() and not ListResult.objects.for_season(small_season).provisional()
    for published in scopes(small_season):  # the other season's unpublished series do not count
        assert published.provisional_and_categories() == (False, [])
        assert not unscoped(published).provisional()
    assert ListResult.objects.for_season(small_season).standings() == first
    by_lot = ListResult.objects.for_tournament(tournament).standings(lots_of=tournament)
    assert [r.player for r in by_lot] == ["y", "x", "z"]


def test_a_further_filter_is_not_forgotten(small_season):
    rows = ListResult.objects.for_season(small_season).filter(player__name="a1")
    assert rows._scope is None
    assert [r.player for r in rows.standings()] == ["a1"]
    narrowed = ListResult.objects.filter(player__name="a1").for_season(small_season)
    assert narrowed._scope is None
    assert [r.player for r in narrowed.standings()] == ["a1"]


def history(player: Player) -> list[HistoryRow]:
    """The player's public rows, newest first, read through the ORM's models."""
    rows = (
        ListResult.objects.filter(player=player)
        .public()
        .select_related("table", "series", "tournament")
        .order_by("-tournament__date", "-series__number")
    )
    return [
        HistoryRow(
            r.tournament.name,
            r.tournament.slug,
            r.tournament.date,
            r.series.number,
            r.series.is_published,
            r.table.number,
            *(getattr(r, name) for name in RESULT_FIGURES),
        )
        for r in rows
    ]


def test_a_players_history_reads_what_the_orm_reads(small_season):
    first = small_season.tournaments.get()
    later = first.date + datetime.timedelta(days=14)
    second = make_tournament(season=small_season, rounds=1, slug="spieltag-2", date=later)
    players = list(Player.objects.filter(name__in=["a1", "b1", "c1"]))
    play(make_table(second, players=players), GRAND)
    for hidden, published in ((False, False), (True, False), (True, True)):
        Tournament.objects.filter(pk=first.pk).update(hide_unpublished=hidden)
        Series.objects.filter(tournament=first).update(
            published_at=timezone.now() if published else None
        )
        for player in Player.objects.all():
            rows = ListResult.objects.for_player(player.pk)
            assert rows._scope is not None
            assert rows.history() == unscoped(rows).history() == history(player)
    a1 = ListResult.objects.for_player(players[0].pk).history()
    assert [(r.slug, r.published) for r in a1] == [("spieltag-2", False), ("spieltag-1", True)]


def progress(tables: QuerySet[Table]) -> Progress:
    """The oracle of progress_in: ``tables`` counted through the ORM."""
    counts = tables.aggregate(
        lists=Count("id"), closed=Count("id", filter=Q(closed_at__isnull=False))
    )
    return Progress(closed=counts["closed"], lists=counts["lists"], at=timezone.now())


def running(tables: QuerySet[Table]) -> Running:
    """The oracle of running_in: the open lists among ``tables`` read through the ORM."""
    found = list(
        tables.filter(closed_at__isnull=True, series__tournament__hide_unpublished=False)
        .annotate(game_count=Count("games"))
        .filter(game_count__gt=0)
        .select_related("series__tournament")
        .order_by("series__tournament__date", "series__tournament_id", "series__number", "number")
    )
    players = Seat.objects.filter(table__in=[table.pk for table in found]).values_list(
        "player_id", flat=True
    )
    return Running(
        lists=[
            RunningList(
                tournament=table.series.tournament.name,
                slug=table.series.tournament.slug,
                series=table.series.number,
                table=table.number,
                games=table.game_count,
                expected=table.series.tournament.games_per_list(table.size),
            )
            for table in found
        ],
        players=frozenset(players) if found else frozenset(),
    )


def test_running_and_progress_by_scope_equal_those_of_the_tables(small_season):
    tournament = make_tournament(season=small_season, rounds=1)
    table = make_table(tournament, players=[Player.objects.create(name=n) for n in "xyz"])
    make_table(tournament, size=3)
    play(table, GRAND)
    hidden = make_tournament(season=small_season, rounds=1, hide_unpublished=True)
    play(make_table(hidden, players=[Player.objects.create(name=n) for n in "uvw"]), GRAND)
    series = Series.objects.get(tournament=tournament)
    for scope, tables in [
        (small_season, Table.objects.filter(series__tournament__season=small_season)),
        (tournament, Table.objects.filter(series__tournament=tournament)),
        (series, Table.objects.filter(series=series)),
        (hidden, Table.objects.filter(series__tournament=hidden)),
    ]:
        assert running_in(scope) == running(tables)
        ours, theirs = progress_in(scope), progress(tables)
        assert (ours.closed, ours.lists) == (theirs.closed, theirs.lists)
    found = running_in(tournament)
    assert [(r.slug, r.series, r.table, r.games, r.expected) for r in found.lists] == [
        (tournament.slug, 1, table.number, 1, 3)
    ]
    assert found.players == {p.pk for p in Player.objects.filter(name__in="xyz")}
    assert running_in(hidden).lists == []


def team_result(series: Series, team: Team, total: int) -> None:
    """A list of ``series`` whose one result row, a new player's of ``team``, has ``total``."""
    tournament = series.tournament
    ListResult.objects.create(
        table=Table.objects.create(series=series, number=team.pk, size=3),
        series=series,
        tournament=tournament,
        season=tournament.season,
        player=Player.objects.create(name=f"{team.name}-{tournament.pk}-{series.number}"),
        team=team,
        position=1,
        game_points=total,
        total=total,
    )


def test_team_match_points_share_the_places_of_level_teams(db):
    """Per series, the team match points equal ``half_match_points`` of the series' sums:
    three teams level in the middle, two level at the bottom, over two series."""
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    tournament = make_tournament(season=season, rounds=1)
    teams = [Team.objects.create(season=season, name=f"T{n}") for n in range(6)]
    sums = [[500, 300, 300, 300, 100, 100], [0, 0, 0, 0, 0, 900]]
    for number, points in enumerate(sums, start=1):
        series = Series.objects.create(tournament=tournament, number=number)
        for team, total in zip(teams, points, strict=True):
            team_result(series, team, total)
    expected = {team.pk: 0 for team in teams}
    for points in sums:
        for team, halves in half_match_points(dict(zip(teams, points, strict=True))).items():
            expected[team.pk] += halves
    for rows in (ListResult.objects.for_season(season), unscoped(ListResult.objects.all())):
        found = {row.team_id: row.match_points * 2 for row in team_standings(rows)}
        assert found == expected
        against = {row.team_id: row.match_points_against * 2 for row in team_standings(rows)}
        assert against == {team: 2 * 2 * 5 - halves for team, halves in expected.items()}


def day_series(sums: list[int]) -> tuple[list[int], list[int]]:
    """A match day's two series: the sums, then the sums in reverse order for all teams but
    the last (from three teams on), so that a team plays one series of the day or both."""
    return sums, sums[::-1][: max(2, len(sums) - 1)]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    sums=st.lists(
        st.lists(st.sampled_from([-60, 0, 30, 90]), min_size=2, max_size=5),
        min_size=1,
        max_size=3,
    ),
    scheme=st.sampled_from(Season.MatchPoints.values),
)
def test_team_standings_follow_the_rule_for_any_series_sums(db, sums, scheme):
    """Teams' Spielpunkte per series (few values, so that teams are often level) give, per
    team, the sum of ``half_match_points`` over the series (per match day under
    ``pairings``), ranked by match points, then Spielpunkte, level teams sharing a rank."""
    with transaction.atomic():
        season = Season.objects.create(name="Liga", slug="liga", year=2026, match_points=scheme)
        teams = [Team.objects.create(season=season, name=f"T{n}") for n in range(5)]
        days: list[dict[Team, int]] = []
        played: dict[str, int] = {}
        for day, series_sums in enumerate(sums, start=1):
            tournament = make_tournament(season=season, rounds=1, slug=f"t{day}")
            days.append({})
            for number, points in enumerate(day_series(series_sums), start=1):
                series = Series.objects.create(tournament=tournament, number=number)
                for team, total in zip(teams, points, strict=False):
                    team_result(series, team, total)
                    days[-1][team] = days[-1].get(team, 0) + total
                    played[team.name] = played.get(team.name, 0) + 1
        units = (
            days
            if scheme == Season.MatchPoints.PAIRINGS
            else [dict(zip(teams, p, strict=False)) for s in sums for p in day_series(s)]
        )
        won: dict[str, int] = {}
        lost: dict[str, int] = {}
        points: dict[str, int] = {}
        for unit in units:
            for team, halves in half_match_points(unit).items():
                won[team.name] = won.get(team.name, 0) + halves
                lost[team.name] = lost.get(team.name, 0) + 2 * (len(unit) - 1) - halves
                points[team.name] = points.get(team.name, 0) + unit[team]
        scale = 2 if scheme == Season.MatchPoints.PLACES else 1
        order = sorted(won, key=lambda name: (-won[name], -points[name], name))
        ranks = [
            next(n for n, o in enumerate(order, 1) if (won[o], points[o]) == (won[t], points[t]))
            for t in order
        ]
        expected = [
            (rank, t, Fraction(won[t], scale), Fraction(lost[t], scale), points[t], played[t])
            for rank, t in zip(ranks, order, strict=True)
        ]
        found = [
            (r.rank, r.team, r.match_points, r.match_points_against, r.game_points, r.series)
            for r in team_standings(ListResult.objects.for_season(season), scheme)
        ]
        assert found == expected
        transaction.set_rollback(True)

"""The demo league: a season of full lists, created deterministically through the archive."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from django.core.management import call_command
from django.db.models import Count

from skatliga.models import (
    Club,
    Division,
    Game,
    League,
    ListResult,
    MatchGroup,
    Player,
    Registration,
    Season,
    Seat,
    Series,
    Table,
    Team,
    Tournament,
)

pytestmark = pytest.mark.django_db


def seed(*args: str) -> str:
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def totals():
    return sorted(
        ListResult.objects.values_list(
            "tournament__name", "series__number", "table__number", "player__name", "total"
        )
    )


def delete_everything():
    Tournament.objects.all().delete()
    Registration.objects.all().delete()
    Team.objects.all().delete()
    Division.objects.all().delete()
    Season.objects.all().delete()
    League.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()


@pytest.fixture
def demo() -> Season:
    seed()
    return Season.objects.get(slug="verbandsliga-2026")


def test_seed_demo_creates_the_season_with_teams_of_four(demo):
    teams = demo.teams.annotate(player_count=Count("players"))

    assert demo.name == "Verbandsliga 2026"
    assert len(teams) >= 8
    assert {team.player_count for team in teams} == {4}
    assert Club.objects.filter(team__season=demo).distinct().count() == 6


def test_every_match_day_has_four_teams_per_tournament_kept_apart(demo):
    match_days = Counter(demo.tournaments.values_list("match_day", flat=True))

    assert set(match_days) == {1, 2, 3}
    for tournament in demo.tournaments.all():
        assert tournament.keep_teammates_apart
        assert tournament.series.count() == 3
        team_of = dict(tournament.registrations.values_list("player_id", "team_id"))
        assert len(set(team_of.values())) == 4
        for table in Table.objects.filter(series__tournament=tournament):
            teams = [team_of[p] for p in table.seats.values_list("player_id", flat=True)]
            assert len(set(teams)) == len(teams)


def test_a_club_tournament_outside_the_season(demo):
    (club_tournament,) = Tournament.objects.filter(season__isnull=True)

    assert Table.objects.filter(series__tournament=club_tournament, size=3).exists()


def test_every_list_is_full(demo):
    for table in Table.objects.annotate(games_count=Count("games")).select_related(
        "series__tournament__season"
    ):
        season = table.series.tournament.season
        short = season is not None and season.league_id is not None  # the league's: 3 rounds
        assert table.games_count == {3: 9 if short else 36, 4: 12 if short else 48}[table.size]
    assert ListResult.objects.count() == Seat.objects.count()


def test_the_games_include_every_kind():
    seed()
    declared = Game.objects.filter(passed=False)

    assert Game.objects.filter(passed=True).exists()
    assert declared.filter(overbid=True).exists()
    assert declared.filter(game="null").exists()
    assert declared.filter(hand=True).exists()
    assert declared.filter(won=False, overbid=False).exists()


def test_the_results_are_the_teams_results(demo):
    assert not ListResult.objects.filter(season=demo, team__isnull=True).exists()


def test_polish_and_czech_names_keep_their_letters(demo):
    names = set(Player.objects.values_list("name", flat=True))

    assert {"Łukasz Nowak", "Tomáš Čermák", "Thomas Müller"} <= names


def test_a_second_run_does_nothing():
    seed()
    counts = (Tournament.objects.count(), Game.objects.count(), Player.objects.count())

    seed()

    assert (Tournament.objects.count(), Game.objects.count(), Player.objects.count()) == counts


def test_the_same_seed_gives_the_same_totals():
    seed("--seed", "5")
    first = totals()
    delete_everything()

    seed("--seed", "5")

    assert totals() == first


def test_another_seed_gives_other_totals():
    seed("--seed", "5")
    first = totals()
    delete_everything()

    seed("--seed", "6")

    assert totals() != first


def test_the_demo_league_is_published(demo):
    assert Series.objects.count() > 0
    assert Series.objects.public(final=True).count() == Series.objects.count()


def test_the_demo_has_a_league_of_two_levels_and_three_divisions(demo):
    divisions = Division.objects.filter(season__league__slug="lv-sachsen").order_by(
        "level__rank", "name"
    )

    assert [(d.level.rank, d.teams.count()) for d in divisions] == [(1, 16), (2, 12), (2, 9)]
    for division in divisions:
        assert division.published_at is not None
        assert division.match_days.count() == 5
        groups = MatchGroup.objects.filter(match_day__division=division)
        assert {g.match_day.number for g in groups if g.tournament_id} == {1, 2, 3}


def test_the_demo_leagues_tables_count_three_final_match_days(demo):
    from skatliga.standings.league import State, division_table

    for division in Division.objects.filter(season__league__slug="lv-sachsen"):
        table = division_table(division)
        states = [day.state for day in table.match_days]
        assert states == [State.FINAL] * 3 + [State.PLANNED] * 2
        assert {row.match_days for row in table.rows} == {3}
        series = division.level.series * 3
        assert {row.series for row in table.rows} == {series}

"""Rosters and seasons: clubs, players, merging two records, a CSV roster, seasons and teams.

The merge works on ``conftest.small_season`` (a1 103 on match day 1) plus a second match day
where "A. Eins", a second record of the same person, sits at a 3-table (rounds 1, seat 1
deals game 1) and wins grand with 1: 2 × 24 = 48, + 50 for the won game = 98; the other two
pass games 2 and 3. After the merge a1 has 103 + 98 = 201 from two lists, 2 games won.
"""

from __future__ import annotations

import datetime

import pytest

from skatliga import services
from skatliga.models import Change, Club, ListResult, Player, Season, Team, Tournament
from skatliga.services import rosters as league
from tests.web.factories import entry, make_player, make_table, play


def standing(results):
    return [(r.rank, r.player, r.lists, r.won, r.total) for r in results.standings()]


@pytest.fixture
def second_record(small_season):
    tournament = Tournament.objects.create(
        name="2. Spieltag",
        slug="spieltag-2",
        date=datetime.date(2026, 12, 5),
        season=small_season,
        match_day=2,
        rounds_per_series=1,
    )
    twin = make_player("A. Eins", number="0815")
    table = make_table(tournament, players=[twin, make_player("y"), make_player("z")])
    play(table, entry(1, "grand", bid=18, matadors=1, card_points=70, tricks=6), entry(), entry())
    return twin


def test_a_merge_moves_results_and_keeps_every_standing(small_season, second_record):
    a1 = Player.objects.get(name="a1")
    day1 = ListResult.objects.for_tournament(Tournament.objects.get(slug="spieltag-1"))
    day2 = ListResult.objects.for_tournament(Tournament.objects.get(slug="spieltag-2"))
    before_day1 = standing(day1)
    assert standing(day2)[0] == (1, "A. Eins", 1, 1, 98)

    league.merge_players(a1, second_record)

    assert standing(day1) == before_day1
    assert standing(day2)[0] == (1, "a1", 1, 1, 98)
    season = standing(ListResult.objects.for_season(small_season))
    assert season[0] == (1, "a1", 2, 2, 201)
    assert len(season) == 14  # 12 + y + z; "A. Eins" is gone
    assert not Player.objects.filter(name="A. Eins").exists()
    a1.refresh_from_db()
    assert a1.number == "0815"  # taken over: a1 had none


def test_a_merge_is_logged_in_every_tournament_it_touches(small_season, second_record):
    a1 = Player.objects.get(name="a1")
    league.merge_players(a1, second_record)

    (change,) = Change.objects.filter(action=Change.Action.PLAYERS_MERGED)
    assert change.tournament.slug == "spieltag-2"
    assert change.before["player"]["name"] == "A. Eins"
    assert change.after["player"] == {"id": a1.pk, "name": "a1", "number": "0815"}


def test_two_players_of_one_tournament_are_not_merged(small_season):
    a1, b1 = Player.objects.get(name="a1"), Player.objects.get(name="b1")

    with pytest.raises(services.ServiceError) as error:
        league.merge_players(a1, b1)

    assert error.value.code == "players_share_tournament"
    assert Player.objects.filter(name="b1").exists()


def test_a_player_is_not_merged_with_himself(db):
    player = make_player()
    with pytest.raises(services.ServiceError) as error:
        league.merge_players(player, player)
    assert error.value.code == "merge_same_player"


def test_a_merge_keeps_the_teams(small_season, second_record):
    a1 = Player.objects.get(name="a1")
    team_b = Team.objects.get(name="Team B")
    team_b.players.add(second_record)

    league.merge_players(a1, second_record)

    assert set(a1.teams.values_list("name", flat=True)) == {"Team A", "Team B"}


def test_players_are_saved_with_club_number_and_category(db):
    player = league.save_player(
        None, name="  Anna   Schmidt ", club="SC Altenburg", number="0815", category="damen"
    )
    assert (player.name, player.club.name, player.number, player.category) == (
        "Anna Schmidt",
        "SC Altenburg",
        "0815",
        "damen",
    )
    other = league.save_player(None, name="Bernd", club="sc altenburg")
    assert other.club == player.club  # the club is found ignoring case
    with pytest.raises(services.ServiceError) as error:
        league.save_player(other, name="Bernd", number="0815")
    assert (error.value.code, error.value.field) == ("player_number_taken", "number")
    with pytest.raises(services.ServiceError) as error:
        league.save_player(None, name=" ")
    assert error.value.code == "player_name_missing"
    with pytest.raises(services.ServiceError) as error:
        league.save_player(None, name="X", category="kinder")
    assert error.value.code == "category_unknown"


def test_club_names_are_unique_ignoring_case(db):
    club = league.save_club(None, name="SC Altenburg")
    with pytest.raises(services.ServiceError) as error:
        league.save_club(None, name="sc altenburg")
    assert error.value.code == "club_name_taken"
    assert league.save_club(club, name="SC Altenburg 1920").name == "SC Altenburg 1920"
    assert Club.objects.count() == 1


def test_a_csv_roster_creates_players_and_reports_duplicates(db):
    make_player("Anna Schmidt", number="0815")
    league.save_player(None, name="Carla Weiß", club="SC Altenburg")
    text = (
        "Name;Verein;Nummer\n"
        "Anna Schmitt;SC Altenburg;0815\n"  # 2: number known
        "Bernd Łukasz;Skatfreunde Leipzig;4711\n"  # 3: new
        "carla weiß;sc altenburg;\n"  # 4: name and club known
        "Dieter Krüger;;\n"  # 5: new, no club
        "Bernd Łukasz;Skatfreunde Leipzig;4711\n"  # 6: repeated
        ";SC Altenburg;1\n"  # 7: no name
        "Emil;A;2;ja;zu viel\n"  # 8: too many fields
    )

    report = league.import_roster(text)

    assert [p.name for p in report.created] == ["Bernd Łukasz", "Dieter Krüger"]
    assert report.duplicates == [
        (2, "Anna Schmitt", "number_known"),
        (4, "carla weiß", "name_and_club_known"),
        (6, "Bernd Łukasz", "repeated_in_file"),
    ]
    assert report.problems == [(7, "player_name_missing"), (8, "roster_too_many_fields")]
    assert Player.objects.get(number="4711").club.name == "Skatfreunde Leipzig"
    assert Player.objects.count() == 4


def test_a_comma_separated_roster_is_read_too(db):
    report = league.import_roster("Anna Schmidt,SC Altenburg,0815\nBernd,,\n")
    assert [(p.name, p.number) for p in report.created] == [("Anna Schmidt", "0815"), ("Bernd", "")]


def test_seasons_get_unique_slugs_and_teams_unique_names(db):
    first = league.save_season(None, name="Landesliga 2027", year=2027)
    second = league.save_season(None, name="Landesliga 2027", year=2027)
    assert (first.slug, second.slug) == ("landesliga-2027", "landesliga-2027-2")
    with pytest.raises(services.ServiceError) as error:
        league.save_season(None, name="X", year=20)
    assert error.value.code == "season_year_invalid"

    anna, bernd = make_player("Anna"), make_player("Bernd")
    team = league.save_team(first, None, name="Altenburg I", club="SC Altenburg", players=[anna])
    league.save_team(first, team, name="Altenburg I", club="SC Altenburg", players=[anna, bernd])
    assert set(team.players.values_list("name", flat=True)) == {"Anna", "Bernd"}
    with pytest.raises(services.ServiceError) as error:
        league.save_team(first, None, name="altenburg i")
    assert error.value.code == "team_name_taken"
    assert league.save_team(second, None, name="Altenburg I").season == second
    assert Season.objects.count() == 2

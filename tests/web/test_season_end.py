"""A league season's end (docs/rules.md section 11.7): the proposal from the divisions'
tables and the level's rule, and the next season with the teams moved."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest

from skatliga.models import Club, Division, Job, MatchGroup, RosterEntry, Season, Team
from skatliga.services import ServiceError, fixtures
from skatliga.services.season_end import moved_teams, proposal, roll_over
from skatliga.standings.queries import TeamRow
from skatliga.tasks import jobs
from skatliga.tasks.seasons import _roll_over, start_roll_over
from tests.web.factories import make_two_levels, play_match_day


@pytest.fixture
def league(db):
    return make_two_levels()


def hand_table(division: Division) -> list[TeamRow]:
    """Final tables worked out by hand: team i of a division (by name) has 40 − 5i match
    points; the Landesliga seconds: Ost 2 with 35 : 9, West 2 with 35 : 9 but more game points."""
    rows = []
    for i, team in enumerate(division.teams.order_by("name")):
        points = 9000 - 100 * i + (50 if team.name == "West 2" else 0)
        rows.append(
            TeamRow(
                i + 1, team.pk, team.name, "", 10, Fraction(40 - 5 * i), Fraction(5 * i), points
            )
        )
    return rows


def test_the_proposal_applies_each_levels_rule(league):
    top, lower = proposal(league, hand_table)
    names = lambda ids: [Team.objects.get(pk=pk).name for pk in ids]  # noqa: E731
    assert top.moves.up == ()  # nothing above the Oberliga
    oberliga = sorted(
        Team.objects.filter(division__level__name="Oberliga").values_list("name", flat=True)
    )
    assert sorted(names(top.moves.down)) == oberliga[-2:]  # the last two of the hand table
    # Ost 1 and West 1 directly; of the seconds West 2 (35 match points, 8950) beats Ost 2 (8900).
    assert names(lower.moves.up) == ["Ost 1", "West 1", "West 2"]
    assert lower.moves.down == ()  # nothing below the Landesliga
    [comparison] = lower.moves.comparisons
    assert [(row.team, chosen) for row, chosen in lower.comparison_rows(comparison)] == [
        ("West 2", True),
        ("Ost 2", False),
    ]


def test_the_next_season_moves_the_teams_and_carries_the_rosters(league):
    up, down = moved_teams(proposal(league, hand_table))
    done = roll_over(league, name="Liga 2027", year=2027, up=up, down=down)
    new = done.season
    assert new.league_id == league.league_id and new.year == 2027
    assert Division.objects.filter(season=new).count() == 3
    assert Team.objects.filter(season=new).count() == Team.objects.filter(season=league).count()
    moved_up = Team.objects.filter(season=new, name__in=["Ost 1", "West 1", "West 2"])
    assert {t.division.level.name for t in moved_up} == {"Oberliga"}
    moved_down = Team.objects.filter(season=new, pk__gt=0, name__in=names_of(down))
    # two relegated teams over the two Landesliga divisions, each then the one with fewer teams
    assert sorted(t.division.name for t in moved_down) == ["Ost", "West"]
    assert Team.objects.filter(season=new, division__level__name="Oberliga").count() == 8 - 2 + 3
    ost_1 = Team.objects.get(season=new, name="Ost 1")
    assert [e.player.name for e in RosterEntry.objects.filter(team=ost_1).order_by("position")] == [
        f"Ost-1-{p}" for p in range(4)
    ]
    assert ost_1.captain is not None and ost_1.captain.name == "Ost-1-1"
    assert done.dropped == []


def names_of(ids):
    return list(Team.objects.filter(pk__in=ids).values_list("name", flat=True))


def test_a_player_who_changed_club_is_left_off_the_carried_roster(league):
    player = RosterEntry.objects.filter(team__name="Ost 3").first().player
    player.club = Club.objects.create(name="Anderswo")
    player.save()
    done = roll_over(league, name="Liga 2027", year=2027, up=(), down=())
    assert done.dropped == [player.name]
    assert not RosterEntry.objects.filter(team__season=done.season, player=player).exists()


def test_a_season_rolls_over_to_a_later_year_only(league):
    with pytest.raises(ServiceError) as error:
        roll_over(league, name="Liga 2026b", year=2026, up=(), down=())
    assert error.value.code == "season_year_not_later"
    assert not Season.objects.filter(name="Liga 2026b").exists()


def test_the_roll_over_runs_in_the_background_once(league):
    job = start_roll_over(league, name="Liga 2027", year=2027, up=(), down=())
    jobs.run(str(job.pk), _roll_over)
    jobs.run(str(job.pk), _roll_over)  # a second run (a worker died after the commit) is harmless
    job = Job.objects.get(pk=job.pk)
    assert job.state == Job.State.DONE
    assert Season.objects.filter(name="Liga 2027").count() == 1
    assert job.result["url"] == "/league/divisions/"


def test_the_official_confirms_the_proposal_on_his_page(league, client, django_user_model):
    official = django_user_model.objects.create_user("ligaleiter", password="x-y-z-123")
    league.league.officials.add(official)
    url = f"/league/seasons/{league.slug}/end/"
    stranger = django_user_model.objects.create_user("fremd", password="x-y-z-123")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    client.force_login(official)
    page = client.get(url)
    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    text = page.content.decode()
    assert "Landesliga" in text and "Oberliga" in text
    west_1 = Team.objects.get(season=league, name="West 1")
    ost_2 = Team.objects.get(season=league, name="Ost 2")
    answer = client.post(
        url, {"name": "Liga 2027", "year": "2027", "up": [west_1.pk, ost_2.pk], "down": []}
    )
    job = Job.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(f"/jobs/{job.pk}/")
    assert job.options["up"] == sorted([west_1.pk, ost_2.pk])
    jobs.run(str(job.pk), _roll_over)
    new = Season.objects.get(name="Liga 2027")
    oberliga = set(
        Team.objects.filter(season=new, division__level__name="Oberliga").values_list(
            "name", flat=True
        )
    )
    assert {"West 1", "Ost 2"} <= oberliga and len(oberliga) == 10
    assert client.get(f"/referee/jobs/{job.pk}/").status_code == 302  # done: on to the season


def play_landesliga(season) -> None:
    """One match day of each Landesliga division played: in Ost the teams finish every series
    as Ost 2, Ost 1, Ost 3, Ost 4; in West as West 1, West 3, West 2, West 4."""
    orders = {"Ost": [2, 1, 3, 4], "West": [1, 3, 2, 4]}
    for name, order in orders.items():
        division = Division.objects.get(season=season, name=name)
        fixtures.generate_schedule(division, [datetime.date(2026, 3, 21)])
        group = MatchGroup.objects.get(match_day__division=division)
        teams = [Team.objects.get(season=season, name=f"{name} {n}") for n in order]
        play_match_day(group, teams)


def test_the_tables_come_from_the_match_days_played(league):
    play_landesliga(league)
    _top, lower = proposal(league)
    ost = {
        row.team: row
        for division, rows in lower.tables.items()
        for row in rows
        if division.name == "Ost"
    }
    # Two series, four tables: 3:0 each series for the first, 2:1, 1:2, 0:3; game points per
    # series 4 × 122 (grand with two, +50), 4 × 74 (clubs with one), 4 × 68 (diamonds), 0.
    assert [
        (t, ost[t].match_points_text, ost[t].game_points)
        for t in ("Ost 2", "Ost 1", "Ost 3", "Ost 4")
    ] == [
        ("Ost 2", "6 : 0", 976),
        ("Ost 1", "4 : 2", 592),
        ("Ost 3", "2 : 4", 544),
        ("Ost 4", "0 : 6", 0),
    ]
    names = lambda ids: sorted(Team.objects.get(pk=pk).name for pk in ids)  # noqa: E731
    # The winners go up; the seconds Ost 1 and West 3 are level on 4 : 2 and 592: the
    # official decides.
    assert names(lower.moves.up[:2]) == ["Ost 2", "West 1"]
    [comparison] = lower.moves.comparisons
    assert comparison.tied_at_cut
    assert sorted(row.team for row, _chosen in lower.comparison_rows(comparison)) == [
        "Ost 1",
        "West 3",
    ]

"""A league season's end (docs/rules.md section 11.6): the proposal from the divisions'
tables and the level's rule, and the next season with the teams moved."""

from __future__ import annotations

from fractions import Fraction

import pytest

from skatliga.models import Club, Division, Job, RosterEntry, Season, Team
from skatliga.services import ServiceError, leagues
from skatliga.services.season_end import moved_teams, proposal, roll_over
from skatliga.standings.queries import TeamRow
from skatliga.tasks import jobs
from skatliga.tasks.seasons import _roll_over, start_roll_over
from tests.web.factories import make_division, make_player


@pytest.fixture
def league(db):
    """Two levels: an Oberliga of one division (``make_division``'s, 8 teams) and a
    Landesliga of two divisions of four; one goes up from each Landesliga division, two go
    down from the Oberliga, and one more goes up: the better second of the Landesliga."""
    top = make_division(8)
    season = top.season
    top.level.relegated = 2
    top.level.save()
    lower = leagues.add_level(season.league, "Landesliga", series=2)
    lower.promoted, lower.promoted_compared = 1, 1
    lower.save()
    club = Club.objects.create(name="Verein Süd")
    for name in ("Ost", "West"):
        division = leagues.create_division(season, lower, name)
        for t in range(4):
            team = leagues.add_team(division, f"{name} {t + 1}", club)
            roster = [make_player(f"{name}-{t + 1}-{p}", club=club) for p in range(4)]
            leagues.set_roster(team, roster, captain=roster[1])
    return season


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
    assert job.result["url"].endswith(f"/{job.result['slug']}/")


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

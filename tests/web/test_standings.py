"""Standings over the small hand-computed season of ``conftest.small_season``."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring import Declaration, GameType, Outcome
from skatliga import services
from skatliga.models import ListResult, Registration, Series, Table
from skatliga.models import Tournament as TournamentModel
from skatliga.standings.metrics import METRICS, WonMinusLost
from skatliga.standings.queries import match_points, team_standings

pytestmark = pytest.mark.django_db


def totals(rows):
    return {row.player: (row.rank, row.total) for row in rows}


def test_list_results_match_the_hand_computed_sheets(small_season):
    got = {r.player.name: r.total for r in ListResult.objects.select_related("player")}
    assert got == {
        "a1": 103, "b1": 128, "c1": -90, "d1": 30,
        "a2": 30, "b2": 30, "c2": 128, "d2": -104,
        "a3": 0, "b3": 83, "c3": 0, "d3": 0,
    }  # fmt: skip


def test_season_standings_rank_with_shared_places(small_season, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = ListResult.objects.for_season(small_season).standings()
    assert totals(rows) == {
        "b1": (1, 128), "c2": (1, 128), "a1": (3, 103), "b3": (4, 83),
        "a2": (5, 30), "b2": (5, 30), "d1": (5, 30),
        "a3": (8, 0), "c3": (8, 0), "d3": (8, 0),
        "c1": (11, -90), "d2": (12, -104),
    }  # fmt: skip
    first = rows[0]
    # b1 and c2 alike: 48 game points, 1 won, 0 lost, 1 lost by others → 50 + 30 = 80 bonus
    assert (first.game_points, first.won, first.lost, first.others_lost, first.bonus) == (
        48, 1, 0, 1, 80
    )  # fmt: skip


def test_a_recorded_draw_by_lot_splits_a_shared_rank(small_season):
    tournament = TournamentModel.objects.get()
    Registration.objects.filter(player__name="c2").update(lot=1)
    Registration.objects.filter(player__name="b1").update(lot=2)
    rows = totals(ListResult.objects.for_tournament(tournament).standings(lots_of=tournament))
    assert rows["c2"] == (1, 128) and rows["b1"] == (2, 128)


def test_team_standings_give_match_points(small_season, django_assert_num_queries):
    with django_assert_num_queries(1):
        rows = team_standings(ListResult.objects.for_season(small_season))
    assert [
        (r.rank, r.team, r.match_points, r.match_points_against, r.game_points) for r in rows
    ] == [
        (1, "Team B", 3, 0, 241),
        (2, "Team A", 2, 1, 133),
        (3, "Team C", 1, 2, 38),
        (4, "Team D", 0, 3, -74),
    ]


def test_match_points_split_between_level_teams():
    assert match_points({1: 10, 2: 10, 3: 5, 4: 0}) == {
        1: (Fraction(5, 2), Fraction(1, 2)),
        2: (Fraction(5, 2), Fraction(1, 2)),
        3: (1, 2),
        4: (0, 3),
    }


def test_standings_follow_a_correction(small_season):
    table = Table.objects.get(number=3)
    # b3's game lost instead: spades hand with 1 = 33 → −66 − 50 = −116; the others +30 each
    services.record_game(
        table,
        1,
        services.GameEntry(2, Declaration(GameType.SPADES, 18, 1, hand=True), Outcome(60, 5)),
        expected_version=1,
    )
    rows = totals(ListResult.objects.for_season(small_season).standings())
    assert rows["b3"][1] == -116
    assert rows["a3"][1] == rows["c3"][1] == rows["d3"][1] == 30


def test_standings_command_json_and_csv(small_season, capsys):
    call_command("standings", "spieltag-1", "--format", "json")
    rows = json.loads(capsys.readouterr().out)
    balance = WonMinusLost.key
    assert list(rows[0]) == [
        "rank", "player", "club", "game_points", "won", "lost", balance, "others_lost", "bonus",
        "total",
    ]  # fmt: skip
    assert {(r["player"], r["rank"], r["total"]) for r in rows[:2]} == {
        ("b1", 1, 128),
        ("c2", 1, 128),
    }
    call_command("standings", "spieltag-1", "--series", "1", "--format", "csv")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"rank,player,club,game_points,won,lost,{balance},others_lost,bonus,total"
    assert lines[-2].startswith("11,c1,,-40,0,1,-1,0,-50,-90")
    assert lines[-1].startswith("12,d2,,-54,0,1,-1,0,-50,-104")


def test_standings_command_errors(small_season):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("standings", "nope")
    with pytest.raises(CommandError):
        call_command("standings", "spieltag-1", "--series", "9")


def test_games_played_as_declarer_count_won_and_lost(small_season, client):
    """ "Spiele": the games each player declared, from the sheets of ``small_season``: b1's
    grand, c1's hearts (lost), a1's null, c2's clubs, d2's overbid diamonds, b3's spades;
    passed-in rows count for nobody."""
    rows = ListResult.objects.for_season(small_season).standings()
    declared = {"a1": 1, "b1": 1, "c1": 1, "c2": 1, "d2": 1, "b3": 1}
    games = METRICS["games"].value
    assert {row.player: games(row) for row in rows} == {
        row.player: declared.get(row.player, 0) for row in rows
    }
    Table.objects.update(closed_at=timezone.now())
    services.publish_series(Series.objects.get())
    api = client.get("/api/v1/seasons/liga-2026/standings").json()
    assert {row["player"]: row["games"] for row in api["items"] if row["games"]} == declared
    page = client.get("/seasons/liga-2026/").content.decode()
    assert ">Spiele<" in page or ">Spiele</a>" in page

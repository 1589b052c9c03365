"""Use cases: entering, correcting and deleting games, closing lists, seating players.

Result rows are checked against numbers worked out by hand from rules.md section 5.

3-table list (THREE): 1 seat 1 grand with 2, 78 points = 3 × 24 = 72 won; 2 seat 2 hearts
without 2 at 30, lost = 3 × 10 = 30 → −60; 3 passed in; 4 seat 3 diamonds without 1 at 22,
70 points = 18 < 22, overbid, charged 27 → −54.
  seat 1: 72 + 50 × (1 − 0) + 40 × 2 = 202 · seat 2: −60 − 50 + 40 = −70
  seat 3: −54 − 50 + 40 = −64

4-table list (FOUR): 1 (seat 1 deals) seat 2 clubs with 1, 61 points = 2 × 12 = 24 won;
2 (seat 2 deals) seat 3 null, 1 trick = 23 lost → −46; 3 (seat 3 deals) seat 4 spades hand
with 1 = 3 × 11 = 33 won; 4 (seat 4 deals) seat 1 grand with 1, lost = 2 × 24 = 48 → −96.
  seat 1: −96 − 50 + 30 × 1 = −116 · seat 2 (sat out game 2, still counts it): 24 + 50 + 30 × 2
  = 134 · seat 3: −46 − 50 + 30 = −66 · seat 4: 33 + 50 + 30 × 2 = 143
"""

from __future__ import annotations

import pytest

from skatliga import services
from skatliga.models import (
    Change,
    Club,
    Game,
    ListResult,
    Player,
    Season,
    Seat,
    Series,
    Team,
    Tournament,
)
from tests.web.factories import entry, make_player, make_table, make_tournament, play

pytestmark = pytest.mark.django_db

THREE = [
    entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7),
    entry(2, "hearts", bid=30, matadors=-2, won=False),
    entry(),
    entry(3, "diamonds", bid=22, matadors=-1, card_points=70, tricks=6),
]
FOUR = [
    entry(2, "clubs", bid=18, matadors=1, card_points=61, tricks=5),
    entry(3, "null", bid=23, tricks=1),
    entry(4, "spades", bid=18, matadors=1, hand=True, card_points=61, tricks=5),
    entry(1, "grand", bid=18, matadors=1, won=False),
]


def results(table):
    """(game points, won, lost, others lost, bonus, total) per seat."""
    return [
        (r.game_points, r.won, r.lost, r.others_lost, r.bonus, r.total)
        for r in ListResult.objects.filter(table=table).order_by("position")
    ]


def totals(table):
    return [r[-1] for r in results(table)]


def changes(table, action):
    return list(Change.objects.filter(table=table, action=action).order_by("id"))


# --- recording -------------------------------------------------------------------------------


def test_record_game_writes_a_new_row_with_the_engines_verdict():
    table = make_table(size=3)

    game = services.record_game(table, 1, THREE[0])

    game.refresh_from_db()
    assert (game.number, game.version, game.declarer, game.game) == (1, 1, 1, "grand")
    assert (game.won, game.overbid, game.value, game.list_score) == (True, False, 72, 72)


def test_record_game_marks_a_planned_tournament_running():
    table = make_table(size=3)

    play(table, THREE[0])

    assert Tournament.objects.get().status == Tournament.Status.RUNNING


def test_results_of_a_three_table_list():
    table = make_table(size=3)

    play(table, *THREE)

    assert results(table) == [
        (72, 1, 0, 2, 130, 202),
        (-60, 0, 1, 1, -10, -70),
        (-54, 0, 1, 1, -10, -64),
    ]


def test_results_of_a_four_table_list():
    table = make_table(size=4)

    play(table, *FOUR)

    assert results(table) == [
        (-96, 0, 1, 1, -20, -116),
        (24, 1, 0, 2, 110, 134),
        (-46, 0, 1, 1, -20, -66),
        (33, 1, 0, 2, 110, 143),
    ]


def test_results_of_a_classic_list_have_no_bonus():
    table = make_table(size=3, scoring="classic")

    play(table, *THREE)

    assert results(table) == [(72, 1, 0, 2, 0, 72), (-60, 0, 1, 1, 0, -60), (-54, 0, 1, 1, 0, -54)]


def test_a_new_list_has_zero_results_for_every_seat():
    table = make_table(size=4)

    assert results(table) == [(0, 0, 0, 0, 0, 0)] * 4


def test_record_game_refuses_a_declarer_who_deals_at_a_four_table():
    table = make_table(size=4)

    with pytest.raises(services.ServiceError) as error:
        services.record_game(table, 1, entry(1, "grand", bid=18, matadors=1, won=True))

    assert error.value.code == "declarer_is_dealer"
    assert not Game.objects.exists()


def test_record_game_reports_every_engine_problem():
    table = make_table(size=3)

    with pytest.raises(services.ServiceError) as error:
        services.record_game(table, 1, entry(1, "hearts", bid=19, matadors=0, won=True))

    assert [p.code for p in error.value.problems] == ["bid_not_legal", "matadors_out_of_range"]


def test_record_game_refuses_a_gap_in_the_game_numbers():
    table = make_table(size=3)
    play(table, THREE[0])

    with pytest.raises(services.ServiceError) as error:
        services.record_game(table, 3, THREE[2])

    assert (error.value.code, error.value.field) == ("game_number_gap", "number")
    assert table.games.count() == 1


def test_record_game_refuses_a_number_beyond_the_list():
    table = make_table(size=3, rounds=1)
    play(table, *THREE[:3])

    with pytest.raises(services.ServiceError) as error:
        services.record_game(table, 4, THREE[3])

    assert error.value.code == "game_number_invalid"


# --- correcting ------------------------------------------------------------------------------


def test_correct_game_bumps_the_version_and_the_results_follow():
    table = make_table(size=3)
    play(table, *THREE)

    game = services.record_game(
        table, 2, entry(2, "hearts", bid=30, matadors=-2, won=True), expected_version=1
    )

    assert (game.version, game.won, game.list_score) == (2, True, 30)
    assert results(table) == [
        (72, 1, 0, 1, 90, 162),
        (30, 1, 0, 1, 90, 120),
        (-54, 0, 1, 0, -50, -104),
    ]


def test_correct_game_with_a_stale_version_raises_conflict_and_saves_nothing():
    table = make_table(size=3)
    play(table, *THREE)
    services.record_game(table, 2, entry(), expected_version=1)
    before = totals(table)
    change_count = Change.objects.count()

    with pytest.raises(services.Conflict) as error:
        services.record_game(table, 2, THREE[0], expected_version=1)

    assert error.value.code == "conflict"
    assert (error.value.current.number, error.value.current.version) == (2, 2)
    assert error.value.current.passed
    assert Game.objects.get(table=table, number=2).passed
    assert (totals(table), Change.objects.count()) == (before, change_count)


def test_entering_a_row_someone_else_entered_meanwhile_raises_conflict():
    table = make_table(size=3)
    play(table, THREE[0])

    with pytest.raises(services.Conflict) as error:
        services.record_game(table, 1, THREE[1])

    assert error.value.current.version == 1
    assert Game.objects.get(table=table, number=1).game == "grand"


def test_correcting_a_row_that_was_deleted_meanwhile_raises_conflict_without_a_row():
    table = make_table(size=3)

    with pytest.raises(services.Conflict) as error:
        services.record_game(table, 1, THREE[0], expected_version=1)

    assert error.value.current is None
    assert not Game.objects.exists()


# --- deleting --------------------------------------------------------------------------------


def test_delete_last_game_removes_it_and_the_results_follow():
    table = make_table(size=3)
    play(table, *THREE)

    services.delete_last_game(table, 4, expected_version=1, reason="doppelt erfasst")

    assert table.games.count() == 3
    assert results(table) == [
        (72, 1, 0, 1, 90, 162),
        (-60, 0, 1, 0, -50, -110),
        (0, 0, 0, 1, 40, 40),
    ]


def test_delete_last_game_refuses_any_other_game():
    table = make_table(size=3)
    play(table, *THREE)

    with pytest.raises(services.ServiceError) as error:
        services.delete_last_game(table, 3, expected_version=1)

    assert error.value.code == "only_last_game_deleted"
    assert table.games.count() == 4


def test_delete_last_game_with_a_stale_version_raises_conflict():
    table = make_table(size=3)
    play(table, *THREE)
    services.record_game(table, 4, entry(), expected_version=1)

    with pytest.raises(services.Conflict) as error:
        services.delete_last_game(table, 4, expected_version=1)

    assert error.value.current.version == 2
    assert table.games.count() == 4


# --- closing and reopening -------------------------------------------------------------------


def test_close_an_incomplete_list_is_refused():
    table = make_table(size=3, rounds=1)
    play(table, *THREE[:2])

    with pytest.raises(services.ServiceError) as error:
        services.close_table(table)

    assert (error.value.code, error.value.params) == ("list_incomplete", {"expected": 3})
    table.refresh_from_db()
    assert not table.is_closed


def test_close_a_complete_list():
    table = make_table(size=3, rounds=1)
    play(table, *THREE[:3])

    services.close_table(table)

    table.refresh_from_db()
    assert table.is_closed
    assert len(changes(table, Change.Action.LIST_CLOSED)) == 1


def test_a_closed_list_refuses_new_games_corrections_and_deletions():
    table = make_table(size=3, rounds=1)
    play(table, *THREE[:3])
    services.close_table(table)

    with pytest.raises(services.ServiceError) as corrected:
        services.record_game(table, 1, entry(), expected_version=1)
    with pytest.raises(services.ServiceError) as deleted:
        services.delete_last_game(table, 3, expected_version=1)
    with pytest.raises(services.ServiceError) as closed:
        services.close_table(table)

    assert {corrected.value.code, deleted.value.code, closed.value.code} == {"list_closed"}
    assert Game.objects.get(table=table, number=1).game == "grand"


@pytest.mark.parametrize("reason", ["", "   "])
def test_reopen_needs_a_reason(reason):
    table = make_table(size=3, rounds=1)
    play(table, *THREE[:3])
    services.close_table(table)

    with pytest.raises(services.ServiceError) as error:
        services.reopen_table(table, reason=reason)

    assert (error.value.code, error.value.field) == ("reason_required", "reason")
    table.refresh_from_db()
    assert table.is_closed


def test_reopen_with_a_reason_allows_corrections_again():
    table = make_table(size=3, rounds=1)
    play(table, *THREE[:3])
    services.close_table(table)

    services.reopen_table(table, reason=" Spiel 2 falsch übertragen ")
    services.record_game(table, 3, entry(), expected_version=1)

    table.refresh_from_db()
    assert not table.is_closed
    assert [c.reason for c in changes(table, Change.Action.LIST_REOPENED)] == [
        "Spiel 2 falsch übertragen"
    ]


def test_reopen_an_open_list_is_refused():
    table = make_table(size=3)

    with pytest.raises(services.ServiceError) as error:
        services.reopen_table(table, reason="versehentlich")

    assert error.value.code == "list_not_closed"


# --- the change log --------------------------------------------------------------------------


def test_recording_logs_the_entry_and_who(django_user_model):
    user = django_user_model.objects.create_user("schiri")
    table = make_table(size=3)

    play(table, THREE[0], user=user)

    (change,) = changes(table, Change.Action.GAME_RECORDED)
    assert (change.user, change.game_number, change.before) == (user, 1, None)
    assert change.after == {
        "declarer_seat": 1,
        "game": "grand",
        "bid": 20,
        "matadors": 2,
        "card_points": 78,
        "tricks": 7,
    }


def test_correcting_logs_before_after_and_reason():
    table = make_table(size=3)
    play(table, THREE[0])

    services.record_game(table, 1, entry(), expected_version=1, reason="war eingepasst")

    (change,) = changes(table, Change.Action.GAME_CORRECTED)
    assert change.before["game"] == "grand"
    assert (change.after, change.reason) == ({"passed": True}, "war eingepasst")


def test_deleting_logs_the_deleted_game():
    table = make_table(size=3)
    play(table, THREE[0])

    services.delete_last_game(table, 1, expected_version=1, reason="falsche Liste")

    (change,) = changes(table, Change.Action.GAME_DELETED)
    assert (change.before["game"], change.after, change.reason) == ("grand", None, "falsche Liste")


# --- players and tables ----------------------------------------------------------------------


def test_parse_roster_reads_names_and_clubs():
    text = (
        "Anna Schmidt; SC Altenburg\n\n  Bernd   Łukasz \n"
        "Tomáš Čermák\tSkatverein Zittau\nJörg Müller, Grand Hand Dresden\n"
    )

    assert services.parse_roster(text) == [
        ("Anna Schmidt", "SC Altenburg"),
        ("Bernd Łukasz", ""),
        ("Tomáš Čermák", "Skatverein Zittau"),
        ("Jörg Müller", "Grand Hand Dresden"),
    ]


def test_register_players_creates_players_and_clubs_once():
    tournament = make_tournament()
    roster = [("Anna Schmidt", "SC Altenburg"), ("Bernd Łukasz", "")]

    services.register_players(tournament, roster)
    registrations = services.register_players(tournament, roster)

    assert [(r.player.name, r.player.club and r.player.club.name) for r in registrations] == [
        ("Anna Schmidt", "SC Altenburg"),
        ("Bernd Łukasz", None),
    ]
    assert (Player.objects.count(), Club.objects.count()) == (2, 1)
    assert tournament.registrations.count() == 2


def test_register_players_reuses_a_known_player():
    known = make_player("Anna Schmidt")
    tournament = make_tournament()

    (registration,) = services.register_players(tournament, [("Anna Schmidt", "")])

    assert registration.player == known


SIZES = {
    3: [3],
    4: [4],
    6: [3, 3],
    7: [4, 3],
    8: [4, 4],
    9: [3, 3, 3],
    10: [4, 3, 3],
    11: [4, 4, 3],
    12: [4, 4, 4],
    13: [4, 3, 3, 3],
    14: [4, 4, 3, 3],
    15: [4, 4, 4, 3],
    16: [4, 4, 4, 4],
    17: [4, 4, 3, 3, 3],
    18: [4, 4, 4, 3, 3],
    19: [4, 4, 4, 4, 3],
    20: [4, 4, 4, 4, 4],
}


@pytest.mark.parametrize(("players", "sizes"), SIZES.items())
def test_draw_tables_seats_everyone_at_as_many_four_tables_as_possible(players, sizes):
    tournament = make_tournament(players=players)

    series = services.draw_tables(tournament, seed=1)

    tables = list(series.tables.order_by("number"))
    assert [t.size for t in tables] == sizes
    seated = list(Seat.objects.filter(series=series).values_list("player_id", flat=True))
    assert sorted(seated) == sorted(tournament.registrations.values_list("player_id", flat=True))
    assert ListResult.objects.filter(series=series).count() == players


def test_draw_tables_refuses_five_players():
    tournament = make_tournament(players=5)

    with pytest.raises(services.ServiceError) as error:
        services.draw_tables(tournament, seed=1)

    assert error.value.code == "players_cannot_be_seated"
    assert not Series.objects.exists()


def seating(series):
    return [
        list(table.seats.order_by("position").values_list("player_id", flat=True))
        for table in series.tables.order_by("number")
    ]


def test_draw_tables_is_deterministic_with_a_seed():
    tournament = make_tournament(players=13)

    first = services.draw_tables(tournament, seed=42)
    second = services.draw_tables(tournament, seed=42)
    third = services.draw_tables(tournament, seed=43)

    assert (first.number, second.number) == (1, 2)
    assert seating(first) == seating(second) != seating(third)


def test_draw_tables_logs_the_tables():
    tournament = make_tournament(players=7)

    series = services.draw_tables(tournament, seed=1)

    (change,) = Change.objects.filter(series=series, action=Change.Action.TABLES_DRAWN)
    assert change.after == {"tables": seating(series)}


def league_tournament(teams, per_team):
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    tournament = make_tournament(keep_teammates_apart=True, season=season)
    for t in range(teams):
        team = Team.objects.create(season=season, name=f"Team {t + 1}")
        for _ in range(per_team):
            player = make_player()
            team.players.add(player)
            tournament.registrations.create(player=player, team=team)
    return tournament


def test_draw_tables_keeps_teammates_apart():
    tournament = league_tournament(teams=4, per_team=3)
    team_of = dict(tournament.registrations.values_list("player_id", "team_id"))

    series = services.draw_tables(tournament, seed=3)

    for table in seating(series):
        assert len({team_of[p] for p in table}) == len(table)


def test_draw_tables_refuses_when_teammates_cannot_be_kept_apart():
    tournament = league_tournament(teams=2, per_team=4)

    with pytest.raises(services.ServiceError) as error:
        services.draw_tables(tournament, seed=1, attempts=20)

    assert error.value.code == "teammates_cannot_be_separated"
    assert not Series.objects.exists()


def test_swap_seats_before_the_series_starts():
    tournament = make_tournament(players=7)
    series = services.draw_tables(tournament, seed=1)
    (a, b) = [table.seats.get(position=1) for table in series.tables.order_by("number")]
    a_player, b_player = a.player_id, b.player_id

    services.swap_seats(series, a, b, reason="Rollstuhlplatz")

    assert seating(series)[0][0] == b_player
    assert seating(series)[1][0] == a_player
    assert set(ListResult.objects.filter(table=a.table).values_list("player_id", flat=True)) == set(
        seating(series)[0]
    )
    (change,) = Change.objects.filter(action=Change.Action.SEATS_SWAPPED)
    assert change.before["seats"] == [[a.table_id, 1, a_player], [b.table_id, 1, b_player]]
    assert change.after["seats"] == [[a.table_id, 1, b_player], [b.table_id, 1, a_player]]
    assert change.reason == "Rollstuhlplatz"


def test_swap_seats_is_refused_once_a_game_is_recorded():
    tournament = make_tournament(players=7)
    series = services.draw_tables(tournament, seed=1)
    first, second = series.tables.order_by("number")
    play(first, entry())
    before = seating(series)

    with pytest.raises(services.ServiceError) as error:
        services.swap_seats(series, first.seats.get(position=1), second.seats.get(position=1))

    assert error.value.code == "series_started"
    assert seating(series) == before

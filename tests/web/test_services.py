"""Use cases: entering, correcting and deleting games, closing lists, seating players.

Result rows are checked against numbers worked out by hand from docs/rules.md section 5.

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

import scoring
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
    services.record_game(table, 2, entry(), expected_version=1, reason="eingepasst")
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
    services.record_game(table, 4, entry(), expected_version=1, reason="eingepasst")

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
    added, registrations = services.register_players(tournament, roster)

    assert added == []
    assert [(r.player.name, r.player.club and r.player.club.name) for r in registrations] == [
        ("Anna Schmidt", "SC Altenburg"),
        ("Bernd Łukasz", None),
    ]
    assert (Player.objects.count(), Club.objects.count()) == (2, 1)
    assert tournament.registrations.count() == 2


def test_register_players_reuses_a_known_player():
    known = make_player("Anna Schmidt")
    tournament = make_tournament()

    (registration,), _ = services.register_players(tournament, [("Anna Schmidt", "")])

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
    # Series 2 avoids series 1's partners unless asked not to: then it draws as series 1 did.
    second = services.draw_tables(tournament, seed=42, avoid_repeats=False, despite_open_lists=True)
    third = services.draw_tables(tournament, seed=43, avoid_repeats=False, despite_open_lists=True)

    assert (first.number, second.number) == (1, 2)
    assert seating(first) == seating(second) != seating(third)


def test_draw_tables_logs_the_tables():
    tournament = make_tournament(players=7)

    series = services.draw_tables(tournament, seed=1)

    (change,) = Change.objects.filter(series=series, action=Change.Action.TABLES_DRAWN)
    assert change.after == {"tables": seating(series), "repeat_pairs": 0}


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
        services.draw_tables(tournament, seed=1)

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


# --- tournament settings ---------------------------------------------------------------------

# A 3-table list, rounds_per_series 1: 1 (seat 1 deals) seat 2 spades hand with 1, lost =
# 3 × 11 = 33; 2 seat 1 grand with 1 won = 2 × 24 = 48; 3 passed in.
#   isko (lost hand games −2 × 33 = −66): seat 1 48 + 50 + 40 = 138 · seat 2 −66 − 50 = −116
#     · seat 3 40
#   pre1999 (−33): seat 1 138 · seat 2 −33 − 50 = −83 · seat 3 40
#   classic (no bonus): seat 1 48 · seat 2 −66 · seat 3 0
HAND_LOST = [
    entry(2, "spades", bid=18, matadors=1, hand=True, won=False),
    entry(1, "grand", bid=18, matadors=1, won=True),
    entry(),
]


def hand_lost_table(**fields):
    table = make_table(size=3, rounds=1, **fields)
    play(table, *HAND_LOST)
    return table


def test_update_tournament_to_pre1999_rescores_a_lost_hand_game():
    table = hand_lost_table()

    services.update_tournament(table.series.tournament, rules="pre1999")

    assert totals(table) == [138, -83, 40]
    game = Game.objects.get(table=table, number=1)
    assert (game.won, game.value, game.list_score) == (False, 33, -33)


def test_update_tournament_to_classic_drops_the_bonuses():
    table = hand_lost_table()

    services.update_tournament(table.series.tournament, scoring="classic")

    assert results(table) == [(48, 1, 0, 1, 0, 48), (-66, 0, 1, 0, 0, -66), (0, 0, 0, 1, 0, 0)]


def test_update_tournament_logs_the_changed_fields_before_and_after(django_user_model):
    table = hand_lost_table(venue="Vereinsheim")
    user = django_user_model.objects.create_user("anna")

    services.update_tournament(
        table.series.tournament, user=user, rules="pre1999", venue="Vereinsheim", name="Pokal"
    )

    (change,) = Change.objects.filter(action=Change.Action.TOURNAMENT_CHANGED)
    assert change.user == user
    assert change.before == {"rules": "isko", "name": table.series.tournament.name}
    assert change.after == {"rules": "pre1999", "name": "Pokal"}


def test_update_tournament_without_a_change_logs_nothing():
    table = hand_lost_table()
    tournament = table.series.tournament

    services.update_tournament(tournament, rules="isko", rounds_per_series=1)

    assert not Change.objects.filter(action=Change.Action.TOURNAMENT_CHANGED).exists()


def snapshot(tournament):
    return (
        Tournament.objects.values().get(pk=tournament.pk),
        list(Game.objects.order_by("pk").values()),
        list(ListResult.objects.order_by("pk").values()),
        Change.objects.count(),
    )


def test_update_tournament_refuses_rules_that_forbid_a_recorded_kontra():
    table = make_table(size=3, rounds=1, rules="isko-kontra")
    play(table, entry(), entry(2, "grand", bid=18, matadors=1, kontra=True, won=True))
    tournament = table.series.tournament
    before = snapshot(tournament)

    with pytest.raises(services.ServiceError) as error:
        services.update_tournament(tournament, rules="isko", name="Neu")

    assert error.value.code == "settings_invalidate_games"
    assert error.value.params["blocking"] == (services.Blocking(1, 1, 2, "doubling_not_allowed"),)
    assert snapshot(tournament) == before


def test_update_tournament_refuses_fewer_rounds_than_games_recorded():
    table = make_table(size=3, rounds=2)
    tournament = table.series.tournament
    play(table, *HAND_LOST, entry(), entry())
    before = snapshot(tournament)

    with pytest.raises(services.ServiceError) as error:
        services.update_tournament(tournament, rounds_per_series=1)

    assert [(b.series, b.table, b.game, b.code) for b in error.value.params["blocking"]] == [
        (1, 1, 4, "game_beyond_rounds"),
        (1, 1, 5, "game_beyond_rounds"),
    ]
    assert snapshot(tournament) == before


def test_update_tournament_refuses_more_rounds_for_a_closed_list():
    table = hand_lost_table()
    services.close_table(table)

    with pytest.raises(services.ServiceError) as error:
        services.update_tournament(table.series.tournament, rounds_per_series=2)

    assert error.value.params["blocking"] == (
        services.Blocking(1, 1, None, "closed_list_incomplete"),
    )
    assert Tournament.objects.get().rounds_per_series == 1


def test_update_tournament_allows_more_rounds_for_an_open_list():
    table = hand_lost_table()

    services.update_tournament(table.series.tournament, rounds_per_series=2)

    assert Tournament.objects.get().rounds_per_series == 2
    assert totals(table) == [138, -116, 40]


def test_update_tournament_refuses_an_unknown_rule_set():
    table = hand_lost_table()

    with pytest.raises(services.ServiceError) as error:
        services.update_tournament(table.series.tournament, rules="skat-1886")

    assert (error.value.code, error.value.field) == ("unknown_rules", "rules")
    assert Tournament.objects.get().rules == "isko"


def test_a_new_season_drops_the_teams_of_the_old_one_from_registrations_and_results():
    old = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    new = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    table = make_table(size=3, rounds=1, season=old)
    tournament = table.series.tournament
    team = Team.objects.create(season=old, name="Grand Hand")
    tournament.registrations.update(team=team)
    services.recompute_results(table)

    services.update_tournament(tournament, season=new)

    assert set(tournament.registrations.values_list("team", flat=True)) == {None}
    assert set(ListResult.objects.values_list("season", "team")) == {(new.pk, None)}
    change = Change.objects.get(action=Change.Action.TOURNAMENT_CHANGED)
    assert change.before["season"] == old.pk
    assert set(change.before["teams"].values()) == {team.pk}


# --- referees --------------------------------------------------------------------------------


def test_add_referee_by_username(django_user_model):
    tournament = make_tournament()
    anna = django_user_model.objects.create_user("anna")
    bernd = django_user_model.objects.create_user("Bernd")
    tournament.referees.add(anna)

    services.add_referee(tournament, " bernd ", user=anna)

    assert set(tournament.referees.all()) == {anna, bernd}
    change = Change.objects.get(action=Change.Action.TOURNAMENT_CHANGED)
    assert (change.before, change.after) == (
        {"referees": ["anna"]},
        {"referees": ["Bernd", "anna"]},
    )


@pytest.mark.parametrize(
    ("name", "code"), [("carla", "user_unknown"), ("anna", "user_already_referee")]
)
def test_add_referee_refuses(django_user_model, name, code):
    tournament = make_tournament()
    anna = django_user_model.objects.create_user("anna")
    tournament.referees.add(anna)

    with pytest.raises(services.ServiceError) as error:
        services.add_referee(tournament, name, user=anna)

    assert (error.value.code, error.value.field) == (code, "username")
    assert list(tournament.referees.all()) == [anna]


def test_remove_referee_leaves_the_others(django_user_model):
    tournament = make_tournament()
    anna = django_user_model.objects.create_user("anna")
    bernd = django_user_model.objects.create_user("bernd")
    tournament.referees.add(anna, bernd)

    services.remove_referee(tournament, anna, user=anna)

    assert list(tournament.referees.all()) == [bernd]
    change = Change.objects.get(action=Change.Action.TOURNAMENT_CHANGED)
    assert change.after == {"referees": ["bernd"]}


def test_the_last_referee_cannot_remove_himself(django_user_model):
    tournament = make_tournament()
    anna = django_user_model.objects.create_user("anna")
    tournament.referees.add(anna)

    with pytest.raises(services.ServiceError) as error:
        services.remove_referee(tournament, anna, user=anna)

    assert error.value.code == "last_referee"
    assert list(tournament.referees.all()) == [anna]


def test_a_superuser_may_remove_the_last_referee(django_user_model):
    tournament = make_tournament()
    anna = django_user_model.objects.create_user("anna")
    tournament.referees.add(anna)
    chef = django_user_model.objects.create_superuser("chef")

    services.remove_referee(tournament, anna, user=chef)

    assert not tournament.referees.exists()


# --- teams -----------------------------------------------------------------------------------


def season_tournament(**fields):
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    table = make_table(size=3, rounds=1, season=season, **fields)
    return table, Team.objects.create(season=season, name="Kreuz Bube"), season


def test_assign_teams_before_the_draw():
    tournament = make_tournament(
        players=2, season=Season.objects.create(name="L", slug="l", year=1)
    )
    team = Team.objects.create(season=tournament.season, name="Kreuz Bube")
    first, second = tournament.registrations.order_by("pk")

    changed = services.assign_teams(tournament, {first.pk: team, second.pk: None})

    assert changed == [first]
    assert dict(tournament.registrations.values_list("pk", "team")) == {
        first.pk: team.pk,
        second.pk: None,
    }


def test_assign_teams_after_games_rewrites_the_result_rows():
    table, team, _season = season_tournament()
    play(table, *HAND_LOST)
    tournament = table.series.tournament
    seat = table.seats.get(position=2)
    registration = tournament.registrations.get(player=seat.player)

    services.assign_teams(tournament, {registration.pk: team})

    assert list(
        ListResult.objects.filter(table=table).order_by("position").values_list("team", "total")
    ) == [(None, 138), (team.pk, -116), (None, 40)]
    change = Change.objects.get(action=Change.Action.TOURNAMENT_CHANGED)
    assert (change.before, change.after) == (
        {"teams": {str(seat.player_id): None}},
        {"teams": {str(seat.player_id): team.pk}},
    )


def test_assign_teams_refuses_a_team_of_another_season():
    table, _team, _season = season_tournament()
    other = Team.objects.create(
        season=Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027), name="X"
    )
    registration = table.series.tournament.registrations.first()

    with pytest.raises(services.ServiceError) as error:
        services.assign_teams(table.series.tournament, {registration.pk: other})

    assert error.value.code == "team_not_in_season"
    registration.refresh_from_db()
    assert registration.team_id is None


def test_assign_teams_needs_a_season():
    tournament = make_tournament(players=1)
    registration = tournament.registrations.get()

    with pytest.raises(services.ServiceError) as error:
        services.assign_teams(tournament, {registration.pk: None})

    assert error.value.code == "tournament_without_season"


def test_create_team_in_the_tournaments_season():
    table, _team, season = season_tournament()

    team = services.create_team(table.series.tournament, "  Pik  Sieben ", "SC Altenburg")

    assert (team.season, team.name, team.club.name) == (season, "Pik Sieben", "SC Altenburg")


def test_create_team_refuses_a_name_taken_in_the_season():
    table, _team, season = season_tournament()

    with pytest.raises(services.ServiceError) as error:
        services.create_team(table.series.tournament, "kreuz bube")

    assert (error.value.code, error.value.field) == ("team_name_taken", "name")
    assert season.teams.count() == 1


# --- seeded draw -----------------------------------------------------------------------------

# Series 1, rounds_per_series 1, p1-p4 at table 1 and p5-p8 at table 2 (seat n deals game n).
# Table 1: 1 p2 grand with 2 won = 72; 2 p3 clubs with 1 won = 24; 3 p4 hearts with 1 lost =
#   20 → −40; 4 p1 diamonds with 1 won = 18.
#   p1 18 + 50 + 30 = 98 · p2 72 + 50 + 30 = 152 · p3 24 + 50 + 30 = 104 · p4 −40 − 50 = −90
# Table 2: 1 p6 spades with 1 won = 22; 2 passed in; 3 p8 hearts with 1 won = 20; 4 p5 clubs
#   with 2 lost = 36 → −72.
#   p5 −72 − 50 = −122 · p6 22 + 50 + 30 = 102 · p7 30 · p8 20 + 50 + 30 = 100
# Standings: p2 152, p3 104, p6 102, p8 100, p1 98, p7 30, p4 −90, p5 −122.
SEEDED = ["p2", "p3", "p6", "p8", "p1", "p7", "p4", "p5"]


def seeded_tournament(**fields):
    """The tournament above and its players by name."""
    players = {f"p{n}": make_player(f"p{n}") for n in range(1, 9)}
    tournament = make_tournament(players=list(players.values()), size=4, rounds=1, **fields)
    first, second = tournament.series.get().tables.order_by("number")
    play(
        first,
        entry(2, "grand", bid=18, matadors=2, won=True),
        entry(3, "clubs", bid=18, matadors=1, won=True),
        entry(4, "hearts", bid=18, matadors=1, won=False),
        entry(1, "diamonds", bid=18, matadors=1, won=True),
    )
    play(
        second,
        entry(2, "spades", bid=18, matadors=1, won=True),
        entry(),
        entry(4, "hearts", bid=18, matadors=1, won=True),
        entry(1, "clubs", bid=18, matadors=2, won=False),
    )
    return tournament, players


def names(series):
    return [
        list(table.seats.order_by("position").values_list("player__name", flat=True))
        for table in series.tables.order_by("number")
    ]


def test_the_seeded_tournament_has_the_standings_worked_out_by_hand():
    tournament, _players = seeded_tournament()

    rows = ListResult.objects.for_tournament(tournament).standings(lots_of=tournament)

    assert [(row.player, row.total) for row in rows] == list(
        zip(SEEDED, [152, 104, 102, 100, 98, 30, -90, -122], strict=True)
    )


def test_draw_by_standings_seats_the_best_four_at_table_1():
    tournament, _players = seeded_tournament()

    series = services.draw_tables(tournament, method="standings", despite_open_lists=True)

    assert names(series) == [SEEDED[:4], SEEDED[4:]]
    change = Change.objects.get(series=series, action=Change.Action.TABLES_DRAWN)
    assert change.after["method"] == "standings"


def test_draw_by_standings_seats_players_without_results_last():
    tournament, _players = seeded_tournament()
    latecomers = {make_player(f"z{n}") for n in range(3)}
    for player in latecomers:
        tournament.registrations.create(player=player)

    series = services.draw_tables(tournament, method="standings", seed=7, despite_open_lists=True)

    tables = names(series)
    assert [len(table) for table in tables] == [4, 4, 3]
    assert tables[:2] == [SEEDED[:4], SEEDED[4:]]
    assert set(tables[2]) == {player.name for player in latecomers}


def teams_of(tournament, players, *teams):
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    Tournament.objects.filter(pk=tournament.pk).update(season=season, keep_teammates_apart=True)
    for number, members in enumerate(teams, start=1):
        team = Team.objects.create(season=season, name=f"Team {number}")
        tournament.registrations.filter(player__in=[players[m] for m in members]).update(team=team)


def test_draw_by_standings_moves_a_teammate_down_to_the_next_table():
    tournament, players = seeded_tournament()
    teams_of(tournament, players, ["p2", "p3"])

    series = services.draw_tables(tournament, method="standings", despite_open_lists=True)

    assert names(series) == [["p2", "p6", "p8", "p1"], ["p3", "p7", "p4", "p5"]]


def test_draw_by_standings_moves_a_teammate_up_when_the_last_table_would_hold_two():
    tournament, players = seeded_tournament()
    teams_of(tournament, players, ["p4", "p5"])

    series = services.draw_tables(tournament, method="standings", despite_open_lists=True)

    assert names(series) == [["p2", "p3", "p6", "p4"], ["p8", "p1", "p7", "p5"]]


def test_draw_by_standings_refuses_three_teammates_at_two_tables():
    tournament, players = seeded_tournament()
    teams_of(tournament, players, ["p1", "p2", "p3"])

    with pytest.raises(services.ServiceError) as error:
        services.draw_tables(tournament, method="standings", despite_open_lists=True)

    assert error.value.code == "teammates_cannot_be_separated"
    assert tournament.series.count() == 1


def test_draw_tables_refuses_an_unknown_method():
    tournament = make_tournament(players=4)

    with pytest.raises(services.ServiceError) as error:
        services.draw_tables(tournament, method="alphabet")

    assert error.value.code == "draw_method_unknown"
    assert not Series.objects.exists()


@pytest.mark.parametrize(
    "given",
    [
        services.GameEntry(),
        services.GameEntry(ramsch=scoring.Ramsch((40, 50, 30), (3, 4, 3))),
        services.GameEntry(
            2,
            scoring.Declaration(scoring.GameType.GRAND, 24, 2, hand=True, kontra=True),
            scoring.Outcome(card_points=95, tricks=8, won=True),
        ),
        services.GameEntry(
            1,
            scoring.Declaration(scoring.GameType.NULL, 59, hand=True, ouvert=True),
        ),
    ],
)
def test_entry_values_set_every_field_of_a_row(given):
    """Each field the way an entry says it: passed in, a Ramsch, a declaration (with and
    without an outcome); a flag of the archive's shape is its declaration's, else False."""
    d, o, r = given.declaration, given.outcome or scoring.Outcome(), given.ramsch
    expected = {
        "ramsch": None if r is None else {"card_points": [40, 50, 30], "tricks": [3, 4, 3]},
        "passed": d is None and r is None,
        "declarer": given.declarer if d else None,
        "game": d.game.value if d else "",
        "bid": d.bid if d else None,
        "matadors": d.matadors if d else None,
        "card_points": o.card_points if d else None,
        "tricks": o.tricks if d else None,
        "won_flag": o.won if d else None,
        "schneider_flag": o.schneider if d else None,
        "schwarz_flag": o.schwarz if d else None,
    } | {flag: bool(d and getattr(d, flag)) for flag in scoring.shape.FLAGS}

    assert services.games.entry_values(given) == expected
    game = Game()
    services.games.apply_entry(game, given)
    assert {name: getattr(game, name) for name in expected} == expected

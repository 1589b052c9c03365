"""The Skat rating kept current (``services.rating``, docs/rating.md): a closed list is rated
at once, a reopened one taken back, a moved, re-scored, imported or merged one rated again, and
whatever order that happens in, the figures are those of a replay of every list from the
first, to the last bit.

Numbers of ``small_season`` from tests/web/conftest.py (worked out there by hand): table 1
a1 103 · b1 128 · c1 −90 · d1 30, so b1 places 1, a1 2, d1 3, c1 4.
"""

from __future__ import annotations

import datetime
import math
import random
from typing import Any

import pytest
from django.core.management import call_command

from scoring import Declaration, GameType, Outcome, dealer_seat
from skatliga import services
from skatliga.models import (
    ListResult,
    Player,
    PlayerRating,
    RatingBook,
    RatingChange,
    Registration,
    Seat,
    Series,
    Table,
    Tournament,
)
from skatliga.rating.model import PARAMETERS, Parameters
from skatliga.services import rosters as league

pytestmark = pytest.mark.django_db

MU, SIGMA, BETA, TAU, K = 25.0, 25.0 / 3.0, 25.0 / 3.0, 25.0 / 300.0, 3.0


def test_the_parameters_are_those_docs_rating_md_states():
    assert (PARAMETERS.mu, PARAMETERS.sigma, PARAMETERS.beta, PARAMETERS.tau) == (
        MU,
        SIGMA,
        BETA,
        TAU,
    )
    assert (PARAMETERS.k, PARAMETERS.provisional_lists, PARAMETERS.idle_sigma_per_year) == (
        K,
        10,
        2.0,
    )


def test_closing_a_list_rates_its_players_by_their_points(small_season):
    """Four newcomers ranked b1, a1, d1, c1 (Weng & Lin 2011, algorithm 4, Plackett–Luce).

    Each enters with sigma² = SIGMA² + TAU²; c² = Σ (sigma² + BETA²) = 4 (sigma² + BETA²).
    With equal means every exp(mu / c) is the same, so the share of player i among those
    placed at q or below is 1/|C_q|: 1/4, 1/3, 1/2, 1 for q = 1st … 4th. Then
    omega_i = sigma²/c · Σ_{q ≤ place i} ([q = i] − 1/|C_q|), and
    delta_i = (sigma²/c²) · (sigma/c) · Σ_{q ≤ place i} 1/|C_q| · (1 − 1/|C_q|),
    mu' = mu + omega, sigma' = sigma · sqrt(1 − delta).
    """
    table = Table.objects.get(number=1)
    services.close_table(table)

    sigma2 = SIGMA**2 + TAU**2
    c = math.sqrt(4 * (sigma2 + BETA**2))
    shares = [1 / 4, 1 / 3, 1 / 2, 1]
    expected = {}
    for name, place in (("b1", 1), ("a1", 2), ("d1", 3), ("c1", 4)):
        omega = sum((q == place) - shares[q - 1] for q in range(1, place + 1))
        delta = sum(shares[q - 1] * (1 - shares[q - 1]) for q in range(1, place + 1))
        mu = MU + sigma2 / c * omega
        sigma = math.sqrt(sigma2) * math.sqrt(1 - sigma2 / c**2 * math.sqrt(sigma2) / c * delta)
        expected[name] = (place, mu, sigma)
    # b1 gains 0.75 of sigma²/c = 2.94651…, c1 loses 1.08333… of it.
    assert expected["b1"][1] == pytest.approx(27.20988, abs=1e-5)
    assert expected["c1"][1] == pytest.approx(21.80796, abs=1e-5)

    rows = {row.player.name: row for row in RatingChange.objects.select_related("player")}
    assert set(rows) == {"a1", "b1", "c1", "d1"}
    for name, (place, mu, sigma) in expected.items():
        row = rows[name]
        assert (row.place, row.players, row.lists, row.previous_on) == (place, 4, 1, None)
        assert row.mu_after == pytest.approx(mu, rel=1e-12)
        assert row.sigma_after == pytest.approx(sigma, rel=1e-12)
        assert (row.mu_before, row.sigma_before, row.rating_before) == (MU, SIGMA, 0.0)
        assert row.rating_after == pytest.approx(mu - K * sigma, rel=1e-12)
        current = PlayerRating.objects.get(player=row.player)
        assert (current.mu, current.sigma, current.rating) == (
            row.mu_after,
            row.sigma_after,
            row.rating_after,
        )
        assert (current.lists, current.last_played) == (1, datetime.date(2026, 11, 21))
        assert current.provisional
    assert [r.points for r in sorted(rows.values(), key=lambda r: r.place)] == [128, 103, 30, -90]
    # The other lists are still open: nobody else is rated.
    assert PlayerRating.objects.count() == 4


def test_players_level_on_points_share_a_place(small_season):
    """Table 3: b3 83, and a3, c3, d3 with 0 each share the second place."""
    services.close_table(Table.objects.get(number=3))
    places = {row.player.name: row.place for row in RatingChange.objects.select_related("player")}
    assert places == {"b3": 1, "a3": 2, "c3": 2, "d3": 2}
    level = PlayerRating.objects.filter(player__name__in=["a3", "c3", "d3"])
    assert len({rating.mu for rating in level}) == 1


def test_reopening_takes_the_rating_back_and_closing_again_gives_it_again(small_season):
    table = Table.objects.get(number=1)
    services.close_table(table)
    before = _figures()
    services.reopen_table(table, reason="Tippfehler")
    assert RatingChange.objects.count() == 0
    assert PlayerRating.objects.count() == 0
    services.close_table(table)
    assert _figures() == before


def test_a_seat_taken_over_by_a_substitute_is_left_out(small_season):
    """Table 2 with d2's seat taken over from game 2: a2, b2 and c2 are rated, among
    themselves; neither d2 nor his substitute."""
    table = Table.objects.get(number=2)
    services.appoint_substitute(table, 4, 2, name="Ersatz")
    services.close_table(table)
    names = set(RatingChange.objects.values_list("player__name", flat=True))
    assert names == {"a2", "b2", "c2"}
    assert set(RatingChange.objects.values_list("players", flat=True)) == {3}


# --- a small league, played in any order --------------------------------------------------


def _entry(rng: random.Random, number: int, size: int) -> services.GameEntry:
    """A legal game: grand with 1 by a player who does not sit out, won or lost."""
    if rng.random() < 0.1:
        return services.GameEntry()
    dealer = dealer_seat(number, size) + 1
    seats = [seat for seat in range(1, size + 1) if size == 3 or seat != dealer]
    won = rng.random() < 0.7
    outcome = Outcome(70, 6) if won else Outcome(40, 3)
    return services.GameEntry(rng.choice(seats), Declaration(GameType.GRAND, 18, 1), outcome)


def _tournament(name: str, date: datetime.date, players: list[Player], rng: random.Random):
    """A tournament of two series, one game round each (3 or 4 games a list); the tables of
    each series drawn by ``rng`` and their games played, none closed. Returns its tables."""
    tournament = Tournament.objects.create(
        name=name, slug=name.lower().replace(" ", "-"), date=date, rounds_per_series=1
    )
    tables = []
    for number in (1, 2):
        series = Series.objects.create(tournament=tournament, number=number)
        order = rng.sample(players, len(players))
        groups = [order[:4], order[4:7]] if len(order) == 7 else [order[:4], order[4:8]]
        for table_number, group in enumerate(groups, start=1):
            table = Table.objects.create(series=series, number=table_number, size=len(group))
            for position, player in enumerate(group, start=1):
                Seat.objects.create(table=table, series=series, position=position, player=player)
            for game in range(1, len(group) + 1):
                services.record_game(table, game, _entry(rng, game, len(group)))
            tables.append(table)
    for player in players:
        Registration.objects.get_or_create(tournament=tournament, player=player)
    return tables


def _figures() -> dict[str, Any]:
    """Every stored figure of the rating, exactly."""
    changes = sorted(
        RatingChange.objects.values_list(
            "table_id",
            "player_id",
            "played_on",
            "tournament_id",
            "series_number",
            "table_number",
            "players",
            "points",
            "place",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "rating_before",
            "rating_after",
            "lists",
            "previous_on",
        )
    )
    current = sorted(
        PlayerRating.objects.values_list(
            "player_id", "mu", "sigma", "rating", "lists", "last_played"
        )
    )
    return {"changes": changes, "current": current}


@pytest.fixture
def league_lists():
    """Eight players, three tournaments a week apart, four lists each: 12 lists, open."""
    rng = random.Random(42)
    players = [Player.objects.create(name=f"P{n}") for n in range(8)]
    days = [datetime.date(2026, 1, 10), datetime.date(2026, 1, 17), datetime.date(2026, 1, 24)]
    tables = []
    for index, day in enumerate(days):
        tables += _tournament(f"Abend {index + 1}", day, players, rng)
    return tables


def test_any_order_of_closing_gives_the_figures_of_a_replay_from_the_first(league_lists):
    rng = random.Random(7)
    order = rng.sample(league_lists, len(league_lists))
    for table in order:
        services.close_table(table)
    incremental = _figures()
    assert len(incremental["changes"]) == 12 * 4
    services.rate_everything()
    assert _figures() == incremental
    # In the order played, too.
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    for table in league_lists:
        services.reopen_table(table, reason="neu")
    for table in league_lists:
        services.close_table(Table.objects.get(pk=table.pk))
    assert _figures() == incremental


def test_a_correction_of_an_older_list_rates_the_later_lists_again(league_lists):
    for table in league_lists:
        services.close_table(table)
    first = league_lists[0]
    later = RatingChange.objects.filter(played_on__gt=first.series.tournament.date)
    before = {row.pk: row.mu_after for row in later}
    services.reopen_table(first, reason="Spiel 1 falsch")
    game_one = first.games.get(number=1)
    entry = services.GameEntry.from_game(game_one)
    flipped = services.GameEntry(
        entry.declarer or 2,
        Declaration(GameType.GRAND, 18, 1),
        Outcome(40, 3) if game_one.won else Outcome(70, 6),
    )
    services.record_game(first, 1, flipped, expected_version=game_one.version, reason="Korrektur")
    services.close_table(first)
    corrected = _figures()
    # The later lists of first's players changed (rows written anew, other figures).
    assert {row.pk: row.mu_after for row in later.all()} != before
    services.rate_everything()
    assert _figures() == corrected


def test_moving_a_tournament_to_another_day_rates_in_the_new_order(league_lists):
    for table in league_lists:
        services.close_table(table)
    last = league_lists[-1].series.tournament
    services.update_tournament(last, date=datetime.date(2026, 1, 3))
    assert set(
        RatingChange.objects.filter(tournament=last).values_list("played_on", flat=True)
    ) == {datetime.date(2026, 1, 3)}
    first_rows = RatingChange.objects.filter(tournament=last, series_number=1)
    assert {row.lists for row in first_rows} == {1}
    moved = _figures()
    services.rate_everything()
    assert _figures() == moved


def test_rescoring_a_tournament_rates_its_lists_again(league_lists):
    for table in league_lists:
        services.close_table(table)
    tournament = league_lists[0].series.tournament
    points = set(
        RatingChange.objects.filter(tournament=tournament).values_list("points", flat=True)
    )
    services.update_tournament(tournament, scoring="classic")
    stored = RatingChange.objects.filter(tournament=tournament)
    totals = {
        (r.table_id, r.player_id): r.total for r in ListResult.objects.filter(tournament=tournament)
    }
    assert all(row.points == totals[row.table_id, row.player_id] for row in stored)
    assert set(stored.values_list("points", flat=True)) != points
    rescored = _figures()
    services.rate_everything()
    assert _figures() == rescored


def test_merging_two_players_rates_the_lists_of_the_one_dropped_as_the_other(league_lists):
    for table in league_lists:
        services.close_table(table)
    keep = Player.objects.create(name="Behalten")
    drop = Player.objects.get(name="P0")
    lists = RatingChange.objects.filter(player=drop).count()
    league.merge_players(keep, drop)
    assert not RatingChange.objects.filter(player_id=drop.pk).exists()
    assert RatingChange.objects.filter(player=keep).count() == lists
    assert PlayerRating.objects.get(player=keep).lists == lists
    merged = _figures()
    services.rate_everything()
    assert _figures() == merged


def test_a_replay_too_long_for_a_request_is_left_for_the_command(league_lists):
    for table in league_lists:
        services.close_table(table)
    stored = _figures()
    first = league_lists[0]
    done = services.rating.replay(services.rating.list_key(first), everyone=True, most=1)
    assert done.deferred
    assert RatingBook.objects.get().stale_from == first.series.tournament.date
    assert _figures() == stored
    # The next list closed replays from that day on, every list, where it may.
    last = league_lists[-1]
    services.reopen_table(last, reason="nachsehen")
    services.close_table(last)
    assert RatingBook.objects.get().stale_from is None
    assert _figures() == stored
    services.rating.replay(services.rating.list_key(first), everyone=True, most=1)
    call_command("rate_lists")
    assert RatingBook.objects.get().stale_from is None
    assert _figures() == stored


def test_other_parameters_rate_every_list_again(league_lists):
    for table in league_lists:
        services.close_table(table)
    other = Parameters(beta=25.0 / 6.0)
    done = services.rating.replay(None, parameters=other)
    assert done.lists == 12
    assert RatingBook.objects.get().parameters == other.fingerprint()
    assert services.rate_owed() is not None  # back to the site's parameters: all again
    assert RatingBook.objects.get().parameters == PARAMETERS.fingerprint()
    assert services.rate_owed() is None


def test_the_command_rates_every_list_or_those_from_a_day(league_lists, capsys):
    for table in league_lists:
        services.close_table(table)
    figures = _figures()
    call_command("rate_lists", "--all")
    assert "12 Listen bewertet" in capsys.readouterr().out
    call_command("rate_lists", "--from", "2026-01-17")
    assert "8 Listen bewertet" in capsys.readouterr().out
    assert _figures() == figures
    call_command("rate_lists")
    assert "auf dem neuesten Stand" in capsys.readouterr().out


def test_an_imported_tournament_is_rated(small_season):
    from skatliga.archive import dump_archive, load_archive

    tournament = Tournament.objects.get()
    for table in Table.objects.all():
        services.close_table(table)
    document = dump_archive(tournament)
    document["tournament"]["name"] = "Wiederholung"
    document["tournament"]["date"] = "2026-12-01"
    copy = load_archive(document)
    assert RatingChange.objects.filter(tournament=copy).count() == 12
    assert set(PlayerRating.objects.values_list("lists", flat=True)) == {2}


def test_lists_closed_before_the_rating_came_are_rated_by_the_command(league_lists):
    """An upgrade: closed lists, no rating rows, no book. The command rates them all."""
    for table in league_lists:
        services.close_table(table)
    figures = _figures()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingBook.objects.all().delete()
    call_command("rate_lists")
    assert _figures() == figures

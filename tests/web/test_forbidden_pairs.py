"""Forbidden pairings: two players the referee keeps apart (family, one household) sit at
different tables wherever a seating allows, and the draw says where it cannot."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Change, ForbiddenPair, Season, Seat, Team
from skatliga.services.partners import pair, separate
from tests.web.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db


def registration(tournament, name):
    return tournament.registrations.get(player__name=name)


def forbid(tournament, *pairs):
    for a, b in pairs:
        services.forbid_pair(
            tournament, registration(tournament, a).pk, registration(tournament, b).pk
        )


def tables_of(series):
    tables = {}
    for seat in Seat.objects.filter(series=series).select_related("player", "table"):
        tables.setdefault(seat.table.number, set()).add(seat.player.name)
    return list(tables.values())


def together(series, a, b):
    return any({a, b} <= table for table in tables_of(series))


def named(count):
    return [make_player(f"S{n:02}") for n in range(1, count + 1)]


@pytest.mark.parametrize("method", ["lot", "standings"])
def test_forbidden_pairs_sit_apart_in_every_seeded_draw(method):
    """12 players at three 4-tables; S01 with S02, S03 with S04 and S05 with S01 kept apart.
    Any draw can seat them apart, so none of 25 seeds may put a pair together."""
    pairs = [("S01", "S02"), ("S03", "S04"), ("S05", "S01")]
    for seed in range(25):
        tournament = make_tournament(players=named(12))
        forbid(tournament, *pairs)
        series = services.draw_tables(tournament, seed=seed, method=method)
        assert not any(together(series, a, b) for a, b in pairs), seed
        change = Change.objects.get(series=series, action=Change.Action.TABLES_DRAWN)
        assert change.after["forbidden_together"] == []


def test_later_series_keep_them_apart_while_avoiding_repeats():
    tournament = make_tournament(players=named(12))
    forbid(tournament, ("S01", "S02"), ("S07", "S08"))
    for seed in range(4):
        series = services.draw_tables(tournament, seed=seed, despite_open_lists=True)
        assert not together(series, "S01", "S02") and not together(series, "S07", "S08")


def teams_of_two(tournament):
    """S01 and S02 play for one team, S03 and S04 for another; team-mates are kept apart."""
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    tournament.season = season
    tournament.keep_teammates_apart = True
    tournament.save()
    for name, members in (("Kreuz", ("S01", "S02")), ("Pik", ("S03", "S04"))):
        team = Team.objects.create(season=season, name=name)
        tournament.registrations.filter(player__name__in=members).update(team=team)


def test_team_mates_come_first_and_the_pair_is_kept_apart_too():
    """8 players at two 4-tables: S01 sits with S03 or S04 (their team-mates sit at the
    other table); with S01 and S03 kept apart, S01 sits with S04 in every draw."""
    tournament = make_tournament(players=named(8))
    teams_of_two(tournament)
    forbid(tournament, ("S01", "S03"))
    for seed in range(10):
        series = services.draw_tables(tournament, seed=seed, despite_open_lists=True)
        assert together(series, "S01", "S04") and together(series, "S02", "S03"), seed


def test_a_forbidden_pair_yields_to_team_mates():
    """As above, but S01 must sit with neither S03 nor S04: team-mates still sit apart, and
    one forbidden pair sits together, said so."""
    tournament = make_tournament(players=named(8))
    teams_of_two(tournament)
    forbid(tournament, ("S01", "S03"), ("S01", "S04"))
    for seed in range(10):
        series = services.draw_tables(tournament, seed=seed, despite_open_lists=True)
        assert not together(series, "S01", "S02") and not together(series, "S03", "S04")
        assert len(services.series_forbidden_pairs(series)) == 1


def test_what_cannot_be_kept_apart_is_said_on_the_draw(client, django_user_model):
    """Four players, one 4-table: S01 and S02 must sit together. The draw goes on, logs the
    pair and tells the referee which pair at which table."""
    tournament = make_tournament(players=named(4))
    forbid(tournament, ("S01", "S02"))
    user = django_user_model.objects.create_user("anna", password="x")
    tournament.referees.add(user)
    client.force_login(user)
    response = client.post(reverse("referee:draw", args=[tournament.slug]), follow=True)
    text = response.content.decode()
    said = re.search(r"Nicht getrennt werden konnten: (S0\d) und (S0\d) \(Tisch 1\)\.", text)
    assert said and sorted(said.groups()) == ["S01", "S02"]
    series = tournament.series.get()
    ids = sorted(registration(tournament, n).player_id for n in ("S01", "S02"))
    change = Change.objects.get(series=series, action=Change.Action.TABLES_DRAWN)
    assert change.after["forbidden_together"] == [ids]


def test_as_few_pairs_as_possible_sit_together():
    """7 players at a 4- and a 3-table; S01 must not sit with S02 to S06. Only S07 may join
    him, so at least one forbidden pair sits with him, and exactly one does in every draw:
    S01, S07 and one other at the 3-table."""
    tournament = make_tournament(players=named(7))
    forbid(tournament, *[("S01", f"S0{n}") for n in range(2, 7)])
    for seed in range(15):
        series = services.draw_tables(tournament, seed=seed, despite_open_lists=True)
        table = next(t for t in tables_of(series) if "S01" in t)
        assert len(table) == 3 and "S07" in table, (seed, table)
        assert len(services.series_forbidden_pairs(series)) == 1


def test_separate_moves_the_later_player_to_the_nearest_seat():
    """Seeded 1-4 | 5-8 | 9-12 with 3 and 4 kept apart: 4 swaps with 5, the next seat."""
    seeded = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert separate(seeded, forbidden={pair(3, 4)}, teams={}) == [
        [1, 2, 3, 5],
        [4, 6, 7, 8],
        [9, 10, 11, 12],
    ]
    # Not next to a team-mate: 4 and 6 play for one team, so 4 takes 6's seat instead.
    assert separate(seeded, forbidden={pair(3, 4)}, teams={4: 1, 6: 1}) == [
        [1, 2, 3, 6],
        [5, 4, 7, 8],
        [9, 10, 11, 12],
    ]


# --- the players page -----------------------------------------------------------------------------


@pytest.fixture
def referee(client, django_user_model):
    tournament = make_tournament(players=named(6))
    user = django_user_model.objects.create_user("anna", password="x")
    tournament.referees.add(user)
    client.force_login(user)
    client.tournament = tournament
    return client


def test_the_referee_keeps_two_apart_and_lifts_it_on_the_players_page(referee):
    tournament = referee.tournament
    a, b = registration(tournament, "S01"), registration(tournament, "S02")
    url = reverse("referee:pair-forbid", args=[tournament.slug])
    response = referee.post(url, {"first": b.pk, "second": a.pk})
    assert response.status_code == 302
    kept = ForbiddenPair.objects.get()
    assert (kept.first_id, kept.second_id) == (a.pk, b.pk)
    page = referee.get(reverse("referee:tournament", args=[tournament.slug])).content.decode()
    assert "S01 – S02" in page
    again = referee.post(url, {"first": a.pk, "second": b.pk})
    assert again.status_code == 400 and 'data-code="pair_already_apart"' in again.content.decode()
    same = referee.post(url, {"first": a.pk, "second": a.pk})
    assert 'data-code="same_player"' in same.content.decode()
    referee.post(reverse("referee:pair-allow", args=[tournament.slug, kept.pk]))
    assert not ForbiddenPair.objects.exists()


def test_a_registration_of_another_tournament_is_refused(referee):
    other = make_tournament(players=1).registrations.get()
    tournament = referee.tournament
    url = reverse("referee:pair-forbid", args=[tournament.slug])
    response = referee.post(url, {"first": registration(tournament, "S01").pk, "second": other.pk})
    assert 'data-code="registration_not_in_tournament"' in response.content.decode()
    assert not ForbiddenPair.objects.exists()

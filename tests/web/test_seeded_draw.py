"""The seeded draw ("Setzliste", docs/rating.md section 9): by rating or by the running
standing, the top tables together as in a final or the strongest spread over the tables, in
a tournament and at a league group's match day. Every seating here is worked out by hand.

Spread ("verteilt") deals the seeds in snake order: round 1 gives seeds 1, 2, … to tables 1,
2, …; round 2 goes back from the last table; round 3 forwards again; round 4 (the fourth
seats) backwards over the 4-tables only.
"""

from __future__ import annotations

import datetime

import pytest

from skatliga import services
from skatliga.models import Change, PlayerRating, Registration
from skatliga.services import fixtures, matchdays
from skatliga.services.seeding import spread
from tests.web.factories import make_division, make_player, make_tournament
from tests.web.test_services import SEEDED, names, seeded_tournament

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def rate(player, mu, *, sigma=1.0, on=DAY):
    """His rating as if his last list were ``on``: ``mu − 3 · sigma`` that day."""
    PlayerRating.objects.create(
        player=player, mu=mu, sigma=sigma, rating=mu - 3 * sigma, lists=20, last_played=on
    )


def rated_tournament(count):
    """``count`` players r1, r2, … registered, r1 rated highest (mu 50, 49, …: ratings 47,
    46, … on the tournament's day), no series drawn yet."""
    players = [make_player(f"r{n}") for n in range(1, count + 1)]
    for index, player in enumerate(players):
        rate(player, 50.0 - index)
    return make_tournament(players=players, date=DAY)


def test_spread_deals_in_snake_order():
    # 12 at three 4-tables: 1 2 3 → 6 5 4 → 7 8 9 → 12 11 10.
    assert spread(list(range(1, 13)), [4, 4, 4]) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]
    # 7 at a 4-table and a 3-table: the fourth round seats 7 at table 1 alone.
    assert spread(list(range(1, 8)), [4, 3]) == [[1, 4, 5, 7], [2, 3, 6]]


def test_by_rating_the_strongest_sit_together_at_table_1():
    tournament = rated_tournament(8)

    series = services.draw_tables(tournament, method="rating")

    assert names(series) == [["r1", "r2", "r3", "r4"], ["r5", "r6", "r7", "r8"]]
    change = Change.objects.get(series=series, action=Change.Action.TABLES_DRAWN)
    assert change.after["method"] == "rating"


def test_by_rating_spread_every_table_gets_one_of_the_strongest():
    tournament = rated_tournament(8)

    series = services.draw_tables(tournament, method="rating_spread")

    # r1 → 1, r2 → 2; r3 → 2, r4 → 1; r5 → 1, r6 → 2; r7 → 2, r8 → 1.
    assert names(series) == [["r1", "r4", "r5", "r8"], ["r2", "r3", "r6", "r7"]]


def test_by_rating_spread_over_a_4_table_and_two_3_tables():
    tournament = rated_tournament(10)

    series = services.draw_tables(tournament, method="rating_spread")

    # 1 2 3 → tables 1 2 3; 4 5 6 → 3 2 1; 7 8 9 → 1 2 3; 10 → table 1 (the only 4-table).
    assert names(series) == [["r1", "r6", "r7", "r10"], ["r2", "r5", "r8"], ["r3", "r4", "r9"]]


def test_a_player_without_a_rating_counts_as_a_newcomer():
    """A newcomer's rating is 0 (mu 25 − 3 · 25/3): above a rating below 0, below one above."""
    tournament = rated_tournament(7)
    PlayerRating.objects.filter(player__name="r7").update(mu=2.0, rating=-1.0)  # −1 that day
    new = make_player("neu")
    tournament.registrations.create(player=new)

    series = services.draw_tables(tournament, method="rating")

    assert names(series) == [["r1", "r2", "r3", "r4"], ["r5", "r6", "neu", "r7"]]


def test_the_rating_on_the_tournaments_day_counts_uncertainty_grown_in_a_break():
    """r1 (mu 50, sigma 1) last played a year before: sigma² = 1 + 2² · 365/365 = 5, so
    50 − 3 · √5 = 43.29 that day: below r2 r3 r4 (46 45 44), above r5 (43). His stored rating
    (47, as his last list left it) would have put him first."""
    tournament = rated_tournament(8)
    PlayerRating.objects.filter(player__name="r1").update(
        last_played=DAY - datetime.timedelta(days=365)
    )

    series = services.draw_tables(tournament, method="rating")

    assert names(series) == [["r2", "r3", "r4", "r1"], ["r5", "r6", "r7", "r8"]]


def test_by_the_running_standing_spread():
    """The standing worked out by hand in tests/web/test_services.py: p2 p3 p6 p8 p1 p7 p4
    p5. Snake order: p2 → 1, p3 → 2; p6 → 2, p8 → 1; p1 → 1, p7 → 2; p4 → 2, p5 → 1."""
    tournament, _players = seeded_tournament()
    assert SEEDED == ["p2", "p3", "p6", "p8", "p1", "p7", "p4", "p5"]

    series = services.draw_tables(tournament, method="standings_spread", despite_open_lists=True)

    assert names(series) == [["p2", "p8", "p1", "p5"], ["p3", "p6", "p7", "p4"]]


def test_an_unknown_method_is_refused():
    tournament = rated_tournament(8)
    with pytest.raises(services.ServiceError) as error:
        services.draw_tables(tournament, method="best")
    assert error.value.code == "draw_method_unknown"


# --- a league group's match day ------------------------------------------------------------

ORDER = [
    "a1",
    "b1",
    "c1",
    "d1",
    "a2",
    "d2",
    "c2",
    "b2",
    "c3",
    "d3",
    "a3",
    "b3",
    "c4",
    "b4",
    "a4",
    "d4",
]
"""The rating order of a group's sixteen players (team letter, line-up position)."""


@pytest.fixture
def group_players(db):
    """A league group of four teams A–D (by name), each lining up four players for series 1,
    rated in :data:`ORDER`, highest first."""
    division = make_division(8)
    fixtures.generate_schedule(division, [DAY], central=[])
    group = matchdays.set_up_group(division.match_days.get().groups.order_by("number")[0])
    players = {}
    for letter, team in zip("abcd", group.teams.order_by("name", "pk"), strict=True):
        line_up = [entry.player for entry in team.roster.order_by("position")][:4]
        matchdays.set_line_up(group, team, 1, line_up)
        for position, player in enumerate(line_up, start=1):
            players[f"{letter}{position}"] = player
    for index, label in enumerate(ORDER):
        rate(players[label], 60.0 - index, on=group.tournament.date)
    return group, {player.pk: label for label, player in players.items()}


def labels(series, label_of):
    return [
        [label_of[p] for p in table.seats.order_by("position").values_list("player_id", flat=True)]
        for table in series.tables.order_by("number")
    ]


def test_a_match_day_seeded_by_rating_spread_keeps_each_table_one_of_every_team(group_players):
    """Snake order over four tables: a1 b1 c1 d1 → 1 2 3 4; a2 d2 c2 b2 → 4 3 2 1;
    c3 d3 a3 b3 → 1 2 3 4; c4 b4 a4 d4 → 4 3 2 1: one player of each team at each table."""
    group, label_of = group_players

    series = services.draw_tables(group.tournament, method="rating_spread")

    assert labels(series, label_of) == [
        ["a1", "b2", "c3", "d4"],
        ["b1", "c2", "d3", "a4"],
        ["c1", "d2", "a3", "b4"],
        ["d1", "a2", "b3", "c4"],
    ]


def test_a_match_day_seeded_by_rating_together(group_players):
    """In order, four at a table: each four of :data:`ORDER` are of four teams."""
    group, label_of = group_players

    series = services.draw_tables(group.tournament, method="rating")

    assert labels(series, label_of) == [ORDER[0:4], ORDER[4:8], ORDER[8:12], ORDER[12:16]]
    team_of = dict(
        Registration.objects.filter(tournament=group.tournament).values_list("player_id", "team_id")
    )
    for table in series.tables.all():
        teams = [team_of[s.player_id] for s in table.seats.all()]
        assert len(set(teams)) == 4


def test_a_match_day_seeded_together_moves_a_teammate_down(group_players):
    """With b1 and a2 swapped in the order (a1 a2 c1 d1 b1 …), a2 cannot join a1: c1 and d1
    move up, then b1 (the next of a fourth team) takes table 1's last seat."""
    group, label_of = group_players
    by_label = {label: pk for pk, label in label_of.items()}
    PlayerRating.objects.filter(player_id=by_label["a2"]).update(mu=59.0)
    PlayerRating.objects.filter(player_id=by_label["b1"]).update(mu=56.0)

    series = services.draw_tables(group.tournament, method="rating")

    assert labels(series, label_of)[0] == ["a1", "c1", "d1", "b1"]
    assert labels(series, label_of)[1][0] == "a2"

"""A player leaves during a list and the referee appoints a substitute (SkWO 4.4).

The project's reading (docs/rules.md section 10.7): the player who left keeps the seat's games
before the substitute's first game, the substitute has the games from it on, each with the
bonuses of his own games; the others are unaffected; both count for the leaver's team.

The hand-worked list: a Seeger-Fabian 3-table, rounds 4 (12 games); B at seat 2 leaves after
game 9 and E plays from game 10 on.
  1 seat 1 grand with 1, 70 Augen: won, (1+1) × 24 = 48 → +48
  2 seat 2 clubs with 1, 50 Augen: lost, 2 × 12 = 24 → −48 (seats 1 and 3: +40 each)
  3–8 passed in
  9 seat 2 hearts without 2, 80 Augen: won, (2+1) × 10 = 30 → +30
  10 seat 2 (now E) spades with 1, 61 Augen: won, 2 × 11 = 22 → +22
  11 seat 2 (E) diamonds with 1, 40 Augen: lost, 2 × 9 = 18 → −36 (seats 1 and 3: +40)
  12 seat 3 grand with 2, 55 Augen: lost, 3 × 24 = 72 → −144 (seats 1 and 2, i.e. E: +40)
B (games 1–9): game points −48 + 30 = −18; won 1, lost 1, others lost 0;
  bonus 50 × (1 − 1) + 40 × 0 = 0; total −18.
E (games 10–12): game points 22 − 36 = −14; won 1, lost 1, others lost 1 (game 12);
  bonus 50 × 0 + 40 × 1 = 40; total 26.
B + E = the whole seat: −32 game points, 2 won, 2 lost, 1 others lost, bonus 40, total 8.
A (seat 1): +48; won 1, lost 0, others lost 3 (games 2, 11, 12): 50 + 120 = 170; total 218.
C (seat 3): −144; won 0, lost 1, others lost 2 (games 2, 11): −50 + 80 = 30; total −114.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from skatliga import archive, services
from skatliga.models import Change, ListResult, Purse, Registration, Season, Seat, Team
from skatliga.services.money import settle
from skatliga.standings.queries import player_statistics, team_standings
from tests.web.factories import entry, make_player, make_table, make_tournament, play
from tests.web.test_archive_schema import problems

GAMES = [
    entry(1, "grand", matadors=1, card_points=70),
    entry(2, "clubs", matadors=1, card_points=50),
    *[entry()] * 6,
    entry(2, "hearts", matadors=-2, card_points=80),
    entry(2, "spades", matadors=1, card_points=61),
    entry(2, "diamonds", matadors=1, card_points=40),
    entry(3, "grand", matadors=2, card_points=55),
]

FIGURES = ("game_points", "won", "lost", "others_lost", "bonus", "total")


def figures(table, player):
    row = ListResult.objects.get(table=table, player=player)
    return tuple(getattr(row, name) for name in FIGURES)


@pytest.fixture
def table(db):
    tournament = make_tournament(rounds=4, slug="abend")
    a, b, c = (make_player(name) for name in ("Anna", "Bernd", "Carla"))
    return make_table(tournament, players=[a, b, c])


@pytest.fixture
def substitute(db):
    return make_player("Emil")


def test_the_substitute_has_the_games_from_his_first_on(table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)

    a, b, c = (seat.player for seat in table.seats.order_by("position"))
    assert figures(table, b) == (-18, 1, 1, 0, 0, -18)
    assert figures(table, substitute) == (-14, 1, 1, 1, 40, 26)
    assert figures(table, a) == (48, 1, 0, 3, 170, 218)
    assert figures(table, c) == (-144, 0, 1, 2, 30, -114)
    assert ListResult.objects.get(table=table, player=substitute).position == 2


def test_games_entered_after_the_appointment_count_for_the_substitute(table, substitute):
    play(table, *GAMES[:9])
    services.appoint_substitute(table, 2, 10, player=substitute)
    assert figures(table, substitute) == (0, 0, 0, 0, 0, 0)

    play(table, *GAMES[9:])

    assert figures(table, table.seats.get(position=2).player) == (-18, 1, 1, 0, 0, -18)
    assert figures(table, substitute) == (-14, 1, 1, 1, 40, 26)
    services.close_table(table)


def test_the_standings_show_both_with_the_games_they_played(table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)

    rows = ListResult.objects.for_series(table.series).standings()
    assert [(r.player, r.total, r.lists) for r in rows] == [
        ("Anna", 218, 1),
        ("Emil", 26, 1),
        ("Bernd", -18, 1),
        ("Carla", -114, 1),
    ]


def test_both_rows_count_for_the_team_of_the_player_who_left(table, substitute):
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    tournament = table.series.tournament
    tournament.season = season
    tournament.save()
    teams = [Team.objects.create(season=season, name=name) for name in ("Asse", "Buben", "Damen")]
    for seat, team in zip(table.seats.order_by("position"), teams, strict=True):
        Registration.objects.filter(tournament=tournament, player=seat.player).update(team=team)
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)

    rows = {row.team: row.game_points for row in team_standings(ListResult.objects.all())}
    # The seat's whole list: B −18 + E 26 = 8, as one player would have had.
    assert rows == {"Asse": 218, "Buben": 8, "Damen": -114}


def test_correcting_and_removing_the_substitute(table, substitute):
    play(table, *GAMES)
    other = make_player("Frieda")
    services.appoint_substitute(table, 2, 10, player=substitute)

    services.appoint_substitute(table, 2, 11, player=other, reason="erst ab 11")
    leaver = table.seats.get(position=2).player
    assert not ListResult.objects.filter(table=table, player=substitute).exists()
    # Frieda from game 11: −36 (lost, 11) and +40 (game 12 lost by seat 3): 1 lost, 1 others'.
    assert figures(table, other) == (-36, 0, 1, 1, -50 + 40, -46)
    # Bernd now 1–10: −18 + 22 = 4; won 2, lost 1: +50; total 54.
    assert figures(table, leaver) == (4, 2, 1, 0, 50, 54)

    services.remove_substitute(table, 2, reason="doch geblieben")
    assert not ListResult.objects.filter(table=table, player=other).exists()
    assert figures(table, leaver) == (-32, 2, 2, 1, 40, 8)

    actions = list(
        Change.objects.filter(table=table)
        .exclude(action__startswith="game")
        .order_by("id")
        .values_list("action", "reason")
    )
    assert actions == [
        ("substitute_appointed", ""),
        ("substitute_appointed", "erst ab 11"),
        ("substitute_removed", "doch geblieben"),
    ]
    corrected = Change.objects.filter(action="substitute_appointed").order_by("id")[1]
    assert corrected.before["substitute"]["name"] == "Emil"
    assert corrected.after == {
        "seat": 2,
        "player": {"id": leaver.pk, "name": "Bernd"},
        "substitute": {"id": other.pk, "name": "Frieda"},
        "from_game": 11,
    }


def test_a_new_player_by_name(table):
    seat = services.appoint_substitute(table, 1, 5, name="  Neu  Mann ", club="SC Altenburg")
    assert seat.substitute.name == "Neu Mann"
    assert seat.substitute.club.name == "SC Altenburg"
    # Only a substitute: not registered, so not drawn for the next series.
    assert not Registration.objects.filter(player=seat.substitute).exists()


@pytest.mark.parametrize(
    ("number", "field"),
    [(1, "from_game"), (13, "from_game"), (None, "from_game")],
)
def test_a_game_outside_the_list_is_refused(table, substitute, number, field):
    with pytest.raises(services.ServiceError) as error:
        services.appoint_substitute(table, 2, number, player=substitute)
    assert (error.value.code, error.value.field) == ("substitute_game_out_of_range", field)
    assert error.value.params == {"last": 12}
    assert not Seat.objects.filter(substitute__isnull=False).exists()


def test_a_player_of_the_series_cannot_substitute(table, substitute):
    tournament = table.series.tournament
    other_table = make_table(tournament)
    elsewhere = other_table.seats.get(position=1).player
    at_this_table = table.seats.get(position=3).player

    for player in (elsewhere, at_this_table, table.seats.get(position=2).player):
        with pytest.raises(services.ServiceError) as error:
            services.appoint_substitute(table, 2, 10, player=player)
        assert (error.value.code, error.value.field) == ("substitute_seated", "player")

    services.appoint_substitute(other_table, 2, 10, player=substitute)
    with pytest.raises(services.ServiceError) as error:
        services.appoint_substitute(table, 2, 10, player=substitute)
    assert (error.value.code, error.value.field) == ("substitute_seated", "player")
    assert error.value.params["table"] == other_table.number


def test_no_substitute_after_the_list_is_closed(table, substitute):
    play(table, *GAMES)
    services.close_table(table)
    with pytest.raises(services.ServiceError) as error:
        services.appoint_substitute(table, 2, 10, player=substitute)
    assert (error.value.code, error.value.field) == ("list_closed", "seat")
    with pytest.raises(services.ServiceError):
        services.remove_substitute(table, 2)


def test_missing_player_and_bad_seat(table):
    with pytest.raises(services.ServiceError) as error:
        services.appoint_substitute(table, 2, 10)
    assert (error.value.code, error.value.field) == ("substitute_missing", "player")
    with pytest.raises(services.ServiceError) as error:
        services.appoint_substitute(table, 4, 10, name="X")
    assert (error.value.code, error.value.field) == ("seat_invalid", "seat")
    with pytest.raises(services.ServiceError) as error:
        services.appoint_substitute(table, 1, 10, name="x" * 200)
    assert (error.value.code, error.value.field) == ("name_too_long", "name")


def test_the_player_who_left_may_withdraw_while_the_list_is_open(table, substitute):
    play(table, *GAMES[:9])
    leaver = Registration.objects.get(player=table.seats.get(position=2).player)
    services.appoint_substitute(table, 2, 10, player=substitute)

    services.withdraw_player(leaver, reason="krank")

    leaver.refresh_from_db()
    assert leaver.withdrawn_at is not None


def test_the_appointment_shows_at_once_on_public_pages(client, table, substitute):
    play(table, *GAMES)
    url = reverse("series", args=["abend", 1])
    assert "Emil" not in client.get(url).content.decode()

    services.appoint_substitute(table, 2, 10, player=substitute)

    assert "Emil" in client.get(url).content.decode()


def test_the_archive_carries_the_substitute(table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    services.close_table(table)

    document = archive.dump_archive(table.series.tournament)
    listed = document["series"][0]["tables"][0]
    assert listed["substitutes"] == [{"seat": 2, "player": "p4", "from_game": 10}]
    assert document["players"][3]["name"] == "Emil"
    assert listed["computed"]["p4"]["total"] == 26
    assert problems(document) == []

    document["tournament"]["name"] = "Wieder"
    loaded = archive.load_archive(document)
    again = ListResult.objects.for_tournament(loaded).standings()
    assert [(r.player, r.total) for r in again] == [
        ("Anna", 218),
        ("Emil", 26),
        ("Bernd", -18),
        ("Carla", -114),
    ]
    assert not loaded.registrations.filter(player__name="Emil").exists()
    assert archive.dump_archive(loaded)["series"] == document["series"]


@pytest.mark.parametrize(
    ("substitute", "path", "code"),
    [
        ({"seat": 2, "player": "p1", "from_game": 10}, "player", "substitute_seated"),
        ({"seat": 2, "player": "p9", "from_game": 10}, "player", "unknown_player"),
        ({"seat": 4, "player": "p4", "from_game": 10}, "seat", "substitute_seat_invalid"),
        ({"seat": 2, "player": "p4", "from_game": 13}, "from_game", "substitute_game_out_of_range"),
        ({"seat": 2, "player": "p4", "from_game": 1}, "from_game", "substitute_game_out_of_range"),
        ({"seat": 2, "player": "p4", "ab": 1}, "ab", "unknown_key"),
    ],
)
def test_the_archive_refuses_a_bad_substitute(db, substitute, path, code):
    document = {
        "format": "skatliga-archive/1",
        "tournament": {"name": "T", "date": "2026-11-21", "rounds_per_series": 4},
        "players": [{"id": f"p{n}", "name": f"P{n}"} for n in range(1, 5)],
        "series": [
            {
                "number": 1,
                "tables": [{"number": 1, "seats": ["p1", "p2", "p3"], "substitutes": [substitute]}],
            }
        ],
    }
    with pytest.raises(archive.ArchiveError) as error:
        archive.load_archive(document)
    assert (error.value.problems[0].path, error.value.problems[0].code) == (
        f"series[0].tables[0].substitutes[0].{path}",
        code,
    )


# --- the referee's list page -----------------------------------------------------------------


@pytest.fixture
def referee(client, django_user_model, table):
    user = django_user_model.objects.create_user("leitung")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return client


def list_url(name="referee:list"):
    return reverse(name, args=["abend", 1, 1])


def test_the_referee_records_a_substitute_on_the_list_page(referee, table, substitute):
    play(table, *GAMES)
    Registration.objects.create(tournament=table.series.tournament, player=substitute)
    page = referee.get(list_url()).content.decode()
    # A player of the tournament not playing in the series is offered.
    assert f'<option value="{substitute.pk}">Emil</option>' in page

    response = referee.post(
        list_url("referee:substitute"),
        {"seat": "2", "player": substitute.pk, "from_game": "10", "reason": "Bernd krank"},
    )

    assert response.status_code == 302
    page = referee.get(list_url()).content.decode()
    assert "ab Spiel 10: Emil" in page
    assert 'data-total="-18"' in page and 'data-total="26"' in page
    assert Change.objects.get(action="substitute_appointed").reason == "Bernd krank"
    words = "Platz 2: ab Spiel 10 Emil für Bernd"
    assert f'<span class="after">{words}</span>' in page
    log = referee.get(reverse("referee:changes", args=["abend"])).content.decode()
    assert f"— → {words}" in log

    response = referee.post(list_url("referee:substitute-remove"), {"seat": "2"})
    assert response.status_code == 302
    assert not Seat.objects.filter(substitute__isnull=False).exists()


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        (
            {"seat": "2", "name": "Neu", "from_game": "13"},
            "from_game",
            "substitute_game_out_of_range",
        ),
        ({"seat": "2", "from_game": "10"}, "player", "substitute_missing"),
        ({"seat": "2", "name": "Carla", "from_game": "x"}, "from_game", "invalid"),
    ],
)
def test_a_refused_substitute_shows_the_error_at_its_field(referee, table, data, field, code):
    response = referee.post(list_url("referee:substitute"), data)

    assert response.status_code == 400
    form = response.context["substitute_form"]
    assert [error.code for error in form.errors.as_data()[field]] == [code]
    assert f'data-code="{code}"' in response.content.decode()
    assert not Seat.objects.filter(substitute__isnull=False).exists()


def test_a_player_of_the_series_named_is_refused_at_the_player_field(referee, table):
    carla = table.seats.get(position=3).player
    response = referee.post(
        list_url("referee:substitute"), {"seat": "2", "name": carla.name, "from_game": "10"}
    )
    assert response.status_code == 400
    assert "substitute_seated" in [
        e.code for e in response.context["substitute_form"].errors.as_data()["player"]
    ]


def test_after_closing_the_form_is_gone_and_a_post_is_refused(referee, table, substitute):
    play(table, *GAMES)
    services.close_table(table)
    assert "substitute-form" not in referee.get(list_url()).content.decode()

    response = referee.post(
        list_url("referee:substitute"),
        {"seat": "2", "player": "", "name": "Emil", "from_game": "10"},
    )
    assert response.status_code == 400
    assert [e.code for e in response.context["substitute_form"].errors.as_data()["seat"]] == [
        "list_closed"
    ]


# --- what the public pages and printouts show ------------------------------------------------


def pdf_text(data):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_pages_and_pdfs_name_the_substitute(client, table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    note = "Serie 1, Tisch 1, Platz 2: ab Spiel 10 Emil für Bernd"

    assert note in client.get(reverse("standings", args=["abend"])).content.decode()
    response = client.get(reverse("series", args=["abend", 1]))
    assert note in response.content.decode()
    card = response.context["tables"][0]
    assert [(r.position, r.name, r.substitute_from) for r in card.results] == [
        (1, "Anna", None),
        (2, "Bernd", None),
        (2, "Emil", 10),
        (3, "Carla", None),
    ]
    emil = f'<li value="2"><a href="/players/{substitute.pk}/">Emil</a> '
    assert f'{emil}<span class="muted">ab Spiel 10</span> <span class="number">26</span></li>' in (
        response.content.decode()
    )
    page = client.get(reverse("table", args=["abend", 1, 1])).content.decode()
    assert "ab Spiel 10:" in page and 'data-total="26"' in page

    for name, args in (("tournament-results-pdf", ["abend"]), ("series-results-pdf", ["abend", 1])):
        text = pdf_text(client.get(reverse(name, args=args)).content)
        assert note in text
    sheet = pdf_text(client.get(reverse("series-sheets-pdf", args=["abend", 1])).content)
    assert "ab Spiel 10: Emil" in sheet
    assert "Bernd Spiele 1–9: −18 Spielpunkte, Gesamt −18" in sheet
    assert "Emil Spiele 10–12: −14 Spielpunkte, Gesamt 26" in sheet


def test_a_players_statistics_count_the_games_he_declared_in_his_seat(table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    bernd = table.seats.get(position=2).player

    # Seat 2 declared games 2, 9, 10 and 11: Bernd 2 and 9 (won 1), Emil 10 and 11 (won 1).
    assert (player_statistics(bernd).games_declared, player_statistics(bernd).games_won) == (2, 1)
    assert (player_statistics(substitute).games_declared, player_statistics(substitute).lists) == (
        2,
        1,
    )


def test_a_players_statistics_in_full_and_within_a_season(substitute):
    """Games declared (values from the module's list), won, average value, Grand, Null and
    hand counts, lists; each season narrows them to its own lists. In the second season's
    3-table (rounds 1) Anna wins a Null (23) and Bernd a hand game, hearts with 1:
    (1 + 1 + 1) × 10 = 30; game 3 is passed in."""
    first = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    second = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    seated = {name: make_player(name) for name in ("Anna", "Bernd", "Carla")}
    table = make_table(make_tournament(rounds=4, season=first), players=[*seated.values()])
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    later = make_table(make_tournament(rounds=1, season=second), players=[*seated.values()])
    play(
        later,
        entry(1, "null", bid=23, tricks=0),
        entry(2, "hearts", matadors=1, card_points=70, tricks=6, hand=True),
        entry(),
    )

    # lists, declared, won, average value, Grand, Null, hand
    expected = {
        first: {
            "Anna": (1, 1, 1, 48.0, 1, 0, 0),  # game 1: Grand with 1, 48
            "Bernd": (1, 2, 1, 27.0, 0, 0, 0),  # games 2 (24, lost) and 9 (30)
            "Emil": (1, 2, 1, 20.0, 0, 0, 0),  # games 10 (22) and 11 (18, lost)
            "Carla": (1, 1, 0, 72.0, 1, 0, 0),  # game 12: Grand with 2, 72, lost
        },
        second: {
            "Anna": (1, 1, 1, 23.0, 0, 1, 0),
            "Bernd": (1, 1, 1, 30.0, 0, 0, 1),
            "Emil": (0, 0, 0, 0.0, 0, 0, 0),
            "Carla": (1, 0, 0, 0.0, 0, 0, 0),
        },
        None: {
            "Anna": (2, 2, 2, 35.5, 1, 1, 0),  # (48 + 23) / 2
            "Bernd": (2, 3, 2, 28.0, 0, 0, 1),  # (24 + 30 + 30) / 3
            "Emil": (1, 2, 1, 20.0, 0, 0, 0),
            "Carla": (2, 1, 0, 72.0, 1, 0, 0),
        },
    }
    for scope, figures in expected.items():
        for name, player in {**seated, "Emil": substitute}.items():
            s = player_statistics(player, scope)
            got = (s.lists, s.games_declared, s.games_won, s.average_value, s.grand, s.null, s.hand)
            assert got == figures[name], (name, scope)


def test_the_api_gives_each_share_of_the_seat(client, table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    services.close_table(table)
    services.publish_series(table.series)

    response = client.get("/api/v1/tournaments/abend/series/1/tables/1")
    answer = response.json()
    assert response.status_code == 200, answer

    assert answer["seats"][1]["substitute"]["name"] == "Emil"
    assert answer["seats"][1]["substitute_from"] == 10
    assert "substitute" not in answer["seats"][0]
    results = [
        (r["player"]["name"], r.get("first_game"), r.get("last_game"), r["total"])
        for r in answer["results"]
    ]
    assert results == [
        ("Anna", None, None, 218),
        ("Bernd", 1, 9, -18),
        ("Emil", 10, 12, 26),
        ("Carla", None, None, -114),
    ]


def test_the_settlement_charges_each_his_own_lost_games_and_adds_up(table, substitute):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    Purse.objects.create(
        tournament=table.series.tournament,
        entry_fee=Decimal("10.00"),
        lost_fee=Decimal("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("1.00"),
    )

    settlement = settle(table.series.tournament)

    # Lost games: Bernd 1 (game 2), Emil 1 (game 11), Carla 1 (game 12): 3 × 0.50 = 1.50.
    # Entry fees: the three registered players, 3 × 10.00 = 30.00; Emil pays none.
    money = {p.player: (p.entry, p.lost_fees) for p in settlement.players}
    assert money == {
        "Anna": (Decimal("10.00"), Decimal("0.00")),
        "Emil": (Decimal("0.00"), Decimal("0.50")),
        "Bernd": (Decimal("10.00"), Decimal("0.50")),
        "Carla": (Decimal("10.00"), Decimal("0.50")),
    }
    assert settlement.entries == Decimal("30.00")
    assert settlement.pot == Decimal("31.50")
    assert sum(p.paid for p in settlement.players) == settlement.pot


@pytest.mark.parametrize(
    ("without_prize", "prizes"),
    [
        (True, {"Anna": "20.00", "Emil": "0.00", "Bernd": "10.00", "Carla": "0.00"}),
        (False, {"Anna": "20.00", "Emil": "10.00", "Bernd": "0.00", "Carla": "0.00"}),
    ],
)
def test_a_substitute_takes_no_prize_unless_the_evening_says_so(
    table, substitute, without_prize, prizes
):
    play(table, *GAMES)
    services.appoint_substitute(table, 2, 10, player=substitute)
    tournament = table.series.tournament
    purse = Purse.objects.create(tournament=tournament, prizes=["20.00", "10.00"])
    assert purse.substitutes_without_prize  # the evening's default
    purse.substitutes_without_prize = without_prize
    purse.save()

    settlement = settle(tournament)

    assert {p.player: str(p.prize) for p in settlement.players} == prizes
    assert settlement.paid_out == Decimal("30.00")


def test_the_money_form_keeps_the_substitutes_option(client, django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament = table.series.tournament
    tournament.referees.add(user)
    client.force_login(user)
    url = reverse("referee:money", args=[tournament.slug])
    assert client.get(url).context["form"]["substitutes_without_prize"].value() is True

    fields = {"entry_fee": "10,00", "lost_fee": "0,50", "lost_fee_threshold": "3"}
    client.post(url, {**fields, "lost_fee_later": "1,00", "prizes": "20,00"})

    assert Purse.objects.get(tournament=tournament).substitutes_without_prize is False

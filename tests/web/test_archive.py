"""The archive ``skatliga-archive/1``: import, export, round trip, and the command line.

The example of docs/archive-format.md section 2, by hand:
one 4-table, seat 1 deals game 1.
  1 p2 grand with 2, 78 points, 7 tricks: level 2 + 1 = 3, 3 × 24 = 72, won
  2 passed in
  3 p4 null hand: 35, won
  4 p1 hearts without 2 at 30, lost: 3 × 10 = 30 → −60
  5 p3 clubs with 1, hand, schneider announced, won with schneider:
    level 1 + 1 + hand + schneider + announced = 5, 5 × 12 = 60, won
Seeger-Fabian (4-table, 30 per game another player lost; p4 sat out game 4 and counts it):
  p1 −60 − 50 = −110 · p2 72 + 50 + 30 = 152 · p3 60 + 50 + 30 = 140 · p4 35 + 50 + 30 = 115
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

import scoring
from bench.games import random_row
from skatliga import services
from skatliga.archive import FORMAT, ArchiveError, dump_archive, load_archive
from skatliga.models import (
    Change,
    Club,
    Game,
    ListResult,
    Player,
    Season,
    Table,
    Team,
    Tournament,
)
from skatliga.services import GameEntry
from tests.web.factories import entry, make_player, make_table, play

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "format": "skatliga-archive/1",
    "tournament": {
        "name": "Herbstturnier 2026",
        "date": "2026-11-21",
        "venue": "Vereinsheim",
        "rules": "isko",
        "scoring": "seeger-fabian",
        "rounds_per_series": 12,
    },
    "players": [
        {"id": "p1", "name": "Anna Schmidt", "club": "SC Altenburg", "number": "0815"},
        {"id": "p2", "name": "Bernd Łukasz"},
        {"id": "p3", "name": "Tomáš Čermák", "club": "Skatverein Zittau"},
        {"id": "p4", "name": "Jörg Müller"},
    ],
    "series": [
        {
            "number": 1,
            "tables": [
                {
                    "number": 1,
                    "seats": ["p1", "p2", "p3", "p4"],
                    "games": [
                        {
                            "declarer": "p2",
                            "game": "grand",
                            "matadors": 2,
                            "bid": 20,
                            "card_points": 78,
                            "tricks": 7,
                        },
                        {"passed": True},
                        {"declarer": "p4", "game": "null", "hand": True, "bid": 35, "tricks": 0},
                        {
                            "declarer": "p1",
                            "game": "hearts",
                            "matadors": -2,
                            "bid": 30,
                            "won": False,
                        },
                        {
                            "declarer": "p3",
                            "game": "clubs",
                            "matadors": 1,
                            "hand": True,
                            "schneider_announced": True,
                            "bid": 24,
                            "won": True,
                            "schneider": True,
                            "schwarz": False,
                        },
                    ],
                }
            ],
        }
    ],
}


def example() -> dict:
    return copy.deepcopy(EXAMPLE)


def games_of(tournament):
    """Every game as entered and as scored, in list order."""
    return [
        (
            g.table.series.number,
            g.table.number,
            g.number,
            GameEntry.from_game(g).to_json(),
            g.won,
            g.overbid,
            g.value,
            g.list_score,
            g.opponents_list_score,
        )
        for g in Game.objects.filter(table__series__tournament=tournament)
        .select_related("table__series")
        .order_by("table__series__number", "table__number", "number")
    ]


def results_of(tournament):
    return [
        (
            r.series.number,
            r.table.number,
            r.position,
            r.player.name,
            r.game_points,
            r.won,
            r.lost,
            r.others_lost,
            r.bonus,
            r.total,
        )
        for r in ListResult.objects.filter(tournament=tournament)
        .select_related("series", "table", "player")
        .order_by("series__number", "table__number", "position")
    ]


def row_counts():
    return {m.__name__: m.objects.count() for m in apps.get_app_config("skatliga").get_models()}


def problems_of(document):
    """(path, code) of every problem, and whether anything was saved meanwhile."""
    before = row_counts()
    with pytest.raises(ArchiveError) as error:
        load_archive(document)
    assert row_counts() == before
    return [(p.path, p.code) for p in error.value.problems]


def random_document(seed, *, rules="isko", scoring_system="seeger-fabian", rounds=2):
    """Two series of random legal games: a 4-table and a 3-table, then the reverse."""
    rng = random.Random(seed)
    rule_set = scoring.get_rules(rules)
    players = [{"id": f"x{n}", "name": f"Zufall {seed}-{n}"} for n in range(7)]
    series = []
    for number, sizes in ((1, (4, 3)), (2, (3, 4))):
        order = rng.sample([p["id"] for p in players], 7)
        tables, start = [], 0
        for t, size in enumerate(sizes, start=1):
            seats = order[start : start + size]
            start += size
            games = []
            for n in range(1, rounds * size + 1):
                row = random_row(rng, n, size, rule_set, passed=0.1)
                if row is None:
                    games.append({"passed": True})
                else:
                    seat, d, o = row
                    games.append({"declarer": seats[seat], **scoring.game_to_json(d, o)})
            tables.append({"number": t, "seats": seats, "games": games})
        series.append({"number": number, "tables": tables})
    return {
        "format": FORMAT,
        "tournament": {
            "name": f"Zufallsturnier {seed}",
            "date": "2026-05-01",
            "rules": rules,
            "scoring": scoring_system,
            "rounds_per_series": rounds,
        },
        "players": players,
        "series": series,
    }


# --- the example -----------------------------------------------------------------------------


def test_the_example_imports_with_the_values_worked_out_by_hand():
    tournament = load_archive(example())

    games = Game.objects.filter(table__series__tournament=tournament).order_by("number")
    assert [(g.passed, g.won, g.overbid, g.value, g.list_score) for g in games] == [
        (False, True, False, 72, 72),
        (True, False, False, 0, 0),
        (False, True, False, 35, 35),
        (False, False, False, 30, -60),
        (False, True, False, 60, 60),
    ]
    assert [g.declarer for g in games] == [2, None, 4, 1, 3]


def test_the_example_gives_the_results_worked_out_by_hand():
    tournament = load_archive(example())

    assert [(r[3], r[-1]) for r in results_of(tournament)] == [
        ("Anna Schmidt", -110),
        ("Bernd Łukasz", 152),
        ("Tomáš Čermák", 140),
        ("Jörg Müller", 115),
    ]


def test_the_example_creates_tournament_players_clubs_and_the_change():
    tournament = load_archive(example())

    assert (tournament.name, str(tournament.date), tournament.venue) == (
        "Herbstturnier 2026",
        "2026-11-21",
        "Vereinsheim",
    )
    assert (tournament.slug, tournament.status) == ("herbstturnier-2026-2026-11-21", "running")
    assert Player.objects.get(number="0815").club.name == "SC Altenburg"
    assert sorted(Club.objects.values_list("name", flat=True)) == [
        "SC Altenburg",
        "Skatverein Zittau",
    ]
    assert tournament.registrations.count() == 4
    assert not tournament.series.get().tables.get().is_closed
    (change,) = Change.objects.filter(tournament=tournament)
    assert change.action == Change.Action.IMPORTED
    assert change.after["games"] == 5


def test_defaults_are_isko_seeger_fabian_and_twelve_rounds():
    document = example()
    document["tournament"] = {"name": "Kurz", "date": "2026-01-03"}

    tournament = load_archive(document)

    assert (tournament.rules, tournament.scoring, tournament.rounds_per_series) == (
        "isko",
        "seeger-fabian",
        12,
    )


def test_a_player_is_matched_by_number_else_by_name_and_club():
    anna = make_player("Anna Schmidt (alt)", number="0815")
    bernd = make_player("Bernd Łukasz")
    make_player("Jörg Müller", club=Club.objects.create(name="Anderer Verein"))

    tournament = load_archive(example())

    players = {r.player.name: r.player for r in tournament.registrations.all()}
    assert players["Anna Schmidt (alt)"] == anna
    assert players["Bernd Łukasz"] == bernd
    assert Player.objects.filter(name="Jörg Müller").count() == 2


def test_importing_twice_gives_a_second_slug_and_no_new_players():
    first = load_archive(example())
    players = Player.objects.count()

    second = load_archive(example())

    assert second.slug == f"{first.slug}-2"
    assert Player.objects.count() == players


def test_a_slug_taken_gets_the_next_free_number():
    first = load_archive(example())
    # Slugs that only start like the tournament's: not numbers of it, and no obstacle.
    Tournament.objects.filter(pk=first.pk).update(slug=f"{first.slug}-3")
    make = Tournament.objects.create
    make(name="x", slug=first.slug, date=first.date)
    make(name="x", slug=f"{first.slug}-2x", date=first.date)
    make(name="x", slug=f"{first.slug}5", date=first.date)

    slugs = [load_archive(example()).slug for _ in range(3)]

    assert slugs == [f"{first.slug}-{n}" for n in (2, 4, 5)]


def test_a_finished_tournament_is_imported_and_published_in_a_fixed_number_of_statements(
    django_assert_num_queries,
):
    document = example()
    document["tournament"]["rounds_per_series"] = 1
    del document["series"][0]["tables"][0]["games"][4]
    load_archive(example())  # its players and clubs are known now, its slug taken

    # Outside the transaction: the players by number, by name. Inside (a savepoint in the
    # test's transaction): the slug, the tournament, its registrations, series, tables,
    # seats, games, result rows and the import's Change (COPY on PostgreSQL, which the count
    # does not see); publishing: the tournament's lock, the series, their update, their
    # Change rows, the revisions; the rating (services.rating): its book read and the rated
    # rows after the tournament's day counted (few enough to rate in the request, else a
    # job), its book locked, the lists from the tournament's on, their rating rows, the
    # players' current ratings, the new rows and ratings written; the savepoint released.
    copies = 5 if connection.vendor == "postgresql" else 0
    with django_assert_num_queries(26 - copies):
        tournament = load_archive(document)

    assert tournament.series.get().is_published


def test_complete_lists_are_imported_closed_and_the_tournament_finished():
    document = example()
    document["tournament"]["rounds_per_series"] = 1
    del document["series"][0]["tables"][0]["games"][4]

    tournament = load_archive(document)

    assert tournament.status == "finished"
    assert tournament.series.get().tables.get().is_closed


@pytest.mark.parametrize("finished", [False, True])
def test_an_import_raises_the_revisions_of_its_tournament_and_season(finished):
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    before = Season.objects.get().revision
    document = example()
    if finished:
        document["tournament"]["rounds_per_series"] = 1
        del document["series"][0]["tables"][0]["games"][4]

    tournament = load_archive(document, season=season)

    tournament.refresh_from_db()
    assert tournament.status == ("finished" if finished else "running")
    assert tournament.series.get().is_published is finished
    assert tournament.revision > 0 and tournament.revised_at is not None
    assert Season.objects.get().revision > before


def test_imported_result_rows_equal_those_the_services_write():
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    team = Team.objects.create(season=season, name="Kreuz Bube")
    document = example()
    document["players"].append({"id": "p5", "name": "Emil Ersatz"})
    document["series"][0]["tables"][0]["substitutes"] = [
        {"seat": 2, "player": "p5", "from_game": 3}
    ]
    tournament = load_archive(document, season=season, match_day=1, teams={"p1": team})

    def rows():
        return sorted(
            ListResult.objects.filter(tournament=tournament).values_list(
                "table", "series", "tournament", "season", "player", "team", "position",
                "game_points", "won", "lost", "others_lost", "bonus", "total",
            )
        )  # fmt: skip

    imported = rows()
    assert len(imported) == 5 and {r[5] for r in imported} == {team.pk, None}
    for table in Table.objects.filter(series__tournament=tournament):
        services.recompute_results(table)
    assert rows() == imported


def test_season_match_day_and_teams_are_written_to_the_results():
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    team = Team.objects.create(season=season, name="Kreuz Bube")

    tournament = load_archive(example(), season=season, match_day=2, teams={"p1": team})

    assert (tournament.season, tournament.match_day) == (season, 2)
    assert tournament.registrations.get(player__number="0815").team == team
    assert list(ListResult.objects.filter(season=season, team=team).values_list("position")) == [
        (1,)
    ]
    assert ListResult.objects.filter(season=season).count() == 4


def test_computed_keys_are_ignored():
    document = example()
    table = document["series"][0]["tables"][0]
    table["computed"] = {"p1": {"total": 9999}}
    for game in table["games"]:
        game["computed"] = {"value": 9999, "won": False, "list_score": 9999}

    tournament = load_archive(document)

    assert [r[-1] for r in results_of(tournament)] == [-110, 152, 140, 115]
    assert Game.objects.get(number=1).value == 72


# --- broken documents ------------------------------------------------------------------------

GAME = "series[0].tables[0].games"


def change(path_and_value):
    """A function that sets one value of the example (``None`` deletes the key)."""

    def apply(document):
        *keys, last = path_and_value[0]
        target = document
        for key in keys:
            target = target[key]
        if path_and_value[1] is None:
            del target[last]
        else:
            target[last] = path_and_value[1]
        return document

    return apply


TABLE = ("series", 0, "tables", 0)
BROKEN = [
    # (what to change, expected path, expected code)
    ((("format",), "skatliga-archive/2"), "format", "unknown_format"),
    ((("format",), None), "format", "required"),
    ((("tournament", "name"), None), "tournament.name", "required"),
    ((("tournament", "name"), "   "), "tournament.name", "empty"),
    ((("tournament", "date"), "21.11.2026"), "tournament.date", "invalid_date"),
    ((("tournament", "date"), "2026-02-30"), "tournament.date", "invalid_date"),
    ((("tournament", "rules"), "iso"), "tournament.rules", "unknown_rules"),
    ((("tournament", "scoring"), "seeger"), "tournament.scoring", "unknown_scoring"),
    (
        (("tournament", "rounds_per_series"), 0),
        "tournament.rounds_per_series",
        "rounds_out_of_range",
    ),
    ((("tournament", "rounds_per_series"), "12"), "tournament.rounds_per_series", "wrong_type"),
    ((("tournament", "venu"), "Saal"), "tournament.venu", "unknown_key"),
    ((("tournament",), None), "tournament", "required"),
    ((("players",), {}), "players", "not_a_list"),
    ((("players", 1, "id"), "p1"), "players[1].id", "duplicate_player_id"),
    ((("players", 1, "name"), None), "players[1].name", "required"),
    ((("players", 1, "name"), 5), "players[1].name", "wrong_type"),
    ((("players", 1, "number"), 815), "players[1].number", "wrong_type"),
    ((("players", 1, "number"), "0815"), "players[1].number", "duplicate_player"),
    ((("players", 1, "verein"), "SC"), "players[1].verein", "unknown_key"),
    ((("players", 2), "p3"), "players[2]", "not_an_object"),
    (((*TABLE, "seats"), ["p1", "p2"]), "series[0].tables[0].seats", "table_size_invalid"),
    (((*TABLE, "seats", 3), "p9"), "series[0].tables[0].seats[3]", "unknown_player"),
    (((*TABLE, "seats", 3), "p1"), "series[0].tables[0].seats[3]", "player_already_seated"),
    (((*TABLE, "number"), 0), "series[0].tables[0].number", "table_number_invalid"),
    (((*TABLE, "games"), {}), "series[0].tables[0].games", "not_a_list"),
    (((*TABLE, "spiele"), []), "series[0].tables[0].spiele", "unknown_key"),
    ((("series", 0, "number"), "1"), "series[0].number", "wrong_type"),
    ((("series", 0, "tables"), None), "series[0].tables", "required"),
    (((*TABLE, "games", 0, "bid"), 19), f"{GAME}[0].bid", "bid_not_legal"),
    (((*TABLE, "games", 0, "bidd"), 20), f"{GAME}[0].bidd", "unknown_key"),
    (((*TABLE, "games", 0, "game"), "grandd"), f"{GAME}[0].game", "unknown_game"),
    (((*TABLE, "games", 0, "bid"), "20"), f"{GAME}[0].bid", "wrong_type"),
    (((*TABLE, "games", 0, "declarer"), None), f"{GAME}[0].declarer", "required"),
    (((*TABLE, "games", 0, "declarer"), "p9"), f"{GAME}[0].declarer", "unknown_player"),
    (((*TABLE, "games", 0, "declarer"), "p1"), f"{GAME}[0].declarer", "declarer_is_dealer"),
    (((*TABLE, "games", 0, "matadors"), 5), f"{GAME}[0].matadors", "matadors_out_of_range"),
    (
        ((*TABLE, "games", 0, "card_points"), 121),
        f"{GAME}[0].card_points",
        "card_points_out_of_range",
    ),
    (((*TABLE, "games", 0, "won"), False), f"{GAME}[0].won", "outcome_contradiction"),
    (((*TABLE, "games", 2, "matadors"), 1), f"{GAME}[2].matadors", "matadors_not_allowed"),
    (((*TABLE, "games", 3, "won"), None), f"{GAME}[3]", "outcome_missing"),
    (
        ((*TABLE, "games", 3, "schneider_announced"), True),
        f"{GAME}[3].schneider_announced",
        "announcement_requires_hand",
    ),
    (((*TABLE, "games", 3, "kontra"), True), f"{GAME}[3].kontra", "doubling_not_allowed"),
    (((*TABLE, "games", 1), [True]), f"{GAME}[1]", "not_an_object"),
    (((*TABLE, "games", 1, "bid"), 18), f"{GAME}[1].bid", "unknown_key"),
]


@pytest.mark.parametrize(("edit", "path", "code"), BROKEN, ids=[f"{c}@{p}" for _, p, c in BROKEN])
def test_a_broken_document_names_path_and_code_and_saves_nothing(edit, path, code):
    problems = problems_of(change(edit)(example()))

    assert (path, code) in problems


def test_a_document_that_is_not_an_object():
    assert problems_of([EXAMPLE]) == [("", "not_an_object")]


def test_another_format_is_reported_with_every_other_problem():
    document = example()
    document["format"] = "other/1"
    document["tournament"] = 5
    document["extra"] = True

    assert problems_of(document) == [
        ("format", "unknown_format"),
        ("extra", "unknown_key"),
        ("tournament", "not_an_object"),
    ]


def test_a_second_table_of_the_series_may_not_seat_a_player_again():
    document = example()
    document["players"].append({"id": "p5", "name": "Fünf"})
    document["series"][0]["tables"].append({"number": 2, "seats": ["p5", "p4", "p3"], "games": []})

    assert problems_of(document) == [
        ("series[0].tables[1].seats[1]", "player_already_seated"),
        ("series[0].tables[1].seats[2]", "player_already_seated"),
    ]


def test_series_and_table_numbers_are_unique():
    document = example()
    document["players"] += [{"id": f"q{n}", "name": f"Q {n}"} for n in range(3)]
    document["series"][0]["tables"].append({"number": 1, "seats": ["q0", "q1", "q2"]})
    document["series"].append({"number": 1, "tables": []})

    assert problems_of(document) == [
        ("series[0].tables[1].number", "table_number_taken"),
        ("series[1].number", "series_number_taken"),
    ]


def test_a_declarer_must_sit_at_the_table():
    document = example()
    document["players"] += [{"id": f"q{n}", "name": f"Q {n}"} for n in range(3)]
    document["series"][0]["tables"].append({"number": 2, "seats": ["q0", "q1", "q2"]})
    document["series"][0]["tables"][0]["games"][0]["declarer"] = "q1"

    assert problems_of(document) == [(f"{GAME}[0].declarer", "declarer_not_at_table")]


def test_more_games_than_the_list_has_rows():
    document = example()
    document["tournament"]["rounds_per_series"] = 1

    assert problems_of(document) == [(f"{GAME}", "too_many_games")]


def test_two_entries_for_one_known_player_are_refused():
    make_player("Bernd Łukasz", number="4711")
    document = example()
    document["players"][3]["number"] = "4711"

    assert problems_of(document) == [("players[3].number", "duplicate_player")]


def test_every_problem_is_listed():
    document = example()
    games = document["series"][0]["tables"][0]["games"]
    document["tournament"]["rules"] = "isko"
    games[0]["bid"] = 19
    games[2]["bidd"] = 35
    games[4]["declarer"] = "p1"
    games[3]["matadors"] = 0
    games[3]["card_points"] = 130

    assert problems_of(document) == [
        (f"{GAME}[0].bid", "bid_not_legal"),
        (f"{GAME}[2].bidd", "unknown_key"),
        (f"{GAME}[3].matadors", "matadors_out_of_range"),
        (f"{GAME}[3].card_points", "card_points_out_of_range"),
        (f"{GAME}[4].declarer", "declarer_is_dealer"),
    ]


def test_a_problem_message_names_the_value():
    document = example()
    document["series"][0]["tables"][0]["games"][0]["bid"] = 19

    with pytest.raises(ArchiveError) as error:
        load_archive(document)

    (problem,) = error.value.problems
    assert (problem.params["value"], str(problem).split(":")[0]) == (19, f"{GAME}[0].bid")


# --- export and round trip -------------------------------------------------------------------


def test_export_gives_player_ids_games_and_computed_numbers():
    document = dump_archive(load_archive(example()))

    assert [p["id"] for p in document["players"]] == ["p1", "p2", "p3", "p4"]
    table = document["series"][0]["tables"][0]
    assert table["games"][0] == {
        "declarer": "p2",
        "game": "grand",
        "bid": 20,
        "matadors": 2,
        "card_points": 78,
        "tricks": 7,
        "computed": {"value": 72, "won": True, "overbid": False, "list_score": 72},
    }
    assert table["games"][1] == {"passed": True}
    assert table["computed"]["p4"] == {
        "game_points": 35,
        "won": 1,
        "lost": 0,
        "others_lost": 1,
        "bonus": 80,
        "total": 115,
    }


@pytest.mark.parametrize(
    ("rules", "system"),
    [
        ("isko", "seeger-fabian"),
        ("pre1999", "classic"),
        ("nl", "zero-sum"),
        ("dsu", "seeger-fabian"),
    ],
)
def test_round_trip_gives_the_same_games_and_results(rules, system):
    original = load_archive(random_document(7, rules=rules, scoring_system=system))

    copy_ = load_archive(dump_archive(original))

    assert games_of(copy_) == games_of(original)
    assert results_of(copy_) == results_of(original)
    assert (copy_.rules, copy_.scoring) == (rules, system)


def test_export_of_an_imported_export_is_the_same_document():
    first = dump_archive(load_archive(random_document(11)))

    second = dump_archive(load_archive(first))

    assert second == first


def test_round_trip_of_a_tournament_entered_through_the_services():
    table = make_table(size=3)
    play(
        table,
        entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7),
        entry(2, "hearts", bid=30, matadors=-2, won=False),
        entry(),
    )
    original = table.series.tournament

    copy_ = load_archive(dump_archive(original))

    assert games_of(copy_) == games_of(original)
    assert [r[3:] for r in results_of(copy_)] == [r[3:] for r in results_of(original)]


# --- the command line ------------------------------------------------------------------------


def write(tmp_path, document, name="archiv.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_import_command_prints_the_slug_last(tmp_path):
    out = io.StringIO()

    call_command("import_archive", write(tmp_path, example()), stdout=out)

    assert out.getvalue().splitlines()[-1] == Tournament.objects.get().slug


def test_import_command_lists_every_problem_with_its_path_and_saves_nothing(tmp_path):
    document = example()
    document["series"][0]["tables"][0]["games"][0]["bid"] = 19
    document["series"][0]["tables"][0]["games"][3]["bid"] = 21
    err = io.StringIO()

    with pytest.raises(CommandError):
        call_command("import_archive", write(tmp_path, document), stderr=err)

    lines = err.getvalue().splitlines()
    assert [line.split(": ")[1] for line in lines] == [f"{GAME}[0].bid", f"{GAME}[3].bid"]
    assert not Tournament.objects.exists()


def test_import_command_reports_bad_json_with_line_and_column(tmp_path):
    path = tmp_path / "kaputt.json"
    path.write_text('{\n  "format": "skatliga-archive/1",\n  "tournament": }\n', encoding="utf-8")

    with pytest.raises(CommandError) as error:
        call_command("import_archive", str(path))

    assert "Zeile 3, Spalte 17" in str(error.value)


def test_import_command_reports_a_missing_file(tmp_path):
    with pytest.raises(CommandError) as error:
        call_command("import_archive", str(tmp_path / "fehlt.json"))

    assert "fehlt.json" in str(error.value)


def test_export_command_writes_the_document(capfdbinary):
    tournament = load_archive(example())

    call_command("export_archive", tournament.slug)

    document = json.loads(capfdbinary.readouterr().out.decode("utf-8"))
    assert document["players"][1]["name"] == "Bernd Łukasz"
    assert games_of(load_archive(document)) == games_of(tournament)


def test_export_command_refuses_an_unknown_slug():
    with pytest.raises(CommandError) as error:
        call_command("export_archive", "gibt-es-nicht")

    assert "gibt-es-nicht" in str(error.value)


@pytest.fixture(scope="module")
def manage(tmp_path_factory):
    """Run manage.py in a fresh process against a migrated SQLite file of this module."""
    database = tmp_path_factory.mktemp("archive") / "db.sqlite3"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SKATLIGA_")}
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    environment["DATABASE_URL"] = f"sqlite:///{database}"

    def run(*args, stdin=b"", env=None):
        return subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env={**environment, **(env or {})},
            input=stdin,
            capture_output=True,
            timeout=120,
            check=False,
        )

    assert run("migrate", "--no-input").returncode == 0
    return run


def test_import_and_export_as_processes(manage, tmp_path):
    imported = manage("import_archive", write(tmp_path, example()))
    slug = imported.stdout.decode().splitlines()[-1]
    exported = manage("export_archive", slug, env={"PYTHONIOENCODING": "ascii"})

    assert (imported.returncode, exported.returncode) == (0, 0)
    assert slug.startswith("herbstturnier-2026-2026-11-21")
    assert json.loads(exported.stdout.decode("utf-8"))["players"][1]["name"] == "Bernd Łukasz"


def test_import_from_standard_input_as_a_process(manage):
    # The module's database may hold this tournament already: import it again deliberately.
    result = manage("import_archive", "--again", "-", stdin=json.dumps(example()).encode())

    assert result.returncode == 0
    assert result.stdout.decode().splitlines()[-1].startswith("herbstturnier-2026")


def test_a_failed_import_exits_1_naming_the_path_without_a_traceback(manage, tmp_path):
    document = example()
    document["series"][0]["tables"][0]["games"][0]["bid"] = 19

    result = manage("import_archive", write(tmp_path, document))

    assert result.returncode == 1
    assert f"{GAME}[0].bid" in result.stderr.decode()
    assert "Traceback" not in result.stderr.decode()


@pytest.mark.parametrize("content", [b"{nicht json", b"\xff\xfe\x00", None])
def test_unreadable_input_exits_1_without_a_traceback(manage, tmp_path, content):
    path = tmp_path / "eingabe.json"
    if content is not None:
        path.write_bytes(content)

    result = manage("import_archive", str(path))

    assert result.returncode == 1
    assert result.stderr and b"Traceback" not in result.stderr


def test_an_unknown_slug_exits_1_without_a_traceback(manage):
    result = manage("export_archive", "gibt-es-nicht")

    assert result.returncode == 1
    assert b"Traceback" not in result.stderr

"""Rule options on the site (docs/rules.md section 8): house rules in the settings, the archive's
rules object, Supra, Ramsch rows and 5-tables through the services, the forms and the archive.

Every expected number is worked out by hand in the comment beside it.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

import scoring
from bench.games import random_row
from skatliga import services
from skatliga.archive import FORMAT, dump_archive, load_archive
from skatliga.models import Game, ListResult, Table
from skatliga.models.rules import describe_rules
from tests.web.factories import entry, make_table, make_tournament, play
from tests.web.test_archive import games_of, problems_of, results_of
from tests.web.test_referee_entry import codes, row, url

pytestmark = pytest.mark.django_db

SUPRA = "kontra-re-supra-resupra"


def totals(table: Table) -> list[int]:
    return list(
        ListResult.objects.filter(table=table).order_by("position").values_list("total", flat=True)
    )


@pytest.fixture
def referee(client, django_user_model):
    user = django_user_model.objects.create_superuser("leitung", password="kreuz-bube-11")
    client.force_login(user)
    return user


def post_settings(client, tournament, rules: str, rounds: str = "12", **options: str):
    """POST the settings page with the tournament's name and date, ``rules`` with
    Seeger-Fabian, and ``options`` as the house-rule fields (``option_<name>``)."""
    data = {
        "name": tournament.name,
        "date": "2026-11-21",
        "rules": rules,
        "scoring": "seeger-fabian",
        "rounds_per_series": rounds,
        **{f"option_{name}": value for name, value in options.items()},
    }
    return client.post(reverse("referee:tournament-settings", args=[tournament.slug]), data)


# --- the tournament's rule set -------------------------------------------------------------


def test_a_tournament_is_its_preset_plus_its_house_options():
    tournament = make_tournament(rules="se", rule_options={"lost_game": "add-level"})

    rules = tournament.rule_set

    assert (rules.preset, rules.doublings, rules.lost_game) == (
        "se",
        scoring.Doublings.KONTRA_RE,
        scoring.LostGame.ADD_LEVEL,
    )
    assert scoring.rules_to_json(rules) == {"preset": "se", "lost_game": "add-level"}


def test_the_rules_are_printed_with_the_changed_options_in_words():
    rules = scoring.rules_from_json({"preset": "se", "lost_game": "add-level", "ramsch": True})

    text = describe_rules(rules)

    assert text.startswith("Schwedisch mit Hausregeln:")
    assert "Verlorenes Spiel: eine Stufe mehr, einfach" in text
    assert "Ramsch: ja, statt eingepasst" in text
    assert describe_rules(scoring.get_rules("dsu")) == "Dansk Skat Union"


def test_the_settings_page_saves_a_house_option_and_rescores(client, referee):
    table = make_table(size=3, rounds=1, rules="se")
    tournament = table.series.tournament
    # Swedish seed: hearts hand without 2 (4 × 10 = 40) lost; house rule add-level:
    # charged once at one level more, 5 × 10 = 50 (ISkO: −80).
    play(table, entry(1, "hearts", 18, -2, hand=True, won=False))
    assert totals(table)[0] == -80 - 50  # Seeger-Fabian: −2 × 40 − 50
    response = post_settings(client, tournament, "se", rounds="1", lost_game='"add-level"')

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_options == {"lost_game": "add-level"}
    assert totals(table)[0] == -50 - 50
    page = client.get(reverse("referee:tournament", args=[tournament.slug])).content.decode()
    assert "eine Stufe mehr, einfach" in page


def test_a_house_option_equal_to_the_preset_is_not_stored(client, referee):
    tournament = make_tournament(rules="se")
    post_settings(client, tournament, "se", doublings='"kontra-re"')

    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_a_bad_null_values_option_is_an_error_at_its_field(client, referee):
    tournament = make_tournament()
    response = post_settings(client, tournament, "isko", null_values="23/35/46")

    assert codes(response.context["form"], "option_null_values") == ["option_value_invalid"]
    tournament.refresh_from_db()
    assert tournament.rule_options == {}


def test_ramsch_with_seeger_fabian_is_refused_in_the_settings(client, referee):
    tournament = make_tournament()
    response = post_settings(client, tournament, "isko", ramsch="true")

    assert codes(response.context["form"], "scoring") == ["ramsch_not_with_seeger_fabian"]


# --- the entry form follows the options ----------------------------------------------------


def referee_table(referee, **fields):
    table = make_table(**fields)
    table.series.tournament.referees.add(referee)
    return table


def test_no_doubling_field_under_isko_and_supra_where_allowed(client, referee):
    isko = referee_table(referee, size=3, rounds=1)
    supra = referee_table(referee, size=3, rounds=1, rule_options={"doublings": SUPRA})

    plain = client.get(url(isko)).context["form"]
    doubled = client.get(url(supra)).context["form"]

    assert "doubling" not in plain.fields
    assert [value for value, _ in doubled.fields["doubling"].choices] == [
        "",
        "kontra",
        "re",
        "supra",
        "resupra",
    ]


def test_a_supra_game_is_saved_and_counts_eight_times(client, referee):
    table = referee_table(referee, size=3, rounds=1, rule_options={"doublings": SUPRA})

    client.post(
        url(table),
        row(1, declarer=2, game="grand", matadors=1, bid=18, card_points=70, doubling="supra"),
    )

    game = Game.objects.get(table=table)
    # grand with 1: 2 × 24 = 48; Kontra, Re, Supra: × 8 = 384
    assert (game.kontra, game.re, game.supra, game.resupra, game.value) == (
        True,
        True,
        True,
        False,
        384,
    )


def test_supra_under_isko_kontra_is_refused_with_its_code():
    table = make_table(size=3, rounds=1, rules="isko-kontra")

    with pytest.raises(services.ServiceError) as error:
        play(table, entry(2, "grand", 18, 1, card_points=70, kontra=True, re=True, supra=True))

    assert (error.value.code, error.value.field) == ("doubling_not_allowed", "supra")


def test_card_points_alone_save_a_row(client, referee):
    table = referee_table(referee, size=3, rounds=1)

    client.post(url(table), row(1, declarer=2, game="clubs", matadors=1, bid=18, card_points=75))

    # clubs with 1: 2 × 12 = 24, won with 75 card points
    game = Game.objects.get(table=table)
    assert (game.tricks, game.won, game.value) == (None, True, 24)


def test_dsu_matadors_from_cards_count_jacks_only(client, referee):
    table = referee_table(referee, size=3, rounds=1, rules="dsu")
    # DSU seed: "Klør Spar Hjerter Ruder = med 4 bønder" — the club ace does not count.
    cards = "CJ SJ HJ DJ CA C10 CK S7 S8 D9 H7 H8"

    response = client.post(
        url(table),
        row(1, declarer=2, game="clubs", matadors="4", cards=cards, bid=18, card_points=70),
    )

    assert response.status_code == 302
    # (4 + 1) × 12 = 60
    assert Game.objects.get(table=table).value == 60


def test_a_ramsch_row_is_entered_and_charges_the_most_points(client, referee):
    table = referee_table(
        referee, size=3, rounds=1, scoring="classic", rule_options={"ramsch": True}
    )
    # Game 1: seat 1 deals; forehand seat 2, middlehand seat 3, rearhand seat 1.
    data = row(1, declarer="R", ramsch_card_points="30 62 28", ramsch_tricks="3 5 2")

    response = client.post(url(table), data)

    assert response.status_code == 302
    assert Game.objects.get(table=table).ramsch == {
        "card_points": [30, 62, 28],
        "tricks": [3, 5, 2],
    }
    # middlehand (seat 3) holds the most card points, 62: charged −62
    assert totals(table) == [0, 0, -62]


def test_a_ramsch_that_does_not_add_up_is_refused_at_its_field(client, referee):
    table = referee_table(
        referee, size=3, rounds=1, scoring="classic", rule_options={"ramsch": True}
    )

    response = client.post(
        url(table), row(1, declarer="R", ramsch_card_points="30 62 27", ramsch_tricks="3 5 2")
    )

    assert codes(response.context["form"], "ramsch_card_points") == ["ramsch_card_points_sum"]
    assert not Game.objects.exists()


def test_a_jungfrau_doubles_and_zero_sum_settles_with_everyone():
    table = make_table(size=3, rounds=1, scoring="zero-sum", rule_options={"ramsch": True})

    play(table, services.GameEntry(ramsch=scoring.Ramsch((0, 70, 50), (0, 6, 4))))

    # forehand (seat 2) took no trick: Jungfrau; middlehand (seat 3) has 70: charge 140,
    # paid to each of the two others: seat 3 −280, seats 1 and 2 +140
    assert totals(table) == [140, 140, -280]


# --- tables of five and the fourth player --------------------------------------------------


def test_five_players_sit_at_one_table_in_a_classic_club_evening():
    tournament = make_tournament(players=5, scoring="classic")

    series = services.draw_tables(tournament, seed=1)

    assert [table.size for table in series.tables.all()] == [5]


def test_five_players_are_refused_under_seeger_fabian_with_a_clear_code():
    tournament = make_tournament(players=5)

    with pytest.raises(services.ServiceError) as error:
        services.draw_tables(tournament, seed=1)

    assert error.value.code == "players_cannot_be_seated"


def test_at_a_five_table_the_dealer_and_the_player_on_his_right_sit_out():
    table = make_table(size=5, rounds=1, scoring="zero-sum")

    with pytest.raises(services.ServiceError) as error:
        play(table, entry(5, "grand", 18, 1, card_points=70))
    # Game 1: seat 1 deals, seat 5 sits on his right: both sit out.
    assert error.value.code == "declarer_sits_out"

    play(table, entry(2, "hearts", 18, -2, hand=True, card_points=70))
    # hearts hand without 2: 4 × 10 = 40, won; zero-sum at a 5-table: each of the four
    # others pays 40 (Swedish seed: "som flest fem") → +160 / −40 × 4
    assert totals(table) == [-40, 160, -40, -40, -40]


def test_nl_zero_sum_credits_the_opponents_of_a_lost_game():
    table = make_table(size=4, rounds=1, rules="nl", scoring="zero-sum")

    # Game 1 under nl: seat 1 deals and plays; seat 4 (the previous dealer) sits out.
    # Seat 2 loses grand with 1 (2 × 24 = 48), skat taken: each opponent is credited 96;
    # in zero-sum the declarer pays them: seat 2 −192, seats 1 and 3 +96; seat 4 scores
    # what the dealer (seat 1) scores: +96.
    play(table, entry(2, "grand", 18, 1, card_points=50))

    assert totals(table) == [96, -192, 96, 96]


def test_nl_the_dealer_may_declare_and_the_previous_dealer_sits_out():
    table = make_table(size=4, rounds=1, rules="nl", scoring="classic")

    play(table, entry(1, "clubs", 18, 1, card_points=70))
    with pytest.raises(services.ServiceError) as error:
        play(table, entry(1, "clubs", 18, 1, card_points=70))

    # game 1: the dealer (seat 1) won clubs with 1, 24; seat 4 shares it
    assert error.value.code == "declarer_sits_out"  # game 2: seat 1 dealt before, sits out
    assert totals(table) == [24, 0, 0, 24]


def test_a_five_table_blocks_a_change_to_seeger_fabian():
    table = make_table(size=5, rounds=1, scoring="classic")

    with pytest.raises(services.ServiceError) as error:
        services.update_tournament(table.series.tournament, scoring="seeger-fabian")

    assert error.value.code == "settings_invalidate_games"
    assert [b.code for b in error.value.params["blocking"]] == ["five_table_not_with_seeger_fabian"]


# --- the archive ---------------------------------------------------------------------------

HOUSE = {
    "isko": ({"doublings": SUPRA, "ramsch": True}, "classic"),
    "isko-kontra": ({"doublings": SUPRA, "lost_game": "add-level", "ramsch": True}, "zero-sum"),
    "pre1999": ({"ramsch": True, "doublings": SUPRA}, "zero-sum"),
    "grand20": ({"ouvert": "open-plus-one", "ramsch": True, "doublings": SUPRA}, "classic"),
    "dsu": ({"ramsch": True, "doublings": SUPRA}, "zero-sum"),
    "se": (
        {"lost_game": "add-level", "ouvert": "open-plus-one", "ramsch": True, "doublings": SUPRA},
        "classic",
    ),
    "nl": ({"null_values": "23/29/46/59", "ramsch": True, "doublings": SUPRA}, "zero-sum"),
}


def house_document(preset: str, seed: int) -> dict:
    """A tournament under ``preset`` with house options: a 5-table and a 3-table with random
    legal games, a Supra game and a Ramsch row in each list."""
    options, system = HOUSE[preset]
    rules = scoring.rules_from_json({"preset": preset, **options})
    rng = random.Random(seed)
    players = [{"id": f"h{n}", "name": f"Haus {preset} {n}"} for n in range(8)]
    tables = []
    for number, seats in ((1, ["h0", "h1", "h2", "h3", "h4"]), (2, ["h5", "h6", "h7"])):
        size = len(seats)
        games = []
        for n in range(1, size + 1):
            dealer = scoring.dealer_seat(n, size)
            active = scoring.active_seats(dealer, size, rules)
            if n == 2:
                games.append({"ramsch": {"card_points": [50, 40, 30], "tricks": [4, 3, 3]}})
            elif n == 3:
                games.append(
                    {
                        "declarer": seats[active[0]],
                        "game": "grand",
                        "matadors": 1,
                        "bid": 18,
                        "card_points": 75,
                        "kontra": True,
                        "re": True,
                        "supra": True,
                    }
                )
            else:
                drawn = random_row(rng, n, size, rules, passed=0.0)
                assert drawn is not None
                seat, d, o = drawn
                games.append({"declarer": seats[seat], **scoring.game_to_json(d, o)})
        tables.append({"number": number, "seats": seats, "games": games})
    return {
        "format": FORMAT,
        "tournament": {
            "name": f"Hausregeln {preset}",
            "date": "2026-11-21",
            "rules": {"preset": preset, **options},
            "scoring": system,
            "rounds_per_series": 1,
        },
        "players": players,
        "series": [{"number": 1, "tables": tables}],
    }


@pytest.mark.parametrize("preset", list(HOUSE))
def test_every_preset_with_house_options_round_trips_unchanged(preset):
    document = house_document(preset, seed=len(preset))
    original = load_archive(document)

    exported = dump_archive(original)
    copy_ = load_archive(exported)

    assert exported["tournament"]["rules"] == {"preset": preset, **HOUSE[preset][0]}
    assert copy_.rule_set == original.rule_set
    assert games_of(copy_) == games_of(original)
    assert results_of(copy_) == results_of(original)
    assert dump_archive(copy_)["series"] == exported["series"]
    assert [t.size for t in Table.objects.filter(series__tournament=copy_)] == [5, 3]
    assert Game.objects.filter(table__series__tournament=copy_, supra=True).count() == 2
    assert Game.objects.filter(table__series__tournament=copy_, ramsch__isnull=False).count() == 2


def test_an_unknown_rule_option_in_an_archive_names_its_path():
    document = house_document("se", seed=1)
    document["tournament"]["rules"] = {"preset": "se", "lost_games": "add-level"}

    assert problems_of(document) == [("tournament.rules.lost_games", "unknown_option")]


def test_a_ramsch_in_an_archive_whose_rules_have_none_is_refused():
    document = house_document("se", seed=1)
    document["tournament"]["rules"] = "se"
    document["tournament"]["scoring"] = "classic"

    problems = problems_of(document)

    assert ("series[0].tables[0].games[1].ramsch", "ramsch_not_in_rules") in problems


def test_a_five_table_under_seeger_fabian_is_refused_in_an_archive():
    document = house_document("isko", seed=1)
    document["tournament"]["rules"] = "isko"
    document["tournament"]["scoring"] = "seeger-fabian"

    problems = problems_of(document)

    assert ("series[0].tables[0].seats", "five_table_not_with_seeger_fabian") in problems


def test_the_result_list_prints_the_rules_and_house_options():
    import io

    import pypdf

    from skatliga import printing

    tournament = load_archive(house_document("se", seed=2))

    data = printing.tournament_result_pdf(tournament)

    text = " ".join(pypdf.PdfReader(io.BytesIO(data)).pages[0].extract_text().split())
    assert "Regelwerk: Schwedisch mit Hausregeln:" in text
    assert "Ramsch: ja, statt eingepasst" in text


def test_the_sheet_has_a_doubling_column_only_where_the_rules_have_kontra():
    from skatliga import printing

    plain = make_table(size=3, rounds=1)
    doubled = make_table(size=3, rounds=1, rule_options={"doublings": SUPRA})
    play(doubled, entry(2, "grand", 18, 1, card_points=70, kontra=True, re=True, supra=True))

    assert printing.sheet_data(plain).doublings is False
    sheet = printing.sheet_data(doubled)
    # grand with 1: 2 × 24 = 48, × 8 for Kontra, Re and Supra = 384; the label leaves the
    # doubling to its column
    assert sheet.doublings is True
    assert (sheet.rows[0].game, sheet.rows[0].doubling, sheet.rows[0].value) == ("Grand", "Su", 384)


def test_a_ramsch_row_enters_the_sum_it_gives_so_the_value_column_adds_up():
    from skatliga import printing

    table = make_table(size=3, rounds=1, scoring="classic", rule_options={"ramsch": True})
    play(
        table,
        entry(2, "clubs", 18, 1, card_points=70),
        services.GameEntry(ramsch=scoring.Ramsch((30, 62, 28), (3, 5, 2))),
    )

    sheet = printing.sheet_data(table)

    # clubs with 1: +24; the Ramsch charges middlehand (seat 1 in game 2) 62: −62
    assert [row.value for row in sheet.rows[:2]] == [24, -62]
    assert sum(s.game_points for s in sheet.summary) == 24 - 62

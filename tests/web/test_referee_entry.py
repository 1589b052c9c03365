"""Entering a list: saving rows, the live preview, corrections, conflicts, closing, history."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from skatliga import services
from skatliga.models import Change, Game, ListResult
from tests.web.factories import entry, make_table, play

pytestmark = pytest.mark.django_db

EMPTY = dict.fromkeys(
    ["declarer", "game", "matadors", "announced", "bid", "card_points", "tricks", "won", "level"],
    "",
)


def row(number, **fields):
    """The entry form's POST data for one row; booleans are ticked when true."""
    data = {**EMPTY, "number": str(number)}
    for name, value in fields.items():
        if value is True:
            data[name] = "on"
        elif value is not None and value is not False:
            data[name] = str(value)
    return data


@pytest.fixture
def table(client, django_user_model):
    """A 3-table with one round (3 games) whose referee is logged in."""
    table = make_table(size=3, rounds=1)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return table


def url(table, name="referee:list"):
    return reverse(name, args=[table.series.tournament.slug, table.series.number, table.number])


def results(table):
    return list(ListResult.objects.filter(table=table).order_by("position").values_list("total"))


def codes(form, field):
    return [error.code for error in form.errors.as_data().get(field, [])]


# --- the page ---------------------------------------------------------------------------


def test_the_list_page_shows_one_row_per_game_and_the_form_for_the_next(client, table):
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))

    response = client.get(url(table))

    assert response.status_code == 200
    assert [r.number for r in response.context["sheet"].rows] == [1, 2, 3]
    assert response.context["editing"] == 2
    assert response.context["form"].initial["number"] == 2


def test_a_closed_list_has_no_entry_form(client, table):
    play(table, entry(), entry(), entry())
    services.close_table(table)

    response = client.get(url(table))

    assert response.context["form"] is None


# --- saving -----------------------------------------------------------------------------


def test_a_valid_row_is_saved_and_the_results_follow(client, table):
    response = client.post(
        url(table),
        row(1, declarer=2, game="grand", matadors=2, hand=True, bid=24, card_points=78, tricks=7),
    )

    assert response.status_code == 302
    assert response.url == url(table)
    game = Game.objects.get(table=table)
    assert (game.declarer, game.game, game.hand, game.value, game.won) == (
        2,
        "grand",
        True,
        96,
        True,
    )
    assert results(table) == [(0,), (96 + 50,), (0,)]


def test_the_passed_in_button_records_a_passed_in_game(client, table):
    response = client.post(url(table), {**row(1, declarer=2, game="clubs"), "passed": "1"})

    assert response.status_code == 302
    assert Game.objects.get(table=table).passed


def test_declarer_zero_records_a_passed_in_game(client, table):
    client.post(url(table), row(1, declarer=0))

    assert Game.objects.get(table=table).passed


def test_matadors_may_be_typed_as_without_three(client, table):
    client.post(url(table), row(1, declarer=1, game="hearts", matadors="o3", bid=18, won="lost"))

    assert Game.objects.get(table=table).matadors == -3


@pytest.mark.parametrize(
    ("typed", "matadors"),
    [("u3", -3), ("uden 3", -3), ("utan 2", -2), ("z3", -3), ("zonder 2", -2), ("met 2", 2)],
)
def test_matadors_may_be_typed_in_danish_swedish_and_dutch(client, table, typed, matadors):
    game = "grand" if matadors > 0 else "hearts"
    client.post(url(table), row(1, declarer=1, game=game, matadors=typed, bid=18, won="lost"))

    assert Game.objects.get(table=table).matadors == matadors


def test_an_invalid_row_shows_the_engines_codes_at_the_fields_and_saves_nothing(client, table):
    response = client.post(
        url(table),
        row(1, declarer=1, game="hearts", matadors=0, bid=19, card_points=70, tricks=6),
    )

    form = response.context["form"]
    assert response.status_code == 200
    assert codes(form, "bid") == ["bid_not_legal"]
    assert codes(form, "matadors") == ["matadors_out_of_range"]
    assert form.data["card_points"] == "70"
    assert not Game.objects.exists()


def test_a_row_without_declarer_is_refused(client, table):
    response = client.post(url(table), row(1, game="grand", matadors=1, bid=18, won="won"))

    assert codes(response.context["form"], "declarer") == ["declarer_missing"]
    assert not Game.objects.exists()


def test_the_dealer_at_a_four_table_cannot_declare(client, django_user_model):
    table = make_table(size=4, rounds=1)
    user = django_user_model.objects.create_superuser("chef", password="grand-ouvert")
    client.force_login(user)

    response = client.post(url(table), row(1, declarer=1, game="grand", matadors=1, bid=18))

    assert codes(response.context["form"], "declarer") == ["declarer_is_dealer"]
    assert not Game.objects.exists()


def test_text_in_a_number_field_is_an_error_at_that_field(client, table):
    response = client.post(url(table), row(1, declarer=1, game="grand", matadors=1, bid="zwanzig"))

    assert codes(response.context["form"], "bid") == ["not_a_number"]


def test_an_outcome_that_is_missing_is_a_row_error(client, table):
    response = client.post(url(table), row(1, declarer=1, game="grand", matadors=1, bid=18))

    assert codes(response.context["form"], "__all__") == ["outcome_missing"]


def test_a_row_cannot_skip_ahead(client, table):
    response = client.post(
        url(table), row(2, declarer=1, game="grand", matadors=1, bid=18, won="won")
    )

    assert codes(response.context["form"], "__all__") == ["game_number_gap"]
    assert not Game.objects.exists()


def test_matadors_are_counted_from_the_declarers_cards(client, table):
    cards = "CJ SJ HA H10 HK S7 S8 D9 DA DJ C7 C8"

    client.post(url(table), row(1, declarer=1, game="hearts", cards=cards, bid=18, won="won"))

    assert Game.objects.get(table=table).matadors == 2


def test_an_unknown_card_is_an_error_at_the_cards_field(client, table):
    cards = "CJ SJ HA H10 HK S7 S8 D9 DA XX C7 C8"

    response = client.post(
        url(table), row(1, declarer=1, game="hearts", cards=cards, bid=18, won="won")
    )

    assert codes(response.context["form"], "cards") == ["card_unknown"]


# --- the live preview -------------------------------------------------------------------


def test_the_preview_scores_a_typed_row_and_saves_nothing(client, table):
    play(table, entry(1, "clubs", bid=18, matadors=1, won=False))

    response = client.post(
        url(table, "referee:preview"),
        row(2, declarer=2, game="grand", matadors=2, hand=True, bid=18, won="won"),
    )

    data = response.json()
    assert response["Content-Type"] == "application/json"
    assert (data["ok"], data["value"], data["won"], data["overbid"]) == (True, 96, True, False)
    assert data["breakdown"] == "mit 2, Spiel 3, Hand 4 → 4 × 24 = 96"
    assert data["problems"] == []
    assert data["running"] == {"1": [-48, 0, 0], "2": [-48, 96, 0]}
    assert [c["total"] for c in data["summary"]] == [-48 - 50, 96 + 50 + 40, 40]
    assert Game.objects.filter(table=table).count() == 1


def test_the_preview_gives_each_problem_with_its_field_code_and_message(client, table):
    response = client.post(
        url(table, "referee:preview"), row(1, declarer=1, game="grand", matadors=7, bid=19)
    )

    data = response.json()
    problems = {(p["field"], p["code"]) for p in data["problems"]}
    assert data["ok"] is False
    assert {("bid", "bid_not_legal"), ("matadors", "matadors_out_of_range")} <= problems
    assert all(p["message"] for p in data["problems"])


def test_the_preview_speaks_the_users_language(client, table):
    with translation.override("en"):
        preview = url(table, "referee:preview")

    response = client.post(
        preview, row(1, declarer=2, game="diamonds", matadors=-1, bid=22, won="won")
    )

    data = response.json()
    assert preview.startswith("/en/")
    assert (
        data["breakdown"]
        == "without 1, game 2 → 2 × 9 = 18 < bid 22: overbid, 3 × 9 = 27, lost −54"
    )
    assert data["overbid"] is True


def test_the_preview_messages_are_english_on_english_pages(client, table):
    with translation.override("en"):
        preview = url(table, "referee:preview")

    response = client.post(preview, row(1, declarer=1, game="grand", matadors=1, bid=19))

    [problem] = [p for p in response.json()["problems"] if p["code"] == "bid_not_legal"]
    assert problem["message"].startswith("Not a legal bid")


def test_the_preview_of_a_passed_in_row_is_zero(client, table):
    response = client.post(url(table, "referee:preview"), row(1, declarer=0))

    data = response.json()
    assert (data["ok"], data["passed"], data["running"]) == (True, True, {"1": [0, 0, 0]})


def test_the_preview_of_a_correction_moves_every_later_total(client, table):
    play(
        table,
        entry(1, "grand", bid=18, matadors=1, won=True),
        entry(2, "clubs", bid=18, matadors=1, won=True),
    )

    response = client.post(
        url(table, "referee:preview"),
        row(1, version=1, declarer=1, game="grand", matadors=1, bid=18, won="lost"),
    )

    assert response.json()["running"] == {"1": [-96, 0, 0], "2": [-96, 24, 0]}


def test_the_preview_counts_matadors_from_cards(client, table):
    response = client.post(
        url(table, "referee:preview"),
        row(1, declarer=1, game="grand", cards="CJ SJ HA H10 HK S7 S8 D9 DA HJ C7 C8", bid=18),
    )

    assert response.json()["matadors"] == 3


# --- corrections, conflicts -------------------------------------------------------------


def test_a_correction_changes_the_row_and_the_list_results(client, table):
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    assert results(table) == [(48 + 50,), (0,), (0,)]

    response = client.post(
        url(table),
        row(
            1,
            version=1,
            declarer=1,
            game="grand",
            matadors=1,
            bid=18,
            won="lost",
            reason="Tippfehler",
        ),
    )

    game = Game.objects.get(table=table)
    assert response.status_code == 302
    assert (game.won, game.version) == (False, 2)
    assert results(table) == [(-96 - 50,), (40,), (40,)]
    change = Change.objects.get(action=Change.Action.GAME_CORRECTED)
    assert change.reason == "Tippfehler"


def test_a_saved_row_opens_for_correction(client, table):
    play(table, entry(2, "spades", bid=20, matadors=-2, card_points=70, tricks=6, hand=True))

    response = client.get(url(table), {"game": 1})

    form = response.context["form"]
    assert response.context["editing"] == 1
    assert form.initial == {
        "number": 1,
        "version": 1,
        "declarer": "2",
        "game": "spades",
        "matadors": "-2",
        "hand": True,
        "announced": "",
        "ouvert": False,
        "doubling": "",
        "bid": "20",
        "card_points": "70",
        "tricks": "6",
        "won": "",
        "level": "",
    }


def test_a_stale_correction_shows_the_conflict_and_overwrites_nothing(client, table):
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    services.record_game(
        table, 1, entry(2, "clubs", bid=18, matadors=1, won=True), expected_version=1
    )

    response = client.post(
        url(table), row(1, version=1, declarer=3, game="hearts", matadors=2, bid=18, won="won")
    )

    game = Game.objects.get(table=table)
    form = response.context["form"]
    assert response.status_code == 200
    assert response.context["conflict"]["code"] == "conflict"
    assert response.context["conflict"]["current"] == game
    assert (game.declarer, game.game, game.version) == (2, "clubs", 2)
    assert codes(form, "__all__") == ["conflict"]
    assert (form.data["declarer"], form.data["game"], form.data["matadors"]) == ("3", "hearts", "2")
    assert form.data["version"] == "2"


def test_a_new_row_saved_meanwhile_by_someone_else_is_a_conflict(client, table):
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))

    response = client.post(url(table), row(1, declarer=2, game="null", bid=23, tricks=0))

    assert response.context["conflict"]["code"] == "conflict"
    assert Game.objects.get(table=table).game == "grand"


def test_after_a_conflict_saving_again_overwrites_on_purpose(client, table):
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    stale = client.post(url(table), row(1, declarer=2, game="null", bid=23, tricks=0))

    client.post(url(table), stale.context["form"].data)

    assert Game.objects.get(table=table).game == "null"


# --- closing, reopening, deleting, history ----------------------------------------------


def test_an_incomplete_list_cannot_be_closed(client, table):
    play(table, entry())

    response = client.post(url(table, "referee:close"))

    table.refresh_from_db()
    assert response.context["action_error"]["code"] == "list_incomplete"
    assert "3" in response.context["action_error"]["message"]
    assert not table.is_closed


def test_a_complete_list_closes(client, table):
    play(table, entry(), entry(), entry())

    response = client.post(url(table, "referee:close"))

    table.refresh_from_db()
    assert response.status_code == 302
    assert table.is_closed


def test_a_closed_list_takes_no_rows(client, table):
    play(table, entry(), entry(), entry())
    services.close_table(table)

    response = client.post(url(table), row(3, version=1, declarer=0))

    assert codes(response.context["form"], "__all__") == ["list_closed"]


def test_reopening_needs_a_reason(client, table):
    play(table, entry(), entry(), entry())
    services.close_table(table)

    response = client.post(url(table, "referee:reopen"), {"reason": "  "})

    table.refresh_from_db()
    assert codes(response.context["reopen_form"], "reason") == ["reason_required"]
    assert table.is_closed


def test_reopening_with_a_reason_opens_the_list(client, table):
    play(table, entry(), entry(), entry())
    services.close_table(table)

    client.post(url(table, "referee:reopen"), {"reason": "Spiel 2 falsch"})

    table.refresh_from_db()
    assert not table.is_closed
    assert Change.objects.get(action=Change.Action.LIST_REOPENED).reason == "Spiel 2 falsch"


def test_the_last_game_can_be_deleted(client, table):
    play(table, entry(), entry(1, "grand", bid=18, matadors=1, won=True))

    response = client.post(
        url(table, "referee:delete-last"), {"number": 2, "version": 1, "reason": "doppelt"}
    )

    assert response.status_code == 302
    assert list(table.games.values_list("number", flat=True)) == [1]
    assert results(table) == [(0,), (0,), (0,)]


def test_the_history_shows_who_changed_what_and_why(client, table, django_user_model):
    user = django_user_model.objects.get(username="anna")
    play(table, entry(1, "grand", bid=18, matadors=1, won=True), user=user)
    services.record_game(
        table,
        1,
        entry(1, "grand", bid=18, matadors=1, won=False),
        user=user,
        expected_version=1,
        reason="Tippfehler",
    )

    response = client.get(url(table))

    history = response.context["history"]
    assert [h["change"].action for h in history] == ["game_corrected", "game_recorded"]
    corrected = history[0]
    assert corrected["change"].user == user
    assert corrected["change"].reason == "Tippfehler"
    assert "gewonnen" in corrected["before"]
    assert "verloren" in corrected["after"]


def test_the_list_page_is_english_under_en(client, table):
    with translation.override("en"):
        english = url(table)

    response = client.get(english)

    content = response.content.decode()
    assert response.context["LANGUAGE_CODE"] == "en"
    assert str(response.context["form"]["declarer"].label) == "Declarer"
    for label in ("Declarer", "Bid", "Card points", "Save", "Passed in", "Game points"):
        assert label in content, label


def test_the_language_switch_turns_the_list_page_english(client, table):
    response = client.post(
        reverse("set_language"), {"language": "en", "next": url(table)}, follow=True
    )

    assert response.redirect_chain[-1][0].startswith("/en/referee/")
    assert response.context["LANGUAGE_CODE"] == "en"
    assert str(response.context["form"]["bid"].label) == "Bid"


# --- what a save costs ------------------------------------------------------------------


def test_a_save_takes_the_same_statements_however_long_the_list_and_the_season(
    client, django_user_model
):
    """The referee's POST reads the list once, whatever the list and the other tournaments
    hold: its statements are pinned (session, user, the list with the referee check, the
    two locks, the series read with the table's and whether the list is signed, the games,
    the row, who sits where, the result rows, the history, the list's, series' and
    tournament's revisions, and the savepoint of the test's transaction; the signatures
    are deleted only where there are any)."""
    table = make_table(size=3, rounds=4)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    play(table, entry())
    grand = row(1, declarer=2, game="grand", matadors=1, bid=18, card_points=70, tricks=7)

    def statements(data):
        data = {**data, "version": game_version()}
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url(table), data)
        assert response.status_code == 302, response.context["form"].errors
        return [query["sql"].split()[0] for query in captured.captured_queries]

    def game_version():
        return Game.objects.get(table=table, number=1).version

    first = statements(grand)
    other = make_table(size=3, rounds=4)
    play(other, *[entry()] * 12)
    play(table, *[entry()] * 10)
    later = statements({**grand, "card_points": 50})

    assert first == later
    assert len(first) == 15

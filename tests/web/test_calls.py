"""A table asks the referee: a call to the table (one open at a time, until acknowledged) and
objections against a game (a seat of the table, a reason, before the series' objection
window ends), which the referee decides: the game stands, or is corrected."""

import datetime

import pytest
from django.utils import timezone

from skatliga import services
from skatliga.models import Change, Objection, RefereeCall
from tests.web.factories import entry, make_table, play

pytestmark = pytest.mark.django_db

# Grand, declarer seat 1, with 2 (docs/rules.md section 2): (2 + 1) × 24 = 72; from the
# hand (+1): (2 + 1 + 1) × 24 = 96.
GRAND = dict(declarer=1, game="grand", bid=24, matadors=2, card_points=78, tricks=7)


@pytest.fixture
def table():
    """A 3-table with one round (3 games)."""
    return make_table(size=3, rounds=1)


@pytest.fixture
def referee(django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    return user


def seat(table, position):
    return table.seats.get(position=position)


# --- calls -------------------------------------------------------------------------------------


def test_a_call_is_open_until_acknowledged(table, referee):
    call = services.call_referee(table, "rule", device="Tablet 3")

    assert (call.reason, call.device, call.is_open) == ("rule", "Tablet 3", True)
    seen = services.acknowledge_call(call, user=referee)
    assert seen.acknowledged_by == referee
    assert seen.acknowledged_at is not None and not seen.is_open


def test_pressing_again_while_a_call_is_open_makes_no_second(table):
    first = services.call_referee(table, "dispute")
    again = services.call_referee(table, "device")

    assert again.pk == first.pk
    assert again.reason == "dispute"
    assert RefereeCall.objects.filter(table=table).count() == 1


def test_after_the_referee_saw_a_call_the_table_may_call_again(table, referee):
    first = services.call_referee(table, "rule")
    services.acknowledge_call(first, user=referee)

    second = services.call_referee(table, "device")

    assert second.pk != first.pk
    assert RefereeCall.objects.filter(table=table, acknowledged_at__isnull=True).count() == 1


def test_acknowledging_twice_keeps_the_first_moment(table, referee):
    call = services.acknowledge_call(services.call_referee(table, "rule"), user=referee)

    again = services.acknowledge_call(call)

    assert again.acknowledged_at == call.acknowledged_at
    assert again.acknowledged_by == referee


def test_a_call_needs_one_of_the_reasons(table):
    with pytest.raises(services.ServiceError) as refused:
        services.call_referee(table, "hungry")

    assert refused.value.code == "call_reason_unknown"
    assert not RefereeCall.objects.exists()


def test_a_call_raises_the_revision_the_dashboard_asks_by(table):
    tournament = table.series.tournament
    before = type(tournament).objects.get(pk=tournament.pk).revision

    services.call_referee(table, "rule")

    assert type(tournament).objects.get(pk=tournament.pk).revision > before


# --- objections --------------------------------------------------------------------------------


def test_a_seat_objects_to_a_game_and_the_list_history_says_so(table):
    [game] = play(table, entry(**GRAND))

    objection = services.file_objection(game, seat(table, 2), "  Bube vergessen ", device="T3")

    assert (objection.reason, objection.device, objection.is_open) == ("Bube vergessen", "T3", True)
    change = Change.objects.get(action=Change.Action.OBJECTION_FILED)
    assert (change.table, change.game_number, change.reason) == (table, 1, "Bube vergessen")
    assert change.after == {"seat": 2, "player": str(seat(table, 2).player)}


def test_the_same_seat_objecting_again_files_no_second(table):
    [game] = play(table, entry(**GRAND))
    first = services.file_objection(game, seat(table, 2), "Bube vergessen")

    again = services.file_objection(game, seat(table, 2), "noch einmal")
    other = services.file_objection(game, seat(table, 3), "auch")

    assert again.pk == first.pk
    assert other.pk != first.pk
    assert Objection.objects.count() == 2


def test_a_seat_of_another_table_cannot_object(table):
    [game] = play(table, entry(**GRAND))
    neighbour = make_table(table.series.tournament, size=3)

    with pytest.raises(services.ServiceError) as refused:
        services.file_objection(game, seat(neighbour, 1), "falsch")

    assert refused.value.code == "seat_not_at_table"
    assert not Objection.objects.exists()


def test_an_objection_needs_a_short_reason(table):
    [game] = play(table, entry(**GRAND))

    with pytest.raises(services.ServiceError) as empty:
        services.file_objection(game, seat(table, 2), "   ")
    with pytest.raises(services.ServiceError) as long:
        services.file_objection(game, seat(table, 2), "x" * 201)

    assert (empty.value.code, long.value.code) == ("reason_required", "objection_reason_too_long")


def test_the_referee_keeps_the_game(table, referee):
    [game] = play(table, entry(**GRAND))
    objection = services.file_objection(game, seat(table, 2), "Bube vergessen")

    decided = services.decide_objection(objection, reason="Karten geprüft", user=referee)

    assert decided.decision == Objection.Decision.KEPT
    assert (decided.decision_reason, decided.decided_by) == ("Karten geprüft", referee)
    assert decided.decided_at is not None
    game.refresh_from_db()
    assert (game.value, game.version) == (72, 1)
    change = Change.objects.get(action=Change.Action.OBJECTION_DECIDED)
    assert (change.user, change.reason, change.after) == (
        referee,
        "Karten geprüft",
        {"seat": 2, "decision": "kept"},
    )


def test_the_referee_corrects_the_game_through_the_correction_service(table, referee):
    [game] = play(table, entry(**GRAND))
    objection = services.file_objection(game, seat(table, 2), "Es war Hand")

    decided = services.decide_objection(
        objection,
        reason="Hand bestätigt",
        user=referee,
        correction=entry(**GRAND, hand=True),
        expected_version=1,
    )

    assert decided.decision == Objection.Decision.CORRECTED
    game.refresh_from_db()
    assert (game.hand, game.value, game.version) == (True, 96, 2)
    corrected = Change.objects.get(action=Change.Action.GAME_CORRECTED)
    assert (corrected.user, corrected.reason, corrected.game_number) == (
        referee,
        "Hand bestätigt",
        1,
    )
    assert corrected.after["hand"] is True


def test_a_decision_needs_a_reason_and_is_made_once(table, referee):
    [game] = play(table, entry(**GRAND))
    objection = services.file_objection(game, seat(table, 2), "Bube vergessen")

    with pytest.raises(services.ServiceError) as no_reason:
        services.decide_objection(objection, reason=" ", user=referee)
    services.decide_objection(objection, reason="geprüft", user=referee)
    with pytest.raises(services.ServiceError) as twice:
        services.decide_objection(objection, reason="noch einmal", user=referee)

    assert (no_reason.value.code, twice.value.code) == ("reason_required", "objection_decided")


def test_a_correction_that_fails_leaves_the_objection_open(table, referee):
    [game] = play(table, entry(**GRAND))
    objection = services.file_objection(game, seat(table, 2), "Es war Hand")

    with pytest.raises(services.Conflict):
        services.decide_objection(
            objection, reason="Hand", user=referee, correction=entry(**GRAND, hand=True)
        )

    objection.refresh_from_db()
    assert objection.is_open


# --- the objection window ----------------------------------------------------------------------


def published(table, minutes):
    """The table's series, its one list complete and closed, published with an objection
    window of ``minutes``; the list's first game."""
    tournament = table.series.tournament
    tournament.objection_minutes = minutes
    tournament.save()
    games = play(table, entry(**GRAND), entry(), entry())
    services.close_table(table)
    services.publish_series(table.series)
    return games[0]


def test_publishing_sets_the_window_to_the_next_full_minute_after_its_length(table):
    published(table, 15)

    series = type(table.series).objects.get(pk=table.series.pk)
    assert series.objections_until is not None
    assert (series.objections_until.second, series.objections_until.microsecond) == (0, 0)
    after = series.objections_until - series.published_at
    assert datetime.timedelta(minutes=15) <= after < datetime.timedelta(minutes=16)


def test_an_objection_within_the_window_is_filed(table):
    game = published(table, 15)

    objection = services.file_objection(game, seat(table, 2), "Bube vergessen")

    assert objection.is_open


def test_an_objection_after_the_window_is_refused(table):
    game = published(table, 15)
    type(table.series).objects.filter(pk=table.series.pk).update(
        objections_until=timezone.now() - datetime.timedelta(seconds=1)
    )

    with pytest.raises(services.ServiceError) as refused:
        services.file_objection(game, seat(table, 2), "Bube vergessen")

    assert refused.value.code == "objection_window_closed"
    assert not Objection.objects.exists()


def test_without_a_window_the_published_results_are_final(table):
    game = published(table, 0)

    assert type(table.series).objects.get(pk=table.series.pk).objections_until is None
    with pytest.raises(services.ServiceError) as refused:
        services.file_objection(game, seat(table, 2), "Bube vergessen")

    assert refused.value.code == "objection_window_closed"


def test_withdrawing_the_publication_opens_objections_again(table):
    game = published(table, 0)

    services.withdraw_publication(table.series, reason="Einspruch")

    assert type(table.series).objects.get(pk=table.series.pk).objections_until is None
    assert services.file_objection(game, seat(table, 2), "Bube vergessen").is_open

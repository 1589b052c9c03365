"""The referee's change log puts every kind of change into words: names for ids, the
referee's language for stored values, never raw data."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from skatliga.change_log import change_names, describe_change
from skatliga.models import Change, Objection, Season, Team
from tests.web.factories import make_player, make_table

RAW = ("[", "]", "{", "}", '"', "kept", "corrected", "decision", "None", "_")


def words(change: Change) -> str:
    return describe_change(change, change_names([change]))


def assert_words(text: str) -> None:
    assert text
    for raw in RAW:
        assert raw not in text, (raw, text)


@pytest.fixture
def table(db):
    players = [make_player(name) for name in ("Anna Berg", "Bernd Kuhn", "Carl Ott", "Dora Voss")]
    return make_table(players=players, size=4)


def test_a_draw_names_each_table_and_its_players(table):
    ids = [seat.player_id for seat in table.seats.order_by("position")]
    change = Change(
        tournament=table.series.tournament,
        action=Change.Action.TABLES_DRAWN,
        after={"tables": [ids[:2], ids[2:]], "repeat_pairs": 0, "forbidden_together": [ids[:2]]},
    )

    text = words(change)

    assert text.startswith("Tisch 1: Anna Berg, Bernd Kuhn; Tisch 2: Carl Ott, Dora Voss")
    assert "Anna Berg + Bernd Kuhn" in text
    assert_words(text)


def test_a_swap_names_the_players_their_tables_and_seats(table):
    a, b = table.seats.order_by("position")[:2]
    change = Change(
        action=Change.Action.SEATS_SWAPPED,
        before={"seats": [[table.pk, 1, a.player_id], [table.pk, 2, b.player_id]]},
        after={"seats": [[table.pk, 1, b.player_id], [table.pk, 2, a.player_id]]},
    )

    text = words(change)

    assert text == (
        f"Anna Berg (Tisch {table.number}, Platz 1) ↔ Bernd Kuhn (Tisch {table.number}, Platz 2)"
    )


def test_a_decision_says_its_word_in_the_referees_language(table):
    kept = Change(action=Change.Action.OBJECTION_DECIDED, after={"seat": 2, "decision": "kept"})

    assert words(kept) == f"Platz 2: {Objection.Decision.KEPT.label}"
    with translation.override("en"):
        assert_words(words(kept))
        assert "Platz" not in words(kept)


def test_players_and_teams_are_named(table):
    season = Season.objects.create(name="Liga", slug="liga", year=2026)
    team = Team.objects.create(season=season, name="Kreuz Buben")
    player = table.seats.get(position=1).player_id
    teams = Change(
        action=Change.Action.TOURNAMENT_CHANGED,
        before={"teams": {str(player): None}},
        after={"teams": {str(player): team.pk}},
    )
    merged = Change(
        action=Change.Action.PLAYERS_MERGED,
        before={"player": {"id": 9, "name": "A. Berg", "number": None}},
        after={"player": {"id": player, "name": "Anna Berg", "number": "1204"}},
    )
    withdrawn = Change(
        action=Change.Action.PLAYER_WITHDRAWN,
        after={"player": {"id": player, "name": "Anna Berg"}, "after_series": 2},
    )

    assert words(teams) == "Mannschaften: Anna Berg: — → Kreuz Buben"
    assert words(merged) == "A. Berg in Anna Berg (Nr. 1204)"
    assert words(withdrawn) == "Anna Berg, nach Serie 2"


def test_every_other_kind_reads_as_words(table):
    published = timezone.make_aware(datetime.datetime(2026, 11, 21, 21, 40))
    game = {"game": "grand", "declarer": 1, "bid": 18, "matadors": 1, "card_points": 71}
    at = published.isoformat()
    changes = [
        Change(action="series_published", after={"series": 1, "published_at": at}),
        Change(
            action="series_withdrawn",
            before={"series": 1, "published_at": at},
            after={"series": 1, "published_at": None},
        ),
        Change(action="signatures_cleared", before={"signatures": 3}),
        Change(action="list_closed", after={"signed": 3, "seats": 4}),
        Change(action="list_signed", after={"seat": 1, "player": "Anna", "signed_with": "code"}),
        Change(action="objection_filed", after={"seat": 3, "player": "Carl Ott"}),
        Change(action="entry_picked", before={"first": game}, after={"picked": "first"}),
        Change(action="imported", after={"players": 4, "series": 1, "tables": 1, "games": 12}),
        Change(
            action="tournament_changed",
            before={"rule_options": {"kontra": False}},
            after={"rule_options": {"kontra": True}},
        ),
    ]

    for change in changes:
        assert_words(words(change))
    assert "21.11.2026 21:40" in words(changes[0])
    assert words(changes[2]) == "3 Unterschriften gelöscht"


def test_the_change_log_page_names_the_drawn_players(client, django_user_model, table):
    tournament = table.series.tournament
    user = django_user_model.objects.create_user("leitung")
    tournament.referees.add(user)
    client.force_login(user)
    ids = [seat.player_id for seat in table.seats.order_by("position")]
    Change.objects.create(
        tournament=tournament, action=Change.Action.TABLES_DRAWN, after={"tables": [ids]}
    )

    page = client.get(reverse("referee:changes", args=[tournament.slug])).content.decode()

    assert "Tisch 1: Anna Berg, Bernd Kuhn, Carl Ott, Dora Voss" in page
    assert "[[" not in page

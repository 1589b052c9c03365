"""A NUL in a text field is a clear 4xx in the user's language, never a 500 (PostgreSQL refuses
NUL in any text): the two fields issue 37 found, each checked on its own. The walk over every
field of every form is tests/web/test_hostile_input.py."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from skatliga.models import CheckInClaim, Game, Objection, Seat
from skatliga.services import calls, checkin
from tests.web.factories import entry, make_table, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    table = make_table(size=4, rounds=1)
    play(table, entry(2, "grand", bid=18, matadors=1, won=True))
    return table


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "Nullzeichen sind nicht erlaubt."), ("en", "Null characters are not allowed.")],
)
def test_a_nul_in_a_guests_name_is_refused_in_words_and_keeps_the_club(table, language, words):
    link = checkin.checkin_link(table.series.tournament)

    with translation.override(language):  # the page in the language the phone chose
        address = reverse("checkin:page", args=[link.token])

    response = Client().post(address, {"name": "Gast\x00 Eins", "club": "SC Herz"})

    assert response.status_code == 400
    page = response.content.decode()
    assert words in page
    assert 'value="SC Herz"' in page
    assert 'value="Gast Eins"' in page  # what was typed, without the NUL
    assert not CheckInClaim.objects.exists()


def test_a_nul_in_the_reason_of_a_decision_is_refused_and_nothing_is_decided(
    client, django_user_model, table
):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament = table.series.tournament
    tournament.referees.add(user)
    client.force_login(user)
    game = Game.objects.get(table=table, number=1)
    objection = calls.file_objection(game, Seat.objects.filter(table=table).first(), "Falsch")

    response = client.post(
        reverse("referee:objection-keep", args=[tournament.slug, objection.pk]),
        {"reason": "bleibt\x00"},
    )

    assert response.status_code == 400
    assert "Nullzeichen sind nicht erlaubt." in response.content.decode()
    assert Objection.objects.get(pk=objection.pk).decided_at is None

"""A player withdraws between series: no longer drawn, his results stay, the standing marks him.

Eight players at two 4-tables in series 1 (rounds 1: four games each, all passed in, so
every total is 0); after the withdrawal seven remain: one 4-table and one 3-table.
"""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from skatliga import printing, services
from skatliga.models import Change, ListResult, Seat
from tests.web.factories import entry, make_tournament, play


@pytest.fixture
def after_series_1(db):
    tournament = make_tournament(players=8, size=4, rounds=1, slug="abend")
    for table in tournament.series.get().tables.all():
        play(table, entry(), entry(), entry(), entry())
        services.close_table(table)
    return tournament


def test_a_withdrawn_player_is_not_drawn_and_keeps_his_results(after_series_1):
    tournament = after_series_1
    leaving = tournament.registrations.order_by("player__name").first()

    services.withdraw_player(leaving, reason="krank")
    series = services.draw_tables(tournament, seed=1)

    assert sorted(series.tables.values_list("size", flat=True)) == [3, 4]
    assert not Seat.objects.filter(series=series, player=leaving.player).exists()
    assert ListResult.objects.filter(player=leaving.player).count() == 1
    rows = ListResult.objects.for_tournament(tournament).standings(lots_of=tournament)
    assert [r.player for r in rows if r.withdrawn] == [leaving.player.name]
    leaving.refresh_from_db()
    assert leaving.withdrawn_after == 1


def test_the_withdrawal_is_logged(after_series_1):
    leaving = after_series_1.registrations.first()
    services.withdraw_player(leaving, reason="krank")

    change = Change.objects.get(action=Change.Action.PLAYER_WITHDRAWN)
    assert change.after == {
        "player": {"id": leaving.player_id, "name": leaving.player.name},
        "after_series": 1,
    }
    assert change.reason == "krank"


def test_a_player_at_an_open_list_cannot_withdraw(db):
    tournament = make_tournament(players=4, size=4, rounds=1)
    with pytest.raises(services.ServiceError) as error:
        services.withdraw_player(tournament.registrations.first())
    assert error.value.code == "player_at_open_table"


def test_withdrawing_twice_is_refused(after_series_1):
    leaving = after_series_1.registrations.first()
    services.withdraw_player(leaving)
    with pytest.raises(services.ServiceError) as error:
        services.withdraw_player(leaving)
    assert error.value.code == "player_already_withdrawn"


def test_the_referee_withdraws_a_player_and_the_standing_marks_him(
    client, django_user_model, after_series_1
):
    user = django_user_model.objects.create_user("leitung")
    after_series_1.referees.add(user)
    client.force_login(user)
    leaving = after_series_1.registrations.first()

    url = reverse("referee:registration-withdraw", args=["abend", leaving.pk])
    assert client.post(url).status_code == 302
    again = client.post(url)
    assert again.status_code == 409
    assert again.context["action_error"]["code"] == "player_already_withdrawn"

    page = client.get(reverse("standings", args=["abend"]))
    assert b'class="badge withdrawn"' in page.content
    # Seven players left: one 4-table and one 3-table.
    referee_page = client.get(reverse("referee:tournament", args=["abend"]))
    assert referee_page.context["table_sizes"] == [4, 3]


@pytest.mark.parametrize(
    ("language", "his"),
    [("de", ("seine", "ihre", "sich")), ("en", ("his", "her")), ("da", ("hans",))]
    + [("sv", ("hans",)), ("nl", ("zijn",))],
)
def test_the_withdrawal_message_speaks_of_anyone(
    client, django_user_model, after_series_1, language, his
):
    """Said of a player of any gender: no "seine Ergebnisse", "his results"."""
    user = django_user_model.objects.create_user("leitung")
    after_series_1.referees.add(user)
    client.force_login(user)
    leaving = after_series_1.registrations.first()
    prefix = "" if language == "de" else f"/{language}"
    url = prefix + reverse("referee:registration-withdraw", args=["abend", leaving.pk])

    said = [str(m) for m in client.post(url, follow=True).context["messages"]]
    again = client.post(url).context["action_error"]["message"]

    assert len(said) == 1 and str(leaving.player) in said[0]
    words = {word for text in (said[0], again) for word in re.findall(r"\w+", text)}
    assert not words & set(his), (said, again)


@pytest.mark.parametrize(
    ("language", "hint"),
    [("de", "12 Spieler: 3 Vierertische"), ("en", "12 players: 3 tables of four")],
)
def test_the_draw_hint_counts_only_the_players_still_in(client, django_user_model, language, hint):
    tournament = make_tournament(players=13, rounds=1, slug="dreizehn")
    services.withdraw_player(tournament.registrations.first(), reason="krank")
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament.referees.add(user)
    client.force_login(user)

    with translation.override(language):
        url = reverse("referee:tournament", args=[tournament.slug])
    text = " ".join(re.sub(r"<[^>]+>", " ", client.get(url).content.decode()).split())

    plan = text[text.index(hint) :].split(" ")[:6]
    assert " ".join(plan).startswith(hint)
    assert "0" not in plan and "und" not in plan and "and" not in plan


@pytest.mark.parametrize(("language", "mark"), [("de", "zurückgezogen"), ("en", "withdrawn")])
def test_the_result_pdf_marks_the_withdrawn_player(after_series_1, language, mark):
    leaving = after_series_1.registrations.order_by("player__name").first()
    services.withdraw_player(leaving, reason="krank")
    after_series_1.language = language  # a printout speaks the tournament's language
    after_series_1.save(update_fields=["language"])

    with translation.override(language):
        data = printing.tournament_result_pdf(after_series_1)
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages).split())

    assert f"{leaving.player.name} ({mark})" in text
    assert text.count(f"({mark})") == 1

"""Check-in at the door: players find themselves (or come as guests) behind the poster's
link, the desk marks entry fees and late arrivals, the settlement knows who paid."""

from __future__ import annotations

import io
from decimal import Decimal

import pypdf
import pytest
from django.core.cache import cache
from django.urls import reverse

from skatliga import services
from skatliga.checkin import services as checkin
from skatliga.checkin import views as checkin_views
from skatliga.models import Arrival, Club, Player, Registration
from skatliga.money import services as money
from tests.web.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def roster():
    club = Club.objects.create(name="SC Altenburg")
    return {
        "anna": make_player("Anna Schmidt", club=club, number="4711"),
        "anne": make_player("Anne Schmitz", club=club, number="4712"),
        "bernd": make_player("Bernd Łukasz", number="815"),
    }


@pytest.fixture
def tournament():
    return make_tournament(slug="preisskat")


@pytest.fixture
def link(tournament):
    return checkin.checkin_link(tournament)


def page(link):
    return reverse("checkin:page", args=[link.token])


def registered(tournament):
    return sorted(tournament.registrations.values_list("player__name", flat=True))


def test_the_link_is_short_unguessable_and_one_per_tournament(tournament, link):
    assert len(link.token) == 22  # 16 random bytes, URL-safe
    assert checkin.checkin_link(tournament) == link
    renewed = checkin.checkin_link(tournament, renew=True)
    assert renewed.token != link.token
    assert checkin.link_for_token(link.token) is None


def test_a_player_finds_himself_by_name_and_checks_in(client, roster, tournament, link):
    found = client.get(reverse("checkin:search", args=[link.token]), {"q": "schm"})
    text = found.content.decode()
    assert "Anna Schmidt" in text and "Anne Schmitz" in text and "SC Altenburg" in text
    assert "4711" not in text  # no membership numbers shown
    response = client.post(page(link), {"player": roster["anna"].pk})
    arrival = Arrival.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("checkin:arrived", args=[link.token, arrival.token])
    assert registered(tournament) == ["Anna Schmidt"]
    assert not arrival.guest and not arrival.late and arrival.fee == ""
    assert "Anna Schmidt" in client.get(response.url).content.decode()


def test_name_words_in_any_order_narrow_the_list(roster):
    assert [p.name for p in checkin.find_players("schmidt anna")] == ["Anna Schmidt"]


def test_a_player_finds_himself_by_membership_number(client, roster, link):
    found = checkin.find_players("4712")
    assert found == [roster["anne"]]
    assert checkin.find_players("471") == []  # numbers match whole, names in part


def test_a_search_of_one_letter_is_refused_with_a_code(client, link):
    response = client.get(reverse("checkin:search", args=[link.token]), {"q": "a"})
    assert 'data-code="search_too_short"' in response.content.decode()


def test_a_guest_checks_in_with_name_and_club(client, tournament, link):
    response = client.post(page(link), {"name": "  Gerd   Gast ", "club": "SV Gäste"})
    assert response.status_code == 302
    arrival = Arrival.objects.select_related("registration__player__club").get()
    assert arrival.guest
    assert arrival.registration.player.name == "Gerd Gast"
    assert str(arrival.registration.player.club) == "SV Gäste"


def test_a_guest_without_name_gets_the_code_and_nothing_is_saved(client, tournament, link):
    response = client.post(page(link), {"name": " ", "club": "SV"})
    assert response.status_code == 400
    assert 'data-code="player_name_missing"' in response.content.decode()
    assert not Registration.objects.exists()


def test_checking_in_twice_is_one_registration_and_one_arrival(client, roster, tournament, link):
    first = client.post(page(link), {"player": roster["bernd"].pk})
    second = client.post(page(link), {"player": roster["bernd"].pk})
    assert first.url == second.url
    client.post(page(link), {"name": "Gerd Gast", "club": ""})
    client.post(page(link), {"name": "Gerd Gast", "club": ""})
    assert registered(tournament) == ["Bernd Łukasz", "Gerd Gast"]
    assert Arrival.objects.count() == 2
    assert Player.objects.filter(name="Gerd Gast").count() == 1


def test_a_player_the_referee_entered_checks_in_on_his_registration(roster, tournament):
    services.register_players(tournament, [("Anna Schmidt", "SC Altenburg")])
    arrival = checkin.check_in(tournament, player=roster["anna"])
    assert arrival.registration == tournament.registrations.get()


def test_after_the_first_draw_a_player_arrives_late(roster, tournament):
    for player in roster.values():
        checkin.check_in(tournament, player=player)
    checkin.check_in(tournament, name="Gerd Gast")
    services.draw_tables(tournament, seed=1)
    late = checkin.check_in(tournament, name="Lena Spät")
    assert late.late
    assert Arrival.objects.filter(late=True).count() == 1


@pytest.mark.parametrize("suffix", ["", "search/"])
def test_a_wrong_or_revoked_token_is_a_plain_404(client, tournament, link, suffix):
    assert client.get(f"/c/wrong-token/{suffix}").status_code == 404
    checkin.checkin_link(tournament, renew=True)
    assert client.get(page(link) + suffix).status_code == 404


def test_the_check_in_page_sends_no_referer_and_is_not_cached(client, link):
    response = client.get(page(link))
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin"
    assert "no-store" in response["Cache-Control"]


def test_wrong_tokens_are_limited_per_address_but_a_valid_one_still_opens(
    client, link, monkeypatch
):
    monkeypatch.setattr(checkin_views, "WRONG_TOKENS_PER_HOUR", 2)
    assert [client.get(f"/c/guess-{n}/").status_code for n in range(4)] == [404, 404, 429, 429]
    limited = client.get("/c/guess-5/")
    assert 'data-code="checkin_too_many_requests"' in limited.content.decode()
    assert client.get(page(link)).status_code == 200


# --- the desk -----------------------------------------------------------------------------------


@pytest.fixture
def referee(client, django_user_model, tournament):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament.referees.add(user)
    client.force_login(user)
    return client


def desk_url(tournament, name="checkin", *args):
    return reverse(f"referee:{name}", args=[tournament.slug, *args])


def test_the_desk_shows_arrivals_the_link_and_its_qr(referee, roster, tournament):
    checkin.check_in(tournament, player=roster["anna"])
    text = referee.get(desk_url(tournament)).content.decode()
    link = checkin.checkin_link(tournament)
    assert "Anna Schmidt" in text
    assert reverse("checkin:page", args=[link.token]) in text
    assert '<svg class="qr"' in text


def test_the_desk_is_for_the_tournaments_referees_only(client, django_user_model, tournament):
    client.force_login(django_user_model.objects.create_user("zoe", password="x"))
    assert client.get(desk_url(tournament)).status_code == 403
    assert client.get(desk_url(tournament, "checkin-poster")).status_code == 403


def test_the_desk_polls_a_304_until_someone_arrives(referee, roster, tournament):
    first = referee.get(desk_url(tournament, "checkin-status"))
    etag = first["ETag"]
    assert (
        referee.get(desk_url(tournament, "checkin-status"), HTTP_IF_NONE_MATCH=etag).status_code
        == 304
    )
    checkin.check_in(tournament, player=roster["bernd"])
    fresh = referee.get(desk_url(tournament, "checkin-status"), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert fresh.json()["here"] == 1 and "Bernd Łukasz" in fresh.json()["html"]


def test_the_desk_marks_fees_late_arrivals_and_players_without_phone(referee, roster, tournament):
    arrival = checkin.check_in(tournament, player=roster["anna"])
    services.register_players(tournament, [("Otto Ohnehandy", "")])
    otto = tournament.registrations.get(player__name="Otto Ohnehandy")
    mark = desk_url(tournament, "checkin-mark", arrival.registration_id)
    assert referee.post(mark, {"fee": "cash"}).status_code == 302
    referee.post(mark, {"late": "1"})
    referee.post(desk_url(tournament, "checkin-mark", otto.pk))
    referee.post(desk_url(tournament, "checkin-mark", otto.pk), {"fee": "later"})
    arrival.refresh_from_db()
    assert (arrival.fee, arrival.late, arrival.paid) == ("cash", True, True)
    assert Arrival.objects.get(registration=otto).fee == "later"
    response = referee.post(mark, {"fee": "bitcoin"})
    assert response.status_code == 400
    arrival.refresh_from_db()
    assert arrival.fee == "cash"


def test_the_poster_is_one_a4_page_with_name_date_and_url(referee, tournament):
    response = referee.get(desk_url(tournament, "checkin-poster"))
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    assert [round(float(x)) for x in reader.pages[0].mediabox[2:]] == [595, 842]
    text = reader.pages[0].extract_text()
    link = checkin.checkin_link(tournament)
    assert tournament.name in text and "21. November 2026" in text
    assert link.token in text.replace("\n", "")


# --- the settlement ---------------------------------------------------------------------------


def test_the_settlement_knows_who_paid(referee, tournament):
    """Four players at one 4-table, no games played yet, entry fee 10.00: Anna and Bernd
    paid (cash, card), Carl pays later, Dora is unmarked. Entries 40.00, paid 20.00, open
    20.00; everyone is ranked 1st with 0 points."""
    money.save_purse(
        tournament,
        entry_fee=Decimal("10.00"),
        lost_fee=Decimal("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("1.00"),
        prizes=[],
    )
    fees = {"Anna": "cash", "Bernd": "card", "Carl": "later", "Dora": None}
    for name, fee in fees.items():
        arrival = checkin.check_in(tournament, name=name)
        if fee:
            checkin.mark(arrival.registration, fee=fee)
    services.draw_tables(tournament, seed=3)
    settlement = money.settle(tournament)
    assert settlement.entries == Decimal("40.00")
    assert settlement.entries_paid == Decimal("20.00")
    assert settlement.entries_open == Decimal("20.00")
    assert {p.player: (p.fee, p.fee_paid) for p in settlement.players} == {
        "Anna": ("cash", True),
        "Bernd": ("card", True),
        "Carl": ("later", False),
        "Dora": ("", False),
    }
    page = referee.get(reverse("referee:money", args=[tournament.slug])).content.decode()
    assert 'data-total="entries-paid">20,00&nbsp;€' in page
    assert 'data-fee="card">Karte' in page and 'data-fee="open">offen' in page
    pdf = referee.get(reverse("referee:money-pdf", args=[tournament.slug])).content
    text = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "davon bezahlt" in text and "20,00" in text and "Karte" in text

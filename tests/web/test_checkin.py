"""Check-in at the door: players find themselves (or come as guests) behind the poster's
link, each check-in waits for the desk as a claim, the desk confirms it with one tap and only
then does the phone show the personal link; the desk marks entry fees and late arrivals, the
settlement knows who paid."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pypdf
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from skatliga import services
from skatliga.models import Arrival, CheckInClaim, Club, Player, Registration
from skatliga.services import checkin, money
from skatliga.services.personal import personal_token
from tests.web.factories import make_player, make_table, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def tournament():
    return make_tournament(slug="preisskat")


@pytest.fixture
def roster(tournament):
    """Three players of the roster, registered for the tournament."""
    club = Club.objects.create(name="SC Altenburg")
    players = {
        "anna": make_player("Anna Schmidt", club=club, number="4711"),
        "anne": make_player("Anne Schmitz", club=club, number="4712"),
        "bernd": make_player("Bernd Łukasz", number="815"),
    }
    for player in players.values():
        Registration.objects.create(tournament=tournament, player=player)
    return players


@pytest.fixture
def link(tournament):
    return checkin.checkin_link(tournament)


def page(link):
    return reverse("checkin:page", args=[link.token])


def search(client, link, query, **extra):
    return client.get(reverse("checkin:search", args=[link.token]), {"q": query}, **extra)


def found_names(response):
    return re.findall(r"<strong>([^<]+)</strong>", response.content.decode())


def registered(tournament):
    return sorted(tournament.registrations.values_list("player__name", flat=True))


def claim_of(response):
    """The claim a check-in's redirect leads to."""
    token = response.url.rstrip("/").rsplit("/", 1)[-1]
    return CheckInClaim.objects.get(token=token)


def test_the_link_is_short_unguessable_and_one_per_tournament(tournament, link):
    assert len(link.token) == 22  # 16 random bytes, URL-safe
    assert checkin.checkin_link(tournament) == link
    renewed = checkin.checkin_link(tournament, renew=True)
    assert renewed.token != link.token
    assert checkin.link_for_token(link.token) is None


# --- the search ----------------------------------------------------------------------------------


def test_a_player_finds_himself_by_part_of_his_name(client, roster, link):
    text = search(client, link, "schm").content.decode()
    assert "Anna Schmidt" in text and "Anne Schmitz" in text and "SC Altenburg" in text
    assert "4711" not in text  # no membership numbers shown


def test_name_words_in_any_order_narrow_the_list(roster, tournament):
    assert [p.name for p in checkin.find_players(tournament, "schmidt anna")] == ["Anna Schmidt"]


def test_a_membership_number_finds_nobody(roster, tournament):
    """A membership number is not public: the search never matches it (issue 37, item 2)."""
    assert checkin.find_players(tournament, "4712") == []


def test_the_search_finds_only_players_registered_or_shown_in_public(tournament):
    """Otto is in the roster but neither registered nor on any public page; Paula played a
    list of another tournament that the public sees; Rita is registered."""
    make_player("Otto Ostermann")
    paula = make_player("Paula Ostwald")
    make_table(players=[paula, make_player(), make_player()])
    rita = make_player("Rita Osterholz")
    Registration.objects.create(tournament=tournament, player=rita)
    hidden = make_player("Olga Osterberg")
    make_table(players=[hidden, make_player(), make_player()], hide_unpublished=True)

    assert [p.name for p in checkin.find_players(tournament, "oste")] == ["Rita Osterholz"]
    assert [p.name for p in checkin.find_players(tournament, "ost")] == [
        "Paula Ostwald",
        "Rita Osterholz",
    ]


def test_a_player_shown_by_initials_is_found_by_them_never_by_his_hidden_name(
    client, tournament, link
):
    """Issue 37, item 2: "?q=Wagner" answered "B. W.", and prefixes of the surname found it
    letter by letter. Now no part of the hidden name finds him; his initials do."""
    shy = make_player("Bernd Wagner", initials_only=True)
    Registration.objects.create(tournament=tournament, player=shy)

    for query in ["Wagner", "Wa", "Wag", "bernd", "Bernd Wagner", "er", "ag"]:
        assert found_names(search(client, link, query)) == [], query
    assert found_names(search(client, link, "B W")) == ["B. W."]
    assert found_names(search(client, link, "b. w.")) == ["B. W."]


def test_a_search_of_one_letter_is_refused_with_a_code(client, link):
    response = search(client, link, "a")
    assert 'data-code="search_too_short"' in response.content.decode()


def test_a_search_with_a_nul_is_a_bad_request(client, link):
    assert search(client, link, "An\x00na").status_code == 400


# --- claims: a phone's check-in waits for the desk ------------------------------------------------


def test_a_claim_waits_for_the_desk_and_checks_nobody_in(client, roster, tournament, link):
    response = client.post(page(link), {"player": roster["anna"].pk})

    assert response.status_code == 302
    claim = claim_of(response)
    assert response.url == reverse("checkin:claim", args=[link.token, claim.token])
    assert (claim.player, claim.state, claim.number) == (roster["anna"], "open", 1)
    assert not Arrival.objects.exists()
    text = client.get(response.url).content.decode()
    assert "Anna Schmidt" in text and 'data-number="1"' in text
    assert "/me/" not in text and personal_token(claim.player.registrations.get()) not in text


def test_the_desk_confirms_and_only_then_the_phone_shows_the_personal_link(
    client, referee, roster, tournament, link
):
    claim = claim_of(client.post(page(link), {"player": roster["bernd"].pk}))
    address = reverse("checkin:claim", args=[link.token, claim.token])
    status = reverse("checkin:claim-status", args=[link.token, claim.token])
    etag = client.get(status)["ETag"]
    assert client.get(status, HTTP_IF_NONE_MATCH=etag).status_code == 304

    response = referee.post(desk_url(tournament, "checkin-confirm", claim.pk))

    assert response.status_code == 302
    arrival = Arrival.objects.get()
    assert arrival.registration.player == roster["bernd"] and not arrival.late
    mine = reverse("personal:page", args=[personal_token(arrival.registration)])
    changed = client.get(status, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["state"] == "confirmed"
    assert f'href="http://testserver{mine}"' in changed.json()["html"]
    text = client.get(address).content.decode()
    assert f'href="http://testserver{mine}"' in text and 'class="qr"' in text


def test_a_guest_enters_the_roster_only_when_the_desk_confirms(client, referee, tournament, link):
    """Issue 37, item 1: 30 guest check-ins from one client added 30 players to the roster."""
    players, clubs = Player.objects.count(), Club.objects.count()
    response = client.post(page(link), {"name": "  Gerd   Gast ", "club": "SV Gäste"})

    claim = claim_of(response)
    assert (claim.name, claim.club, claim.guest) == ("Gerd Gast", "SV Gäste", True)
    assert (Player.objects.count(), Club.objects.count()) == (players, clubs)
    assert not Registration.objects.exists()

    referee.post(desk_url(tournament, "checkin-confirm", claim.pk))

    arrival = Arrival.objects.select_related("registration__player__club").get()
    assert arrival.guest and arrival.registration.player.name == "Gerd Gast"
    assert str(arrival.registration.player.club) == "SV Gäste"


def test_a_refused_claim_checks_nobody_in_and_tells_the_phone(client, referee, roster, link):
    claim = claim_of(client.post(page(link), {"name": "Niemand Hier", "club": ""}))

    referee.post(desk_url(claim.tournament, "checkin-refuse", claim.pk))

    assert not Registration.objects.filter(player__name="Niemand Hier").exists()
    assert not Player.objects.filter(name="Niemand Hier").exists()
    text = client.get(reverse("checkin:claim", args=[link.token, claim.token])).content.decode()
    assert 'data-state="refused"' in text and "/me/" not in text
    with pytest.raises(services.ServiceError) as decided:
        checkin.confirm_claim(claim.tournament, claim.pk)
    assert decided.value.code == "claim_decided"


def test_a_guest_without_name_gets_the_code_and_nothing_is_saved(client, link):
    for name, code in [
        (" ", "player_name_missing"),
        ("Gerd\x00Gast", "null_characters_not_allowed"),  # a form's CharField refuses it
        ("Gerd\x07Gast", "name_invalid"),
    ]:
        response = client.post(page(link), {"name": name, "club": "SV"})
        assert response.status_code == 400
        assert f'data-code="{code}"' in response.content.decode()
    assert not CheckInClaim.objects.exists()


def test_the_same_phone_asking_twice_is_one_claim(client, roster, tournament, link):
    first = client.post(page(link), {"player": roster["bernd"].pk})
    second = client.post(page(link), {"player": roster["bernd"].pk})
    client.post(page(link), {"name": "Gerd Gast", "club": ""})
    client.post(page(link), {"name": "Gerd Gast", "club": ""})

    assert first.url == second.url
    assert CheckInClaim.objects.count() == 2


def test_a_second_claim_of_a_player_goes_to_the_desk_marked(client, referee, roster, tournament):
    link = checkin.checkin_link(tournament)
    first = claim_of(client.post(page(link), {"player": roster["anna"].pk}))
    other = Client()
    second = claim_of(other.post(page(link), {"player": roster["anna"].pk}))
    alone = claim_of(other.post(page(link), {"player": roster["bernd"].pk}))
    assert (first.number, second.number, alone.number) == (1, 2, 3)
    rows = {row.claim.number: row for row in checkin.open_claims(tournament).rows}
    assert [(n, rows[n].again) for n in (1, 2, 3)] == [(1, True), (2, True), (3, False)]

    checkin.confirm_claim(tournament, first.pk)
    rows = checkin.open_claims(tournament).rows
    assert [(row.claim, row.here is not None) for row in rows] == [(alone, False), (second, True)]
    desk = referee.get(desk_url(tournament)).content.decode()
    assert "schon da seit" in desk and "mehrfach gemeldet" in desk and 'data-claim="2"' in desk


def test_a_player_claimed_too_often_is_sent_to_the_desk(roster, tournament):
    """Five claims of Anna wait (her phone's, a stranger's, …): a sixth phone is told to go
    to the desk, which sees the five and confirms the one whose phone is in front of it."""
    link = checkin.checkin_link(tournament)
    phones = [Client() for _ in range(6)]
    answers = [phone.post(page(link), {"player": roster["anna"].pk}) for phone in phones]

    assert checkin.OPEN_CLAIMS_PER_PLAYER == 5
    assert [answer.status_code for answer in answers] == [302] * 5 + [400]
    assert 'data-code="checkin_claimed_often"' in answers[-1].content.decode()
    checkin.refuse_claim(tournament, claim_of(answers[0]).pk)
    assert phones[5].post(page(link), {"player": roster["anna"].pk}).status_code == 302


def test_the_desk_finds_a_claim_by_the_number_its_phone_shows(referee, roster, tournament):
    for n in range(checkin.DESK_CLAIMS + 2):
        checkin.claim(tournament, name=f"Gast {n}")
    listed = referee.get(desk_url(tournament)).content.decode()
    assert listed.count('data-claim="') == checkin.DESK_CLAIMS
    assert 'data-claim="1"' not in listed and "Die neuesten 40 von 42 Meldungen" in listed

    found = referee.get(desk_url(tournament), {"nr": "1"}).content.decode()

    assert found.count('data-claim="') == 1 and 'data-claim="1"' in found
    assert "Gast 0" in found
    assert "?nr=1" in found  # the desk's poll keeps to it


def test_after_the_draw_a_claim_is_a_late_arrival_the_desk_confirms(client, roster, tournament):
    link = checkin.checkin_link(tournament)
    for name in ["Anna Schmidt", "Anne Schmitz", "Bernd Łukasz"]:
        checkin.check_in(tournament, player=Player.objects.get(name=name))
    services.draw_tables(tournament, seed=1)

    claim = claim_of(client.post(page(link), {"name": "Lena Spät", "club": ""}))

    assert not Registration.objects.filter(player__name="Lena Spät").exists()
    late = checkin.confirm_claim(tournament, claim.pk)
    assert late.late
    assert Arrival.objects.filter(late=True).count() == 1


def test_a_player_the_link_may_not_name_cannot_be_claimed(client, tournament, link):
    stranger = make_player("Otto Ostermann")

    for chosen in [stranger.pk, 999_999, "x", "1" * 30]:
        response = client.post(page(link), {"player": chosen})
        assert response.status_code == 400
        assert 'data-code="checkin_player_unknown"' in response.content.decode()
    assert not CheckInClaim.objects.exists()


def test_a_player_the_referee_entered_checks_in_on_his_registration(roster, tournament):
    services.register_players(tournament, [("Anna Schmidt", "SC Altenburg")])
    arrival = checkin.check_in(tournament, player=roster["anna"])
    assert arrival.registration == tournament.registrations.get(player=roster["anna"])


@pytest.mark.parametrize("suffix", ["", "search/", "claim-x/", "claim-x/status.json"])
def test_a_wrong_or_revoked_token_is_a_plain_404(client, tournament, link, suffix):
    assert client.get(f"/c/wrong-token/{suffix}").status_code == 404
    checkin.checkin_link(tournament, renew=True)
    assert client.get(page(link) + suffix).status_code == 404


def test_the_check_in_and_claim_pages_send_no_referer_and_are_not_cached(client, roster, link):
    response = client.get(page(link))
    claim = client.post(page(link), {"player": roster["anna"].pk})
    for answer in [response, client.get(claim.url)]:
        assert answer.status_code == 200
        assert answer["Referrer-Policy"] == "same-origin"
        assert "no-store" in answer["Cache-Control"]


# --- the desk -----------------------------------------------------------------------------------


@pytest.fixture
def referee(django_user_model, tournament):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament.referees.add(user)
    desk = Client()
    desk.force_login(user)
    return desk


def desk_url(tournament, name="checkin", *args):
    return reverse(f"referee:{name}", args=[tournament.slug, *args])


def test_the_desk_shows_claims_arrivals_the_link_and_its_qr(referee, roster, tournament):
    checkin.check_in(tournament, player=roster["anna"])
    checkin.claim(tournament, name="Gerd Gast", club="SV Gäste")
    text = referee.get(desk_url(tournament)).content.decode()
    link = checkin.checkin_link(tournament)
    assert "Anna Schmidt" in text and "Gerd Gast" in text and 'data-claim="1"' in text
    assert reverse("checkin:page", args=[link.token]) in text
    assert '<svg class="qr"' in text
    assert "Wer noch wartet, wird nicht ausgelost." in text


def test_the_desk_says_when_it_was_last_updated(referee, tournament):
    """Issue 37, item 11: "aktualisiert –" never showed a time."""
    text = referee.get(desk_url(tournament)).content.decode()
    assert re.search(r'<time id="desk-time">\d\d:\d\d:\d\d</time>', text)


def test_the_desk_is_for_the_tournaments_referees_only(client, django_user_model, tournament):
    claim = checkin.claim(tournament, name="Gerd Gast")
    client.force_login(django_user_model.objects.create_user("zoe", password="x"))
    assert client.get(desk_url(tournament)).status_code == 403
    assert client.get(desk_url(tournament, "checkin-poster")).status_code == 403
    assert client.post(desk_url(tournament, "checkin-confirm", claim.pk)).status_code == 403
    claim.refresh_from_db()
    assert claim.is_open


def test_the_desk_polls_a_304_until_someone_claims_or_arrives(referee, roster, tournament):
    first = referee.get(desk_url(tournament, "checkin-status"))
    etag = first["ETag"]
    assert (
        referee.get(desk_url(tournament, "checkin-status"), HTTP_IF_NONE_MATCH=etag).status_code
        == 304
    )
    claim = checkin.claim(tournament, player=roster["bernd"])
    fresh = referee.get(desk_url(tournament, "checkin-status"), HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh.json()["waiting"] == 1
    assert "Bernd Łukasz" in fresh.json()["html"]
    checkin.confirm_claim(tournament, claim.pk)
    here = referee.get(desk_url(tournament, "checkin-status"), HTTP_IF_NONE_MATCH=fresh["ETag"])
    assert here.status_code == 200 and here.json()["here"] == 1 and here.json()["waiting"] == 0


def test_a_claim_of_another_tournament_is_a_404_at_the_desk(referee, tournament):
    claim = checkin.claim(make_tournament(), name="Gerd Gast")
    assert referee.post(desk_url(tournament, "checkin-confirm", claim.pk)).status_code == 404
    assert referee.post(desk_url(tournament, "checkin-refuse", claim.pk)).status_code == 404


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

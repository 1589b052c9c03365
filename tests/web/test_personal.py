"""A player's personal link, "my evening": his seat as soon as it is drawn, his standing, his
lists with each game, his signatures and his money; nobody else's private data."""

from __future__ import annotations

import io
from decimal import Decimal

import pypdf
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from skatliga import services
from skatliga.models import PersonalLink, Registration, Series
from skatliga.personal import views as personal_views
from skatliga.personal.evening import my_evening
from skatliga.services import checkin, personal
from skatliga.services.money import save_purse
from skatliga.table import cards as table_cards
from skatliga.table.redaction import redact
from tests.web.factories import entry, make_player, make_table, make_tournament, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


def evening_of(player):
    """A 3-table with one list of three games: seat 1 wins a Grand mit 2 (3 × 24 = 72),
    seat 2 loses a Grand mit 1 (2 × 24 = 48, lost: −96), the third is passed in."""
    anna, bernd, carla = make_player("Anna Berg"), make_player("Bernd Kranz"), player
    table = make_table(players=[anna, bernd, carla], rounds=1)
    tournament = table.series.tournament
    save_purse(
        tournament,
        entry_fee=Decimal("10.00"),
        lost_fee=Decimal("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=Decimal("1.00"),
        prizes=["50%"],
    )
    play(
        table,
        entry(1, "grand", bid=20, matadors=2, card_points=78, tricks=7),
        entry(2, "grand", bid=18, matadors=1, card_points=40, tricks=4),
        entry(),
    )
    return table, {
        p.name: Registration.objects.get(tournament=tournament, player=p)
        for p in (anna, bernd, carla)
    }


def page_html(path):
    response = Client().get(path)
    assert response.status_code == 200
    return response.content.decode()


def url(registration, name="personal:page"):
    return reverse(name, args=[personal.personal_token(registration)])


def test_a_token_opens_exactly_one_players_evening():
    table, regs = evening_of(make_player("Carla Weiß"))
    tokens = personal.personal_tokens(regs.values())
    assert len(set(tokens.values())) == 3
    assert PersonalLink.objects.count() == 3
    assert personal.personal_tokens(regs.values()) == tokens  # issued once
    for name, registration in regs.items():
        found = personal.registration_for_token(tokens[registration.pk])
        assert found == registration
        assert found.player.name == name
    assert personal.registration_for_token("x" * 22) is None
    assert personal.registration_for_token("a\x00b") is None


def test_a_token_carries_128_random_bits_and_is_url_safe():
    token = personal.new_token()
    assert len(token) >= 22  # 16 bytes in URL-safe base64
    assert personal.is_token(token)


def test_my_evening_has_my_seat_figures_and_games_from_the_rule():
    table, regs = evening_of(make_player("Carla Weiß"))
    anna = my_evening(regs["Anna Berg"])
    assert (anna.next_seat.series, anna.next_seat.table, anna.next_seat.position) == (1, 1, 1)
    assert [o.name for o in anna.next_seat.others] == ["Bernd Kranz", "Carla Weiß"]
    # Seeger-Fabian (docs/rules.md section 5): Anna 72 + 50 + 40 = 162, Carla 0 + 40,
    # Bernd −96 − 50 = −146; ranked 1, 2, 3, provisional while the list is open.
    assert (anna.standing.rank, anna.standing.total, anna.standing.players) == (1, 162, 3)
    assert anna.standing.provisional
    bernd = my_evening(regs["Bernd Kranz"])
    assert (bernd.standing.rank, bernd.standing.total) == (3, -146)
    [mine] = anna.lists
    assert [(g.number, g.mine, g.score, g.running) for g in mine.games] == [
        (1, True, "+72", 72),
        (2, False, "0", 72),
        (3, False, "0", 72),
    ]
    assert mine.total == 162 and not mine.signed and mine.signed_count == 0
    assert mine.signers == 3


def test_my_signature_shows_once_i_signed():
    table, regs = evening_of(make_player("Carla Weiß"))
    services.sign_list(table, 2, state=services.list_state(table))
    assert my_evening(regs["Bernd Kranz"]).lists[0].signed
    anna = my_evening(regs["Anna Berg"]).lists[0]
    assert not anna.signed and anna.signed_count == 1


def test_another_players_money_never_appears():
    """Pot: 3 × 10.00 entry + 0.50 (Bernd's one lost game) = 30.50; half of it rounded down
    to whole euros is the prize, 15.00, Anna's (rank 1)."""
    table, regs = evening_of(make_player("Carla Weiß"))
    services.close_table(table, reason="test")
    services.publish_series(table.series)
    anna = my_evening(regs["Anna Berg"]).money
    assert (anna.line.entry, anna.line.lost, anna.line.lost_fees, anna.prize) == (
        Decimal("10.00"),
        0,
        Decimal("0.00"),
        Decimal("15.00"),
    )
    assert anna.balance == Decimal("5.00") and not anna.provisional
    bernd = my_evening(regs["Bernd Kranz"]).money
    assert (bernd.line.lost, bernd.line.lost_fees, bernd.prize, bernd.balance) == (
        1,
        Decimal("0.50"),
        Decimal("0.00"),
        Decimal("-10.50"),
    )
    page = page_html(url(regs["Bernd Kranz"]))
    money = page.split('class="me-money"', 1)[1].split("</section>", 1)[0]
    assert "10,50" in money and "15,00" not in money and "Anna" not in money


def test_an_entry_fee_paid_at_the_door_is_not_asked_for_again():
    """Anna and Bernd paid 10.00 at the door (cash, card), Carla did not. Anna gets her
    prize, 15.00 (not 15.00 − 10.00 = 5.00); Bernd pays his lost game, 0.50 (not 10.50);
    Carla pays her entry fee, 10.00. The personal page says what the referee's settlement
    says (one line, ``PlayerMoney``)."""
    from skatliga.services.checkin import mark
    from skatliga.services.money import settle

    table, regs = evening_of(make_player("Carla Weiß"))
    mark(regs["Anna Berg"], fee="cash")
    mark(regs["Bernd Kranz"], fee="card")
    services.close_table(table, reason="test")
    services.publish_series(table.series)
    settlement = {p.player: p.balance for p in settle(table.series.tournament).players}
    balances = {name: my_evening(reg).money.balance for name, reg in regs.items()}
    assert (
        balances
        == settlement
        == {
            "Anna Berg": Decimal("15.00"),
            "Bernd Kranz": Decimal("-0.50"),
            "Carla Weiß": Decimal("-10.00"),
        }
    )
    money = page_html(url(regs["Bernd Kranz"])).split('class="me-money"', 1)[1]
    money = money.split("</section>", 1)[0]
    assert "Ich zahle" in money and "0,50" in money and "10,50" not in money
    assert 'data-money="entry-paid"' in money
    # Paid at the door, the fee is not asked for again: nothing is "taken off" a prize.
    assert "nicht noch einmal verlangt" in money and "abgezogen" not in money
    money = page_html(url(regs["Anna Berg"])).split('class="me-money"', 1)[1]
    assert "Ich bekomme" in money.split("</section>", 1)[0]
    assert "15,00" in money.split('data-money="balance"', 1)[1][:40]


def test_the_player_who_left_reads_who_took_his_seat_over():
    """Carla leaves after game 1; Sven plays her seat 3 from game 2 on."""
    table, regs = evening_of(make_player("Carla Weiß"))
    services.appoint_substitute(table, 3, 2, name="Sven Ersatz")

    carla = my_evening(regs["Carla Weiß"])
    assert carla.lists[0].handed_over == (2, "Sven Ersatz")
    assert carla.next_seat.handed_over == (2, "Sven Ersatz")
    assert my_evening(regs["Anna Berg"]).lists[0].handed_over is None
    page = page_html(url(regs["Carla Weiß"]))
    assert page.count("Ab Spiel 2 spielt Sven Ersatz Ihren Platz als Ersatzspieler.") == 2
    assert "Ihren Platz" not in page_html(url(regs["Anna Berg"]))


def test_a_hidden_series_shows_my_games_but_no_rank_or_prize_until_published():
    table, regs = evening_of(make_player("Carla Weiß"))
    tournament = table.series.tournament
    tournament.hide_unpublished = True
    tournament.save()
    anna = my_evening(regs["Anna Berg"])
    assert len(anna.lists[0].games) == 3 and not anna.lists[0].published
    assert anna.standing is None
    assert anna.money.prize is None and anna.money.balance is None
    services.close_table(table, reason="test")
    services.publish_series(Series.objects.get(pk=table.series.pk))
    anna = my_evening(regs["Anna Berg"])
    assert (anna.standing.rank, anna.standing.provisional) == (1, False)
    assert anna.money.prize == Decimal("15.00")


def test_other_players_are_shown_as_the_public_sees_them():
    shy = make_player("Dora Maria Vogel", initials_only=True)
    table, regs = evening_of(shy)
    page = page_html(url(regs["Anna Berg"]))
    assert "D. M. V." in page and "Dora" not in page and "Vogel" not in page
    assert "Dora Maria Vogel" in page_html(url(regs["Dora Maria Vogel"]))


def test_the_seat_appears_once_the_series_is_drawn_and_the_poll_says_so():
    tournament = make_tournament(players=6)
    registration = tournament.registrations.first()
    page = page_html(url(registration))
    assert "Noch nicht ausgelost" in page
    client = Client()
    first = client.get(url(registration, "personal:status"))
    etag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-store"
    assert (
        client.get(url(registration, "personal:status"), HTTP_IF_NONE_MATCH=etag).status_code == 304
    )
    services.draw_tables(tournament, seed=1)
    changed = client.get(url(registration, "personal:status"), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    seat = my_evening(registration).next_seat
    assert seat is not None and seat.series == 1
    assert f'data-table="{seat.table}" data-position="{seat.position}"' in changed.json()["html"]


def test_a_fee_marked_at_the_desk_changes_the_etag():
    tournament = make_tournament(players=3)
    registration = tournament.registrations.first()
    client = Client()
    etag = client.get(url(registration, "personal:status"))["ETag"]
    checkin.mark(registration, fee="cash")
    assert (
        client.get(url(registration, "personal:status"), HTTP_IF_NONE_MATCH=etag).status_code == 200
    )


def test_the_page_sends_no_referer_and_is_not_cached(client):
    registration = make_tournament(players=3).registrations.first()
    response = client.get(url(registration))
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "same-origin"


def test_wrong_tokens_lock_the_guesser_not_the_valid_links(client):
    registration = make_tournament(players=3).registrations.first()
    for _ in range(30):
        assert client.get("/me/" + personal.new_token() + "/").status_code == 404
    refused = client.get("/me/" + personal.new_token() + "/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) <= 3600
    assert client.get(url(registration)).status_code == 200
    assert client.get(url(registration, "personal:status")).status_code == 200


def test_wrong_tokens_from_every_address_have_one_budget(client, monkeypatch):
    monkeypatch.setattr(personal_views, "ALL_WRONG_TOKENS_PER_HOUR", 5)
    for number in range(5):
        address = f"10.0.0.{number}"
        wrong = client.get("/me/" + personal.new_token() + "/", REMOTE_ADDR=address)
        assert wrong.status_code == 404
    refused = client.get("/me/" + personal.new_token() + "/", REMOTE_ADDR="10.0.1.1")
    assert refused.status_code == 429


def test_the_token_is_blanked_in_the_logs():
    assert redact('"GET /me/AbC_d-9/status.json HTTP/1.1" 200') == (
        '"GET /me/…/status.json HTTP/1.1" 200'
    )
    assert redact("GET /c/Poster_1/Arrival-2/") == "GET /c/…/…/"


def test_the_checkin_confirmation_carries_the_personal_link_once_the_desk_confirmed(client):
    tournament = make_tournament()
    link = checkin.checkin_link(tournament)
    player = make_player("Emil Ötztal")
    Registration.objects.create(tournament=tournament, player=player)
    claim = checkin.claim(tournament, player=player)
    address = reverse("checkin:claim", args=[link.token, claim.token])
    assert "/me/" not in client.get(address).content.decode()
    arrival = checkin.confirm_claim(tournament, claim.pk)
    response = client.get(address)
    mine = url(arrival.registration)
    assert f'href="http://testserver{mine}"' in response.content.decode()
    assert 'class="qr"' in response.content.decode()


def test_the_public_seat_list_carries_no_personal_link(client):
    tournament = make_tournament(players=6)
    services.draw_tables(tournament, seed=1)
    personal.personal_tokens(tournament.registrations.all())
    page = client.get(reverse("seats", args=[tournament.slug, 1])).content.decode()
    pdf = client.get(reverse("seats-pdf", args=[tournament.slug, 1])).content
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    for token in PersonalLink.objects.values_list("token", flat=True):
        assert token not in page and token not in text
    assert "/me/" not in page


def test_the_table_card_prints_each_seats_personal_link(client, django_user_model, tmp_path):
    """Five seats (the most a table has) and four: each seat's line has its player's QR."""
    tournament = make_tournament(name="Herbstpreisskat")
    names = ["Anna Berg", "Bernd Kranz", "Carla Weiß", "Dieter Krüger", "Emil Ötztal"]
    make_table(tournament, players=[make_player(n) for n in names])
    make_table(tournament, players=[make_player() for _ in range(4)])
    user = django_user_model.objects.create_user("referee", password="pw")
    tournament.referees.add(user)
    client.force_login(user)
    response = client.get(reverse("referee:table-cards", args=[tournament.slug, 1]))
    assert response.status_code == 200
    (tmp_path / "cards.pdf").write_bytes(response.content)
    cards = table_cards.table_cards(response.wsgi_request, Series.objects.get())
    registrations = Registration.objects.filter(tournament=tournament)
    tokens = personal.personal_tokens(registrations)
    first = cards[0]
    assert len(first.personal) == 5
    for seat, link in zip(
        Series.objects.get().tables.get(number=1).seats.order_by("position"),
        first.personal,
        strict=True,
    ):
        registration = registrations.get(player=seat.player)
        assert link == f"http://testserver/me/{tokens[registration.pk]}/"
    text = pypdf.PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert text.count("Mein Abend") == 5 + 4 and "Emil Ötztal" in text  # both cards


def test_the_referees_seat_slips_carry_each_players_personal_link(
    client, django_user_model, tmp_path
):
    tournament = make_tournament(
        players=[make_player(n) for n in ("Carla Weiß", "Anna Berg", "Bernd Łukasz")]
    )
    services.draw_tables(tournament, seed=1)
    user = django_user_model.objects.create_user("referee", password="pw")
    address = reverse("referee:seat-slips", args=[tournament.slug, 1])
    assert client.get(address).status_code == 302  # referees only
    tournament.referees.add(user)
    client.force_login(user)
    response = client.get(address)
    assert response.status_code == 200
    assert {"private", "no-store"} <= {d.strip() for d in response["Cache-Control"].split(",")}
    (tmp_path / "slips.pdf").write_bytes(response.content)
    slips = table_cards.seat_slips(response.wsgi_request, Series.objects.get())
    assert [slip.player for slip in slips] == ["Anna Berg", "Bernd Łukasz", "Carla Weiß"]
    tokens = personal.personal_tokens(tournament.registrations.all())
    for slip in slips:
        registration = tournament.registrations.get(player__name=slip.player)
        assert slip.url == f"http://testserver/me/{tokens[registration.pk]}/"
        seat = registration.player.seats.get()
        assert (slip.table, slip.position) == (seat.table.number, seat.position)


def test_an_unchanged_evening_answers_304_in_three_queries(django_assert_num_queries):
    """The registration by its token, the tournament's revision, the arrival's last mark."""
    table, regs = evening_of(make_player("Carla Weiß"))
    address = url(regs["Anna Berg"], "personal:status")
    client = Client()
    etag = client.get(address)["ETag"]
    with django_assert_num_queries(3):
        assert client.get(address, HTTP_IF_NONE_MATCH=etag).status_code == 304

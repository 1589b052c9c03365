"""Preisskat money: a 13-player evening settled to the cent.

One series, rounds 2 (8 games at the 4-table, 6 at each 3-table), Seeger-Fabian. A lost
game (L) is grand with 1 lost at 50 card points: −96 − 50 = −146; every other player at the
table gets 40 at a 3-table, 30 at a 4-table. Games not listed are passed in.

  T1 (4) P1 P2 P3 P4:  game 1 P2 L                     P2 −146; P1 P3 P4 +30
  T2 (3) P5 P6 P7:     games 1-4 P5 L                  P5 −584; P6 P7 160
  T3 (3) P8 P9 P10:    games 1, 2 P9 L; game 3 P10 L   P8 120; P9 −292 + 40 = −252;
                                                       P10 −146 + 80 = −66
  T4 (3) P11 P12 P13:  games 1-5 P11 L; game 6 P12 L   P11 −730 + 40 = −690;
                                                       P12 200 − 146 = 54; P13 240

Ranking: P13 240; P6, P7 160 (shared 2nd); P8 120; P12 54; P1, P3, P4 30; P10 −66;
P2 −146; P9 −252; P5 −584; P11 −690.

Money: entry 10.00 × 13 = 130.00. Lost-game fees (0.50 for each of the first three lost
games of a list, 1.00 from the fourth): P2 0.50; P5 3 × 0.50 + 1.00 = 2.50; P9 1.00;
P10 0.50; P11 1.50 + 2 × 1.00 = 3.50; P12 0.50 → 8.50. Tables: T1 0.50, T2 2.50, T3 1.50,
T4 4.00. Pot 138.50. Prizes 50 %, 30 %, 20 % of the pot, rounded down to whole euros:
69.25 → 69, 41.55 → 41, 27.70 → 27. P6 and P7 share places 2 and 3: (41 + 27) / 2 = 34.00
each. Paid out 69 + 34 + 34 = 137.00; rest 1.50.
"""

from __future__ import annotations

import io
from decimal import Decimal

import pypdf
import pytest
from django.urls import reverse

from skatliga import services
from skatliga.services import money
from tests.web.factories import entry, make_player, make_table, make_tournament, play

D = Decimal


def lost(seat):
    return entry(seat, "grand", bid=18, matadors=1, card_points=50, tricks=4)


def passed(count):
    return [entry() for _ in range(count)]


@pytest.fixture
def evening(db):
    players = [make_player(f"P{n}") for n in range(1, 14)]
    tournament = make_tournament(slug="preisskat", rounds=2)
    make_table(tournament, players=players[0:4])
    make_table(tournament, players=players[4:7])
    make_table(tournament, players=players[7:10])
    make_table(tournament, players=players[10:13])
    t1, t2, t3, t4 = tournament.series.get().tables.order_by("number")
    play(t1, lost(2), *passed(7))
    play(t2, lost(1), lost(1), lost(1), lost(1), *passed(2))
    play(t3, lost(2), lost(2), lost(3), *passed(3))
    play(t4, lost(1), lost(1), lost(1), lost(1), lost(1), lost(2))
    money.save_purse(
        tournament,
        entry_fee=D("10.00"),
        lost_fee=D("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=D("1.00"),
        prizes=["50%", "30%", "20%"],
    )
    return tournament


def test_a_13_player_evening_settles_to_the_cent(evening):
    settlement = money.settle(evening)

    assert settlement.entries == D("130.00")
    assert settlement.lost_fees == D("8.50")
    assert settlement.pot == D("138.50")
    assert settlement.prizes == (D("69.00"), D("41.00"), D("27.00"))
    assert [(t.table, t.fees) for t in settlement.tables] == [
        (1, D("0.50")),
        (2, D("2.50")),
        (3, D("1.50")),
        (4, D("4.00")),
    ]
    by_name = {p.player: p for p in settlement.players}
    assert [(p.rank, p.player, p.prize) for p in settlement.players[:4]] == [
        (1, "P13", D("69.00")),
        (2, "P6", D("34.00")),
        (2, "P7", D("34.00")),
        (4, "P8", D("0.00")),
    ]
    assert {name: p.lost_fees for name, p in by_name.items() if p.lost_fees} == {
        "P2": D("0.50"),
        "P5": D("2.50"),
        "P9": D("1.00"),
        "P10": D("0.50"),
        "P11": D("3.50"),
        "P12": D("0.50"),
    }
    assert by_name["P11"].balance == D("-13.50")
    assert by_name["P13"].balance == D("59.00")
    assert by_name["P6"].balance == D("24.00")
    assert settlement.paid_out == D("137.00")
    assert settlement.rest == D("1.50")
    # Everything adds up: what the players paid is the pot; prizes plus rest are the pot.
    assert sum(p.paid for p in settlement.players) == settlement.pot
    assert sum(p.balance for p in settlement.players) + settlement.rest == 0


def test_the_balance_is_what_changes_hands_after_fees_paid_at_the_door(evening):
    """The desk marked four entry fees: P13 cash, P6 card, P11 cash, P2 "later" (not paid).

    A paid fee is not asked for again: P13 (1st, 69.00, no lost game) gets 69.00, not
    69.00 − 10.00 = 59.00; P6 (34.00) gets 34.00, not 24.00; P11 (3.50 of lost-game fees)
    pays 3.50, not 13.50. P2 pays 10.00 + 0.50 = 10.50; P7 (34.00, unpaid) gets 24.00.

    The others owe their entry fee: P1, P3, P4, P8 10.00 each; P5 12.50; P9 11.00; P10
    and P12 10.50 each. To collect: 4 × 10.00 + 12.50 + 11.00 + 2 × 10.50 + 10.50 (P2) +
    3.50 (P11) = 98.50; to pay out: 69.00 + 34.00 + 24.00 = 127.00. The box holds the
    30.00 paid at the door: 30.00 + 98.50 − 127.00 = 1.50, the rest.
    """
    from skatliga.models import Registration
    from skatliga.services.checkin import mark

    for name, fee in (("P13", "cash"), ("P6", "card"), ("P11", "cash"), ("P2", "later")):
        mark(Registration.objects.get(tournament=evening, player__name=name), fee=fee)
    settlement = money.settle(evening)
    balance = {p.player: p.balance for p in settlement.players}

    assert balance == {
        "P13": D("69.00"),
        "P6": D("34.00"),
        "P7": D("24.00"),
        "P8": D("-10.00"),
        "P12": D("-10.50"),
        "P1": D("-10.00"),
        "P3": D("-10.00"),
        "P4": D("-10.00"),
        "P10": D("-10.50"),
        "P2": D("-10.50"),
        "P9": D("-11.00"),
        "P5": D("-12.50"),
        "P11": D("-3.50"),
    }
    assert settlement.entries_paid == D("30.00")
    assert (settlement.to_collect, settlement.to_pay_out) == (D("98.50"), D("127.00"))
    assert settlement.entries_paid + settlement.to_collect - settlement.to_pay_out == (
        settlement.rest
    )


def test_a_substitute_owes_no_entry_fee_and_says_so(client, django_user_model):
    """A 3-table, one round: Carla leaves after game 1, Sven plays her seat from game 2 and
    loses it (grand with 1 at 50 card points: −96 − 50 = −146; Anna and Bernd +40 each).
    Entry fees 3 × 10.00 (Sven is not registered), Sven's lost game 0.50: pot 30.50. Sven
    owes no entry fee: his balance is his lost game, −0.50."""
    anna, bernd, carla = (make_player(name) for name in ("Anna", "Bernd", "Carla"))
    table = make_table(players=[anna, bernd, carla], rounds=1, slug="ersatz")
    tournament = table.series.tournament
    money.save_purse(
        tournament,
        entry_fee=D("10.00"),
        lost_fee=D("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=D("1.00"),
        prizes=[],
    )
    play(table, entry())
    services.appoint_substitute(table, 3, 2, name="Sven Ersatz")
    play(table, lost(3), entry())

    settlement = money.settle(tournament)
    [sven] = [p for p in settlement.players if p.player == "Sven Ersatz"]
    assert (sven.entry, sven.pays_entry, sven.fee_paid) == (D("0.00"), False, False)
    assert (sven.lost_fees, sven.balance) == (D("0.50"), D("-0.50"))
    assert settlement.pot == D("30.50")

    user = django_user_model.objects.create_user("kasse")
    tournament.referees.add(user)
    client.force_login(user)
    page = client.get(reverse("referee:money", args=["ersatz"])).content.decode()
    row = page.split("Sven Ersatz", 1)[1].split("</tr>", 1)[0]
    assert 'data-fee="none">kein Startgeld<' in row and "offen" not in row
    assert "—" in row


def test_a_series_shows_its_lost_game_fees_only(evening):
    settlement = money.settle(evening, evening.series.get())
    assert settlement.pot == D("8.50")
    assert all(p.prize == 0 and p.entry == 0 for p in settlement.players)


def test_fixed_prizes_and_bad_prizes(evening):
    money.save_purse(
        evening,
        entry_fee=D("10.00"),
        lost_fee=D("0.50"),
        lost_fee_threshold=3,
        lost_fee_later=D("1.00"),
        prizes=["60", "25,50"],
    )
    settlement = money.settle(evening)
    # P6 and P7 share places 2 and 3: (25.50 + 0) / 2 = 12.75.
    assert [p.prize for p in settlement.players[:3]] == [D("60.00"), D("12.75"), D("12.75")]
    assert settlement.rest == D("138.50") - D("85.50")
    with pytest.raises(services.ServiceError) as error:
        money.save_purse(
            evening,
            entry_fee=D("10"),
            lost_fee=D("0.5"),
            lost_fee_threshold=3,
            lost_fee_later=D("1"),
            prizes=["zehn"],
        )
    assert error.value.code == "prize_invalid"


def test_the_settlement_page_and_pdf(client, django_user_model, evening):
    user = django_user_model.objects.create_user("kasse")
    evening.referees.add(user)
    client.force_login(user)

    page = client.get(reverse("referee:money", args=["preisskat"]))
    assert page.status_code == 200
    assert page.context["settlement"].pot == D("138.50")
    response = client.get(reverse("referee:money-pdf", args=["preisskat"]))
    text = " ".join(
        " ".join(p.extract_text().split())
        for p in pypdf.PdfReader(io.BytesIO(response.content)).pages
    )
    assert "Abrechnung" in text
    assert "138,50" in text and "1,50" in text and "69,00" in text
    bad = client.post(
        reverse("referee:money", args=["preisskat"]),
        {
            "entry_fee": "10",
            "lost_fee": "0,50",
            "lost_fee_threshold": "3",
            "lost_fee_later": "1",
            "prizes": "50%\nzwölf",
        },
    )
    assert bad.status_code == 400
    assert bad.context["form"].errors.as_data()["prizes"][0].code == "prize_invalid"


def test_a_tournament_without_a_purse_settles_to_nothing(client, django_user_model):
    # The 8 passed-in games of one 4-table: nobody lost, no fees, no entry fee set.
    tournament = make_tournament(players=4, size=4, rounds=2, slug="ohne")
    play(tournament.series.get().tables.get(), *passed(8))

    settlement = money.settle(tournament)

    assert (settlement.pot, settlement.rest) == (D("0.00"), D("0.00"))
    user = django_user_model.objects.create_user("kasse")
    tournament.referees.add(user)
    client.force_login(user)
    assert client.get(reverse("referee:money", args=["ohne"])).status_code == 200
    assert (
        client.get(reverse("referee:money-pdf", args=["ohne"]), {"series": "1"}).status_code == 200
    )


@pytest.mark.parametrize(("language", "shown"), [("de", 'value="0,50"'), ("en", 'value="0.50"')])
def test_the_money_form_writes_amounts_in_the_interfaces_language(
    client, django_user_model, language, shown
):
    from django.utils import translation

    tournament = make_tournament(slug="geld")
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    tournament.referees.add(user)
    client.force_login(user)
    with translation.override(language):
        url = reverse("referee:money", args=[tournament.slug])

    assert shown in client.get(url).content.decode()


def test_the_money_pdf_writes_a_debt_with_a_real_minus():
    from django.utils import translation

    from skatliga.money.pdf import euros

    with translation.override("de"):
        assert (euros(Decimal("-1.50")), euros(Decimal("0.50"))) == ("\u22121,50", "0,50")


def test_the_settlement_page_writes_a_debt_with_a_real_minus(client, django_user_model, evening):
    """P11 pays 13.50 (nothing paid at the door): the Saldo column says −13,50, as the PDF
    does, never the hyphen of -13,50."""
    user = django_user_model.objects.create_user("kasse")
    evening.referees.add(user)
    client.force_login(user)

    page = client.get(reverse("referee:money", args=["preisskat"])).content.decode()
    row = page.split("<td>P11</td>", 1)[1].split("</tr>", 1)[0]

    assert '<td class="number total" data-balance>\u221213,50</td>' in row
    assert "-13,50" not in page.split("<tbody>", 1)[1]

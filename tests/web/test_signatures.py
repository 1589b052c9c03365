"""Signatures at the table: every seated player confirms the complete list, a correction
clears the signatures, and closing a list kept at the table without all signatures takes a
reason."""

import io

import pytest
from django.core.cache import cache
from django.urls import reverse
from pypdf import PdfReader

from skatliga import pdf, printing, services
from skatliga.models import Change, Signature
from skatliga.services import table_links as links
from tests.web.factories import entry, make_player, make_table, play
from tests.web.test_referee_entry import row

pytestmark = pytest.mark.django_db

# Grand hand with 2, bid 24, 78 card points in 7 tricks: (2 + 1 + 1 hand) × 24 = 96; under
# Seeger-Fabian the declarer's total is 96 + 50 for the won game = 146 (test_table_links).
GRAND = dict(declarer=2, game="grand", matadors=2, hand=True, bid=24, card_points=78, tricks=7)


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


def kept(size=3, **fields):
    """A table of ``size`` with one round whose list was entered at the table: game 1 a
    Grand (at a 5-table a classic list: Seeger-Fabian has no 5-tables), the rest passed in."""
    if size == 5:
        fields.setdefault("scoring", "classic")
    table = make_table(size=size, rounds=1, **fields)
    link = links.renew_link(table)
    grand = entry(2, "grand", bid=24, matadors=2, hand=True, card_points=78, tricks=7)
    services.record_game(table, 1, grand, device="Tablet")
    for number in range(2, size + 1):
        services.record_game(table, number, entry(), device="Tablet")
    return table, link


@pytest.fixture
def device(client):
    def name(link):
        client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})
        return client

    return name


@pytest.fixture
def referee(client, django_user_model):
    def login(table):
        user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
        table.series.tournament.referees.add(user)
        client.force_login(user)
        return client

    return login


def sign_url(link, position):
    return reverse("table:sign-seat", args=[link.token, position])


def list_url(table, name="referee:list"):
    return reverse(name, args=[table.series.tournament.slug, table.series.number, table.number])


def kept_with_substitute():
    """The hand-worked list of test_substitutes entered at the table: Bernd (seat 2) left
    after game 9, Emil played games 10-12; Bernd's total is -18, Emil's 26."""
    from tests.web.test_substitutes import GAMES

    players = [make_player(name) for name in ("Anna", "Bernd", "Carla")]
    table = make_table(rounds=4, players=players)
    link = links.renew_link(table)
    for number, game in enumerate(GAMES, start=1):
        services.record_game(table, number, game, device="Tablet")
    services.appoint_substitute(table, 2, 10, player=make_player("Emil"))
    return table, link


# --- signing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_seated_player_signs_at_3_4_and_5_tables(device, size):
    table, link = kept(size)
    client = device(link)

    for position in range(1, size + 1):
        state = client.get(sign_url(link, position)).context["state"]
        response = client.post(sign_url(link, position), {"state": state})
        assert response.status_code == 302

    assert sorted(Signature.objects.filter(table=table).values_list("position", flat=True)) == list(
        range(1, size + 1)
    )
    page = client.get(reverse("table:entry", args=[link.token]))
    assert page.context["signatures"].all_signed


def test_the_confirmation_shows_the_list_with_that_players_total_first(device):
    table, link = kept(3)

    third = device(link).get(sign_url(link, 3)).context
    second = device(link).get(sign_url(link, 2)).context

    assert [(item.seat.position, total) for item, total in third["totals"]] == [
        (3, "0"),
        (1, "0"),
        (2, "146"),
    ]
    assert [(item.seat.position, total) for item, total in second["totals"]] == [
        (2, "146"),
        (1, "0"),
        (3, "0"),
    ]
    assert [r["entry"] for r in second["rows"]] == ["+96", "0", "0"]


def test_a_signature_is_logged_with_the_devices_name(device):
    table, link = kept(3)
    client = device(link)

    client.post(sign_url(link, 1), {"state": services.list_state(table)})

    change = Change.objects.get(table=table, action=Change.Action.LIST_SIGNED)
    assert (change.device, change.after["seat"]) == ("Tablet 3", 1)


def test_an_incomplete_list_cannot_be_signed():
    table = make_table(size=3, rounds=1)
    play(table, entry())

    with pytest.raises(services.ServiceError) as error:
        services.sign_list(table, 1, state=services.list_state(table))

    assert error.value.code == "list_incomplete"
    assert not Signature.objects.exists()


def test_signing_a_list_changed_since_it_was_shown_is_refused(device):
    """The version check: the player signs the list as they saw it."""
    table, link = kept(3)
    client = device(link)
    seen = client.get(sign_url(link, 1)).context["state"]
    services.record_game(
        table, 3, entry(1, "clubs", bid=18, matadors=1, card_points=61), expected_version=1
    )

    response = client.post(sign_url(link, 1), {"state": seen})

    assert response.status_code == 409
    assert response.context["action_error"]["code"] == "list_changed"
    assert not Signature.objects.exists()


def test_a_seat_nobody_sits_in_cannot_sign(device):
    table, link = kept(3)

    assert device(link).post(sign_url(link, 4), {"state": 0}).status_code == 404
    with pytest.raises(services.ServiceError) as error:
        services.sign_list(table, 4, state=services.list_state(table))
    assert (error.value.code, error.value.field) == ("seat_unknown", "position")


def test_signing_twice_keeps_the_first_signature():
    table, _link = kept(3)
    first = services.sign_list(table, 1, state=services.list_state(table))

    again = services.sign_list(table, 1, state=services.list_state(table))

    assert again.pk == first.pk
    assert Change.objects.filter(action=Change.Action.LIST_SIGNED).count() == 1


# --- a correction clears the signatures --------------------------------------------------------


def test_a_correction_after_signing_clears_every_signature_and_says_so(device):
    table, link = kept(3)
    client = device(link)
    for position in (1, 2):
        services.sign_list(table, position, state=services.list_state(table))

    response = client.post(
        reverse("table:entry", args=[link.token]),
        row(3, version=1, clear_signatures=True, **GRAND),
        follow=True,
    )

    assert not Signature.objects.filter(table=table).exists()
    assert "alle Unterschriften sind gelöscht" in response.content.decode()
    cleared = Change.objects.get(table=table, action=Change.Action.SIGNATURES_CLEARED)
    assert (cleared.game_number, cleared.before, cleared.device) == (
        3,
        {"signatures": 2},
        "Tablet 3",
    )


def test_a_correction_of_an_unsigned_list_says_nothing_of_signatures(device):
    table, link = kept(3)

    response = device(link).post(
        reverse("table:entry", args=[link.token]), row(3, version=1, **GRAND), follow=True
    )

    assert "Spiel 3 gespeichert" in response.content.decode()
    assert "Unterschriften sind gelöscht" not in response.content.decode()
    assert not Change.objects.filter(action=Change.Action.SIGNATURES_CLEARED).exists()


def test_deleting_the_last_game_clears_the_signatures_too():
    table, _link = kept(3)
    services.sign_list(table, 1, state=services.list_state(table))

    services.delete_last_game(table, 3, expected_version=1, reason="doppelt")

    assert not Signature.objects.exists()
    assert Change.objects.filter(action=Change.Action.SIGNATURES_CLEARED).exists()


# --- closing ---------------------------------------------------------------------------------


def sign_all(table):
    for position in range(1, table.size + 1):
        services.sign_list(table, position, state=services.list_state(table))


def test_a_signed_list_closes_with_one_click(referee):
    table, _link = kept(3)
    sign_all(table)

    response = referee(table).post(list_url(table, "referee:close"))

    table.refresh_from_db()
    assert response.status_code == 302
    assert table.is_closed
    closed = Change.objects.get(table=table, action=Change.Action.LIST_CLOSED)
    assert (closed.after, closed.reason) == ({"signed": 3, "seats": 3}, "")


@pytest.mark.parametrize("signers", [0, 2])
def test_an_unsigned_or_partly_signed_list_asks_for_a_reason(referee, signers):
    table, _link = kept(3)
    for position in range(1, signers + 1):
        services.sign_list(table, position, state=services.list_state(table))

    response = referee(table).post(list_url(table, "referee:close"))

    table.refresh_from_db()
    assert response.status_code == 400
    errors = response.context["close_form"].errors.as_data()["reason"]
    assert [e.code for e in errors] == ["unsigned_reason_required"]
    assert f"{signers} von 3" in errors[0].messages[0]
    assert not table.is_closed


def test_an_unsigned_list_closes_with_a_reason_which_the_log_keeps(referee):
    table, _link = kept(3)
    services.sign_list(table, 1, state=services.list_state(table))

    response = referee(table).post(
        list_url(table, "referee:close"), {"reason": "Spieler 3 vorzeitig gegangen"}
    )

    table.refresh_from_db()
    assert response.status_code == 302
    assert table.is_closed
    closed = Change.objects.get(table=table, action=Change.Action.LIST_CLOSED)
    assert closed.reason == "Spieler 3 vorzeitig gegangen"
    assert closed.after == {"signed": 1, "seats": 3}


def test_a_list_the_referee_typed_from_paper_closes_without_signatures():
    """The paper carries the signatures (docs/rules.md section 10.9)."""
    table = make_table(size=3, rounds=1)
    play(table, entry(), entry(), entry())

    services.close_table(table)

    table.refresh_from_db()
    assert table.is_closed


def test_the_referees_list_page_shows_who_signed(referee):
    table, _link = kept(3)
    services.sign_list(table, 2, state=services.list_state(table))

    response = referee(table).get(list_url(table))

    signatures = response.context["signatures"]
    assert [item.signature is not None for item in signatures.seats] == [False, True, False]
    assert "1 von 3 unterschrieben" in response.content.decode()


def test_the_history_says_who_signed_and_that_a_correction_cleared_it(referee):
    table, _link = kept(3)
    services.sign_list(table, 1, state=services.list_state(table), device="Tablet")
    services.record_game(table, 3, entry(), user=None, expected_version=1, device="Tablet")

    history = referee(table).get(list_url(table)).context["history"]

    texts = {item["change"].action: item["after"] for item in history}
    player = table.seats.get(position=1).player
    assert texts[Change.Action.LIST_SIGNED] == f"{player} (Platz 1)"
    assert texts[Change.Action.SIGNATURES_CLEARED] == (
        "1 Unterschrift gelöscht: bitte neu unterschreiben"
    )


# --- a substitute signs for his own games ------------------------------------------------------


def test_the_sign_page_names_the_player_who_left_and_the_substitute_apart(device):
    table, link = kept_with_substitute()

    page = device(link).get(reverse("table:sign", args=[link.token])).content.decode()

    assert [str(item.person) for item in signatures_of(table).seats] == [
        "Anna",
        "Bernd",
        "Emil",
        "Carla",
    ]
    assert "Spiele 1–9" in page and "Ersatz ab Spiel 10" in page
    assert reverse("table:sign-substitute", args=[link.token, 2]) in page


def test_the_substitute_reviews_his_own_total_and_signs_for_it(device):
    table, link = kept_with_substitute()
    client = device(link)
    url = reverse("table:sign-substitute", args=[link.token, 2])

    context = client.get(url).context
    totals = [(str(item.person), total) for item, total in context["totals"]]
    assert totals == [("Emil", "26"), ("Anna", "218"), ("Bernd", "−18"), ("Carla", "−114")]
    assert [r["declarer"] for r in context["rows"]][8:11] == ["Bernd", "Emil", "Emil"]
    client.post(url, {"state": context["state"]})

    signature = Signature.objects.get(table=table)
    assert (signature.position, signature.substitute) == (2, True)
    status = signatures_of(table)
    assert [item.signature is not None for item in status.seats] == [False, False, True, False]
    assert "Emil" in Change.objects.get(action=Change.Action.LIST_SIGNED).after["player"]


def test_a_list_with_a_substitute_is_signed_when_all_four_signed(referee):
    table, link = kept_with_substitute()
    state = services.list_state(table)
    for position in (1, 2, 3):
        services.sign_list(table, position, state=state)

    with pytest.raises(services.ServiceError) as refused:
        services.close_table(table)
    assert refused.value.params == {"signed": 3, "seats": 4}
    status = referee(table).get(
        reverse("referee:series-status", args=[table.series.tournament.slug, table.series.number])
    )
    assert status.json()["tables"][0]["seats"] == 4

    services.sign_list(table, 2, state=state, substitute=True)
    services.close_table(table)


def test_a_seat_without_substitute_has_no_substitute_to_sign(device):
    table, link = kept(3)

    with pytest.raises(services.ServiceError) as refused:
        services.sign_list(table, 2, state=services.list_state(table), substitute=True)
    assert refused.value.code == "seat_unknown"
    assert (
        device(link).get(reverse("table:sign-substitute", args=[link.token, 2])).status_code == 404
    )


def signatures_of(table):
    from skatliga.sheet import signatures

    return signatures(table)


def test_the_change_log_names_the_device_of_an_entry_at_the_table(referee):
    table, link = kept(3)

    page = referee(table).get(reverse("referee:changes", args=[table.series.tournament.slug]))

    cells = [
        " ".join(row.split("<td>")[1].split("</td>")[0].split())
        for row in page.content.decode().split('data-action="game_recorded"')[1:]
    ]
    assert cells == ["am Tisch (Tablet)"] * 3


def test_the_completed_sheet_prints_who_signed_when_and_on_which_device(device):
    table, link = kept_with_substitute()
    client = device(link)
    state = services.list_state(table)
    for position in (1, 3):
        client.post(sign_url(link, position), {"state": state})
    client.post(reverse("table:sign-substitute", args=[link.token, 2]), {"state": state})

    data = printing.sheet_data(table)
    text = " ".join(
        " ".join(
            page.extract_text()
            for page in PdfReader(io.BytesIO(pdf.score_sheets_pdf([data]))).pages
        ).split()
    )

    assert [line.count("Tablet 3") for line in data.signed] == [1, 1, 1]
    assert data.signed[1].startswith("Emil: ✓ ")
    assert "Emil: ✓" in text and text.count("Tablet 3") == 3
    assert printing.series_sheets(table.series)[0].signed == data.signed


def test_the_dashboard_card_names_the_substitute_beside_the_player_who_left(referee):
    table, _link = kept_with_substitute()
    url = reverse("referee:series", args=[table.series.tournament.slug, table.series.number])

    page = " ".join(referee(table).get(url).content.decode().split())

    assert 'Bernd <span class="seat-substitute">ab Spiel 10: Emil</span>' in page
    assert "0 von 4 unterschrieben" in page

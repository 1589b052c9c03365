"""Seat codes (issue 27, item 6): where the tournament asks for them, each player signs the
list with his seat's code from the table card, not just by tapping his name on the table's
device; every signature records how it was made, and the list and the score sheet say so."""

import os
import re
import shutil
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from skatliga import printing, services
from skatliga.models import Change, Signature, limits
from skatliga.services import table_links as links
from skatliga.services.confirmation import SEAT_CODE_PAUSE, WRONG_SEAT_CODES_PER_HOUR
from skatliga.sheet import player_sign_codes, sign_code
from tests.web.factories import entry, make_player, make_table

pytestmark = pytest.mark.django_db


def complete(seat_codes=True, players=None):
    """A 3-table of one round, its three games entered at the table; the tournament asks for
    seat codes unless ``seat_codes`` is False."""
    table = make_table(size=3, rounds=1, players=players, seat_codes=seat_codes)
    link = links.renew_link(table)
    grand = entry(2, "grand", bid=24, matadors=2, hand=True, card_points=78, tricks=7)
    services.record_game(table, 1, grand, device="Tablet")
    for number in (2, 3):
        services.record_game(table, number, entry(), device="Tablet")
    return table, link


def code_of(table, position, substitute=False):
    return sign_code(table.seats.get(position=position), substitute=substitute)


def wrong_code(table, position, substitute=False):
    """A code of four digits that is not the seat's."""
    return "0000" if code_of(table, position, substitute) != "0000" else "1111"


def refused(call):
    with pytest.raises(services.ServiceError) as failure:
        call()
    return failure.value.code


# --- the service -----------------------------------------------------------------------------


def test_every_seat_has_its_own_four_digit_codes():
    table, _link = complete()
    seats = list(table.seats.all())

    for seat in seats:
        assert len(seat.sign_code) == 4 and seat.sign_code.isdigit()
        assert len(seat.substitute_code) == 4 and seat.substitute_code.isdigit()
    # 3 seats × 2 codes of 10,000 each: six equal ones by chance are (1/10,000)^5.
    assert len({code for seat in seats for code in (seat.sign_code, seat.substitute_code)}) > 1


def test_without_the_setting_a_tap_signs_as_before_and_records_the_device():
    table, _link = complete(seat_codes=False)
    state = services.list_state(table)

    signature = services.sign_list(table, 1, state=state, device="Tablet 3")

    assert signature.method == Signature.Method.DEVICE
    assert signature.device == "Tablet 3"
    # Nothing is asked of the signer: not even a wrong code is refused.
    assert services.sign_list(table, 2, state=state, code="no code").method == "device"


def test_a_missing_or_wrong_code_is_refused_and_nothing_is_signed():
    table, _link = complete()
    state = services.list_state(table)

    assert refused(lambda: services.sign_list(table, 1, state=state)) == "seat_code_missing"
    assert (
        refused(lambda: services.sign_list(table, 1, state=state, code=wrong_code(table, 1)))
        == "seat_code_wrong"
    )
    # Seat 2's code is not seat 1's.
    other = code_of(table, 2)
    if other != code_of(table, 1):
        assert refused(lambda: services.sign_list(table, 1, state=state, code=other)) == (
            "seat_code_wrong"
        )
    assert not Signature.objects.exists()


def test_the_right_code_signs_and_the_signature_says_it_was_made_with_it():
    table, _link = complete()
    state = services.list_state(table)
    code = code_of(table, 1)

    signature = services.sign_list(
        table, 1, state=state, device="Tablet 3", code=f" {code[:2]} {code[2:]} "
    )

    assert (signature.position, signature.method, signature.device) == (1, "code", "Tablet 3")
    assert signature.get_method_display() == "mit Sitzcode"
    change = Change.objects.get(action=Change.Action.LIST_SIGNED)
    assert change.after["signed_with"] == "code"


def test_the_substitute_signs_with_his_own_code():
    players = [make_player(name) for name in ("Anna", "Bernd", "Carla")]
    table, _link = complete(players=players)
    services.appoint_substitute(table, 2, 2, player=make_player("Emil"))
    state = services.list_state(table)
    player_code, own = code_of(table, 2), code_of(table, 2, substitute=True)

    if player_code != own:
        assert refused(
            lambda: services.sign_list(table, 2, state=state, substitute=True, code=player_code)
        ) == ("seat_code_wrong")
    signature = services.sign_list(table, 2, state=state, substitute=True, code=own)

    assert (signature.substitute, signature.method) == (True, "code")


class Clock:
    """The time the rate limits read (``models.limits.time``), set by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    """At 20:00:05 of an hour; the test moves it on."""
    moved = Clock(3600 * 500_000 + 5)
    monkeypatch.setattr(limits, "time", moved)
    return moved


def test_a_strangers_wrong_codes_never_stop_the_right_code_on_another_device(clock):
    """Issue 37, item 5: four wrong codes used to lock the seat for the hour, whoever typed
    them. Twelve wrong codes from the neighbour's phone leave seat 1 free to sign on the
    table's device."""
    table, _link = complete()
    state = services.list_state(table)
    wrong, right = wrong_code(table, 1), code_of(table, 1)

    tried = [
        refused(
            lambda: services.sign_list(table, 1, state=state, code=wrong, tries_from="neighbour")
        )
        for _ in range(12)
    ]

    assert tried == ["seat_code_wrong"] * 5 + ["seat_code_limited"] * 7
    signature = services.sign_list(table, 1, state=state, code=right, tries_from="tablet")
    assert (signature.position, signature.method) == (1, "code")


def test_after_five_wrong_codes_a_device_tries_once_a_minute(clock, django_user_model):
    """Five wrong codes in the hour from one device, then one try a minute on it: a guesser
    of the 10,000 codes gets about 65 tries an hour; the player on that same device signs
    within the minute, on another at once, and the referee whenever he likes."""
    table, _link = complete()
    state = services.list_state(table)
    wrong, right = wrong_code(table, 1), code_of(table, 1)

    def sign(code):
        return services.sign_list(table, 1, state=state, code=code, tries_from="tablet")

    assert WRONG_SEAT_CODES_PER_HOUR == 5 and SEAT_CODE_PAUSE == 60
    assert [refused(lambda: sign(wrong)) for _ in range(5)] == ["seat_code_wrong"] * 5
    # In the minute of the fifth wrong code not even the right one is looked at.
    with pytest.raises(services.ServiceError) as waiting:
        sign(right)
    assert waiting.value.code == "seat_code_limited"
    assert waiting.value.params == {"seconds": 55}
    # The next minute: one try, wrong, and the device waits again.
    clock.now += 60
    assert refused(lambda: sign(wrong)) == "seat_code_wrong"
    assert refused(lambda: sign(right)) == "seat_code_limited"
    # Another seat, and the referee, are not held up.
    assert services.sign_list(table, 2, state=state, code=code_of(table, 2), tries_from="tablet")
    referee = django_user_model.objects.create_user("anna")
    assert services.sign_list(table, 3, state=state, user=referee, by_referee=True)
    # The minute after: the right code signs on the same device.
    clock.now += 60
    assert sign(right).method == Signature.Method.CODE


def test_a_player_reads_the_codes_of_his_open_lists():
    players = [make_player(name) for name in ("Anna", "Bernd", "Carla")]
    table, _link = complete(players=players)
    emil = make_player("Emil")
    services.appoint_substitute(table, 2, 2, player=emil)
    tournament = table.series.tournament

    assert [
        (c.series, c.table, c.position, c.code) for c in player_sign_codes(players[1], tournament)
    ] == [(1, table.number, 2, code_of(table, 2))]
    assert [c.code for c in player_sign_codes(emil, tournament)] == [
        code_of(table, 2, substitute=True)
    ]
    tournament.seat_codes = False
    tournament.save()
    assert player_sign_codes(players[1], tournament) == []


# --- the table's sign page -------------------------------------------------------------------


@pytest.fixture
def device(client):
    def name(link):
        client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})
        return client

    return name


def sign_url(link, position):
    return reverse("table:sign-seat", args=[link.token, position])


def test_the_sign_page_asks_for_the_code_refuses_a_wrong_one_and_signs_with_the_right(device):
    table, link = complete()
    client = device(link)
    page = client.get(sign_url(link, 1))
    state = page.context["state"]
    assert 'name="code"' in page.content.decode()

    response = client.post(sign_url(link, 1), {"state": state, "code": wrong_code(table, 1)})

    assert response.status_code == 409
    text = response.content.decode()
    assert 'data-code="seat_code_wrong"' in text and "Der Sitzcode stimmt nicht." in text
    # Nothing lost: the list is still there to sign, with the same state.
    assert f'name="state" value="{state}"' in text and 'id="sign-confirm"' in text
    assert not Signature.objects.exists()

    response = client.post(sign_url(link, 1), {"state": state, "code": code_of(table, 1)})

    assert response.status_code == 302
    assert Signature.objects.get().method == "code"
    listing = client.get(reverse("table:entry", args=[link.token])).content.decode()
    assert "(mit Sitzcode)" in listing


def test_a_neighbours_phone_cannot_keep_the_player_from_signing_at_the_table(device):
    """Both phones behind the hall's one address: the neighbour types wrong codes for seat 1
    on his own phone until it makes him wait; the table's device still signs seat 1 with
    its code at once."""
    table, link = complete()
    tablet = device(link)
    neighbour = Client()
    state = tablet.get(sign_url(link, 1)).context["state"]
    wrong = {"state": state, "code": wrong_code(table, 1)}

    answers = [neighbour.post(sign_url(link, 1), wrong) for _ in range(8)]

    codes = [re.search(r'data-code="(\w+)"', r.content.decode())[1] for r in answers]
    assert codes == ["seat_code_wrong"] * 5 + ["seat_code_limited"] * 3
    assert {r.status_code for r in answers} == {409}
    right = tablet.post(sign_url(link, 1), {"state": state, "code": code_of(table, 1)})
    assert right.status_code == 302
    assert Signature.objects.get().position == 1


def test_a_wrong_code_is_explained_in_the_pages_language(device):
    table, link = complete()
    client = device(link)
    with translation.override("en"):
        url = sign_url(link, 1)
    assert url.startswith("/en/")
    state = client.get(url).context["state"]

    response = client.post(url, {"state": state, "code": wrong_code(table, 1)})

    assert "The seat code is wrong." in response.content.decode()


def test_without_the_setting_the_sign_page_asks_for_no_code(device):
    _table, link = complete(seat_codes=False)
    client = device(link)

    page = client.get(sign_url(link, 1))
    response = client.post(sign_url(link, 1), {"state": page.context["state"]})

    assert 'name="code"' not in page.content.decode()
    assert response.status_code == 302
    assert Signature.objects.get().method == "device"


# --- the referee -----------------------------------------------------------------------------


@pytest.fixture
def referee(client, django_user_model):
    def login(table):
        user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
        table.series.tournament.referees.add(user)
        client.force_login(user)
        return client

    return login


def list_url(table, name="referee:list"):
    return reverse(name, args=[table.series.tournament.slug, table.series.number, table.number])


def test_the_referee_turns_seat_codes_on_in_the_tournament_settings(referee):
    table, _link = complete(seat_codes=False)
    tournament = table.series.tournament
    client = referee(table)
    url = reverse("referee:tournament-settings", args=[tournament.slug])
    assert 'name="seat_codes"' in client.get(url).content.decode()

    response = client.post(
        url,
        {
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "rules": tournament.rules,
            "scoring": tournament.scoring,
            "rounds_per_series": tournament.rounds_per_series,
            "seat_codes": "on",
        },
    )

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.seat_codes is True


def test_the_referee_sees_the_codes_and_how_each_signature_was_made(referee):
    table, _link = complete()
    client = referee(table)
    state = services.list_state(table)
    services.sign_list(table, 1, state=state, device="Tablet 3", code=code_of(table, 1))

    series = client.get(
        reverse("referee:series", args=[table.series.tournament.slug, 1])
    ).content.decode()
    for seat in table.seats.all():
        assert f'<span class="seat-code" title="Sitzcode">{seat.sign_code}</span>' in series

    response = client.post(list_url(table, "referee:sign-confirm"), {"seat": 2, "state": state})

    assert response.status_code == 302
    page = client.get(list_url(table)).content.decode()
    assert "(mit Sitzcode)" in page and "(durch die Turnierleitung)" in page
    assert [(s.position, s.method) for s in Signature.objects.order_by("position")] == [
        (1, "code"),
        (2, "referee"),
    ]
    # Seat 3 is still open: the referee may confirm it.
    assert page.count('class="sign-confirm"') == 1


def test_the_public_seat_list_prints_no_codes(client):
    table, _link = complete()
    slug = table.series.tournament.slug

    page = client.get(reverse("seats", args=[slug, 1])).content.decode()
    printed = pdf_text(client.get(reverse("seats-pdf", args=[slug, 1])).content)

    assert "seat-code" not in page and "Sitzcode" not in page and "Sitzcode" not in printed


# --- the PDFs --------------------------------------------------------------------------------


def pdf_text(data):
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode()


needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="needs pdftotext from poppler"
)


@needs_pdftotext
def test_the_table_card_prints_each_seats_code_beside_its_name(referee):
    players = [make_player(name) for name in ("Anna", "Bernd", "Carla")]
    table, _link = complete(players=players)
    client = referee(table)

    response = client.get(reverse("referee:table-cards", args=[table.series.tournament.slug, 1]))

    if os.environ.get("SKATLIGA_SIGN_PDF"):
        with open(os.environ["SKATLIGA_SIGN_PDF"], "wb") as out:
            out.write(response.content)
    lines = pdf_text(response.content).splitlines()
    assert any("Sitzcode" in line for line in lines)
    for seat, name in enumerate(("Anna", "Bernd", "Carla"), start=1):
        line = next(line for line in lines if name in line)
        assert line.split()[:3] == [str(seat), name, code_of(table, seat)]


@needs_pdftotext
def test_without_the_setting_the_table_card_prints_no_codes(referee):
    table, _link = complete(seat_codes=False)
    client = referee(table)

    response = client.get(reverse("referee:table-cards", args=[table.series.tournament.slug, 1]))

    text = pdf_text(response.content)
    assert "Sitzcode" not in text
    for seat in table.seats.all():
        assert seat.sign_code not in text


@needs_pdftotext
def test_the_completed_score_sheet_says_how_each_seat_signed(django_user_model):
    table, _link = complete()
    state = services.list_state(table)
    services.sign_list(table, 1, state=state, device="Tablet 3", code=code_of(table, 1))
    referee = django_user_model.objects.create_user("anna")
    services.sign_list(table, 2, state=state, user=referee, by_referee=True)
    services.close_table(table, reason="Carla ging früher")

    data = printing.series_score_sheets_pdf(table.series)

    if os.environ.get("SKATLIGA_SIGN_PDF"):
        with open(os.environ["SKATLIGA_SIGN_PDF"], "wb") as out:
            out.write(data)
    signed = printing.sheet_data(table).signed
    assert [re.sub(r"\d\d:\d\d", "HH:MM", lines) for lines in signed] == [
        "✓ HH:MM · Tablet 3\nmit Sitzcode",
        "✓ HH:MM\ndurch die Turnierleitung",
        "",
    ]
    text = " ".join(pdf_text(data).split())
    assert "mit Sitzcode" in text and "durch die Turnierleitung" in text


@needs_pdftotext
@pytest.mark.parametrize("language", ["de", "en", "da", "sv", "nl"])
def test_how_each_seat_signed_fits_its_box_in_every_language(django_user_model, language):
    from tests.web.test_languages import overflowing_words

    table = make_table(size=4, rounds=1, seat_codes=True, language=language)
    for number in range(1, 5):
        services.record_game(table, number, entry(), device="Tablet 3")
    state = services.list_state(table)
    services.sign_list(table, 1, state=state, device="Tablet 3", code=code_of(table, 1))
    referee = django_user_model.objects.create_user("anna")
    services.sign_list(table, 2, state=state, user=referee, by_referee=True)
    table.series.tournament.seat_codes = False
    table.series.tournament.save()
    services.sign_list(table, 3, state=state, device="Tablet 3")

    data = printing.series_score_sheets_pdf(table.series)

    if os.environ.get("SKATLIGA_SIGN_PDF"):
        with open(f"{os.environ['SKATLIGA_SIGN_PDF']}-{language}.pdf", "wb") as out:
            out.write(data)
    assert overflowing_words(data) == []

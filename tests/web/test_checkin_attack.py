"""The check-in door under attack (issue 37, items 1 and 2), as the attack was run: a script
that holds nothing but the poster's check-in link (it hangs in the hall and can be
photographed), behind the hall's one address. It tries to obtain a seated player's personal
link and a hidden surname, and to flood the roster and the desk; it gets none of it, while a
real player at the same address checks in. Then the limits, one at a time."""

from __future__ import annotations

import re
import string

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from skatliga import services
from skatliga.checkin import views as checkin_views
from skatliga.models import Arrival, CheckInClaim, Club, PersonalLink, Player, Registration
from skatliga.services import checkin
from skatliga.services.personal import personal_tokens
from tests.web.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db

HALL = "192.0.2.10"


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(django_user_model):
    """Twelve registered players drawn at three tables, among them Bernd Wagner, shown by
    his initials; their personal links issued (the table cards printed them). In the
    league's roster besides: 37 players who are not here, and Gesa Geldern, initials only."""
    club = Club.objects.create(name="SC Altenburg")
    shy = make_player("Bernd Wagner", initials_only=True, club=club)
    here = [shy, make_player("Anna Schmidt", club=club)]
    here += [make_player(f"Spieler {n}", club=club) for n in range(10)]
    tournament = make_tournament(slug="herbst", players=here)
    services.draw_tables(tournament, seed=1)
    personal_tokens(tournament.registrations.all())
    for n in range(37):
        make_player(f"Ligaspieler {n}", club=club)
    make_player("Gesa Geldern", initials_only=True, club=club)
    user = django_user_model.objects.create_user("referee", password="kreuz-bube-11")
    tournament.referees.add(user)
    return tournament


def hall_client():
    return Client(REMOTE_ADDR=HALL)


def test_the_poster_link_gives_a_script_no_personal_link_and_no_hidden_name(evening):
    link = checkin.checkin_link(evening)
    page = reverse("checkin:page", args=[link.token])
    script = hall_client()
    tokens = set(PersonalLink.objects.values_list("token", flat=True))
    players, clubs = Player.objects.count(), Club.objects.count()
    answers = [script.get(page)]

    # Every player id of the roster, each claimed as "this is me", every answer followed.
    for pk in range(1, Player.objects.order_by("-pk").first().pk + 5):
        answer = script.post(page, {"player": pk}, follow=True)
        answers.append(answer)
    # The hidden surnames, whole and letter by letter, as the attack found them (94 requests).
    queries = ["Wagner", "Geldern", "Wa", "Wag", "Ge", "Gel", "Bernd", "Gesa"]
    queries += ["Ge" + letter for letter in string.ascii_lowercase]
    searches = [
        script.get(reverse("checkin:search", args=[link.token]), {"q": query}) for query in queries
    ]
    assert not [q for q, a in zip(queries, searches, strict=True) if "found-player" in a.text]
    answers += searches
    # Thirty guests.
    for n in range(30):
        answers.append(script.post(page, {"name": f"Gast {n}", "club": "SV Flut"}, follow=True))

    text = "\n".join(answer.content.decode() for answer in answers)
    assert "/me/" not in text
    assert not [token for token in tokens if token in text]
    assert "Wagner" not in text and "Geldern" not in text
    # Nothing entered the tournament or the roster: the claims wait for the desk.
    assert registered(evening) == 12 and not Arrival.objects.exists()
    assert (Player.objects.count(), Club.objects.count()) == (players, clubs)
    # The twelve registered players were each claimed once (they may be named here); the
    # 37 league players and Gesa may not be named at all; the flood of guests and second
    # claims stopped at 30 from this address.
    claims = CheckInClaim.objects.filter(tournament=evening)
    assert claims.filter(player__isnull=False).count() == 12
    assert claims.filter(player__isnull=True).count() < 30
    assert answers[-1].status_code == 429

    # Anna, in the hall at the same address, finds herself and checks in.
    anna = hall_client()
    found = anna.get(reverse("checkin:search", args=[link.token]), {"q": "Schmidt"})
    assert found.status_code == 200 and "Anna Schmidt" in found.content.decode()
    own = Player.objects.get(name="Anna Schmidt")
    claimed = anna.post(page, {"player": own.pk})
    assert claimed.status_code == 302
    mine = CheckInClaim.objects.get(token=claimed.url.rstrip("/").rsplit("/", 1)[-1])
    assert mine.player == own and mine.number > 12
    # The desk sees the script's claim of Anna and hers, marked; the referee confirms hers.
    waiting = {row.claim.number: row for row in checkin.open_claims(evening).rows}
    assert waiting[mine.number].again
    desk = Client()
    desk.force_login(evening.referees.get())
    desk.post(reverse("referee:checkin-confirm", args=[evening.slug, mine.pk]))
    evening_url = re.search(r'href="http://testserver(/me/[^"]+)"', anna.get(claimed.url).text)
    assert evening_url is not None
    assert "Anna Schmidt" in anna.get(evening_url[1]).content.decode()
    # The script's own claim of Anna still shows it nothing.
    script_claim = claims.filter(player=own).order_by("number").first()
    assert script_claim.is_open
    shown = script.get(reverse("checkin:claim", args=[link.token, script_claim.token]))
    assert "/me/" not in shown.content.decode()


def registered(tournament):
    return Registration.objects.filter(tournament=tournament).count()


# --- the limits, one at a time ---------------------------------------------------------------


@pytest.fixture
def door():
    tournament = make_tournament(slug="tuer")
    anna = make_player("Anna Schmidt")
    Registration.objects.create(tournament=tournament, player=anna)
    return tournament, anna, checkin.checkin_link(tournament)


def search_url(link):
    return reverse("checkin:search", args=[link.token])


def test_searches_that_find_nobody_are_limited_per_address_one_that_finds_always_answers(
    door, monkeypatch
):
    tournament, _anna, link = door
    monkeypatch.setattr(checkin_views, "EMPTY_SEARCHES_PER_HOUR", 2)
    guesser = hall_client()

    statuses = [guesser.get(search_url(link), {"q": f"Zz{n}"}).status_code for n in range(4)]
    refused = guesser.get(search_url(link), {"q": "Zzz"})

    assert statuses == [200, 200, 429, 429]
    assert 'data-code="checkin_searches_limited"' in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 3600
    found = hall_client().get(search_url(link), {"q": "Schmidt"})
    assert found.status_code == 200 and "Anna Schmidt" in found.content.decode()
    elsewhere = Client(REMOTE_ADDR="198.51.100.7").get(search_url(link), {"q": "Zz"})
    assert elsewhere.status_code == 200


def test_searches_that_find_nobody_from_every_address_have_one_budget(door, monkeypatch):
    _tournament, _anna, link = door
    monkeypatch.setattr(checkin_views, "ALL_EMPTY_SEARCHES_PER_HOUR", 3)
    for n in range(3):
        Client(REMOTE_ADDR=f"10.0.0.{n}").get(search_url(link), {"q": "Zz"})

    assert Client(REMOTE_ADDR="10.0.1.1").get(search_url(link), {"q": "Zz"}).status_code == 429
    assert Client(REMOTE_ADDR="10.0.1.1").get(search_url(link), {"q": "Anna"}).status_code == 200


def test_doubtful_claims_are_limited_per_address_a_player_not_here_yet_never(door, monkeypatch):
    """Guests and claims of a player already here count; beyond the limit they are refused
    with a 429 that sends the player to the desk. A claim of a player not here yet is never
    counted nor refused: the flood cannot keep him out."""
    tournament, anna, link = door
    monkeypatch.setattr(checkin_views, "DOUBTFUL_CLAIMS_PER_HOUR", 2)
    page = reverse("checkin:page", args=[link.token])
    flood = hall_client()

    statuses = [flood.post(page, {"name": f"Gast {n}", "club": ""}).status_code for n in range(4)]
    refused = flood.post(page, {"name": "Gast X", "club": ""})

    assert statuses == [302, 302, 429, 429]
    assert 'data-code="checkin_claims_limited"' in refused.content.decode()
    assert CheckInClaim.objects.count() == 2
    assert flood.post(page, {"player": anna.pk}).status_code == 302
    assert hall_client().post(page, {"player": anna.pk}).status_code == 302
    checkin.check_in(tournament, player=anna)
    assert hall_client().post(page, {"player": anna.pk}).status_code == 429  # here already


def test_doubtful_claims_from_every_address_have_one_budget(door, monkeypatch):
    _tournament, anna, link = door
    monkeypatch.setattr(checkin_views, "ALL_DOUBTFUL_CLAIMS_PER_HOUR", 2)
    page = reverse("checkin:page", args=[link.token])
    for n in range(2):
        Client(REMOTE_ADDR=f"10.0.0.{n}").post(page, {"name": f"Gast {n}", "club": ""})

    assert (
        Client(REMOTE_ADDR="10.0.1.1").post(page, {"name": "Gast", "club": ""}).status_code == 429
    )
    assert Client(REMOTE_ADDR="10.0.1.1").post(page, {"player": anna.pk}).status_code == 302


def test_wrong_tokens_are_limited_per_address_and_in_all_a_valid_one_still_opens(door, monkeypatch):
    _tournament, anna, link = door
    claim = hall_client().post(reverse("checkin:page", args=[link.token]), {"player": anna.pk})
    monkeypatch.setattr(checkin_views, "WRONG_TOKENS_PER_HOUR", 2)
    guesser = hall_client()

    statuses = [guesser.get(f"/c/guess-{n}/").status_code for n in range(3)]
    claims = guesser.get(reverse("checkin:claim", args=[link.token, "guess"]))

    assert statuses == [404, 404, 429]
    assert claims.status_code == 429
    assert 'data-code="checkin_too_many_requests"' in claims.content.decode()
    assert guesser.get(reverse("checkin:page", args=[link.token])).status_code == 200
    assert guesser.get(claim.url).status_code == 200
    monkeypatch.setattr(checkin_views, "ALL_WRONG_TOKENS_PER_HOUR", 4)
    assert Client(REMOTE_ADDR="10.0.0.1").get("/c/guess/").status_code == 429

"""The league's rules and catalogue of fines on a page of their own for the league's
officials (issue 41, item 2), and the withdrawal decided on the division's fines page."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from skatliga.models import FineKind, LeagueRules, Withdrawal
from skatliga.standings.league import division_table
from tests.web.factories import make_division


@pytest.fixture
def division(db):
    return make_division(4, clubs=4, series=2)


def form(**changes):
    data = {
        "rules-binding_days": "14",
        "rules-report_days": "2",
        "rules-lost_game_fee": "0.50",
        "rules-lost_fees_to": "host",
        "rules-pay_days": "7",
        "rules-bar_unpaid": "on",
        "rules-withdraw_after": "3",
        "rules-withdrawn_results": "annul",
        "kind-TOTAL_FORMS": "1",
        "kind-INITIAL_FORMS": "0",
        "kind-MIN_NUM_FORMS": "0",
        "kind-MAX_NUM_FORMS": "1000",
        "kind-0-code": "absent",
        "kind-0-name": "Nichtantreten",
        "kind-0-amount": "60.00",
        "kind-0-set_by": "Schatzmeister",
    }
    data.update(changes)
    return data


def test_the_league_official_sets_the_rules_and_the_catalogue(division, client, django_user_model):
    season = division.season
    url = f"/league/seasons/{season.slug}/rules/"
    stranger = django_user_model.objects.create_user("fremd")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    division.officials.add(stranger)  # the division's official alone: a link he does not get
    assert url not in client.get(f"/league/divisions/{division.pk}/").content.decode()

    official = django_user_model.objects.create_user("ligaleiter")
    season.league.officials.add(official)
    client.force_login(official)
    assert url in client.get(f"/league/divisions/{division.pk}/").content.decode()
    page = client.get(url)
    assert page.status_code == 200 and "Strafenkatalog" in page.content.decode()

    assert client.post(url, form()).status_code == 302
    rules = LeagueRules.objects.get(league=season.league)
    assert (rules.pay_days, rules.bar_unpaid, rules.withdrawn_results) == (7, True, "annul")
    kind = FineKind.objects.get(league=season.league)
    assert (kind.code, kind.amount, kind.set_by) == ("absent", Decimal("60.00"), "Schatzmeister")

    twice = form(
        **{
            "kind-TOTAL_FORMS": "2",
            "kind-INITIAL_FORMS": "1",
            "kind-0-id": str(kind.pk),
            "kind-1-code": "absent",
            "kind-1-name": "Noch einmal",
            "kind-1-amount": "30.00",
        }
    )
    answer = client.post(url, twice)
    assert answer.status_code == 400
    assert "Diesen Anlass hat der Katalog schon" in answer.content.decode()
    zero = form(**{"kind-0-amount": "0"})
    assert client.post(url, zero).status_code == 400
    assert FineKind.objects.filter(league=season.league).count() == 1

    gone = form(**{"kind-INITIAL_FORMS": "1", "kind-0-id": str(kind.pk), "kind-0-DELETE": "on"})
    assert client.post(url, gone).status_code == 302
    assert not FineKind.objects.filter(league=season.league).exists()


def test_the_official_confirms_a_withdrawal_on_the_fines_page(division, client, django_user_model):
    official = django_user_model.objects.create_user("staffel")
    division.officials.add(official)
    team = division.teams.order_by("name")[0]
    withdrawal = Withdrawal.objects.create(
        team=team, absences=3, created_at=datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
    )
    client.force_login(official)
    url = f"/league/divisions/{division.pk}/fines/"
    page = client.get(url).content.decode()
    assert "Zurückziehen" in page and "Spieltag)" not in page  # no group: the number alone
    answer = client.post(url, {"action": "withdraw", "withdrawal": withdrawal.pk})
    assert answer.status_code == 302
    withdrawal.refresh_from_db()
    assert (withdrawal.state, withdrawal.annulled) == ("confirmed", False)
    assert division_table(division).rows[-1].team == f"{team.name} (zurückgezogen)"
    again = client.post(url, {"action": "keep", "withdrawal": withdrawal.pk}, follow=True)
    assert "schon entschieden" in again.content.decode()


def test_the_statement_of_a_club_with_two_teams_in_the_division(client, django_user_model, db):
    division = make_division(4, clubs=2, series=2)  # two teams a club
    official = django_user_model.objects.create_user("staffel")
    division.officials.add(official)
    client.force_login(official)
    club = division.teams.order_by("name")[0].club
    url = f"/league/divisions/{division.pk}/clubs/{club.pk}/statement/"
    assert client.get(url).status_code == 200

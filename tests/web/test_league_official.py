"""The league official's pages and the captain's team link: an official changes his own
division only (another division's gets 403 and nothing is written), the schedule editor
generates, swaps, sets hosts and publishes, the calendars show the published schedule, and a
captain sets a line-up from the team link, an ineligible player refused with the reason."""

from __future__ import annotations

import datetime

import icalendar
import pytest
from django.urls import reverse

from skatliga.models import Club, GroupTeam, LineUp, MatchDay, MatchGroup
from skatliga.services import fixtures, leagues, matchdays
from tests.web.factories import make_division

DATES = "21.03.2026\n04.04.2026\n02.05.2026"


@pytest.fixture
def official(db, django_user_model):
    return django_user_model.objects.create_user("staffel", password="pik-sieben-7")


@pytest.fixture
def division(official):
    division = make_division(8)
    division.officials.add(official)
    return division


@pytest.fixture
def other_official(db, django_user_model, division):
    """An official of a parallel division of the same level and season."""
    other = leagues.create_division(division.season, division.level, "Süd")
    user = django_user_model.objects.create_user("sued", password="herz-dame-12")
    other.officials.add(user)
    return user


def generate(client, division, **extra):
    return client.post(
        reverse("league:division", args=[division.pk]),
        {
            "action": "generate",
            "schedule-dates": DATES,
            "schedule-central": "3",
            "schedule-venue": "Stadthalle",
            **extra,
        },
    )


def test_the_official_generates_the_schedule(client, official, division):
    client.force_login(official)

    response = generate(client, division)

    assert response.status_code == 302
    assert MatchDay.objects.filter(division=division).count() == 3
    assert set(
        MatchDay.objects.filter(division=division, central=True).values_list("number", "venue")
    ) == {(3, "Stadthalle")}
    page = client.get(reverse("league:division", args=[division.pk]))
    assert page.status_code == 200
    assert page.context["spread"] == (0, 2)  # 8 teams, three days: as docs/rules.md 11.2 shows


@pytest.mark.parametrize(
    "post",
    [
        {"action": "generate", "schedule-dates": DATES},
        {"action": "publish"},
    ],
)
def test_an_official_of_another_division_gets_403_and_writes_nothing(
    client, division, other_official, post
):
    client.force_login(other_official)

    response = client.post(reverse("league:division", args=[division.pk]), post)

    assert response.status_code == 403
    assert not MatchDay.objects.filter(division=division).exists()
    division.refresh_from_db()
    assert division.published_at is None


def test_another_divisions_official_cannot_change_a_roster_or_a_group(
    client, official, division, other_official
):
    fixtures.generate_schedule(division, [datetime.date(2026, 3, 21)])
    team = division.teams.order_by("name")[0]
    group = MatchGroup.objects.filter(match_day__division=division)[0]
    before = list(team.roster.values_list("player_id", "position"))
    client.force_login(other_official)

    roster = client.post(
        reverse("league:division-team", args=[division.pk, team.pk]),
        {"regulars": "Niemand"},
    )
    venue = client.post(
        reverse("league:division", args=[division.pk]),
        {
            "action": "group",
            "group": group.pk,
            f"g{group.pk}-date": "2026-03-22",
            f"g{group.pk}-venue": "Anderswo",
        },
    )

    assert (roster.status_code, venue.status_code) == (403, 403)
    assert list(team.roster.values_list("player_id", "position")) == before
    group.refresh_from_db()
    assert (group.date, group.venue) == (datetime.date(2026, 3, 21), "")


def test_anonymous_visitors_log_in_first(client, division):
    response = client.get(reverse("league:division", args=[division.pk]))

    assert response.status_code == 302
    assert "login" in response["Location"]


def test_the_editor_swaps_two_teams_and_sets_a_host(client, official, division):
    fixtures.generate_schedule(division, [datetime.date(2026, 3, 21)])
    day = division.match_days.get()
    first, second = day.groups.order_by("number")
    a = first.teams.order_by("name")[0]
    b = second.teams.order_by("name")[0]
    client.force_login(official)

    swapped = client.post(
        reverse("league:division", args=[division.pk]),
        {"action": "swap", "day": day.pk, f"d{day.pk}-first": a.pk, f"d{day.pk}-second": b.pk},
    )
    hosted = client.post(
        reverse("league:division", args=[division.pk]),
        {
            "action": "group",
            "group": first.pk,
            f"g{first.pk}-date": "2026-03-22",
            f"g{first.pk}-host": b.pk,
            f"g{first.pk}-venue": "Vereinsheim",
            f"g{first.pk}-address": "Hauptstr. 1, Bonn",
        },
    )

    assert (swapped.status_code, hosted.status_code) == (302, 302)
    assert GroupTeam.objects.get(match_day=day, team=a).group == second
    first.refresh_from_db()
    assert (first.host, first.venue, first.date) == (b, "Vereinsheim", datetime.date(2026, 3, 22))


def test_a_host_outside_the_group_is_refused(client, official, division):
    fixtures.generate_schedule(division, [datetime.date(2026, 3, 21)])
    first, second = division.match_days.get().groups.order_by("number")
    outsider = second.teams.order_by("name")[0]
    client.force_login(official)

    response = client.post(
        reverse("league:division", args=[division.pk]),
        {
            "action": "group",
            "group": first.pk,
            f"g{first.pk}-date": "2026-03-21",
            f"g{first.pk}-host": outsider.pk,
        },
    )

    assert response.status_code == 400
    first.refresh_from_db()
    assert first.host != outsider


def test_the_calendars_show_a_published_schedule(client, official, division):
    fixtures.generate_schedule(division, [datetime.date(2026, 3, 21), datetime.date(2026, 4, 4)])
    team = division.teams.order_by("name")[0]
    assert client.get(reverse("league:division-calendar", args=[division.pk])).status_code == 404
    client.force_login(official)
    client.post(reverse("league:division", args=[division.pk]), {"action": "publish"})
    client.logout()

    whole = icalendar.Calendar.from_ical(
        client.get(reverse("league:division-calendar", args=[division.pk])).content
    )
    mine = icalendar.Calendar.from_ical(
        client.get(reverse("league:team-calendar", args=[team.pk])).content
    )

    assert len(whole.walk("VEVENT")) == 4  # two days of two groups
    events = mine.walk("VEVENT")
    assert [e.decoded("dtstart") for e in events] == [
        datetime.date(2026, 3, 21),
        datetime.date(2026, 4, 4),
    ]
    assert all(team.name in str(e.get("description")) for e in events)


# --- the captain's team link ------------------------------------------------------------------


@pytest.fixture
def set_up(division):
    today = datetime.date.today()
    fixtures.generate_schedule(division, [today + datetime.timedelta(days=7)])
    fixtures.publish_schedule(division)
    team = division.teams.order_by("name")[0]
    group = matchdays.set_up_group(MatchGroup.objects.get(teams=team))
    return team, group, matchdays.team_link(team)


def test_the_captain_opens_his_team_by_its_code(client, set_up):
    team, group, link = set_up

    response = client.post(reverse("team:code"), {"code": link.code.lower()})

    assert response["Location"] == reverse("team:page", args=[link.token])
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert team.name in page.content.decode()


def test_a_wrong_team_code_is_refused_with_its_code(client, set_up):
    response = client.post(reverse("team:code"), {"code": "AAAA-BBBB"})

    assert response.status_code == 200
    assert response.context["form"].errors.as_data()["code"][0].code == "team_code_unknown"


def test_the_captain_sets_a_line_up(client, set_up):
    team, group, link = set_up
    players = [e.player_id for e in team.roster.order_by("position")][:4]

    response = client.post(
        reverse("team:line-up", args=[link.token, group.pk, 1]), {"players": players}
    )

    assert response.status_code == 302
    line_up = LineUp.objects.get(group=group, team=team, series=1)
    assert line_up.via == LineUp.Via.CAPTAIN
    assert list(line_up.entries.values_list("player_id", flat=True)) == players


def test_an_ineligible_player_is_refused_with_the_reason(client, set_up):
    team, group, link = set_up
    entries = list(team.roster.order_by("position"))
    # A substitute who has moved to another club since: on the group's date not his club's.
    moved = entries[4].player
    leagues.record_transfer(moved, Club.objects.create(name="SC Weg"), datetime.date.today())
    players = [e.player_id for e in entries[:3]] + [moved.pk]

    response = client.post(
        reverse("team:line-up", args=[link.token, group.pk, 1]), {"players": players}
    )

    assert response.status_code == 400
    errors = response.context["form"].errors.as_data()
    (error,) = errors.get("players", errors.get("__all__"))
    assert error.code == "player_not_in_club"
    assert moved.name in error.messages[0]
    assert not LineUp.objects.filter(group=group).exists()


def test_a_revoked_team_link_opens_nothing(client, set_up):
    team, group, link = set_up
    matchdays.renew_team_link(team)

    assert client.get(reverse("team:page", args=[link.token])).status_code == 404


def test_the_referee_sets_a_line_up_too(client, official, set_up):
    team, group, link = set_up
    players = [e.player_id for e in team.roster.order_by("position")][1:5]
    client.force_login(official)

    response = client.post(
        reverse("league:line-ups", args=[group.pk]),
        {"team": team.pk, f"t{team.pk}-players": players},
    )

    assert response.status_code == 302
    line_up = LineUp.objects.get(group=group, team=team, series=1)
    assert line_up.via == LineUp.Via.REFEREE
    assert line_up.entries.filter(substitute=True).count() == 1


def test_an_official_referees_his_divisions_match_days(official, other_official, set_up):
    from skatliga.models import Tournament

    _team, group, _link = set_up

    assert group.tournament.is_referee(official)
    assert not group.tournament.is_referee(other_official)
    assert not Tournament.objects.refereed_by(other_official).exists()

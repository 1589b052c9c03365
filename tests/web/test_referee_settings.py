"""The referee's settings page, the referees of a tournament, teams and the seeded draw.

The list (LOST_HAND) is worked out by hand in tests/web/test_services.py: a 3-table, one
round, seat 2 loses spades hand with 1 (33), seat 1 wins grand with 1 (48), one passed in.
Totals: isko 138, −116, 40; pre1999 138, −83, 40.
"""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from skatliga.models import Change, Game, ListResult, Registration, Season, Seat, Series, Team
from tests.web.factories import entry, make_table, make_tournament, play

pytestmark = pytest.mark.django_db

LOST_HAND = [
    entry(2, "spades", bid=18, matadors=1, hand=True, won=False),
    entry(1, "grand", bid=18, matadors=1, won=True),
    entry(),
]


@pytest.fixture
def user(django_user_model):
    """A referee who may also change the league: put tournaments and teams into seasons."""
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    user.user_permissions.add(Permission.objects.get(codename="change_player"))
    return user


@pytest.fixture
def referee(client, user):
    client.force_login(user)
    return user


def refereed(user, **fields):
    tournament = make_tournament(**fields)
    tournament.referees.add(user)
    return tournament


def refereed_list(user, **fields):
    table = make_table(size=3, rounds=1, **fields)
    table.series.tournament.referees.add(user)
    play(table, *LOST_HAND)
    return table


def settings_data(tournament, **changes):
    data = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "starts_at": tournament.starts_at.strftime("%H:%M") if tournament.starts_at else "",
        "venue": tournament.venue,
        "address": tournament.address,
        "season": tournament.season_id or "",
        "match_day": tournament.match_day or "",
        "rules": tournament.rules,
        "scoring": tournament.scoring,
        "rounds_per_series": tournament.rounds_per_series,
    }
    if tournament.keep_teammates_apart:
        data["keep_teammates_apart"] = "on"
    return {**data, **changes}


def settings_url(tournament):
    return reverse("referee:tournament-settings", args=[tournament.slug])


def totals(table):
    return list(
        ListResult.objects.filter(table=table).order_by("position").values_list("total", flat=True)
    )


# --- settings --------------------------------------------------------------------------------


def test_the_tournament_page_links_the_settings(client, referee):
    tournament = refereed(referee)

    response = client.get(reverse("referee:tournament", args=[tournament.slug]))

    assert settings_url(tournament) in response.content.decode()


def test_the_settings_page_shows_the_current_settings(client, referee):
    tournament = refereed(referee, rules="pre1999", rounds=8)

    response = client.get(settings_url(tournament))

    assert response.status_code == 200
    form = response.context["form"]
    assert (form["rules"].value(), form["rounds_per_series"].value()) == ("pre1999", 8)


def test_saving_the_settings_changes_the_tournament(client, referee):
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    tournament = refereed(referee)

    response = client.post(
        settings_url(tournament),
        settings_data(
            tournament, name="Pokal", venue="Vereinsheim", season=season.pk, match_day="3"
        ),
    )

    assert response.status_code == 302
    assert response.url == reverse("referee:tournament", args=[tournament.slug])
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue, tournament.season, tournament.match_day) == (
        "Pokal",
        "Vereinsheim",
        season,
        3,
    )
    change = Change.objects.get(action=Change.Action.TOURNAMENT_CHANGED)
    assert change.after == {
        "name": "Pokal",
        "venue": "Vereinsheim",
        "season": season.pk,
        "match_day": 3,
    }
    assert change.user == referee


def test_the_start_time_and_address_go_into_the_calendar(client, referee):
    tournament = refereed(referee, date=datetime.date(2026, 11, 21), venue="Vereinsheim")
    data = settings_data(tournament, starts_at="19:30", address="Hauptstr. 1, 53111 Bonn")

    assert client.post(settings_url(tournament), data).status_code == 302

    tournament.refresh_from_db()
    assert (tournament.starts_at, tournament.address) == (
        datetime.time(19, 30),
        "Hauptstr. 1, 53111 Bonn",
    )
    change = Change.objects.get(tournament=tournament)
    assert change.after == {"starts_at": "19:30", "address": "Hauptstr. 1, 53111 Bonn"}
    page = client.get(settings_url(tournament)).content.decode()
    assert 'type="time" name="starts_at" value="19:30"' in page
    assert 'value="Hauptstr. 1, 53111 Bonn"' in page
    calendar = client.get("/api/v1/calendar.ics").content.decode()
    # 19:30 in Bonn in November (CET, UTC+1) is 18:30 UTC.
    assert "DTSTART:20261121T183000Z\r\n" in calendar
    assert "LOCATION:Vereinsheim\\, Hauptstr. 1\\, 53111 Bonn\r\n" in calendar


def test_a_start_time_that_is_no_time_is_a_form_error(client, referee):
    tournament = refereed(referee)
    response = client.post(settings_url(tournament), settings_data(tournament, starts_at="25:99"))
    assert response.status_code == 200
    errors = response.context["form"].errors.as_data()
    assert [e.code for e in errors["starts_at"]] == ["invalid"]
    tournament.refresh_from_db()
    assert tournament.starts_at is None


def test_a_new_rule_set_rescores_every_list(client, referee):
    table = refereed_list(referee)
    tournament = table.series.tournament

    response = client.post(settings_url(tournament), settings_data(tournament, rules="pre1999"))

    assert response.status_code == 302
    assert totals(table) == [138, -83, 40]


def test_settings_that_invalidate_a_game_change_nothing_and_name_the_game(client, referee):
    table = make_table(size=3, rounds=1, rules="isko-kontra")
    tournament = table.series.tournament
    tournament.referees.add(referee)
    play(table, *LOST_HAND[:2], entry(3, "grand", bid=18, matadors=1, kontra=True, won=True))
    games = list(Game.objects.order_by("pk").values())
    old_name = tournament.name

    response = client.post(
        settings_url(tournament), settings_data(tournament, rules="isko", name="Neu")
    )

    assert response.status_code == 200
    assert response.context["action_error"]["code"] == "settings_invalidate_games"
    (blocking,) = response.context["blocking"]
    assert blocking["code"] == "doubling_not_allowed"
    assert blocking["where"] == "Serie 1, Tisch 1, Spiel 3"
    assert blocking["url"] == reverse("referee:list", args=[tournament.slug, 1, 1]) + "?game=3"
    tournament.refresh_from_db()
    assert (tournament.rules, tournament.name) == ("isko-kontra", old_name)
    assert list(Game.objects.order_by("pk").values()) == games
    assert not Change.objects.filter(action=Change.Action.TOURNAMENT_CHANGED).exists()


def test_rounds_out_of_range_are_a_form_error(client, referee):
    tournament = refereed(referee)

    response = client.post(
        settings_url(tournament), settings_data(tournament, rounds_per_series=31)
    )

    assert response.status_code == 200
    errors = response.context["form"].errors.as_data()
    assert [e.code for e in errors["rounds_per_series"]] == ["rounds_out_of_range"]
    tournament.refresh_from_db()
    assert tournament.rounds_per_series == 12


# --- referees --------------------------------------------------------------------------------


def test_the_settings_page_lists_the_referees(client, referee, django_user_model):
    tournament = refereed(referee)
    tournament.referees.add(django_user_model.objects.create_user("bernd"))

    response = client.get(settings_url(tournament))

    assert [u.username for u in response.context["referees"]] == ["anna", "bernd"]


def test_a_referee_adds_another_by_username(client, referee, django_user_model):
    tournament = refereed(referee)
    bernd = django_user_model.objects.create_user("bernd")

    response = client.post(
        reverse("referee:referee-add", args=[tournament.slug]), {"username": "bernd"}
    )

    assert response.status_code == 302
    assert set(tournament.referees.all()) == {referee, bernd}
    assert Change.objects.get().after == {"referees": ["anna", "bernd"]}


def test_an_unknown_username_is_an_error_at_the_field(client, referee):
    tournament = refereed(referee)

    response = client.post(
        reverse("referee:referee-add", args=[tournament.slug]), {"username": "niemand"}
    )

    assert response.status_code == 200
    errors = response.context["referee_form"].errors.as_data()["username"]
    assert [e.code for e in errors] == ["user_unknown"]
    assert "niemand" in errors[0].messages[0]
    assert list(tournament.referees.all()) == [referee]


def test_a_referee_removes_another(client, referee, django_user_model):
    tournament = refereed(referee)
    bernd = django_user_model.objects.create_user("bernd")
    tournament.referees.add(bernd)

    response = client.post(reverse("referee:referee-remove", args=[tournament.slug, bernd.pk]))

    assert response.status_code == 302
    assert list(tournament.referees.all()) == [referee]


def test_the_last_referee_cannot_remove_himself(client, referee):
    tournament = refereed(referee)

    response = client.post(reverse("referee:referee-remove", args=[tournament.slug, referee.pk]))

    assert response.status_code == 200
    assert response.context["action_error"]["code"] == "last_referee"
    assert list(tournament.referees.all()) == [referee]


def test_a_referee_who_removes_himself_goes_to_the_dashboard(client, referee, django_user_model):
    tournament = refereed(referee)
    tournament.referees.add(django_user_model.objects.create_user("bernd"))

    response = client.post(reverse("referee:referee-remove", args=[tournament.slug, referee.pk]))

    assert response.url == reverse("referee:dashboard")
    assert not tournament.is_referee(referee)


def test_a_superuser_removes_the_last_referee(client, user, django_user_model):
    tournament = refereed(user)
    client.force_login(django_user_model.objects.create_superuser("chef", password="grand-ouvert"))

    response = client.post(reverse("referee:referee-remove", args=[tournament.slug, user.pk]))

    assert response.status_code == 302
    assert not tournament.referees.exists()


# --- teams -----------------------------------------------------------------------------------


def league(user, players=2, **fields):
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    tournament = refereed(user, players=players, season=season, **fields)
    return tournament, season


def test_the_players_section_has_a_team_select_per_player(client, referee):
    tournament, season = league(referee)
    Team.objects.create(season=season, name="Kreuz Bube")

    response = client.get(reverse("referee:tournament", args=[tournament.slug]))

    rows = response.context["player_rows"]
    assert [registration for registration, _field in rows] == list(
        tournament.registrations.order_by("player__name")
    )
    assert [choice[1] for choice in rows[0][1].field.choices] == ["—", "Kreuz Bube"]


def test_assigning_teams_saves_each_registrations_team(client, referee):
    tournament, season = league(referee)
    team = Team.objects.create(season=season, name="Kreuz Bube")
    first, second = tournament.registrations.order_by("pk")

    response = client.post(
        reverse("referee:teams-assign", args=[tournament.slug]),
        {f"team-{first.pk}": team.pk, f"team-{second.pk}": ""},
    )

    assert response.status_code == 302
    assert dict(tournament.registrations.values_list("pk", "team")) == {
        first.pk: team.pk,
        second.pk: None,
    }


def test_assigning_a_team_after_games_rewrites_the_result_rows(client, referee):
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    table = refereed_list(referee, season=season)
    tournament = table.series.tournament
    team = Team.objects.create(season=season, name="Kreuz Bube")
    registration = Registration.objects.get(player=table.seats.get(position=1).player)

    response = client.post(
        reverse("referee:teams-assign", args=[tournament.slug]),
        {f"team-{registration.pk}": team.pk},
    )

    assert response.status_code == 302
    rows = ListResult.objects.filter(table=table).order_by("position")
    assert list(rows.values_list("team", "total")) == [(team.pk, 138), (None, -116), (None, 40)]


def test_a_team_of_another_season_is_not_a_choice(client, referee):
    tournament, _season = league(referee)
    other = Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)
    team = Team.objects.create(season=other, name="Fremd")
    registration = tournament.registrations.first()

    response = client.post(
        reverse("referee:teams-assign", args=[tournament.slug]),
        {f"team-{registration.pk}": team.pk},
    )

    assert response.status_code == 200
    errors = response.context["teams_form"].errors.as_data()[f"team-{registration.pk}"]
    assert [e.code for e in errors] == ["invalid_choice"]
    registration.refresh_from_db()
    assert registration.team is None


def test_a_referee_creates_a_team_of_the_season(client, referee):
    tournament, season = league(referee)

    response = client.post(
        reverse("referee:team-create", args=[tournament.slug]),
        {"name": "Pik Sieben", "club": "SC Altenburg"},
    )

    assert response.status_code == 302
    team = season.teams.get()
    assert (team.name, team.club.name) == ("Pik Sieben", "SC Altenburg")


def test_a_team_name_taken_in_the_season_is_an_error_at_the_field(client, referee):
    tournament, season = league(referee)
    Team.objects.create(season=season, name="Pik Sieben")

    response = client.post(
        reverse("referee:team-create", args=[tournament.slug]), {"name": "Pik Sieben"}
    )

    assert response.status_code == 200
    errors = response.context["team_form"].errors.as_data()["name"]
    assert [e.code for e in errors] == ["team_name_taken"]
    assert season.teams.count() == 1


def test_a_team_needs_the_tournament_to_have_a_season(client, referee):
    tournament = refereed(referee)

    response = client.post(
        reverse("referee:team-create", args=[tournament.slug]), {"name": "Pik Sieben"}
    )

    assert response.context["action_error"]["code"] == "tournament_without_season"
    assert not Team.objects.exists()


def test_teams_assigned_on_the_page_are_kept_apart_in_the_draw(client, referee):
    tournament, season = league(referee, players=8, keep_teammates_apart=True)
    registrations = list(tournament.registrations.order_by("pk"))
    teams = [Team.objects.create(season=season, name=f"Team {n}") for n in range(4)]
    client.post(
        reverse("referee:teams-assign", args=[tournament.slug]),
        {f"team-{r.pk}": teams[i // 2].pk for i, r in enumerate(registrations)},
    )

    client.post(reverse("referee:draw", args=[tournament.slug]))

    team_of = dict(tournament.registrations.values_list("player_id", "team_id"))
    for table in Series.objects.get(tournament=tournament).tables.all():
        seated = table.seats.values_list("player_id", flat=True)
        assert len({team_of[p] for p in seated}) == 4


# --- seeded draw -----------------------------------------------------------------------------


def test_the_standings_draw_is_offered_from_the_second_series_on(client, referee):
    """Before the first series there is no standing: by lot or by rating only."""
    tournament = refereed(referee, players=4)
    url = reverse("referee:tournament", args=[tournament.slug])
    by_rating, by_standing = 'value="rating_spread"', 'value="standings"'

    before = client.get(url).content.decode()
    client.post(reverse("referee:draw", args=[tournament.slug]))
    after = client.get(url).content.decode()

    assert by_rating in before and by_standing not in before
    assert by_rating in after and by_standing in after


def test_drawing_by_standings_from_the_page_seats_the_leader_at_table_1(client, referee):
    tournament = refereed(referee, players=8, size=4, rounds=1)
    second_table = tournament.series.get().tables.get(number=2)
    play(second_table, entry(2, "grand", bid=18, matadors=1, won=True))
    leader = second_table.seats.get(position=2).player_id

    response = client.post(
        reverse("referee:draw", args=[tournament.slug]),
        {"method": "standings", "despite_open": "1"},
    )

    assert response.status_code == 302
    assert Seat.objects.get(series__number=2, table__number=1, position=1).player_id == leader
    change = Change.objects.get(series__number=2, action=Change.Action.TABLES_DRAWN)
    assert change.after["method"] == "standings"


def test_an_unknown_draw_method_is_an_error(client, referee):
    tournament = refereed(referee, players=4)

    response = client.post(reverse("referee:draw", args=[tournament.slug]), {"method": "alphabet"})

    assert response.context["action_error"]["code"] == "draw_method_unknown"
    assert not Series.objects.exists()


# --- permissions -----------------------------------------------------------------------------


def new_urls(tournament, other_user):
    slug = tournament.slug
    registration = tournament.registrations.first()
    return [
        ("get", settings_url(tournament), {}),
        ("post", settings_url(tournament), settings_data(tournament, rules="pre1999")),
        ("post", reverse("referee:referee-add", args=[slug]), {"username": other_user.username}),
        ("post", reverse("referee:referee-remove", args=[slug, tournament.referees.get().pk]), {}),
        ("post", reverse("referee:teams-assign", args=[slug]), {f"team-{registration.pk}": ""}),
        ("post", reverse("referee:team-create", args=[slug]), {"name": "Neu"}),
        ("post", reverse("referee:draw", args=[slug]), {"method": "standings"}),
    ]


@pytest.fixture
def guarded(user, django_user_model):
    """A league tournament refereed by anna, and bernd, who referees another one."""
    table = refereed_list(
        user, season=Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    )
    bernd = django_user_model.objects.create_user("bernd", password="pik-sieben")
    make_tournament().referees.add(bernd)
    return table.series.tournament, bernd


def snapshot(tournament):
    return (
        list(type(tournament).objects.values().order_by("pk")),
        list(tournament.referees.values_list("pk", flat=True)),
        list(Registration.objects.values_list("pk", "team")),
        Team.objects.count(),
        Series.objects.count(),
        list(ListResult.objects.values_list("pk", "total", "team")),
        Change.objects.count(),
    )


def test_anonymous_users_are_sent_to_log_in(client, guarded):
    tournament, bernd = guarded
    before = snapshot(tournament)

    for method, url, data in new_urls(tournament, bernd):
        response = getattr(client, method)(url, data)

        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url
    assert snapshot(tournament) == before


def test_a_referee_of_another_tournament_gets_403_and_writes_nothing(client, guarded):
    tournament, bernd = guarded
    client.force_login(bernd)
    before = snapshot(tournament)

    for method, url, data in new_urls(tournament, bernd):
        assert getattr(client, method)(url, data).status_code == 403, url
    assert snapshot(tournament) == before


def test_a_superuser_may_change_any_tournaments_settings(client, guarded, django_user_model):
    tournament, _bernd = guarded
    client.force_login(django_user_model.objects.create_superuser("chef", password="grand-ouvert"))

    response = client.post(settings_url(tournament), settings_data(tournament, rules="pre1999"))

    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules == "pre1999"

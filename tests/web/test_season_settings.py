"""A season's own rule set and list system: set on its page with the tournament settings'
house-rule fields, shown in words, and the starting values of every new tournament in it."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

import scoring
from skatliga import services
from skatliga.models import Season, Tournament
from skatliga.services import rosters as league

SWEDISH_ADD_LEVEL = "Schwedisch mit Hausregeln: Verlorenes Spiel: eine Stufe mehr, einfach"
"""``describe_rules`` of the preset ``se`` with the house option lost_game add-level."""


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_superuser("liga", password="x-y-z-123")
    client.force_login(user)
    return user


@pytest.fixture
def season(db):
    return Season.objects.create(name="Liga 2027", slug="liga-2027", year=2027)


def post_season(client, season, **fields: str):
    """POST the season's settings on its referee page (prefix ``season-``)."""
    data = {"name": season.name, "year": str(season.year), **fields}
    return client.post(
        reverse("league:season", args=[season.slug]),
        {f"season-{name}": value for name, value in data.items()},
    )


def test_a_new_season_plays_isko_with_seeger_fabian_and_n_minus_one_match_points(season):
    assert (season.rules, season.rule_options, season.scoring) == ("isko", {}, "seeger-fabian")
    assert season.match_points == Season.MatchPoints.PLACES
    assert season.rule_set == scoring.ISKO


def test_the_season_page_stores_the_preset_house_options_and_list_system(client, operator, season):
    response = post_season(
        client,
        season,
        rules="se",
        scoring="classic",
        option_lost_game='"add-level"',
        option_doublings="",  # "wie Regelwerk": the preset's Kontra and Re
    )

    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.rules, season.rule_options, season.scoring) == (
        "se",
        {"lost_game": "add-level"},
        "classic",
    )
    page = client.get(reverse("league:season", args=[season.slug]))
    assert SWEDISH_ADD_LEVEL in page.content.decode()
    form = page.context["season_form"]
    assert form["option_lost_game"].value() == '"add-level"'
    assert form["rules"].value() == "se"
    public = client.get(reverse("season", args=[season.slug]))
    assert f"Regelwerk der Saison: {SWEDISH_ADD_LEVEL} · klassisch" in public.content.decode()


def test_a_house_option_equal_to_the_preset_is_not_stored(client, operator, season):
    # Kontra and Re is what "se" has anyway: only differences are kept (as for tournaments).
    post_season(client, season, rules="se", option_doublings='"kontra-re"')

    season.refresh_from_db()
    assert (season.rules, season.rule_options) == ("se", {})


def test_ramsch_with_seeger_fabian_is_refused_at_the_list_system(client, operator, season):
    response = post_season(client, season, scoring="seeger-fabian", option_ramsch="true")

    assert response.status_code == 400
    errors = response.context["season_form"].errors.as_data()
    assert errors["scoring"][0].code == "ramsch_not_with_seeger_fabian"
    assert 'data-code="ramsch_not_with_seeger_fabian"' in response.content.decode()
    season.refresh_from_db()
    assert (season.scoring, season.rule_options) == ("seeger-fabian", {})


def test_the_service_refuses_unknown_rules_options_and_systems(season):
    def save(**fields):
        return league.save_season(season, name=season.name, year=season.year, **fields)

    for fields, code in [
        ({"rules": "skat-x"}, "unknown_rules"),
        ({"rule_options": {"lost_game": "thrice"}}, "option_value_invalid"),
        ({"scoring": "bridge"}, "unknown_list_system"),
        ({"match_points": "goals"}, "match_points_unknown"),
        (
            {"scoring": "seeger-fabian", "rule_options": {"ramsch": True}},
            "ramsch_not_with_seeger_fabian",
        ),
    ]:
        with pytest.raises(services.ServiceError) as error:
            save(**fields)
        assert error.value.code == code
    season.refresh_from_db()
    assert (season.rules, season.rule_options, season.scoring) == ("isko", {}, "seeger-fabian")


def test_a_match_day_created_on_the_season_page_plays_the_seasons_rules(client, operator, season):
    league.save_season(
        season,
        name=season.name,
        year=season.year,
        rules="se",
        rule_options={"lost_game": "add-level"},
        scoring="zero-sum",
    )

    response = client.post(
        reverse("league:season", args=[season.slug]),
        {"day-name": "1. Spieltag", "day-date": "2027-01-09", "day-match_day": "1"},
    )

    tournament = Tournament.objects.get(season=season)
    assert response.url == reverse("referee:tournament", args=[tournament.slug])
    assert (tournament.rules, tournament.rule_options, tournament.scoring) == (
        "se",
        {"lost_game": "add-level"},
        "zero-sum",
    )
    assert tournament.rules_text == SWEDISH_ADD_LEVEL


def test_the_new_tournament_form_starts_with_the_seasons_settings(client, operator, season):
    league.save_season(
        season,
        name=season.name,
        year=season.year,
        rules="dsu",
        rule_options={"ramsch": True},
        scoring="classic",
    )

    form = client.get(reverse("referee:tournament-create"), {"season": season.slug}).context["form"]

    assert form["season"].value() == season.pk
    assert (form["rules"].value(), form["scoring"].value()) == ("dsu", "classic")
    assert form["option_ramsch"].value() == "true"
    assert form["option_lost_game"].value() in (None, "")  # the preset's
    plain = client.get(reverse("referee:tournament-create")).context["form"]
    assert (plain["rules"].value(), plain["option_ramsch"].value()) == ("isko", None)


def test_a_tournament_of_the_season_may_name_other_rules(season):
    season.rules, season.scoring = "se", "classic"
    season.save()

    own = services.create_tournament(
        name="Pokal", date=datetime.date(2027, 2, 1), season=season, rules="isko"
    )
    default = services.create_tournament(
        name="Abend", date=datetime.date(2027, 2, 2), season=season
    )

    # Named fields win; the others come from the season.
    assert (own.rules, own.scoring) == ("isko", "classic")
    assert (default.rules, default.scoring) == ("se", "classic")


def test_changing_the_seasons_settings_raises_its_revision(client, operator, season):
    tournament = services.create_tournament(
        name="Abend", date=datetime.date(2027, 2, 2), season=season
    )
    before = client.get(reverse("season", args=[season.slug]))
    season.refresh_from_db()
    revision, tournament_revision = season.revision, Tournament.objects.get().revision

    post_season(client, season, rules="pre1999", match_points="pairings")

    season.refresh_from_db()
    tournament.refresh_from_db()
    assert season.revision > revision and tournament.revision > tournament_revision
    after = client.get(reverse("season", args=[season.slug])).content.decode()
    assert "vor 1999" not in before.content.decode()
    assert "vor 1999" in after and "2/1/0 je Paarung" in after

"""A season's rules corrected after its match days were set up: the season's page names the
match days that play other rules, and re-scores them in the background, all or nothing.

Figures by hand from tests/web/conftest.py's ``small_season`` under the classic list
(docs/rules.md section 4: a won game its value, a lost one twice its value, nothing else):
a1 null won 23, b1 grand with 1 won 48, c1 hearts with 1 lost −2 × 20 = −40, d1 0; c2 clubs
with 2 schneider 48, d2 overbid −2 × 27 = −54; b3 spades hand with 1 33."""

from __future__ import annotations

from skatliga import services
from skatliga.models import Change, Job, ListResult, Season, Tournament
from skatliga.tasks import jobs
from skatliga.tasks.seasons import _rescore, start_rescore


def totals(tournament: Tournament) -> dict[str, int]:
    return dict(
        ListResult.objects.filter(tournament=tournament).values_list("player__name", "total")
    )


def test_the_match_days_are_scored_again_under_the_seasons_corrected_rules(small_season):
    tournament = small_season.tournaments.get()
    assert services.playing_other_rules(small_season) == []
    assert totals(tournament)["a1"] == 103  # Seeger-Fabian: 23 + 50 + 30

    Season.objects.filter(pk=small_season.pk).update(scoring="classic")
    season = Season.objects.get(pk=small_season.pk)
    assert services.playing_other_rules(season) == [tournament]

    job = start_rescore(season)
    jobs.run(str(job.pk), _rescore)

    assert Job.objects.get(pk=job.pk).state == Job.State.DONE
    assert Tournament.objects.get(pk=tournament.pk).scoring == "classic"
    assert totals(tournament) == {
        "a1": 23, "b1": 48, "c1": -40, "d1": 0,
        "a2": 0, "b2": 0, "c2": 48, "d2": -54,
        "a3": 0, "b3": 33, "c3": 0, "d3": 0,
    }  # fmt: skip
    assert services.playing_other_rules(season) == []
    assert Change.objects.filter(
        tournament=tournament, action=Change.Action.TOURNAMENT_CHANGED
    ).exists()


def test_the_season_page_offers_it_and_starts_the_job(small_season, client, django_user_model):
    user = django_user_model.objects.create_superuser("liga", password="x-y-z-123")
    client.force_login(user)
    Season.objects.filter(pk=small_season.pk).update(scoring="classic")
    page = client.get(f"/league/seasons/{small_season.slug}/")
    assert 'id="other-rules"' in page.content.decode()
    answer = client.post(f"/league/seasons/{small_season.slug}/", {"rescore": "1"})
    job = Job.objects.get(kind="rescore_season")
    assert answer.status_code == 302 and answer["Location"].endswith(f"/jobs/{job.pk}/")

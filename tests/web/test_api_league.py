"""What a league's website reads from the API beyond standings: a player's lists in one
request, clubs and team rosters, category rankings, the running tournament's standing, the
calendar of match days, and polling by ``changed_since``."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from skatliga.models import Category, Club, Player, Series, Table, Team, Tournament
from tests.web.test_api import API, get

pytestmark = pytest.mark.django_db


def test_a_players_lists_come_in_one_request_with_their_figures(client, published):
    a1 = Player.objects.get(name="a1")
    (played,) = get(client, f"/players/{a1.pk}/lists")
    table = get(client, "/tournaments/spieltag-1/series/1/tables/1")
    mine = next(r for r in table["results"] if r["player"]["id"] == a1.pk)
    assert played["tournament"] == "spieltag-1" and played["date"] == "2026-11-21"
    assert (played["series"], played["table"], played["season"]) == (1, 1, "liga-2026")
    assert {k: played[k] for k in ("game_points", "won", "lost", "others_lost", "bonus")} == {
        k: mine[k] for k in ("game_points", "won", "lost", "others_lost", "bonus")
    }
    assert played["total"] == 103 and played.get("games") is None
    (with_games,) = get(client, f"/players/{a1.pk}/lists", games="true")
    assert with_games["games"] == table["games"]


def test_a_player_without_a_published_list_is_not_found(client, small_season):
    a1 = Player.objects.get(name="a1")
    assert client.get(f"{API}/players/{a1.pk}/lists").status_code == 404


def test_clubs_and_team_rosters(client, published):
    club = Club.objects.create(name="SC Herz")
    Player.objects.filter(name__in=["a1", "a2"]).update(club=club)
    team = Team.objects.get(name="Team A")
    Team.objects.filter(pk=team.pk).update(club=club)
    assert get(client, "/clubs")["items"] == [{"id": club.pk, "name": "SC Herz"}]
    found = get(client, f"/clubs/{club.pk}")
    assert [p["name"] for p in found["players"]] == ["a1", "a2"]
    assert found["teams"] == [
        {"id": team.pk, "name": "Team A", "club": "SC Herz", "season": "liga-2026"}
    ]
    roster = get(client, f"/teams/{team.pk}")
    assert sorted(p["name"] for p in roster["players"]) == sorted(
        team.players.values_list("name", flat=True)
    )


def test_category_rankings(client, published):
    Player.objects.filter(name__in=["a2", "d2"]).update(category=Category.SENIORS)
    season = get(client, "/seasons/liga-2026/standings", category="senioren")["items"]
    assert [(r["rank"], r["player"]) for r in season] == [(1, "a2"), (2, "d2")]
    tournament = get(client, "/tournaments/spieltag-1/standings", category="senioren")
    assert [r["player"] for r in tournament["items"]] == ["a2", "d2"]
    assert client.get(f"{API}/seasons/liga-2026/standings?category=kinder").status_code == 422


def test_the_running_tournaments_standing_is_marked_provisional(client, small_season):
    live = get(client, "/tournaments/spieltag-1/live")
    assert live["provisional"] is True
    assert [r["player"] for r in live["items"][:3]] == ["b1", "c2", "a1"]
    assert get(client, "/tournaments/spieltag-1/standings")["items"] == []
    Table.objects.update(closed_at=timezone.now())
    Series.objects.update(published_at=timezone.now())
    final = get(client, "/tournaments/spieltag-1/live")
    assert final["provisional"] is False
    assert final["items"] == get(client, "/tournaments/spieltag-1/standings")["items"]


def test_polling_asks_for_what_changed_since(client, published):
    Tournament.objects.update(revised_at=timezone.now() - datetime.timedelta(hours=1))
    before = (timezone.now() - datetime.timedelta(minutes=5)).isoformat()
    assert get(client, "/tournaments", changed_since=before)["items"] == []
    Series.objects.get().save()  # publishing again raises its tournament
    changed = get(client, "/tournaments", changed_since=before)["items"]
    assert [t["slug"] for t in changed] == ["spieltag-1"]
    assert changed[0]["changed_at"] >= before
    seasons = get(client, "/seasons", changed_since=before)["items"]
    assert [s["slug"] for s in seasons] == ["liga-2026"]
    assert client.get(f"{API}/tournaments?changed_since=gestern").status_code == 422


def test_the_calendar_has_every_match_day_with_time_and_address(client, small_season):
    Tournament.objects.update(
        starts_at=datetime.time(10, 30), venue="Vereinsheim", address="Hauptstr. 1, 53111 Bonn"
    )
    response = client.get(f"{API}/calendar.ics", {"season": "liga-2026"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert body.endswith("END:VEVENT\r\nEND:VCALENDAR\r\n")
    assert "SUMMARY:1. Spieltag\r\n" in body
    assert "DTSTART:20261121T093000Z\r\n" in body  # 10:30 in Berlin, winter time
    assert "LOCATION:Vereinsheim\\, Hauptstr. 1\\, 53111 Bonn\r\n" in body
    assert "URL:http://testserver/tournaments/spieltag-1/\r\n" in body
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))
    tournament = get(client, "/tournaments/spieltag-1")
    assert (tournament["starts_at"], tournament["address"]) == (
        "10:30:00",
        "Hauptstr. 1, 53111 Bonn",
    )
    Tournament.objects.update(starts_at=None)
    assert "DTSTART;VALUE=DATE:20261121\r\n" in client.get(f"{API}/calendar.ics").content.decode()

"""Publishing a series: provisional until the referee publishes, logged, shown on the pages.

Numbers are those of ``conftest.small_season`` (one series, three 4-tables, every list
complete): b1 128, c2 128, a1 103, b3 83, ...; teams B 241, A 133, C 38, D −74.
"""

from __future__ import annotations

import io

import pypdf
import pytest
from django.urls import reverse
from django.utils import timezone

from skatliga import services
from skatliga.archive import dump_archive, load_archive
from skatliga.models import Change, ListResult, Series, Table, Tournament
from tests.web.factories import entry, make_table, play, shown_rows


def close_all(series: Series) -> None:
    for table in series.tables.all():
        services.close_table(table)


def pdf_text(response) -> str:
    assert response.status_code == 200
    pages = pypdf.PdfReader(io.BytesIO(response.content)).pages
    return " ".join(" ".join(page.extract_text().split()) for page in pages)


@pytest.fixture
def series(small_season) -> Series:
    return Series.objects.get(tournament__slug="spieltag-1", number=1)


@pytest.fixture
def referee(client, django_user_model, series):
    user = django_user_model.objects.create_user("leitung", password="x-y-z-123")
    series.tournament.referees.add(user)
    client.force_login(user)
    return user


# --- the services -----------------------------------------------------------------------------


def test_a_series_with_open_lists_cannot_be_published(series):
    services.close_table(series.tables.get(number=1))

    with pytest.raises(services.ServiceError) as error:
        services.publish_series(series)

    assert error.value.code == "series_lists_open"
    assert error.value.params == {"count": 2}
    assert not Series.objects.public(final=True).exists()


def test_publishing_makes_the_series_final_and_is_logged(series, django_user_model):
    user = django_user_model.objects.create_user("leitung")
    close_all(series)

    services.publish_series(series, user=user)

    series.refresh_from_db()
    assert series.is_published and series.published_by == user
    assert list(Series.objects.public(final=True)) == [series]
    change = Change.objects.get(action=Change.Action.SERIES_PUBLISHED)
    assert (change.user, change.series, change.after["series"]) == (user, series, 1)


def test_publishing_twice_is_refused(series):
    close_all(series)
    services.publish_series(series)

    with pytest.raises(services.ServiceError) as error:
        services.publish_series(series)

    assert error.value.code == "series_already_published"


def test_withdrawing_needs_a_reason_and_is_logged(series):
    close_all(series)
    services.publish_series(series)

    with pytest.raises(services.ServiceError) as error:
        services.withdraw_publication(series, reason="  ")
    assert error.value.code == "reason_required"

    services.withdraw_publication(series, reason="Tisch 2 falsch addiert")

    assert not Series.objects.public(final=True).exists()
    change = Change.objects.get(action=Change.Action.SERIES_WITHDRAWN)
    assert change.reason == "Tisch 2 falsch addiert"
    assert change.before["series"] == 1


def test_withdrawing_an_unpublished_series_is_refused(series):
    with pytest.raises(services.ServiceError) as error:
        services.withdraw_publication(series, reason="x")
    assert error.value.code == "series_not_published"


def test_a_list_of_a_published_series_is_reopened_only_after_withdrawing(series):
    close_all(series)
    services.publish_series(series)
    table = series.tables.get(number=2)

    with pytest.raises(services.ServiceError) as error:
        services.reopen_table(table, reason="Korrektur")
    assert error.value.code == "series_published"

    services.withdraw_publication(series, reason="Korrektur")
    services.reopen_table(table, reason="Korrektur")
    assert not Table.objects.get(pk=table.pk).is_closed


def test_public_rows_leave_out_hidden_series_only(db):
    # One 3-table in two series: series 1 (three games passed in) published, series 2 not.
    first = make_table(size=3, rounds=1)
    tournament = first.series.tournament
    second = make_table(tournament, series=2, players=list(_players(first)))
    play(first, entry(), entry(), entry())
    services.close_table(first)
    services.publish_series(first.series)

    shown = ListResult.objects.for_tournament(tournament).public()
    assert shown.count() == 6
    assert shown.provisional()

    tournament.hide_unpublished = True
    tournament.save()
    shown = ListResult.objects.for_tournament(tournament).public()
    assert set(shown.values_list("series_id", flat=True)) == {first.series_id}
    assert not shown.provisional()
    assert second.series_id not in set(shown.values_list("series_id", flat=True))


def _players(table: Table):
    return [seat.player for seat in table.seats.order_by("position")]


def test_hiding_unpublished_series_is_a_logged_setting(series):
    tournament = services.update_tournament(series.tournament, hide_unpublished=True)

    assert tournament.hide_unpublished
    change = Change.objects.get(action=Change.Action.TOURNAMENT_CHANGED)
    assert change.before == {"hide_unpublished": False}
    assert change.after == {"hide_unpublished": True}


def test_publishing_the_complete_series_picks_those_with_every_list_closed(
    db, django_user_model, django_assert_num_queries
):
    user = django_user_model.objects.create_user("leitung")
    first = make_table(rounds=1, series=1)
    tournament = first.series.tournament
    make_table(tournament, series=1)  # series 1: both lists closed below
    make_table(tournament, series=2)
    open_list = make_table(tournament, series=2)  # series 2: one list open
    Series.objects.create(tournament=tournament, number=3)  # series 3: no lists
    make_table(tournament, series=4)  # series 4: closed, and published already
    make_table(tournament, series=5)  # series 5: closed
    Table.objects.filter(series__tournament=tournament).exclude(pk=open_list.pk).update(
        closed_at=timezone.now()
    )
    services.publish_series(Series.objects.get(tournament=tournament, number=4))
    revision = Tournament.objects.get(pk=tournament.pk).revision

    # The tournament's lock, the series to publish, one UPDATE, one insert of the Change
    # rows, the revisions (one statement: no season); no savepoint inside the caller's
    # transaction.
    with django_assert_num_queries(5):
        published = services.publish_complete_series(tournament, user=user)

    assert [(s.number, s.published_by, s.tournament) for s in published] == [
        (1, user, tournament),
        (5, user, tournament),
    ]
    stored = {s.number: s for s in Series.objects.filter(tournament=tournament)}
    assert [n for n, s in sorted(stored.items()) if s.published_at is None] == [2, 3]
    for series in published:
        assert stored[series.number].published_at == series.published_at
        assert stored[series.number].published_by == user
    changes = Change.objects.filter(
        tournament=tournament, action=Change.Action.SERIES_PUBLISHED, user=user
    ).order_by("pk")
    assert [(c.series_id, c.after) for c in changes] == [
        (s.pk, {"series": s.number, "published_at": s.published_at.isoformat()}) for s in published
    ]
    assert Tournament.objects.get(pk=tournament.pk).revision == revision + 1
    # Nothing left to publish: nothing written, not even the revisions.
    assert services.publish_complete_series(tournament) == []
    assert Tournament.objects.get(pk=tournament.pk).revision == revision + 1


# --- imports and the demo ----------------------------------------------------------------------


def test_importing_a_finished_tournament_publishes_it(series):
    close_all(series)
    document = dump_archive(series.tournament)

    imported = load_archive(document)

    assert imported.status == Tournament.Status.FINISHED
    assert imported.series.public(final=True).count() == imported.series.count() == 1
    assert Change.objects.filter(
        tournament=imported, action=Change.Action.SERIES_PUBLISHED
    ).exists()


def test_importing_an_unfinished_tournament_leaves_it_provisional(db):
    table = make_table(size=3, rounds=1)
    play(table, entry(), entry())  # two of three games
    imported = load_archive(dump_archive(table.series.tournament))

    assert imported.status == Tournament.Status.RUNNING
    assert not imported.series.public(final=True).exists()


# --- the referee's pages -----------------------------------------------------------------------


def test_the_referee_publishes_from_the_series_page(client, referee, series):
    close_all(series)
    url = reverse("referee:publish", args=["spieltag-1", 1])

    response = client.post(url)

    assert response.status_code == 302
    assert Series.objects.get(pk=series.pk).published_by == referee


def test_publishing_with_open_lists_says_why(client, referee, series):
    response = client.post(reverse("referee:publish", args=["spieltag-1", 1]))

    assert response.status_code == 409
    assert response.context["action_error"]["code"] == "series_lists_open"
    assert not Series.objects.public(final=True).exists()


def test_withdrawing_without_a_reason_keeps_the_publication(client, referee, series):
    close_all(series)
    services.publish_series(series)

    response = client.post(reverse("referee:withdraw", args=["spieltag-1", 1]), {"reason": ""})

    assert response.status_code == 400
    assert response.context["withdraw_form"].errors.as_data()["reason"][0].code == (
        "reason_required"
    )
    assert Series.objects.public(final=True).count() == 1
    response = client.post(
        reverse("referee:withdraw", args=["spieltag-1", 1]), {"reason": "Einspruch"}
    )
    assert response.status_code == 302
    assert not Series.objects.public(final=True).exists()


def test_the_change_log_shows_every_change_and_filters_by_kind(client, referee, series):
    close_all(series)
    services.publish_series(series, user=referee)
    url = reverse("referee:changes", args=["spieltag-1"])

    response = client.get(url)

    assert response.status_code == 200
    actions = [change.action for change, _details in response.context["rows"]]
    # 12 games recorded by the fixture, 3 lists closed, 1 publication, newest first.
    assert actions[0] == Change.Action.SERIES_PUBLISHED
    assert actions.count(Change.Action.LIST_CLOSED) == 3
    assert actions.count(Change.Action.GAME_RECORDED) == 12
    filtered = client.get(url, {"action": "list_closed"})
    assert [c.action for c, _d in filtered.context["rows"]] == ["list_closed"] * 3


def test_the_change_log_is_for_referees_only(client, django_user_model, series):
    url = reverse("referee:changes", args=["spieltag-1"])
    assert client.get(url).status_code == 302
    client.force_login(django_user_model.objects.create_user("gast"))
    assert client.get(url).status_code == 403


def test_a_bad_filter_in_the_change_log_shows_everything(client, referee, series):
    response = client.get(reverse("referee:changes", args=["spieltag-1"]), {"action": "nix"})
    assert response.status_code == 200
    assert len(response.context["rows"]) == 12


# --- the public pages and PDFs -----------------------------------------------------------------


def test_an_unpublished_series_is_provisional_on_every_page(client, series):
    tournament = client.get(reverse("standings", args=["spieltag-1"]))
    assert tournament.context["provisional"]
    assert b'data-provisional="1"' in tournament.content
    assert [row.player for row in shown_rows(tournament.context["players"])][:2] == ["b1", "c2"]
    series_page = client.get(reverse("series", args=["spieltag-1", 1]))
    assert b'data-provisional="1"' in series_page.content
    assert client.get(reverse("season", args=["liga-2026"])).context["provisional"]
    assert "vorläufig" in pdf_text(
        client.get(reverse("series-results-pdf", args=["spieltag-1", 1]))
    )
    assert "vorläufig" in pdf_text(
        client.get(reverse("tournament-results-pdf", args=["spieltag-1"]))
    )
    assert "vorläufig" in pdf_text(client.get(reverse("season-results-pdf", args=["liga-2026"])))
    assert "vorläufig" in pdf_text(client.get(reverse("season-teams-pdf", args=["liga-2026"])))


def test_a_published_series_is_final(client, series):
    close_all(series)
    services.publish_series(series)

    tournament = client.get(reverse("standings", args=["spieltag-1"]))
    assert not tournament.context["provisional"]
    assert b"data-provisional" not in tournament.content
    text = pdf_text(client.get(reverse("series-results-pdf", args=["spieltag-1", 1])))
    assert "vorläufig" not in text
    assert "Ergebnisliste Serie 1" in text
    assert "vorläufig" not in pdf_text(
        client.get(reverse("series-sheets-pdf", args=["spieltag-1", 1]))
    )


def test_a_tournament_may_hide_lists_until_they_are_published(client, series):
    Tournament.objects.filter(pk=series.tournament_id).update(hide_unpublished=True)

    standings = client.get(reverse("standings", args=["spieltag-1"]))
    assert shown_rows(standings.context["players"]) == []
    assert standings.context["teams"] is None
    hidden = client.get(reverse("series", args=["spieltag-1", 1]))
    assert hidden.status_code == 200 and hidden.context["hidden"]
    assert b">b1<" not in hidden.content  # the name as shown, not inside a random token
    assert (
        client.get(reverse("series", args=["spieltag-1", 1]), {"export": "csv"}).status_code == 404
    )
    assert client.get(reverse("table", args=["spieltag-1", 1, 1])).status_code == 404
    assert client.get(reverse("series-results-pdf", args=["spieltag-1", 1])).status_code == 404
    assert client.get(reverse("series-sheets-pdf", args=["spieltag-1", 1])).status_code == 404
    blank = client.get(reverse("series-sheets-pdf", args=["spieltag-1", 1]), {"blank": "1"})
    assert blank.status_code == 200
    season = client.get(reverse("season", args=["liga-2026"]))
    assert shown_rows(season.context["players"]) == []

    close_all(series)
    services.publish_series(series)

    standings = client.get(reverse("standings", args=["spieltag-1"]))
    rows = [(r.rank, r.player, r.total) for r in shown_rows(standings.context["players"])]
    assert rows[:3] == [(1, "b1", 128), (1, "c2", 128), (3, "a1", 103)]
    teams = [(r.team, r.game_points) for r in shown_rows(standings.context["teams"])]
    assert teams == [("Team B", 241), ("Team A", 133), ("Team C", 38), ("Team D", -74)]
    assert client.get(reverse("table", args=["spieltag-1", 1, 1])).status_code == 200


def test_a_hidden_series_stays_out_of_a_players_statistics(client, db):
    """A tournament that hides unpublished series hides them from a player's page too:
    his statistics count only the games the public may see."""
    table = make_table(rounds=1, hide_unpublished=True)
    anna = table.seats.get(position=2).player
    grand, *_passed = play(
        table, entry(2, "grand", matadors=4, card_points=70, hand=True), entry(), entry(), entry()
    )
    assert grand.value == 144

    page = client.get(reverse("player", args=[anna.pk]))
    assert "144,0" not in page.content.decode()
    assert (page.context["statistics"].lists, page.context["statistics"].games_declared) == (0, 0)

    services.close_table(table)
    services.publish_series(table.series)
    assert "144,0" in client.get(reverse("player", args=[anna.pk])).content.decode()

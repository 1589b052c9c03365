"""Table links: the players keep their list at the table through /t/<token>/."""

import logging
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from skatliga import revisions, services
from skatliga.models import Change, Game, ListResult, TableLink, Tournament
from skatliga.services import table_links as links
from skatliga.table import cards as table_cards
from skatliga.table import views as table_views
from tests.web.factories import entry, make_table, play
from tests.web.test_referee_entry import row

pytestmark = pytest.mark.django_db

GRAND = dict(declarer=2, game="grand", matadors=2, hand=True, bid=24, card_points=78, tricks=7)


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table():
    """A 3-table with one round (3 games) and its link."""
    return make_table(size=3, rounds=1)


@pytest.fixture
def link(table):
    return links.renew_link(table)


@pytest.fixture
def device(client, link):
    """The table's device, named "Tablet 3"."""
    client.post(reverse("table:device", args=[link.token]), {"name": "Tablet 3"})
    return client


def entry_url(link):
    return reverse("table:entry", args=[link.token])


def results(table):
    return list(ListResult.objects.filter(table=table).order_by("position").values_list("total"))


# --- tokens and codes -------------------------------------------------------------------------


def test_a_token_carries_at_least_128_random_bits_and_is_url_safe(link):
    assert links.TOKEN_BYTES * 8 >= 128
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", link.token)  # 24 bytes → 32 base64 characters
    assert re.fullmatch(f"[{links.CODE_ALPHABET}]{{8}}", link.code)


def test_renewing_issues_a_new_token_and_code_and_revokes_the_old(table, link):
    new = links.renew_link(table)

    link.refresh_from_db()
    assert (new.token, new.code) != (link.token, link.code)
    assert link.revoked_at is not None and new.revoked_at is None
    assert TableLink.objects.filter(table=table, revoked_at__isnull=True).count() == 1


# --- opening the link -------------------------------------------------------------------------


def test_the_link_asks_for_the_devices_name_first_without_login(client, link):
    response = client.get(entry_url(link))

    assert response.status_code == 302
    assert response.url == reverse("table:device", args=[link.token])


def test_the_link_opens_the_same_entry_page_as_the_referees(device, link, table):
    response = device.get(entry_url(link))

    assert response.status_code == 200
    assert response.templates[0].name == "referee/list.html"
    assert response.context["at_table"] is True
    assert response.context["editing"] == 1
    assert response.context["preview_url"] == reverse("table:preview", args=[link.token])
    content = response.content.decode()
    assert "Liste abschließen" not in content  # no closing, reopening or deleting at the table
    assert "Anmelden" not in content  # no login link that would carry the token along


@pytest.mark.parametrize("path", ["x" * 32, "abc", "x" * 32 + "/device"])
def test_a_wrong_token_is_a_plain_404(client, link, path):
    assert client.get(f"/t/{path}/").status_code == 404
    assert client.post(f"/t/{path}/", row(1, **GRAND)).status_code == 404
    assert client.post(f"/t/{path}/preview/", row(1, **GRAND)).status_code == 404
    assert not Game.objects.exists()


def test_a_revoked_or_renewed_token_is_a_404(device, table, link):
    links.renew_link(table)
    assert device.get(entry_url(link)).status_code == 404

    links.revoke_link(table)
    current = TableLink.objects.get(table=table, revoked_at__isnull=False, pk__gt=link.pk)
    assert device.get(entry_url(current)).status_code == 404


def test_the_link_opens_no_referee_page(device, table):
    url = reverse(
        "referee:list", args=[table.series.tournament.slug, table.series.number, table.number]
    )
    assert device.get(url).status_code == 302  # to the login


def test_the_table_page_sends_no_referer_to_other_sites_and_is_not_cached(device, link):
    response = device.get(entry_url(link))

    assert response["Referrer-Policy"] == "same-origin"
    assert "no-store" in response["Cache-Control"]


# --- entering through the link ----------------------------------------------------------------


def test_a_row_saved_at_the_table_goes_through_the_same_service(device, link, table):
    response = device.post(entry_url(link), row(1, **GRAND))

    assert response.status_code == 302
    assert response.url == entry_url(link)
    game = Game.objects.get(table=table)
    # Grand 24 × (mit 2 + Spiel 1 + Hand 1 = 4) = 96; Seeger-Fabian adds 50 for the won game.
    assert (game.value, game.won, game.updated_by) == (96, True, None)
    assert results(table) == [(0,), (146,), (0,)]


def test_a_save_from_the_pages_script_answers_with_what_the_page_changes(device, link, table):
    response = device.post(entry_url(link), row(1, **GRAND), HTTP_X_REQUESTED_WITH="fetch")

    assert response.status_code == 200
    data = response.json()
    assert (data["saved"], data["number"], data["version"], data["next"]) == (True, 1, 1, 2)
    # Seat 2's total: the grand's 96 and 50 for the game won (docs/rules.md section 5).
    assert 'data-summary="total" data-seat="2">146<' in data["rows"]
    assert 'id="row-1" data-number="1" class="is-saved' in data["rows"]
    assert "1 / 3 Spiele" in data["status"]
    assert "Spiel 1 gespeichert: +96." in data["messages"]
    assert results(table) == [(0,), (146,), (0,)]
    # The note came with the answer: the next page does not show it again.
    assert "Spiel 1 gespeichert" not in device.get(entry_url(link)).content.decode()


LIST_ROW = re.compile(r'<tr id="(row-\d+)"[\s\S]*?</tr>')
SUMMARY = re.compile(r"<tfoot>[\s\S]*?</tfoot>")
SHOWN = re.compile(r'<table class="list[^>]*? data-revision="([^"]+)"')


def saved_in_place(device, url, fields, page=None):
    """The answer to ``fields`` posted as table-queue.js posts a row online, saying the
    revision the ``page`` shows (nothing without a page)."""
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"}
    if page is not None:
        headers["HTTP_X_LIST_REVISION"] = SHOWN.search(page)[1]
    return device.post(url, fields, **headers).json()


def shown_list(html):
    """The list's rows by id and its summary, as the page or an answer has them."""
    return {match[1]: match[0] for match in LIST_ROW.finditer(html)}, SUMMARY.search(html)[0]


def test_a_new_row_saved_in_place_answers_with_the_rows_it_changed(device, link):
    """The answer carries the row saved, the next (where the form moves on) and the summary;
    put into the page the script had, they make the page the server shows next."""
    longer = links.renew_link(make_table(size=3, rounds=2))  # 6 games
    device.post(reverse("table:device", args=[longer.token]), {"name": "Tablet 1"})
    url = entry_url(longer)
    page = device.get(url).content.decode()
    for number, declarer in enumerate((2, 3, 1, 2), start=1):
        answer = saved_in_place(device, url, row(number, **(GRAND | {"declarer": declarer})), page)
        rows, summary = shown_list(answer["rows"])
        assert sorted(rows) == sorted({f"row-{number}", f"row-{number + 1}"})
        assert not answer["every_row"]
        before, _ = shown_list(page)
        page = device.get(url).content.decode()
        after, after_summary = shown_list(page)
        assert before | rows == after
        assert summary == after_summary
        assert answer["revision"] == SHOWN.search(page)[1]
    assert 'class="is-empty is-editing"' in rows["row-5"]


def test_a_page_older_than_the_list_gets_every_row(device, link, table):
    """A row changed meanwhile by the referee or another device (the page's revision is
    older than the list's), or a page that does not say: the answer carries every row."""
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    page = device.get(entry_url(link)).content.decode()
    # The referee makes game 1 seat 3's.
    services.record_game(
        table, 1, entry(3, "grand", bid=18, matadors=1, won=True), expected_version=1
    )
    answer = saved_in_place(device, entry_url(link), row(2, **GRAND), page)
    assert answer["every_row"]
    rows, summary = shown_list(answer["rows"])
    assert (rows, summary) == shown_list(device.get(entry_url(link)).content.decode())

    answer = saved_in_place(device, entry_url(link), row(3, **GRAND))
    assert answer["every_row"]
    assert sorted(shown_list(answer["rows"])[0]) == ["row-1", "row-2", "row-3"]


def test_a_change_to_the_tournament_since_the_page_gets_every_row(device, link, table):
    """Settings that re-score every list raise the tournament's frame, not the table's
    revision: a page from before gets every row with its next save."""
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    page = device.get(entry_url(link)).content.decode()
    revisions.touch(table.series.tournament)
    answer = saved_in_place(device, entry_url(link), row(2, **GRAND), page)

    assert answer["every_row"]
    page = device.get(entry_url(link)).content.decode()
    assert answer["revision"] == SHOWN.search(page)[1]


def test_a_row_sent_again_after_its_answer_was_lost_gets_every_row(device, link, table):
    """The save finds the row already saved and writes nothing: it cannot say which rows
    the page lacks, nor the list's revision."""
    page = device.get(entry_url(link)).content.decode()
    saved_in_place(device, entry_url(link), row(1, **GRAND), page)
    again = saved_in_place(device, entry_url(link), row(1, **GRAND), page)

    assert (again["saved"], again["next"], again["every_row"], again["revision"]) == (
        True,
        2,
        True,
        None,
    )
    assert shown_list(again["rows"]) == shown_list(device.get(entry_url(link)).content.decode())
    assert Game.objects.filter(table=table).count() == 1


def test_a_correction_answered_in_place_carries_every_row(device, link, table):
    """A correction changes the running totals of every row after it."""
    play(
        table,
        entry(1, "grand", bid=18, matadors=1, won=True),
        entry(3, "grand", bid=18, matadors=1, won=True),
    )
    page = device.get(entry_url(link)).content.decode()
    answer = saved_in_place(device, entry_url(link), row(1, version=1, **GRAND), page)
    assert (answer["saved"], answer["version"], answer["every_row"]) == (True, 2, True)
    assert shown_list(answer["rows"]) == shown_list(device.get(entry_url(link)).content.decode())


def test_a_save_in_place_reads_less_than_a_save_and_its_page(device, link, table):
    """The statements of a new row saved through the link: the form's own post with the
    page it redirects to, against the answer to the page's script (no page, no history)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    with CaptureQueriesContext(connection) as reload:
        device.post(entry_url(link), row(2, **GRAND))
        device.get(entry_url(link))
    with CaptureQueriesContext(connection) as in_place:
        device.post(
            entry_url(link),
            row(3, declarer=3, **without(GRAND, "declarer")),
            HTTP_X_REQUESTED_WITH="fetch",
        )

    # The link, the session; in the save's savepoint the tournament locked, the table and
    # series locked and read in one statement (with whether the list has signatures to
    # clear: none here, so no delete), the games, the new row, the seats, the result rows,
    # the history's line, the table's, series' and tournament's revisions (no season here).
    # The answer is built from the games read under the lock.
    assert len(in_place) == 14, [q["sql"] for q in in_place]
    # The same save, then the whole page: 9 statements more (the table's call and its
    # objections among them, for the referee's answers), and a request more.
    assert len(reload) == 23, [q["sql"] for q in reload]
    assert Game.objects.filter(table=table).count() == 3


def without(fields, *names):
    return {key: value for key, value in fields.items() if key not in names}


def test_the_history_records_the_change_as_made_at_the_table(device, link, table, client):
    device.post(entry_url(link), row(1, **GRAND))

    change = Change.objects.get(table=table, action=Change.Action.GAME_RECORDED)
    assert (change.user, change.device) == (None, "Tablet 3")


def test_the_referee_sees_the_device_in_the_history(device, link, table, django_user_model):
    device.post(entry_url(link), row(1, **GRAND))
    referee = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(referee)
    device.force_login(referee)

    response = device.get(
        reverse(
            "referee:list", args=[table.series.tournament.slug, table.series.number, table.number]
        )
    )

    assert "am Tisch (Tablet 3)" in response.content.decode()


def test_the_preview_at_the_table_scores_without_saving(device, link, table):
    response = device.post(reverse("table:preview", args=[link.token]), row(1, **GRAND))

    data = response.json()
    assert (data["ok"], data["value"], data["list_score"]) == (True, 96, 96)
    assert not Game.objects.filter(table=table).exists()


def test_an_invalid_row_at_the_table_gets_the_engines_codes_and_saves_nothing(device, link):
    response = device.post(entry_url(link), row(1, declarer=2, game="grand", bid=18))

    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Game.objects.exists()


def test_a_stale_save_at_the_table_is_a_conflict_and_overwrites_nothing(device, link, table):
    play(table, entry(1, "grand", bid=18, matadors=1, won=True))
    services.record_game(
        table, 1, entry(2, "clubs", bid=18, matadors=1, won=True), expected_version=1
    )

    response = device.post(entry_url(link), row(1, version=1, **GRAND))

    assert response.context["conflict"]["code"] == "conflict"
    assert Game.objects.get(table=table).game == "clubs"


def test_a_conflict_names_the_device_that_saved(device, link, table):
    """Another phone at the table ("Handy 2") saved game 1 first: the conflict names it,
    not "von —"."""
    services.record_game(
        table, 1, entry(2, "clubs", bid=18, matadors=1, won=True), device="Handy 2"
    )

    response = device.post(entry_url(link), row(1, **GRAND))

    assert response.context["conflict"]["code"] == "conflict"
    saved = response.content.decode().split('class="conflict-saved"', 1)[1].split("</p>", 1)[0]
    assert "am Tisch, Handy 2," in saved and "von —" not in saved


def test_the_device_says_a_correction_cleared_the_signatures(
    device, link, table, django_user_model
):
    """The list signed by all three; the referee corrects game 2: the table's list and
    sign pages say the signatures are gone, until all three have signed again."""
    play(table, entry(1, "grand", bid=18, matadors=1, won=True), entry(), entry())
    for position in (1, 2, 3):
        services.sign_list(table, position, state=services.list_state(table))
    assert "signatures-cleared" not in device.get(entry_url(link)).content.decode()
    user = django_user_model.objects.create_user("leitung", first_name="Lea")
    services.record_game(
        table,
        2,
        entry(2, "clubs", bid=18, matadors=1, won=True),
        expected_version=1,
        user=user,
        reason="Papier",
        signatures_confirmed=True,
    )

    for page in (entry_url(link), reverse("table:sign", args=[link.token])):
        html = device.get(page).content.decode()
        said = html.split('class="alert alert-warning signatures-cleared"', 1)[1].split("</p>")[0]
        assert 'data-game="2"' in said
        assert "Spiel 2 wurde nach der Unterschrift von der Turnierleitung geändert" in said
        assert "alle Unterschriften sind gelöscht" in said
    for position in (1, 2, 3):
        services.sign_list(table, position, state=services.list_state(table))
    assert "signatures-cleared" not in device.get(entry_url(link)).content.decode()


def test_a_write_after_the_list_closed_gets_a_clear_message(device, link, table):
    play(table, entry(), entry(), entry())
    services.close_table(table)

    response = device.post(entry_url(link), row(3, version=1, **GRAND))

    assert response.status_code == 409
    assert response.context["action_error"]["code"] == "list_closed"
    assert "nur noch die Turnierleitung" in response.content.decode()
    assert Game.objects.get(table=table, number=3).passed


# --- the short code ---------------------------------------------------------------------------


def test_the_short_code_opens_the_link_whatever_its_case_and_dashes(client, link):
    typed = f"{link.code[:4].lower()}-{link.code[4:]}"

    response = client.post(reverse("table:code"), {"code": typed})

    assert response.status_code == 302
    assert response.url == entry_url(link)


def test_a_wrong_code_is_an_error_at_the_field(client, link):
    response = client.post(reverse("table:code"), {"code": "ZZZZ-ZZZZ"})

    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["code"]] == [
        "table_code_unknown"
    ]


def test_wrong_codes_are_limited_per_address_a_right_one_opens(client, link, monkeypatch):
    monkeypatch.setattr(table_views, "WRONG_CODES_PER_HOUR", 2)
    statuses = [
        client.post(reverse("table:code"), {"code": "ZZZZ-ZZZZ"}).status_code for _ in range(3)
    ]
    refused = client.post(reverse("table:code"), {"code": "ZZZZ-ZZZZ"})
    right = client.post(reverse("table:code"), {"code": link.code})
    elsewhere = client.post(reverse("table:code"), {"code": "ZZZZ"}, REMOTE_ADDR="10.0.0.9")

    assert statuses == [200, 200, 429]
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert right.status_code == 302
    assert elsewhere.status_code == 200


def test_wrong_codes_from_every_address_have_one_budget(client, link, monkeypatch):
    monkeypatch.setattr(table_views, "ALL_WRONG_CODES_PER_HOUR", 2)
    for number in range(2):
        client.post(reverse("table:code"), {"code": "ZZZZ"}, REMOTE_ADDR=f"10.0.0.{number}")

    assert client.post(reverse("table:code"), {"code": "ZZZZ"}).status_code == 429
    assert client.post(reverse("table:code"), {"code": link.code}).status_code == 302


def test_many_requests_on_a_valid_link_are_never_refused(device, link):
    statuses = {device.get(entry_url(link)).status_code for _ in range(40)}

    assert statuses == {200}


def test_wrong_tokens_lock_the_guesser_not_the_valid_links(device, link, monkeypatch):
    monkeypatch.setattr(table_views, "WRONG_TOKENS_PER_HOUR", 2)
    statuses = [device.get(f"/t/{'x' * 32}/").status_code for _ in range(3)]
    refused = device.get(f"/t/{'y' * 32}/")

    assert statuses == [404, 404, 429]
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert device.get(entry_url(link)).status_code == 200  # a valid token always opens
    assert device.get(f"/t/{'x' * 32}/", REMOTE_ADDR="10.0.0.9").status_code == 404


def test_wrong_tokens_from_every_address_have_one_budget(device, link, monkeypatch):
    monkeypatch.setattr(table_views, "ALL_WRONG_TOKENS_PER_HOUR", 2)
    for number in range(2):
        device.get(f"/t/{'x' * 32}/", REMOTE_ADDR=f"10.0.0.{number}")

    assert device.get(f"/t/{'x' * 32}/").status_code == 429
    assert device.get(entry_url(link)).status_code == 200


def test_a_stale_tablet_reloading_its_revoked_link_locks_no_other_table(device, table, monkeypatch):
    monkeypatch.setattr(table_views, "WRONG_TOKENS_PER_HOUR", 2)
    stale = links.renew_link(table)
    links.renew_link(table)
    other = links.renew_link(make_table(size=3, rounds=1))
    device.post(reverse("table:device", args=[other.token]), {"name": "Tablet 4"})
    statuses = [device.get(entry_url(stale)).status_code for _ in range(3)]

    assert statuses == [404, 404, 429]
    assert device.get(entry_url(other)).status_code == 200


def test_wrong_tokens_are_counted_where_every_worker_sees_them(device, link, monkeypatch):
    monkeypatch.setattr(table_views, "WRONG_TOKENS_PER_HOUR", 2)
    for _ in range(2):
        device.get(f"/t/{'x' * 32}/")
        cache.clear()  # the next request lands on a worker whose local memory is empty

    assert device.get(f"/t/{'x' * 32}/").status_code == 429


def test_the_gunicorn_access_log_line_loses_the_token(link):
    from skatliga.table.redaction import RedactTableTokens

    record = logging.LogRecord(
        "gunicorn.access",
        logging.INFO,
        __file__,
        1,
        '%(h)s "%(r)s" %(s)s "%(f)s"',
        (
            {
                "h": "10.0.0.7",
                "r": f"GET /t/{link.token}/ HTTP/1.1",
                "s": "200",
                "f": f"https://skat.example/t/{link.token}/?game=2",
            },
        ),
        None,
    )

    RedactTableTokens().filter(record)

    assert record.getMessage() == (
        '10.0.0.7 "GET /t/…/ HTTP/1.1" 200 "https://skat.example/t/…/?game=2"'
    )


# --- logs -------------------------------------------------------------------------------------


def test_the_token_never_reaches_the_logs(client, link, caplog):
    wrong = link.token[:-1] + ("y" if link.token.endswith("x") else "x")
    with caplog.at_level(logging.INFO):
        response = client.get(f"/t/{wrong}/")  # Django logs the 404

    assert response.status_code == 404

    assert caplog.records
    assert all(link.token[:20] not in record.getMessage() for record in caplog.records)


# --- the referee's side -----------------------------------------------------------------------


@pytest.fixture
def referee(client, django_user_model, table):
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return client


def series_url(table):
    return reverse("referee:series", args=[table.series.tournament.slug, table.series.number])


def link_url(table, action):
    return reverse(
        f"referee:link-{action}",
        args=[table.series.tournament.slug, table.series.number, table.number],
    )


def test_the_series_page_shows_each_tables_link_code_and_qr(referee, table):
    response = referee.get(series_url(table))

    link = TableLink.objects.get(table=table)
    card = response.context["tables"][0]["link"]
    assert card["url"] == f"http://testserver/t/{link.token}/"
    assert card["code"] == f"{link.code[:4]}-{link.code[4:]}"
    assert card["qr"].startswith("<svg")


def test_the_referee_revokes_and_renews_a_link(referee, table, client):
    referee.get(series_url(table))
    first = TableLink.objects.get(table=table)

    referee.post(link_url(table, "revoke"))
    assert not TableLink.objects.filter(table=table, revoked_at__isnull=True).exists()
    assert referee.get(series_url(table)).context["tables"][0]["link"] is None

    referee.post(link_url(table, "renew"))
    second = TableLink.objects.get(table=table, revoked_at__isnull=True)
    assert second.token != first.token


def test_only_the_tournaments_referees_renew_links(client, table, django_user_model):
    other = django_user_model.objects.create_user("bernd", password="kreuz-bube-11")
    client.force_login(other)

    response = client.post(link_url(table, "renew"))

    assert response.status_code == 403
    assert not TableLink.objects.exists()


# --- table cards ------------------------------------------------------------------------------


def test_the_table_cards_print_one_card_per_table_with_qr_code_and_players(referee, table):
    second = make_table(table.series.tournament, size=3)

    response = referee.get(reverse("referee:table-cards", args=[table.series.tournament.slug, 1]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    cards = table_cards.table_cards(response.wsgi_request, table.series)
    assert [card.table for card in cards] == [1, 2]
    assert cards[1].players == tuple(str(s.player) for s in second.seats.order_by("position"))
    link = TableLink.objects.get(table=table)
    assert cards[0].url == f"http://testserver/t/{link.token}/"
    assert cards[0].code == links.format_code(link.code)
    assert cards[0].code_url == "testserver/t/"


def test_the_table_cards_are_for_referees_only(client, table):
    response = client.get(reverse("referee:table-cards", args=[table.series.tournament.slug, 1]))

    assert response.status_code == 302


def test_the_referees_blank_sheets_carry_each_tables_link_and_code(referee, table):
    response = referee.get(reverse("referee:blank-sheets", args=[table.series.tournament.slug, 1]))

    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    link = TableLink.objects.get(table=table)
    sheets = table_cards.blank_sheets(response.wsgi_request, table.series)
    assert [(s.link, s.code) for s in sheets] == [
        (f"http://testserver/t/{link.token}/", links.format_code(link.code))
    ]


def test_the_public_blank_sheets_carry_no_link(table, link):
    from skatliga import printing

    assert [(s.link, s.code) for s in printing.series_sheets(table.series)] == [("", "")]


def test_the_link_read_by_its_token_carries_its_table_series_and_tournament(link, table):
    """The lookup on every request of a device (its statement compiled once, with the token a
    stand-in): the link of this token with what it joins, none for a revoked one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    other = links.renew_link(make_table(size=4, rounds=1))
    for wanted in (link, other):
        tournament = Tournament.objects.get(series__tables__links=wanted)
        with CaptureQueriesContext(connection) as read:
            found = links.link_for_token(wanted.token)
            assert found is not None and found.pk == wanted.pk
            assert found.table.series.tournament == tournament
        assert len(read) == 1
    assert links.link_for_token("x" + link.token[1:]) is None
    links.renew_link(table)
    assert links.link_for_token(link.token) is None


def test_an_expired_device_session_is_none(device, link):
    """The session is read by a statement compiled once; its expiry still counts."""
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    assert device.get(entry_url(link)).status_code == 200
    Session.objects.update(expire_date=timezone.now() - timezone.timedelta(seconds=1))
    # No session: the device is asked for its name again.
    answer = device.get(entry_url(link))
    assert answer.status_code == 302
    assert answer["Location"] == reverse("table:device", args=[link.token])

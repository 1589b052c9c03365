"""Where the rating shows, in Chromium: the public rating list (every listed player, the
provisional mark, the filters) and a player's page with his rating's chart, drawn on the
server as SVG, under the site's Content-Security-Policy.

With SKATLIGA_SHOTS=<folder> the test writes its screenshots there (390 and 1366 px wide).
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.urls import reverse

from skatliga import services
from skatliga.models import Club, Player
from tests.browser.test_security_policy import RECORD_VIOLATIONS, visit
from tests.web.factories import entry, make_player, make_table, make_tournament, play

pytestmark = pytest.mark.django_db(transaction=True)

EVENINGS = 5


def club_evenings() -> list[Player]:
    """Eight players of two clubs on five evenings at two 4-tables, seated in turn; each
    list won by one grand, the others passed in (rounds of one: four games a list)."""
    clubs = [Club.objects.create(name=name) for name in ("SC Herz", "Skatfreunde Pik 1958")]
    people = [
        make_player(name, club=clubs[n % 2])
        for n, name in enumerate(
            [
                "Anna Schmidt",
                "Bernd Łukasz",
                "Carla Dietz",
                "Dieter Brandt",
                "Eva Moll",
                "Frank Ott",
                "Gerda Voss",
                "Hans Quast",
            ]
        )
    ]
    Player.objects.filter(name="Hans Quast").update(initials_only=True)
    for evening in range(EVENINGS):
        tournament = make_tournament(
            rounds=1, date=datetime.date(2026, 9, 4) + datetime.timedelta(weeks=evening)
        )
        order = people[evening:] + people[:evening]
        for start in (0, 4):
            table = make_table(tournament, players=order[start : start + 4])
            winner = 2 + (evening + start // 4) % 3  # seat 1 deals the first game
            play(
                table, entry(winner, "grand", matadors=1, card_points=80), entry(), entry(), entry()
            )
            services.close_table(table)
    return people


@pytest.mark.parametrize("width", [390, 1366])
def test_the_rating_list_and_a_players_chart(browser, live_server, tmp_path, width):
    people = club_evenings()
    folder = Path(os.environ.get("SKATLIGA_SHOTS") or tmp_path)
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="de-DE")
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()

    status, problems = visit(page, live_server.url + reverse("ratings"))
    page.screenshot(path=str(folder / f"rating-list-{width}.png"), full_page=True)
    names = page.locator("table.standings tbody tr td:nth-child(2) a").all_inner_texts()
    provisional = page.locator("table.standings .badge.provisional").count()
    page.select_option("#rating-club", label="SC Herz")
    page.click("form.rating-filters button[type=submit]")
    filtered = page.locator("table.standings tbody tr").count()

    shown = people[0]
    page_status, page_problems = visit(page, live_server.url + reverse("player", args=[shown.pk]))
    page.locator("#rating").scroll_into_view_if_needed()
    page.screenshot(path=str(folder / f"rating-player-{width}.png"), full_page=True)
    dots = page.locator("#rating svg.chart circle.dot").count()
    changes = page.locator("#rating table.rating-changes tbody tr").count()
    chart_width = page.locator("#rating svg.chart").bounding_box()["width"]
    context.close()

    assert (status, problems, page_status, page_problems) == (200, [], 200, [])
    assert len(names) == 8 and "H. Q." in names and "Hans Quast" not in names
    assert provisional == 8  # five lists each: every rating still provisional
    assert filtered == 4
    assert dots == changes == EVENINGS
    assert chart_width <= width

"""The "where do I sit" list: every player of a series in alphabetical order, table and seat."""

from __future__ import annotations

import io

import pypdf
from django.urls import reverse

from skatliga import printing
from tests.web.factories import make_player, make_tournament


def test_the_seat_list_is_alphabetical_with_table_and_seat(client, db):
    names = ["Zofia", "Bernd", "Anna", "Xaver", "Carla", "Łukasz", "Dieter"]
    players = [make_player(name) for name in names]
    # Registration order seats table 1: Zofia, Bernd, Anna, Xaver; table 2: Carla, Łukasz, Dieter.
    tournament = make_tournament(players=players[:4], size=4, slug="abend")
    from tests.web.factories import make_table

    make_table(tournament, players=players[4:])
    series = tournament.series.get()

    lines = [(line.player, line.table, line.position) for line in printing.seat_lines(series)]

    assert lines == [
        ("Anna", 1, 3),
        ("Bernd", 1, 2),
        ("Carla", 2, 1),
        ("Dieter", 2, 3),
        ("Łukasz", 2, 2),
        ("Xaver", 1, 4),
        ("Zofia", 1, 1),
    ]
    page = client.get(reverse("seats", args=["abend", 1]))
    assert page.status_code == 200 and len(page.context["lines"]) == 7
    response = client.get(reverse("seats-pdf", args=["abend", 1]))
    text = " ".join(
        " ".join(p.extract_text().split())
        for p in pypdf.PdfReader(io.BytesIO(response.content)).pages
    )
    assert "Sitzplan Serie 1" in text
    assert "Anna 1 3" in text and "Łukasz 2 2" in text


def test_the_seat_list_goes_by_surname(db):
    names = ["Anna Schmidt", "Bernd Łukasz", "Ülrike Uhl", "Dieter Krüger"]
    tournament = make_tournament(players=[make_player(name) for name in names], size=4)

    lines = printing.seat_lines(tournament.series.get())

    assert [line.player for line in lines] == [
        "Dieter Krüger",
        "Bernd Łukasz",
        "Anna Schmidt",
        "Ülrike Uhl",
    ]

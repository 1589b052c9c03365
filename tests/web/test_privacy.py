"""Privacy: the operator's imprint and privacy notice, linked at the foot of every page, and
players listed by initials only wherever the public sees names (pages, PDFs, spreadsheets,
the API), all through ``models.public_name``."""

from __future__ import annotations

import io

import openpyxl
import pypdf
import pytest
from django.core.cache import cache
from django.utils import timezone

from skatliga.models import Notice, Player, Series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_every_page_links_the_imprint_and_the_privacy_notice(client):
    html = client.get("/").content.decode()
    assert '<a href="/impressum/">Impressum</a>' in html
    assert '<a href="/datenschutz/">Datenschutz</a>' in html
    assert '<a href="/en/impressum/">Imprint</a>' in client.get("/en/").content.decode()


def test_the_operator_writes_the_texts_in_the_admin(client):
    empty = client.get("/impressum/").content.decode()
    assert "noch nicht hinterlegt" in empty
    Notice.objects.create(kind="impressum", text="Skatclub Herz e.V.\n\nHauptstr. 1, Bonn")
    Notice.objects.create(kind="datenschutz", text="Wir veröffentlichen Namen & Ergebnisse.")
    imprint = client.get("/impressum/").content.decode()
    assert "<h1>Impressum</h1>" in imprint
    assert "<p>Skatclub Herz e.V.</p>" in imprint and "<p>Hauptstr. 1, Bonn</p>" in imprint
    privacy = client.get("/datenschutz/").content.decode()
    assert "Namen &amp; Ergebnisse" in privacy


def test_the_admin_edits_the_notices(admin_client):
    assert admin_client.get("/admin/skatliga/notice/add/").status_code == 200


def pdf_text(response) -> str:
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_a_player_listed_by_initials_is_never_named_in_public(client, small_season):
    Player.objects.filter(name="b1").update(name="Bernd von Berg", initials_only=True)
    Series.objects.update(published_at=timezone.now())
    player = Player.objects.get(initials_only=True)
    full = "Bernd von Berg"
    pages = [
        "/seasons/liga-2026/",
        "/tournaments/spieltag-1/",
        "/tournaments/spieltag-1/series/1/",
        "/tournaments/spieltag-1/series/1/tables/1/",
        "/tournaments/spieltag-1/series/1/seats/",
        f"/players/{player.pk}/",
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert full not in html, url
    assert "B. v. B." in client.get("/seasons/liga-2026/").content.decode()
    assert "<h1>B. v. B.</h1>" in client.get(f"/players/{player.pk}/").content.decode()
    sheet = openpyxl.load_workbook(
        io.BytesIO(client.get("/seasons/liga-2026/", {"export": "xlsx"}).content)
    ).active
    assert sheet["B2"].value == "B. v. B."
    for name in ("season-results-pdf", "series-sheets-pdf", "seats-pdf"):
        args = ["liga-2026"] if name.startswith("season") else ["spieltag-1", 1]
        from django.urls import reverse

        text = pdf_text(client.get(reverse(name, args=args)))
        assert "Berg" not in text, name
    api = client.get("/api/v1/seasons/liga-2026/standings").json()["items"]
    assert "B. v. B." in [row["player"] for row in api]
    table = client.get("/api/v1/tournaments/spieltag-1/series/1/tables/1").content.decode()
    assert full not in table and "B. v. B." in table
    assert client.get(f"/api/v1/players/{player.pk}").json()["name"] == "B. v. B."
    assert client.get("/api/v1/players", {"name": "Berg"}).json()["items"] == []

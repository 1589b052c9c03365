"""Every page shows a negative figure with one minus sign, the typographic one
(``entries.plain``); CSV files keep the machine-readable hyphen-minus."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from skatliga.models import Player

HYPHENATED = re.compile(r"(?<![\w\-/:.#])-\d+")


def visible_text(html: str) -> str:
    body = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


@pytest.fixture
def pages(small_season) -> list[str]:
    c1 = Player.objects.get(name="c1")
    return [
        reverse("standings", args=["spieltag-1"]),
        reverse("series", args=["spieltag-1", 1]),
        reverse("table", args=["spieltag-1", 1, 1]),
        reverse("player", args=[c1.pk]),
        reverse("season", args=["liga-2026"]),
        reverse("hall", args=["spieltag-1"]),
        reverse("referee:list", args=["spieltag-1", 1, 1]),
    ]


def test_pages_show_negative_figures_with_the_typographic_minus(client, django_user_model, pages):
    client.force_login(django_user_model.objects.create_superuser("leitung", password="x"))
    seen = 0
    for url in pages:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        assert HYPHENATED.findall(text) == [], url
        seen += text.count("\u2212")
    assert seen


def test_csv_keeps_the_hyphen_minus(client, small_season):
    response = client.get(reverse("standings", args=["spieltag-1"]), {"export": "csv"})

    text = b"".join(response.streaming_content if response.streaming else [response.content])
    assert b"-90" in text or b"-104" in text
    assert "\u2212".encode() not in text

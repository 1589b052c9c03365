"""The standings as django-tables2 tables; the HTML table, its CSV and the PDF share the rows."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from skatliga.standings import TeamRow


class PlayerStandingTable(tables.Table):
    """Players: rank, player, club, game points, won, lost, others' losses, bonus, total."""

    rank = tables.Column(verbose_name=_("Platz"), attrs={"td": {"class": "num"}})
    player = tables.Column(verbose_name=_("Spieler"), order_by=("player",))
    club = tables.Column(verbose_name=_("Verein"))
    game_points = tables.Column(verbose_name=_("Spielpunkte"), attrs={"td": {"class": "num"}})
    won = tables.Column(verbose_name=_("gew."), attrs={"td": {"class": "num"}})
    lost = tables.Column(verbose_name=_("verl."), attrs={"td": {"class": "num"}})
    others_lost = tables.Column(verbose_name=_("verl. andere"), attrs={"td": {"class": "num"}})
    bonus = tables.Column(verbose_name=_("Wertung"), attrs={"td": {"class": "num"}})
    total = tables.Column(verbose_name=_("Gesamt"), attrs={"td": {"class": "num total"}})

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        template_name = "django_tables2/table.html"

    def render_rank(self, value: int, record: Any) -> str:
        return f"{value}."

    def value_rank(self, value: int) -> int:
        return value

    def value_player(self, value: str) -> str:
        return value

    def render_player(self, value: str, record: Any) -> str:
        return format_html('<a href="{}">{}</a>', reverse("player", args=[record.player_id]), value)


class TeamStandingTable(tables.Table):
    """Teams: rank, team, club, series, match points, Spielpunkte."""

    rank = tables.Column(verbose_name=_("Platz"), attrs={"td": {"class": "num"}})
    team = tables.Column(verbose_name=_("Mannschaft"))
    club = tables.Column(verbose_name=_("Verein"))
    series = tables.Column(verbose_name=_("Serien"), attrs={"td": {"class": "num"}})
    match_points = tables.Column(verbose_name=_("Matchpunkte"), attrs={"td": {"class": "num"}})
    game_points = tables.Column(verbose_name=_("Spielpunkte"), attrs={"td": {"class": "num total"}})

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        template_name = "django_tables2/table.html"

    def render_rank(self, value: int) -> str:
        return f"{value}."

    def value_rank(self, value: int) -> int:
        return value

    def value_team(self, value: str) -> str:
        return value

    def render_team(self, value: str, record: Any) -> str:
        return format_html('<a href="{}">{}</a>', reverse("team", args=[record.team_id]), value)

    def render_match_points(self, record: TeamRow) -> str:
        return record.match_points_text

    def value_match_points(self, record: TeamRow) -> str:
        return record.match_points_text

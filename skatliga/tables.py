"""The standings as django-tables2 tables; the HTML table, its CSV and the PDF share the rows."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from skatliga.standings import TeamRow, average_text


def number(label: str, *, total: bool = False, fold: bool = False) -> tables.Column:
    """A right-aligned column of figures; ``total`` marks the column that ranks, ``fold`` one
    that a phone leaves out (rank, name and total fit its width; the CSV has every column)."""
    css = "number total" if total else "number"
    if fold:
        css += " fold"
    return tables.Column(verbose_name=label, attrs={"td": {"class": css}, "th": {"class": css}})


FOLD = {"td": {"class": "fold"}, "th": {"class": "fold"}}


class PlayerStandingTable(tables.Table):
    """Players: rank, player, club, game points, won, lost, others' losses, bonus, total."""

    rank = number(pgettext_lazy("rank", "Platz"))
    player = tables.Column(verbose_name=_("Spieler"), order_by=("player_key",))
    club = tables.Column(verbose_name=_("Verein"), order_by=("club_key",), attrs=FOLD)
    game_points = number(_("Spielpunkte"), fold=True)
    won = number(_("gew."), fold=True)
    lost = number(_("verl."), fold=True)
    others_lost = number(_("verl. andere"), fold=True)
    bonus = number(_("Wertung"), fold=True)
    total = number(_("Gesamt"), total=True)

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
        """The name, linked; on a phone the club (its column folded away) under it; a
        player who withdrew from the tournament marked."""
        link = format_html('<a href="{}">{}</a>', reverse("player", args=[record.player_id]), value)
        if getattr(record, "withdrawn", False):
            link = format_html(
                '{} <span class="badge withdrawn">{}</span>', link, _("zurückgezogen")
            )
        if not record.club:
            return link
        return format_html('{}<span class="club-under">{}</span>', link, record.club)


class AverageStandingTable(PlayerStandingTable):
    """A season ranked by the average per series played: the series and the average too."""

    lists = number(_("Serien"))
    average = number(_("Schnitt"), total=True)

    class Meta(PlayerStandingTable.Meta):
        sequence = ("rank", "player", "club", "lists", "...", "total", "average")

    def render_average(self, value: Fraction) -> str:
        return average_text(value)

    def value_average(self, value: Fraction) -> str:
        return average_text(value)


class TeamStandingTable(tables.Table):
    """Teams: rank, team, club, series, match points, Spielpunkte."""

    rank = number(pgettext_lazy("rank", "Platz"))
    team = tables.Column(verbose_name=_("Mannschaft"), order_by=("team_key",))
    club = tables.Column(verbose_name=_("Verein"), order_by=("club_key",), attrs=FOLD)
    series = number(_("Serien"), fold=True)
    match_points = number(_("Matchpunkte"))
    game_points = number(_("Spielpunkte"), total=True)

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

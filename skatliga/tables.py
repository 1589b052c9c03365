"""The standings as django-tables2 tables; the HTML table, its CSV and the PDF share the rows.

The tables render their body rows in one pass (:meth:`FastTable.body_rows`): each column's
cell attributes, render method and its arguments are worked out once per table, not once per
cell as django-tables2's generic path does (signature inspection, accessor resolution and
a template loop for every cell); header, sorting, paging and export stay django-tables2's.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from fractions import Fraction
from html import escape
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_tables2.data import TableListData

from skatliga.models import Season, Standings
from skatliga.standings import TeamRow, average_text


class StandingsData(TableListData):
    """A lazily read standing (:class:`~skatliga.models.Standings`) as table data: a paged
    table reads only its page's rows; sorting by another column reads them all."""

    def __init__(self, data: Standings) -> None:
        self.data = data


_Cell = tuple[str, str, Callable[..., Any] | None, tuple[str, ...], Iterable[Any], Any]
"""Per column: name, opening ``<td>``, render method, its arguments, empty values, default."""


class FastTable(tables.Table):
    """A django-tables2 table whose body rows are rendered in one pass.

    Columns read an attribute of the row named like the column; a ``render_<column>`` method
    of the table is called with the arguments it names (``value``, ``record``). Cell
    attributes must be fixed per column (no callables), and rows get only the ``even`` and
    ``odd`` classes (no ``row_attrs``).
    """

    def _cell_renderers(self) -> list[_Cell]:
        renderers = []
        for column in self.columns:
            attrs = column.attrs.get("td", {}).as_html()
            render = getattr(self, f"render_{column.name}", None)
            wanted: tuple[str, ...] = ()
            if render is not None:
                wanted = tuple(inspect.signature(render).parameters)
            renderers.append(
                (
                    column.name,
                    f"<td {attrs}>" if attrs else "<td>",
                    render,
                    wanted,
                    column.column.empty_values,
                    column.default,
                )
            )
        return renderers

    def body_rows(self) -> list[SafeString]:
        """The ``<tr>`` of each row of the current page (every row when not paged)."""
        renderers = self._cell_renderers()
        rows: Iterable[Any] = self.paginated_rows.data
        html = []
        for counter, record in enumerate(rows):
            cells = []
            for name, opening, render, wanted, empty, default in renderers:
                value = getattr(record, name)
                if value in empty:
                    value = default
                elif render is not None:
                    arguments = {"value": value, "record": record}
                    value = render(**{key: arguments[key] for key in wanted})
                if type(value) is int:
                    text = str(value)
                elif hasattr(value, "__html__"):
                    text = value.__html__()
                else:
                    text = escape(str(value))
                cells.append(f"{opening}{text}</td>")
            parity = "odd" if counter % 2 else "even"
            html.append(mark_safe(f'<tr class="{parity}">{"".join(cells)}</tr>'))
        return html

    def url(self, name: str, pk: int) -> str:
        """``reverse(name, args=[pk])``, resolved once per table and name."""
        templates = self.__dict__.setdefault("_urls", {})
        if name not in templates:
            templates[name] = reverse(name, args=[_SENTINEL]).replace(str(_SENTINEL), "{}")
        return str(templates[name].format(pk))


_SENTINEL = 987654321987


def number(label: str, *, total: bool = False, fold: bool = False) -> tables.Column:
    """A right-aligned column of figures; ``total`` marks the column that ranks, ``fold`` one
    that a phone leaves out (rank, name and total fit its width; the CSV has every column)."""
    css = "number total" if total else "number"
    if fold:
        css += " fold"
    return tables.Column(verbose_name=label, attrs={"td": {"class": css}, "th": {"class": css}})


FOLD = {"td": {"class": "fold"}, "th": {"class": "fold"}}


class PlayerStandingTable(FastTable):
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
        template_name = "django_tables2/fast_table.html"

    def __init__(self, *args: Any, running: frozenset[int] = frozenset(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.running = running
        """The players at a list in progress, marked "läuft" (their total is provisional)."""

    def render_rank(self, value: int, record: Any) -> str:
        return f"{value}."

    def value_rank(self, value: int) -> int:
        return value

    def value_player(self, value: str) -> str:
        return value

    def render_player(self, value: str, record: Any) -> str:
        """The name, linked; on a phone the club (its column folded away) under it; a
        player who withdrew from the tournament marked."""
        # Plain escaping and f-strings: format_html's lazy-aware escaping costs more than the
        # rest of a row.
        html = f'<a href="{self.url("player", record.player_id)}">{escape(value)}</a>'
        if getattr(record, "withdrawn", False):
            html += f' <span class="badge withdrawn">{escape(str(_("zurückgezogen")))}</span>'
        if record.player_id in self.running:
            html += f' <span class="badge provisional">{escape(str(_("läuft")))}</span>'
        if record.club:
            html += f'<span class="club-under">{escape(record.club)}</span>'
        return mark_safe(html)  # noqa: S308 - every part escaped above


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


class TeamStandingTable(FastTable):
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
        template_name = "django_tables2/fast_table.html"

    HEADINGS = {
        Season.MatchPoints.PLACES: _("Matchpunkte"),
        Season.MatchPoints.PAIRINGS: _("Punkte 2/1/0"),
        Season.MatchPoints.SERIES_POINTS: _("Wertungspunkte"),
    }
    """The match points' heading names the scheme (``Season.MatchPoints``)."""

    def __init__(self, *args: Any, scheme: str = Season.MatchPoints.PLACES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.columns["match_points"].column.verbose_name = self.HEADINGS[scheme]

    def render_rank(self, value: int) -> str:
        return f"{value}."

    def value_rank(self, value: int) -> int:
        return value

    def value_team(self, value: str) -> str:
        return value

    def render_team(self, value: str, record: Any) -> str:
        return mark_safe(f'<a href="{self.url("team", record.team_id)}">{escape(value)}</a>')  # noqa: S308

    def render_match_points(self, record: TeamRow) -> str:
        return record.match_points_text

    def value_match_points(self, record: TeamRow) -> str:
        return record.match_points_text

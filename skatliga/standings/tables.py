"""The standings as django-tables2 tables; the HTML table, its CSV and the PDF share the rows.

The tables' body rows are worked out in one pass (:meth:`FastTable.body_html`): each
column's cell attributes, render method and its arguments once per table, not once per cell
as django-tables2's generic path does (signature inspection, accessor resolution and bound
rows for every cell); a template writes each row, once per process for each content, and
header, sorting, paging and export stay django-tables2's.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable, Iterator
from fractions import Fraction
from html import escape
from typing import Any
from urllib.parse import quote

import django_tables2 as tables
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import formats
from django.utils.encoding import force_str
from django.utils.http import RFC3986_SUBDELIMS, urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrPromise
from django_tables2.data import TableListData
from django_tables2.templatetags.django_tables2 import table_page_range

from skatliga.models import RESULT_FIGURES, HistoryRow, Season, Standings
from skatliga.rendered import rendered_each
from skatliga.standings.queries import TeamRow, average_text


class StandingsData(TableListData):  # type: ignore[misc]  # django-tables2 has no types
    """A lazily read standing (:class:`~skatliga.models.Standings`) as table data: a paged
    table reads only its page's rows; sorting by another column reads them all."""

    def __init__(self, data: Standings) -> None:
        self.data = data


_Cell = Callable[["FastTable", Any], SafeString]
"""A column's cell: the table and the row's record in, the cell's value out."""


def _text(value: Any) -> SafeString:
    """A cell's value as the template shows it: numbers as they are, safe strings
    unchanged, the rest escaped (here, once, so that the template only writes it out)."""
    if type(value) is int:
        return SafeString(value)
    if hasattr(value, "__html__"):
        return SafeString(value.__html__())
    return SafeString(escape(str(value)))


def _cell(column: Any, render: Callable[..., Any] | None) -> _Cell:
    """The cell of ``column`` (a bound column): the record's attribute named like the
    column, its ``default`` when empty, else through ``render`` with the arguments the
    method names (``value``, ``record``)."""
    name, empty, default = column.name, column.column.empty_values, column.default
    show = _shown(render)

    def cell(table: FastTable, record: Any) -> SafeString:
        value = getattr(record, name)
        if value in empty:
            value = default
        elif show is not None:
            value = show(table, value, record)
        return _text(value)

    return cell


def _shown(render: Callable[..., Any] | None) -> Callable[[Any, Any, Any], Any] | None:
    """``render`` (a table's ``render_<column>``) called as ``(table, value, record)``,
    whichever of ``value`` and ``record`` it names; its signature read once, here."""
    if render is None:
        return None
    wanted = tuple(inspect.signature(render).parameters)[1:]
    if wanted == ("value", "record"):
        return render
    if wanted == ("value",):
        return lambda table, value, record: render(table, value)
    if wanted == ("record",):
        return lambda table, value, record: render(table, record=record)
    return lambda table, value, record: render(
        table, **{key: {"value": value, "record": record}[key] for key in wanted}
    )


_Value = Callable[["FastTable", Any], Any]
"""A column's exported value: the table and the row's record in, the value out."""


def _value(column: Any, method: Callable[..., Any] | None) -> _Value:
    """The exported value of ``column`` (a bound column), as django-tables2's
    ``BoundRow.get_cell_value`` makes it: the record's attribute named like the column,
    None when empty, else through ``method`` (the table's ``value_<column>`` or
    ``render_<column>``) with the arguments it names (``value``, ``record``)."""
    name, empty = column.name, column.column.empty_values
    show = _shown(method)

    def value(table: FastTable, record: Any) -> Any:
        found = getattr(record, name)
        if found in empty:
            return None
        return found if show is None else show(table, found, record)

    return value


class FastTable(tables.Table):  # type: ignore[misc]  # django-tables2 has no types
    """A django-tables2 table whose body cells are worked out in one pass.

    Columns read an attribute of the row named like the column; a ``render_<column>`` method
    of the table is called with the arguments it names (``value``, ``record``). Cell
    attributes must be fixed per column (no callables), and rows get only the ``even`` and
    ``odd`` classes (no ``row_attrs``). The header and the page links are django-tables2's
    (``django_tables2/table.html``), their attributes and links worked out here once per
    column and page: django-tables2's template works them out anew for every cell.
    """

    _cells: dict[tuple[type, tuple[str, ...]], list[_Cell]]
    _values: dict[tuple[type, tuple[str, ...]], list[_Value]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._cells = {}
        cls._values = {}

    def cells(self) -> list[_Cell]:
        """The columns' cells (:func:`_cell`), made once per table class and column sequence:
        the render methods' signatures are read then, not per request."""
        columns = list(self.columns)
        key = (type(self), tuple(column.name for column in columns))
        found = self._cells.get(key)
        if found is None:
            found = self._cells[key] = [
                _cell(column, getattr(type(self), f"render_{column.name}", None))
                for column in columns
            ]
        return found

    def as_values(self, exclude_columns: Iterable[str] | None = None) -> Iterator[list[Any]]:
        """django-tables2's ``as_values`` (the rows of a CSV or spreadsheet: the headers,
        then each row's values), each column's value method and its signature worked out
        once per table class and column sequence (:func:`_value`): django-tables2 reads
        the signature again for every cell, which took 60 % of the season's CSV (560
        players, 10,000 cells)."""
        excluded = exclude_columns or ()
        columns = [
            column
            for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in excluded)
        ]
        yield [force_str(column.header, strings_only=True) for column in columns]
        key = (type(self), tuple(column.name for column in columns))
        values = self._values.get(key)
        if values is None:
            kind = type(self)
            values = self._values[key] = [
                _value(
                    column,
                    getattr(kind, f"value_{column.name}", None)
                    or getattr(kind, f"render_{column.name}", None),
                )
                for column in columns
            ]
        for record in self.data:
            yield [force_str(value(self, record), strings_only=True) for value in values]

    def row_key(self, record: Any) -> Hashable:
        """What a row shows besides the table's class, columns and language: the record (a
        frozen row of figures), and whatever else of the table its cells read."""
        key: Hashable = record
        return key

    def body_html(self) -> list[str]:
        """Each row of the current page (every row when not paged) as
        ``django_tables2/fast_row.html`` writes it: its cells (their attributes and
        values), worked out and written once per process for each content
        (``rendered.rendered_each``). After a save a standing shows new figures in a few
        rows and new ranks in some more; the rest are written already.

        A row's key: the table's class and columns, the language and the addresses' prefix
        (its links and words), even or odd, and :meth:`row_key`."""
        columns = list(self.columns)
        cells = [
            (self._td_attrs(column), cell)
            for column, cell in zip(columns, self.cells(), strict=True)
        ]
        frame = (
            type(self),
            tuple(column.name for column in columns),
            get_language(),
            get_script_prefix(),
            get_urlconf(),
        )

        def parity(index: int) -> str:
            return "odd" if index % 2 else "even"

        return rendered_each(
            "django_tables2/fast_row.html",
            enumerate(self.paginated_rows.data),
            key=lambda row: (*frame, parity(row[0]), self.row_key(row[1])),
            values=lambda row: {
                "parity": parity(row[0]),
                "cells": [(attrs, cell(self, row[1])) for attrs, cell in cells],
            },
        )

    def _query(self, key: str, value: object) -> str:
        """``{% querystring_replace key=value %}``: the request's query string, ``key`` set."""
        request = getattr(self, "request", None)
        params = dict(request.GET) if request is not None else {}
        if key not in ("", None):
            params[key] = value
        return "?" + urlencode(params, doseq=True)

    def _th_attrs(self, column: Any) -> str:
        """``column.attrs.th.as_html``: fixed per column, only ``orderable``, ``asc`` and
        ``desc`` vary."""
        ordered = column.is_ordered
        return self._attrs(
            column,
            "th",
            column.orderable,
            ordered,
            ordered and column.order_by_alias.is_descending,
        )

    def _td_attrs(self, column: Any) -> str:
        """``column.attrs.td.as_html``: a body cell's attributes are fixed per column."""
        return self._attrs(column, "td")

    def _attrs(self, column: Any, part: str, *state: object) -> str:
        """``column.attrs[part].as_html()``, worked out once per table class, column, part
        and ``state`` (what else varies them), not once per page."""
        key = (type(self), column.name, part, *state)
        found = _ATTRS.get(key)
        if found is None:
            found = _ATTRS[key] = column.attrs[part].as_html()
        return str(found)

    def header_cells(self) -> list[tuple[str, str, Any]]:
        """Each column's header cell: its attributes, the link that sorts by it (empty where
        it does not sort) and its header."""
        field = self.prefixed_order_by_field
        return [
            (
                self._th_attrs(column),
                self._query(field, column.order_by_alias.next) if column.orderable else "",
                column.header,
            )
            for column in self.columns
        ]

    def page_links(self) -> list[tuple[str, str, Any]]:
        """The page links (none for a single page): each its class, its link and its text;
        the previous page, the pages (some left out as "..."), the next page."""
        page = getattr(self, "page", None)
        if not page or self.paginator.num_pages <= 1:
            return []
        field = self.prefixed_page_field
        links: list[tuple[str, str, Any]] = []
        if page.has_previous():
            previous = page.previous_page_number()
            links.append(("previous", self._query(field, previous), pgettext("page", "zurück")))
        for number in table_page_range(page, self.paginator):
            active = "active" if number == page.number else ""
            links.append((active, "#" if number == "..." else self._query(field, number), number))
        if page.has_next():
            links.append(
                ("next", self._query(field, page.next_page_number()), pgettext("page", "weiter"))
            )
        return links

    def url(self, name: str, *args: object) -> str:
        """``reverse(name, args=args)``, reversed once per table, name and number of
        arguments (:func:`reverser`)."""
        reversers = self.__dict__.setdefault("_urls", {})
        key = (name, len(args))
        if key not in reversers:
            reversers[key] = reverser(name, len(args))
        return str(reversers[key](*args))


def reverser(name: str, count: int) -> Callable[..., str]:
    """``reverse(name, args=…)`` for many rows: the URL is reversed once, with stand-ins
    for its ``count`` arguments (digits, as a key, a number and a slug may all be), and each
    call puts its arguments in their places, quoted as ``reverse`` quotes them (so that no
    argument can end an HTML attribute either)."""
    key = (name, count, get_language(), get_script_prefix(), get_urlconf())
    template = _REVERSED.get(key)
    if template is None:
        stand_ins = [_SENTINEL + n for n in range(count)]
        template = reverse(name, args=stand_ins)
        for n, stand_in in enumerate(stand_ins):
            template = template.replace(str(stand_in), f"{{{n}}}")
        _REVERSED[key] = template

    def url(*args: object) -> str:
        return template.format(
            *(arg if type(arg) is int else quote(str(arg), safe=_URL_SAFE) for arg in args)
        )

    return url


_URL_SAFE = RFC3986_SUBDELIMS + "/~:@"
"""What ``reverse`` leaves unquoted in a path."""
_SENTINEL = 987654321987
_ATTRS: dict[tuple[Any, ...], str] = {}
_REVERSED: dict[tuple[Any, ...], str] = {}
"""Each URL with stand-ins (:func:`reverser`), by name, number of arguments, language,
script prefix and URLconf: reversed once per process, not once per table and page."""


def number(label: StrPromise, *, total: bool = False, fold: bool = False) -> tables.Column:
    """A right-aligned column of figures; ``total`` marks the column that ranks, ``fold`` one
    that a phone leaves out (rank, name and total fit its width; the CSV has every column)."""
    css = "number total" if total else "number"
    if fold:
        css += " fold"
    return tables.Column(verbose_name=label, attrs={"td": {"class": css}, "th": {"class": css}})


FOLD = {"td": {"class": "fold"}, "th": {"class": "fold"}}


FIGURE_LABELS = {
    "game_points": _("Spielpunkte"),
    "won": _("gew."),
    "lost": _("verl."),
    "others_lost": _("verl. andere"),
    "bonus": _("Wertung"),
    "total": _("Gesamt"),
}


def figure_columns() -> tuple[tables.Column, ...]:
    """A list's figures (``models.RESULT_FIGURES``) as columns, the total last and marked:
    on a phone all but the total fold."""
    return tuple(
        number(FIGURE_LABELS[name], total=name == "total", fold=name != "total")
        for name in RESULT_FIGURES
    )


class PlayerStandingTable(FastTable):
    """Players: rank, player, club, games as declarer, game points, won, lost, others'
    losses, bonus, total."""

    rank = number(pgettext_lazy("rank", "Platz"))
    player = tables.Column(verbose_name=_("Spieler"), order_by=("player_key",))
    club = tables.Column(verbose_name=_("Verein"), order_by=("club_key",), attrs=FOLD)
    games = number(_("Spiele"), fold=True)
    game_points, won, lost, others_lost, bonus, total = figure_columns()

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        template_name = "django_tables2/fast_table.html"

    def __init__(self, *args: Any, running: frozenset[int] = frozenset(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.running = running
        """The players at a list in progress, marked "läuft" (their total is provisional)."""

    def row_key(self, record: Any) -> Hashable:
        return (record, record.player_id in self.running)

    def _badges(self) -> tuple[str, str]:
        """The badges "zurückgezogen" and "läuft", translated once per table, not per row."""
        found: tuple[str, str] | None = self.__dict__.get("_badge_html")
        if found is None:
            found = self.__dict__["_badge_html"] = (
                f' <span class="badge withdrawn">{escape(str(_("zurückgezogen")))}</span>',
                f' <span class="badge provisional">{escape(str(_("läuft")))}</span>',
            )
        return found

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
            html += self._badges()[0]
        if record.player_id in self.running:
            html += self._badges()[1]
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
    match_points_against = tables.Column(verbose_name=_("Minuspunkte"), visible=False)
    """In spreadsheets only: the match points as two numbers (for, against)."""
    game_points = number(_("Spielpunkte"), total=True)

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        template_name = "django_tables2/fast_table.html"

    HEADINGS: dict[str, StrPromise] = {
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

    def value_match_points(self, value: Fraction) -> int | float:
        return spreadsheet_number(value)

    def value_match_points_against(self, value: Fraction) -> int | float:
        return spreadsheet_number(value)


def spreadsheet_number(value: Fraction) -> int | float:
    """Match points as a spreadsheet's number: whole ones as integers, halves as ``.5``.

    >>> spreadsheet_number(Fraction(19)), spreadsheet_number(Fraction(3, 2))
    (19, 1.5)
    """
    return int(value) if value.denominator == 1 else float(value)


class PlayerHistoryTable(FastTable):
    """A player's lists (``HistoryRow``), newest first: the tournament, series and table,
    each linked, and the list's figures; on a phone the figures but the total fold away."""

    tournament = tables.Column(verbose_name=_("Turnier"))
    series = tables.Column(verbose_name=_("Serie"))
    table = tables.Column(verbose_name=_("Tisch"))
    game_points, won, lost, others_lost, bonus, total = figure_columns()

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        template_name = "django_tables2/fast_table.html"
        empty_text = _("Noch keine Listen.")

    def render_tournament(self, value: str, record: HistoryRow) -> str:
        date = escape(formats.date_format(record.date, "SHORT_DATE_FORMAT"))
        link = self.url("standings", record.slug)
        return mark_safe(  # noqa: S308 - name and date escaped, the link quoted
            f'<a href="{link}">{escape(value)}</a> <span class="muted">{date}</span>'
        )

    def render_series(self, value: int, record: HistoryRow) -> str:
        html = f'<a href="{self.url("series", record.slug, value)}">{value}</a>'
        if not record.published:
            html += f' <span class="badge provisional">{escape(str(_("vorläufig")))}</span>'
        return mark_safe(html)  # noqa: S308 - a number, a quoted link, escaped text

    def render_table(self, value: int, record: HistoryRow) -> str:
        link = self.url("table", record.slug, record.series, value)
        return mark_safe(f'<a href="{link}">{value}</a>')  # noqa: S308 - a number and a quoted link

"""The standings as django-tables2 tables: one column per metric of a ranking
(``standings.metrics``), its heading, cell and spreadsheet value the metric's; sorting,
paging, the header's links and the export are django-tables2's own.

The rows are records (``metrics.Record``: dicts, django-tables2's shape for table data),
made from a standing's rows as the table reads them: a paged table reads and makes only its
page's (``metrics.Records``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import django_tables2 as tables
from django.urls import get_script_prefix
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrPromise
from django_tables2.data import TableListData

from skatliga.models import Season
from skatliga.standings.metrics import METRICS, Metric, Record
from skatliga.standings.rankings import HISTORY, TEAMS, Ranking, Records


class MetricColumn(tables.Column):  # type: ignore[misc]  # django-tables2 has no types
    """A metric as a column: its heading (or ``name``), its cell (``Metric.cell``), its
    spreadsheet value (``Metric.sheet``), sorted by its value or its order
    (``Metric.order_by``); ``css`` classes its cells (``Ranking.css``)."""

    def __init__(self, metric: Metric, css: str, name: StrPromise | None = None) -> None:
        self.metric = metric
        super().__init__(
            verbose_name=name or metric.name,
            accessor=tables.A(metric.key),
            order_by=(metric.order_by,),
            orderable=metric.orderable,
            visible=metric.shown,
            empty_values=(),
            attrs={"td": {"class": css}, "th": {"class": css}} if css else {},
        )

    def render(self, record: Record, table: Any) -> str:
        return self.metric.cell(record, table)

    def value(self, record: Record) -> Any:
        return self.metric.sheet(record)


class StandingTable(tables.Table):  # type: ignore[misc]  # django-tables2 has no types
    """A standing: ``rows`` (any sequence, e.g. a lazily read ``models.Standings``) in the
    columns of ``ranking``; ``names`` heads some columns otherwise; the players in
    ``running`` are marked as playing a list in progress ("läuft")."""

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        template_name = "django_tables2/standings.html"

    def __init__(
        self,
        rows: Sequence[Any],
        ranking: Ranking,
        *,
        running: frozenset[int] = frozenset(),
        names: Mapping[str, StrPromise] | None = None,
        **kwargs: Any,
    ) -> None:
        self.ranking = ranking
        self.running = running
        named = names or {}
        columns = [
            (key, MetricColumn(METRICS[key], ranking.css(key), named.get(key)))
            for key in ranking.columns
        ]
        super().__init__(
            TableListData(Records(rows, ranking, running)),
            extra_columns=columns,
            sequence=ranking.columns,
            **kwargs,
        )
        shown = ",".join(f"{c.name}:{c.column.attrs.get('td', {})}" for c in self.columns)
        self.row_key = f"{type(self).__name__}|{get_language()}|{get_script_prefix()}|{shown}"
        """What a body row shows beside its record (its cells are cached under it and the
        record's row, ``templates/django_tables2/standings.html``): the table's kind, the
        language, the address prefix of its links, its columns and their classes."""


MATCH_POINTS: dict[str, StrPromise] = {
    Season.MatchPoints.PLACES: _("Matchpunkte"),
    Season.MatchPoints.PAIRINGS: _("Punkte 2/1/0"),
    Season.MatchPoints.SERIES_POINTS: _("Wertungspunkte"),
}
"""The match points' heading names the scheme (``Season.MatchPoints``)."""


def team_table(
    rows: Sequence[Any], scheme: str = Season.MatchPoints.PLACES, **kwargs: Any
) -> StandingTable:
    """A league table (``standings.queries.TeamRow``) with its match points headed by
    ``scheme``."""
    return StandingTable(rows, TEAMS, names={"match_points": MATCH_POINTS[scheme]}, **kwargs)


class HistoryTable(StandingTable):
    """A player's lists (``models.HistoryRow``), newest first: where each was played,
    linked, and its figures."""

    class Meta(StandingTable.Meta):
        orderable = False
        empty_text = _("Noch keine Listen.")

    def __init__(self, rows: Sequence[Any], **kwargs: Any) -> None:
        super().__init__(rows, HISTORY, **kwargs)

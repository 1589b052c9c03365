"""Standings as a registry of metrics, in the shape of Tabbycat's ``standings/metrics.py``.

A metric is one column of a standing, a small class: its ``key`` (the API's field and the
command's heading), its heading in words (``name``, ``printed`` where the PDF says more), its
value read or computed from a row (:meth:`Metric.value`), how it is shown (:meth:`Metric.text`
on pages, PDFs and the hall, :meth:`Metric.sheet` in spreadsheets, :meth:`Metric.api` in the
API), its share of a printed page's width and its type in the API. A ranking
(``standings.rankings``) is an ordered tuple of metric keys; every output is made from one:
the web table and its spreadsheets (``standings.tables``), the PDF's columns (``pdf.lists``),
the API's schemas (``api.schemas``), the hall and ``manage.py standings``.

A metric reads a row of any standing (``models.StandingRow``, ``standings.queries.TeamRow``,
``models.HistoryRow``, a ``ListResult``) and shows a record (:data:`Record`). A new column is
one class here with its place in :data:`FIGURES` (or a ranking), its words in the catalogs,
and a test.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar, TypeVar

from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrPromise

from skatliga.collation import german_key
from skatliga.entries import average_text, half_points, one_decimal, plain

Record = dict[str, Any]
"""A row of a standing as its metrics read it (``rankings.Ranking.record``): each metric's
value under its key (and, for a metric that sorts otherwise, once a table is sorted, its
order under ``<key>_order``), the row itself under ``row``."""


class Metric:
    """One column of a standing. Subclasses set ``key``, ``name`` and ``description``, and
    override :meth:`value` where the value is computed rather than read."""

    key: ClassVar[str]
    name: ClassVar[StrPromise]
    """The heading on pages, in spreadsheets and on the hall display."""
    printed: ClassVar[StrPromise | None] = None
    """The PDF's heading where it has room for more than ``name``."""
    description: ClassVar[str]
    """What the API's description says of the field (English)."""
    api_type: ClassVar[Any] = int
    api_default: ClassVar[Any] = ...
    """The field's default in the API (``...``: always there)."""
    share: ClassVar[float] = 0.05
    """Its share of a printed page's width, against the other columns' shares."""
    number: ClassVar[bool] = True
    """A figure: right-aligned."""
    bold: ClassVar[bool] = False
    """Printed in bold (a name), as the figures a ranking marks are."""
    fold: ClassVar[bool] = True
    """Left out on a phone (rank, name and the figures that rank fit its width)."""
    shown: ClassVar[bool] = True
    """On pages and PDFs; False: in spreadsheets and the API only."""
    orderable: ClassVar[bool] = True
    ascending: ClassVar[bool] = False
    """In a ranking's precedence: less ranks higher."""

    def value(self, row: Any) -> Any:
        """The row's value: its attribute named like the metric."""
        return getattr(row, self.key)

    def order(self, value: Any) -> Any | None:
        """What a table sorts the column by, where not by its value (None)."""
        return None

    @property
    def order_by(self) -> str:
        """The record's key a table sorts the column by: ``<key>_order`` where the metric
        has an order of its own (:meth:`order`), else its key."""
        return f"{self.key}_order" if type(self).order is not Metric.order else self.key

    def text(self, record: Record) -> str:
        """The value as a page, a PDF and the hall show it: a whole number with a
        typographic minus (``−32``)."""
        value = record[self.key]
        if value is None:
            return ""
        return plain(value) if type(value) is int else str(value)

    def cell(self, record: Record, table: Any) -> str:
        """The web table's cell (``table``: the django-tables2 table): :meth:`text` unless
        the cell links or marks something."""
        return self.text(record)

    def sheet(self, record: Record) -> Any:
        """The spreadsheet's cell: numbers as numbers."""
        return record[self.key]

    def api(self, record: Record) -> Any:
        return record[self.key]


METRICS: dict[str, Metric] = {}
"""Every metric by its key."""

_M = TypeVar("_M", bound=type[Metric])


def metric(kind: _M) -> _M:
    """Register ``kind`` (a :class:`Metric` subclass) under its key."""
    assert kind.key not in METRICS, kind.key
    METRICS[kind.key] = kind()
    return kind


# --- who and where ------------------------------------------------------------------------


@metric
class Rank(Metric):
    key = "rank"
    name = pgettext_lazy("rank", "Platz")
    description = "The place; players or teams still level share it."
    share = 0.055
    fold = False

    def text(self, record: Record) -> str:
        return f"{record['rank']}."

    def sheet(self, record: Record) -> Any:
        return record["rank"]


@metric
class PlayerId(Metric):
    key = "player_id"
    name = _("Spieler")
    description = "The player's id (`/players/{id}`)."
    shown = False


class Words(Metric):
    """A name in words: left-aligned, sorted as German sorts names."""

    api_type = str
    number = False

    def order(self, value: Any) -> Any:
        return german_key(value)


class Name(Words):
    """The name that a line is about: in bold, kept on a phone."""

    bold = True
    fold = False


@metric
class PlayerName(Name):
    key = "player"
    name = _("Spieler")
    description = "The name as the public sees it (initials where the player asked for them)."
    share = 0.22

    def text(self, record: Record) -> str:
        """The name, marked where the player withdrew from the tournament."""
        if getattr(record["row"], "withdrawn", False):
            return f"{record['player']} ({gettext('zurückgezogen')})"
        return str(record["player"])

    def cell(self, record: Record, table: Any) -> str:
        """The name, linked; a player who withdrew and one at a list in progress marked;
        on a phone the club (its column folded away) under the name."""
        row = record["row"]
        html = format_html(
            '<a href="{}">{}</a>', reverse("player", args=[row.player_id]), record["player"]
        )
        if getattr(row, "withdrawn", False):
            html += format_html(' <span class="badge withdrawn">{}</span>', _("zurückgezogen"))
        if record.get("running"):
            html += format_html(' <span class="badge provisional">{}</span>', _("läuft"))
        if row.club:
            html += format_html('<span class="club-under">{}</span>', row.club)
        return html

    def sheet(self, record: Record) -> Any:
        return self.text(record)


@metric
class ClubName(Words):
    key = "club"
    name = _("Verein")
    description = "The club's name, empty for none."
    share = 0.18

    def cell(self, record: Record, table: Any) -> str:
        return record["club"] or "—"

    def sheet(self, record: Record) -> Any:
        return record["club"] or None


@metric
class Withdrawn(Metric):
    key = "withdrawn"
    name = _("zurückgezogen")
    description = "Withdrawn from the tournament (results stay)."
    api_type = bool
    api_default = False
    shown = False

    def value(self, row: Any) -> Any:
        return getattr(row, "withdrawn", False)


# --- a list's figures (docs/rules.md section 5), summed in a standing -------------------------


@metric
class Lists(Metric):
    key = "lists"
    name = _("Serien")
    description = "Lists played (one per series)."
    share = 0.065


@metric
class Games(Metric):
    key = "games"
    name = _("Spiele")
    description = "Games played as declarer: won and lost (passed-in rows and Ramsch not counted)."

    def value(self, row: Any) -> Any:
        return row.won + row.lost


@metric
class GamePoints(Metric):
    key = "game_points"
    name = _("Spielpunkte")
    description = "Game points: the sum of the list scores (docs/rules.md section 5)."
    share = 0.105


@metric
class Won(Metric):
    key = "won"
    name = _("gew.")
    description = "Games won as declarer (W)."


@metric
class Lost(Metric):
    key = "lost"
    name = _("verl.")
    description = "Games lost as declarer (L), overbid games too."
    ascending = True


@metric
class WonMinusLost(Metric):
    key = "won_minus_lost"
    name = _("Bilanz")
    description = "Games won minus games lost as declarer (W − L)."
    share = 0.055

    def value(self, row: Any) -> Any:
        return row.won - row.lost


@metric
class OthersLost(Metric):
    key = "others_lost"
    name = _("verl. andere")
    description = "Games the others at the table lost as declarer (O)."
    share = 0.07


@metric
class Bonus(Metric):
    key = "bonus"
    name = _("Wertung")
    description = (
        "The list system's bonus: 50 × (W − L) + (40 or 30) × O in Seeger-Fabian, "
        "0 on the classic list."
    )
    share = 0.145


@metric
class Total(Metric):
    key = "total"
    name = _("Gesamt")
    description = "Game points plus bonus: what ranks."
    share = 0.075


@metric
class Average(Metric):
    key = "average"
    name = _("Schnitt")
    description = "In a season ranked by the average per series played: that average."
    api_type = float | None
    api_default = None
    share = 0.07

    def value(self, row: Any) -> Any:
        return getattr(row, "average", None)

    def text(self, record: Record) -> str:
        return average_text(record["average"])

    def sheet(self, record: Record) -> Any:
        return self.text(record)

    def api(self, record: Record) -> Any:
        value = record["average"]
        return None if value is None else float(value)


# --- teams --------------------------------------------------------------------------------


@metric
class TeamId(Metric):
    key = "team_id"
    name = _("Mannschaft")
    description = "The team's id (`/teams/{id}`)."
    shown = False


@metric
class TeamName(Name):
    key = "team"
    name = _("Mannschaft")
    description = "The team's name."
    share = 0.32

    def cell(self, record: Record, table: Any) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("team", args=[record["row"].team_id]), record["team"]
        )


@metric
class SeriesPlayed(Metric):
    key = "series"
    name = _("Serien")
    description = "Series the team played."
    share = 0.08


def spreadsheet_number(value: Fraction) -> int | float:
    """Match points as a spreadsheet's number: whole ones as integers, halves as ``.5``.

    >>> spreadsheet_number(Fraction(19)), spreadsheet_number(Fraction(3, 2))
    (19, 1.5)
    """
    return int(value) if value.denominator == 1 else float(value)


@metric
class MatchPoints(Metric):
    key = "match_points"
    name = _("Matchpunkte")
    printed = _("Punkte")
    description = "Match points won (halves as .5; see `scheme`)."
    api_type = float
    share = 0.12

    def text(self, record: Record) -> str:
        """For and against, as printed: "7½ : 1½"."""
        row = record["row"]
        return f"{half_points(row.match_points)} : {half_points(row.match_points_against)}"

    def sheet(self, record: Record) -> Any:
        return spreadsheet_number(record[self.key])

    def api(self, record: Record) -> Any:
        return float(record[self.key])


@metric
class MatchPointsAgainst(MatchPoints):
    key = "match_points_against"
    name = _("Minuspunkte")
    description = "Match points lost (halves as .5)."
    shown = False
    ascending = True


@metric
class MatchPointsText(Metric):
    key = "match_points_text"
    name = _("Matchpunkte")
    description = 'As printed: "7½ : 1½", "5 : 1".'
    api_type = str
    shown = False


@metric
class Scheme(Metric):
    key = "scheme"
    name = _("Mannschaftswertung")
    description = (
        "How the match points are given: places (n−1 … 0 per series), pairings (2/1/0 per "
        "pair of teams and match day), series-points (Wertungspunkte: 2/1/0 per pair of "
        "teams and series)."
    )
    api_type = str
    shown = False


@metric
class SchemeText(Metric):
    key = "scheme_text"
    name = _("Mannschaftswertung")
    description = "The scheme in words, in the request's language."
    api_type = str
    shown = False


# --- the rating (docs/rating.md) ---------------------------------------------------------


@metric
class Rating(Metric):
    """A player's rating (``models.PlayerRating``) to one decimal, marked while provisional:
    a row without one (not rated, or kept from the public at his wish) shows none."""

    key = "rating"
    name = _("Wertungszahl")
    description = (
        "The player's Skat rating (docs/rating.md), to one decimal; null where he has none "
        "or keeps it from the public."
    )
    api_type = float | None
    api_default = None
    share = 0.09
    fold = False

    def value(self, row: Any) -> Any:
        return getattr(row, "rating", None)

    def text(self, record: Record) -> str:
        value = record[self.key]
        return "" if value is None else one_decimal(value)

    def cell(self, record: Record, table: Any) -> str:
        html = format_html("{}", self.text(record))
        if getattr(record["row"], "provisional", False):
            html += format_html(' <span class="badge provisional">{}</span>', _("vorläufig"))
        return html


@metric
class MatchDaysPlayed(Metric):
    key = "match_days"
    name = _("Spieltage")
    description = "Match days the team played (a provisional one too)."
    share = 0.08


@metric
class HeadToHead(MatchPoints):
    key = "head_to_head"
    name = _("Direkter Vergleich")
    printed = _("Direkter Vergleich")
    description = (
        "Under the head-to-head tie rule: series won against the teams level with this one "
        "on match points and game points (halves as .5); 0 where none is level."
    )
    shown = False

    def text(self, record: Record) -> str:
        return half_points(record[self.key])


@metric
class SeriesResults(Metric):
    """A team's match points in each series of its group, in the series' order."""

    key = "series_results"
    name = _("Serien")
    description = "Per series: its number, the team's game points, match points for and against."
    api_type = list[dict[str, Any]]
    number = False
    orderable = False
    share = 0.2

    def value(self, row: Any) -> Any:
        return row.scores

    def text(self, record: Record) -> str:
        return " · ".join(score.match_points_text for score in record[self.key])

    def cell(self, record: Record, table: Any) -> str:
        return format_html('<span class="nowrap">{}</span>', self.text(record))

    def sheet(self, record: Record) -> Any:
        return self.text(record)

    def api(self, record: Record) -> Any:
        return [
            {
                "series": s.number,
                "game_points": s.game_points,
                "match_points": float(s.match_points),
                "match_points_against": float(s.match_points_against),
            }
            for s in record[self.key]
        ]


# --- a player's lists ---------------------------------------------------------------------


@metric
class Played(Metric):
    """Where a list of a player's history was played: the tournament and its date, linked."""

    key = "tournament"
    name = _("Turnier")
    description = "The tournament."
    api_type = str
    number = False
    fold = False
    orderable = False

    def cell(self, record: Record, table: Any) -> str:
        row = record["row"]
        return format_html(
            '<a href="{}">{}</a> <span class="muted">{}</span>',
            reverse("standings", args=[row.slug]),
            record["tournament"],
            formats.date_format(row.date, "SHORT_DATE_FORMAT"),
        )


@metric
class SeriesNumber(Metric):
    key = "series_number"
    name = _("Serie")
    description = "The series' number."
    fold = False
    orderable = False

    def value(self, row: Any) -> Any:
        return row.series

    def cell(self, record: Record, table: Any) -> str:
        row = record["row"]
        html = format_html(
            '<a href="{}">{}</a>', reverse("series", args=[row.slug, row.series]), row.series
        )
        if not row.published:
            html += format_html(' <span class="badge provisional">{}</span>', _("vorläufig"))
        return html


@metric
class TableNumber(Metric):
    key = "table"
    name = _("Tisch")
    description = "The table's number."
    fold = False
    orderable = False

    def cell(self, record: Record, table: Any) -> str:
        row = record["row"]
        link = reverse("table", args=[row.slug, row.series, row.table])
        return format_html('<a href="{}">{}</a>', link, row.table)


DECLARED = ("won", "lost", "won_minus_lost")
"""The games a player declared: won, lost, and the balance of the two."""
FIGURES = ("game_points", *DECLARED, "others_lost", "bonus", "total")
"""A list's figures and what is derived from them, in the order every output shows them."""

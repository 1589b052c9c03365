"""What the referee's dashboard shows of a series: per table its progress, last activity,
signatures and open differences, its open call for the referee and its open objections, and
how often the dashboard asks for them again."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Aggregate, Count, Exists, Max, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import formats, timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext

from skatliga.models import (
    Change,
    Game,
    Objection,
    RefereeCall,
    Seat,
    SecondEntry,
    Series,
    Signature,
    Table,
    Tournament,
)
from skatliga.services.confirmation import GAME_ACTIONS, differing_numbers


@dataclass(frozen=True, slots=True)
class OpenObjection:
    """An objection on the dashboard: its game's number and who objected."""

    objection: Objection
    number: int
    player: str


def open_objections(series: Series) -> dict[int, list[OpenObjection]]:
    """The undecided objections against the games of ``series``, per table id."""
    found: dict[int, list[OpenObjection]] = {}
    for objection in _objections(series.pk):
        number = objection.game.number
        found.setdefault(objection.game.table_id, []).append(
            OpenObjection(objection, number, str(objection.seat.player_for(number)))
        )
    return found


def _objections(series_id: int) -> QuerySet[Objection]:
    return Objection.objects.filter(
        game__table__series_id=series_id, decided_at__isnull=True
    ).select_related("game", "seat__player", "seat__substitute")


@dataclass(slots=True)
class TableStatus:
    """One table of a series on the referee's dashboard."""

    table: Table
    games: int
    expected: int
    last_activity: datetime.datetime | None
    signed: int
    signers: int
    """Who signs the list: its seats' players and the substitutes who took seats over."""
    kept_at_table: bool
    differences: list[int] | None
    """The differing rows' numbers under double entry; None without double entry."""
    disputes: list[int]
    """The rows whose table's version waits for the referee (``Game.disputed``)."""
    call: RefereeCall | None = None
    """The table's call for the referee, while the referee has not acknowledged it."""
    objections: tuple[OpenObjection, ...] = ()
    """The objections against the table's games the referee has not decided."""
    shown: dict[str, Any] = field(default_factory=dict)
    """What its block shows, as the template reads it (``StatusWords.shown``)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table.number,
            "games": self.games,
            "expected": self.expected,
            "closed": self.table.is_closed,
            "last_activity": self.last_activity.isoformat() if self.last_activity else None,
            "signed": self.signed,
            "seats": self.signers,
            "kept_at_table": self.kept_at_table,
            "differences": self.differences,
            "disputes": self.disputes,
            "call": self.call is not None,
            "objections": len(self.objections),
        }


def _joined(numbers: list[int]) -> str:
    return ", ".join(str(number) for number in numbers)


class StatusWords:
    """The tables' status blocks in the active language, as the template reads them: the
    phrases fetched once per answer and filled in per table as the template's
    ``blocktranslate`` would render them (the same msgids, whole numbers as they are, a time
    as ``H:i`` in the current time zone, the translation itself not escaped), the figures as
    text, the block's choices as flags; each a key of a dict (the template's first try)."""

    def __init__(self) -> None:
        self.games = gettext("%(games)s von %(expected)s Spielen")
        self.signed = gettext("%(signed)s von %(seats)s unterschrieben")
        self.activity = gettext("zuletzt %(at)s Uhr")
        self.disputes = gettext("Fassung des Tisches wartet (Spiel %(games)s)")
        self._times: dict[int, str] = {}

    def shown(self, status: TableStatus) -> dict[str, Any]:
        """One table's block: its number, figures, phrases (activity None before its first
        change; differences None without double entry, "" when they agree; disputes "" without
        any), its open call and objections, and whether it is complete and may be closed
        without a reason."""
        closed = status.table.is_closed
        all_signed = status.signed == status.signers
        activity = None
        if status.last_activity is not None:
            activity = SafeString(self.activity % {"at": self._time(status.last_activity)})
        differences = None
        if status.differences is not None:
            differences = ""
            if status.differences:
                count = len(status.differences)
                differences = SafeString(
                    ngettext(
                        "%(count)s Abweichung (Spiel %(games)s)",
                        "%(count)s Abweichungen (Spiel %(games)s)",
                        count,
                    )
                    % {"count": count, "games": _joined(status.differences)}
                )
        disputes = ""
        if status.disputes:
            disputes = SafeString(self.disputes % {"games": _joined(status.disputes)})
        return {
            "number": SafeString(status.table.number),
            "closed": closed,
            "call": status.call,
            "objections": status.objections,
            "games": SafeString(status.games),
            "expected": SafeString(status.expected),
            "games_text": SafeString(
                self.games % {"games": status.games, "expected": status.expected}
            ),
            "activity": activity,
            "signed": SafeString(status.signed),
            "all_signed": all_signed,
            "signed_text": SafeString(
                self.signed % {"signed": status.signed, "seats": status.signers}
            ),
            "differences": differences,
            "differences_count": SafeString(len(status.differences or ())),
            "disputes": disputes,
            "disputes_count": SafeString(len(status.disputes)),
            "complete": not closed and status.games == status.expected,
            "close_now": all_signed or not status.kept_at_table,
        }

    def _time(self, at: datetime.datetime) -> str:
        """``at`` as ``H:i`` in the current time zone, formatted once per minute."""
        minute = int(at.timestamp()) // 60
        found = self._times.get(minute)
        if found is None:
            local = timezone.localtime(at) if timezone.is_aware(at) else at
            found = self._times[minute] = formats.time_format(local, "H:i")
        return found


def series_status(series: Series) -> list[TableStatus]:
    """Every table of ``series`` with its progress: four statements (the tables with their
    figures, the disputes, the open calls, the open objections; two more under double entry),
    none per table; each table with its phrases (``StatusWords``)."""
    words = StatusWords()
    statuses = _statuses(series)
    for status in statuses:
        status.shown = words.shown(status)
    return statuses


def _per_table(rows: QuerySet[Any], figure: Aggregate) -> Subquery:
    """``figure`` over the ``rows`` of the outer query's table."""
    return Subquery(
        rows.filter(table=OuterRef("pk"))
        .order_by()
        .values("table")
        .annotate(figure=figure)
        .values("figure")
    )


def _tables(series_id: int) -> QuerySet[Table]:
    """The tables of a series in order, each with its figures: one statement, a subquery
    per figure."""
    changes = Change.objects.all()
    return (
        Table.objects.filter(series_id=series_id)
        .order_by("number")
        .annotate(
            games_count=Coalesce(_per_table(Game.objects.all(), Count("id")), 0),
            signed_count=Coalesce(_per_table(Signature.objects.all(), Count("id")), 0),
            substitutes=Coalesce(_per_table(Seat.objects.exclude(substitute=None), Count("id")), 0),
            last_change=_per_table(changes, Max("at")),
            at_table=Exists(
                changes.filter(table=OuterRef("pk"), action__in=GAME_ACTIONS).exclude(device="")
            ),
        )
    )


def _disputes(series_id: int) -> QuerySet[Game, tuple[int, int]]:
    return (
        Game.objects.filter(table__series_id=series_id, disputed__isnull=False)
        .order_by("number")
        .values_list("table", "number")
    )


def _calls(series_id: int) -> QuerySet[RefereeCall]:
    return RefereeCall.objects.filter(table__series_id=series_id, acknowledged_at__isnull=True)


def _statuses(series: Series) -> list[TableStatus]:
    tournament = series.tournament
    # Tables with their figures as attributes (``_tables``' annotations).
    tables: list[Any] = list(_tables(series.pk))
    disputes: dict[int, list[int]] = {}
    for table_id, number in _disputes(series.pk):
        disputes.setdefault(table_id, []).append(number)
    calls = {call.table_id: call for call in _calls(series.pk)}
    objections = open_objections(series)
    differing = None
    if tournament.double_entry:
        differing = differing_numbers(
            tables,
            Game.objects.filter(table__series=series),
            SecondEntry.objects.filter(table__series=series),
            lambda table: tournament.games_per_list(table.size),
        )
    return [
        TableStatus(
            table=table,
            games=table.games_count,
            expected=tournament.games_per_list(table.size),
            last_activity=table.last_change,
            signed=table.signed_count,
            signers=table.size + table.substitutes,
            kept_at_table=table.at_table,
            differences=None if differing is None else differing[table.pk],
            disputes=disputes.get(table.pk, []),
            call=calls.get(table.pk),
            objections=tuple(objections.get(table.pk, ())),
        )
        for table in tables
    ]


POLL_SECONDS = 5
"""How often the referee's dashboard asks whether anything changed."""


def status_etag(tournament: Tournament, series: Series) -> str:
    """The dashboard status' validator: the tournament's revision, the series, the language."""
    return f'"status-{tournament.pk}-{series.number}-{tournament.revision}-{get_language()}"'

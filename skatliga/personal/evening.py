"""The read model of "my evening": what one registered player's personal link shows.

It reads through the same read models as the referee's and the public pages: his seat in
the latest series drawn, his line of the public standings (``ListResult.public_in``), his
lists as the list pages build them (``sheet.build_sheet``), their signatures
(``sheet.signatures``) and his own line of the settlement (``services.money.settle``).

What it may show (docs/security.md, "Personal links"): his own lists, games and money,
whether or not their series is published, and his own objections with their decisions;
everybody else only as the public sees them, names through ``public_name`` and ranks from
the public standings.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from skatliga import revisions
from skatliga.entries import plain, signed
from skatliga.models import (
    Arrival,
    ListResult,
    Objection,
    Purse,
    Registration,
    Seat,
    Series,
    SeriesQuerySet,
    Table,
    Tournament,
)
from skatliga.services.money import PlayerMoney, player_money
from skatliga.sheet import build_sheet, signatures
from skatliga.standings.queries import progress_in
from skatliga.words import game_label


@dataclass(frozen=True, slots=True)
class Neighbour:
    """Someone else at my table, as the public sees him."""

    position: int
    name: str


@dataclass(frozen=True, slots=True)
class NextSeat:
    series: int
    table: int
    position: int
    others: tuple[Neighbour, ...]
    handed_over: tuple[int, str] | None = None
    """Where a substitute took my seat over: from which game, and who."""


def _handed_over(seat: Seat, player_id: int) -> tuple[int, str] | None:
    """From which game and to whom my ``seat`` went, where a substitute took it over."""
    if seat.substitute is None or seat.player_id != player_id:
        return None
    return seat.substitute_from or 0, seat.substitute.public_name


@dataclass(frozen=True, slots=True)
class MyGame:
    """One row of one of my lists: who declared what, its list entry, my points."""

    number: int
    declarer: str
    mine: bool
    label: str
    passed: bool
    entry: str
    score: str
    """My points of this row, with their sign; empty where I sat out."""
    running: int
    """My running Spielpunkte after this row."""
    objected: bool
    """Whether my objection to this game waits for the referee's decision."""

    @property
    def running_text(self) -> str:
        return plain(self.running)


@dataclass(frozen=True, slots=True)
class MyList:
    series: int
    table: int
    position: int
    published: bool
    closed: bool
    games: tuple[MyGame, ...]
    expected: int
    total: int | None
    """My total of this list (``ListResult``), None before its first game."""
    others: tuple[Neighbour, ...]
    signed: bool
    signed_count: int
    signers: int
    seat_id: int
    objectable: bool
    """Whether I may still object to its games: before publication, or within the series'
    objection window after it (``Series.objections_open``)."""
    objections_until: datetime.datetime | None
    objections: tuple[Objection, ...]
    """My objections to games of this list, the latest first, with the referee's decisions."""
    handed_over: tuple[int, str] | None = None
    """Where a substitute took my seat over: from which game, and who (his public name)."""

    @property
    def total_text(self) -> str:
        return "" if self.total is None else plain(self.total)


@dataclass(frozen=True, slots=True)
class MyStanding:
    rank: int
    total: int
    players: int

    @property
    def total_text(self) -> str:
        return plain(self.total)

    provisional: bool
    series: int
    """The series the standing counts (those the public may see)."""


@dataclass(frozen=True, slots=True)
class MyMoney:
    """My line of the settlement (``services.money.PlayerMoney``, the referee's figures),
    with the prize and the balance held back while the ranking may still change."""

    currency: str
    line: PlayerMoney
    prize_known: bool
    """False while a series the public may not see yet could still change the ranking."""
    provisional: bool

    @property
    def prize(self) -> Decimal | None:
        return self.line.prize if self.prize_known else None

    @property
    def balance(self) -> Decimal | None:
        """What changes hands now (``PlayerMoney.balance``), None while the prize is held."""
        return self.line.balance if self.prize_known else None

    @property
    def balance_amount(self) -> Decimal | None:
        """What I pay or get, without its sign."""
        return None if self.balance is None else abs(self.balance)


@dataclass(frozen=True, slots=True)
class Evening:
    registration: Registration
    next_seat: NextSeat | None
    drawn: bool
    """Whether any series of the tournament is drawn."""
    standing: MyStanding | None
    lists: tuple[MyList, ...]
    money: MyMoney | None


def evening_stamp(registration: Registration, language: str) -> str:
    """What changes whenever the evening does: an ETag for its poll. The tournament's
    revision rises with every draw, game, signature, publication and purse; the desk's
    marks on the arrival change its ``updated_at``. While an objection window may be
    running out, the minute is part of it too (``revisions.objection_minute``), so that
    "Einspruch bis 21:45" turns into "endgültig" on time."""
    revision, revised_at, minutes = Tournament.objects.values_list(
        "revision", "revised_at", "objection_minutes"
    ).get(pk=registration.tournament_id)
    marked = Arrival.objects.filter(registration=registration).aggregate(at=Max("updated_at"))
    at = marked["at"].timestamp() if marked["at"] else 0
    minute = revisions.objection_minute(revised_at, minutes)
    return f'"me-{registration.pk}-{revision}-{at}-{minute}-{language}"'


def _my_seats(registration: Registration) -> QuerySet[Seat]:
    player_id = registration.player_id
    return (
        Seat.objects.filter(series__tournament_id=registration.tournament_id)
        .filter(Q(player_id=player_id) | Q(substitute_id=player_id))
        .select_related("table__series", "player", "substitute")
        .order_by("series__number")
    )


def my_evening(registration: Registration) -> Evening:
    tournament = registration.tournament
    player_id = registration.player_id
    seats = list(_my_seats(registration))
    last = Series.objects.filter(tournament=tournament).order_by("-number").first()
    mine = [seat for seat in seats if seat.series_id == (last.pk if last else None)]
    now = timezone.now()
    lists = tuple(_my_list(tournament, seat, player_id, now) for seat in seats)
    next_seat = None
    if mine:
        seat = mine[0]
        next_seat = NextSeat(
            seat.table.series.number,
            seat.table.number,
            seat.position,
            _others(seat.table, seat),
            _handed_over(seat, player_id),
        )
    return Evening(
        registration=registration,
        next_seat=next_seat,
        drawn=last is not None,
        standing=_standing(tournament, player_id),
        lists=lists,
        money=_money(tournament, player_id),
    )


def _others(table: Table, mine: Seat) -> tuple[Neighbour, ...]:
    seats = table.seats.select_related("player").order_by("position")
    return tuple(
        Neighbour(seat.position, seat.player.public_name) for seat in seats if seat.pk != mine.pk
    )


def my_list_in(registration: Registration, series: int, number: int) -> MyList | None:
    """My list in ``series`` if game ``number`` of it is one of mine (I sat at its table
    then), else None: what an objection from the personal link objects to."""
    for seat in _my_seats(registration).filter(series__number=series):
        if seat.player_for(number).pk != registration.player_id:
            continue
        found = _my_list(registration.tournament, seat, registration.player_id, timezone.now())
        if any(game.number == number for game in found.games):
            return found
    return None


def _my_list(tournament: Tournament, seat: Seat, player_id: int, now: datetime.datetime) -> MyList:
    table = seat.table
    table.series.tournament = tournament
    seats = list(table.seats.select_related("player", "substitute").order_by("position"))
    games = list(table.games.order_by("number"))
    sheet = build_sheet(
        table, games, games_per_list=tournament.games_per_list(table.size), seats=seats
    )
    by_position = {s.position: s for s in seats}
    index = seat.position - 1
    played = {
        row.number
        for row in sheet.rows
        if row.game is not None and seat.player_for(row.number).pk == player_id
    }
    objections = tuple(
        objection
        for objection in Objection.objects.filter(seat=seat)
        .select_related("game")
        .order_by("-created_at", "-id")
        if objection.game.number in played
    )
    waiting = {objection.game.number for objection in objections if objection.is_open}
    rows = []
    for row in sheet.rows:
        if row.game is None or row.running is None:
            continue
        if row.number not in played:
            continue
        declarer = by_position.get(row.game.declarer or 0)
        rows.append(
            MyGame(
                number=row.number,
                declarer=declarer.player_for(row.number).public_name if declarer else "",
                mine=row.game.declarer == seat.position,
                label=game_label(row.game, row.scored) if row.scored else "",
                passed=row.game.passed,
                entry=row.entry if row.scored else "",
                score="" if seat.position in row.sits_out else signed(row.scores[index]),
                running=row.running[index],
                objected=row.number in waiting,
            )
        )
    result = ListResult.objects.filter(table=table, player_id=player_id).first()
    status = signatures(table, len(games), seats)
    own = [item for item in status.seats if item.person.pk == player_id and item.seat.pk == seat.pk]
    return MyList(
        series=table.series.number,
        table=table.number,
        position=seat.position,
        published=table.series.is_published,
        closed=table.is_closed,
        games=tuple(rows),
        expected=tournament.games_per_list(table.size),
        total=None if result is None or not games else result.total,
        others=tuple(Neighbour(s.position, s.player.public_name) for s in seats if s.pk != seat.pk),
        signed=bool(own) and all(item.signature is not None for item in own),
        signed_count=status.signed,
        signers=len(status.seats),
        seat_id=seat.pk,
        objectable=table.series.objections_open(now),
        objections_until=table.series.objections_until,
        objections=objections,
        handed_over=_handed_over(seat, player_id),
    )


def _standing(tournament: Tournament, player_id: int) -> MyStanding | None:
    """My line of the tournament's standing as the public sees it."""
    results = ListResult.objects.for_tournament(tournament).public_in(tournament)
    rows = results.standings(lots_of=tournament)
    mine = next((row for row in rows if row.player_id == player_id), None)
    if mine is None:
        return None
    return MyStanding(
        rank=mine.rank,
        total=mine.total,
        players=len(rows),
        provisional=results.provisional() or progress_in(tournament).provisional,
        series=Series.objects.public().filter(tournament=tournament).count(),
    )


def _money(tournament: Tournament, player_id: int) -> MyMoney | None:
    """My line of the settlement, where the evening has a purse. The prize goes by the rank
    over every series; while one the public may not see yet is among them, it stays out."""
    purse = Purse.objects.filter(tournament=tournament).first()
    if purse is None:
        return None
    line = player_money(tournament, player_id)
    if line is None:
        return None
    hidden = tournament.series.exclude(SeriesQuerySet.shown()).exists()
    provisional = tournament.series.filter(published_at__isnull=True).exists()
    started = line.rank > 0
    return MyMoney(
        currency=purse.currency_sign,
        line=line,
        prize_known=started and not hidden,
        provisional=not started or provisional or not tournament.series.exists(),
    )

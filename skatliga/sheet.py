"""The read model of a list (Spielliste): one row per game, running totals, summary rows, and
who signed it.

Every number comes from the engine through the services (``list_rows``, ``summarize``) and
``scoring.row_scores``; this module only arranges them. The same sheet serves the list pages,
the JSON preview (where one row is replaced by the row being typed), the PDFs, the API and the
table devices. For the list pages' templates it prepares each row's classes, labels and flags
(``list_rows``, ``readonly_rows``), their words translated once per list.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext

import scoring
from scoring.lists import WON_BONUS
from skatliga import services
from skatliga.entries import list_entry, list_entry_text, plain, signed
from skatliga.models import Change, Game, GameType, Player, Seat, Signature, Table, Tournament
from skatliga.services.confirmation import kept_at_table
from skatliga.words import breakdown, doubling_mark, list_words


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's cell in one row: the running total and what the player did."""

    running: int | None
    declarer: bool
    sits_out: bool


@dataclass(frozen=True, slots=True)
class SheetRow:
    number: int
    dealer: int
    """Seat position (1-based) of the dealer."""
    sits_out: tuple[int, ...]
    """Seat positions of the players who sit out this game (docs/rules.md sections 6 and 8)."""
    game: Game | None
    scored: scoring.Entry
    scores: tuple[int, ...]
    running: tuple[int, ...] | None
    breakdown: str

    @property
    def entry(self) -> str:
        """The list entry (``entries.list_entry_text``), empty while the row is not played."""
        return "" if self.game is None else list_entry_text(self.scored)

    @property
    def cells(self) -> list[Cell]:
        declarer = self.game.declarer if self.game is not None else None
        return [
            Cell(
                running=None if self.running is None else self.running[seat - 1],
                declarer=seat == declarer,
                sits_out=seat in self.sits_out,
            )
            for seat in range(1, len(self.scores) + 1)
        ]


@dataclass(frozen=True, slots=True)
class SummaryColumn:
    """One player's summary rows (docs/rules.md section 5)."""

    game_points: int
    won: int
    lost: int
    others_lost: int
    won_lost_bonus: int
    others_lost_bonus: int
    bonus: int
    total: int

    def to_json(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__slots__}

    @property
    def texts(self) -> dict[str, str]:
        """Each figure as a page shows it, with a typographic minus (``entries.plain``)."""
        return {name: plain(getattr(self, name)) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class Share:
    """One player's part of a seat a substitute took over during the list (SkWO 4.4): the
    games he sat in (``first`` to ``last``) and his summary rows of them."""

    position: int
    player: str
    first: int
    last: int
    summary: SummaryColumn


@dataclass(frozen=True, slots=True)
class Sheet:
    size: int
    system: scoring.ListSystem
    rows: list[SheetRow]
    summary: list[SummaryColumn]
    recorded: int
    """How many rows are filled (saved, or typed into the preview)."""
    shares: tuple[Share, ...] = ()
    """Where a substitute took a seat over: the player who left and the substitute, each
    with his games (``services.result_lines``)."""

    @property
    def seeger_fabian(self) -> bool:
        return self.system is scoring.ListSystem.SEEGER_FABIAN

    @property
    def entries_total(self) -> str:
        """The sum of the list entries: the sum of every player's Spielpunkte."""
        total = sum(list_entry(row.scored) for row in self.rows if row.game is not None)
        return signed(total)

    @property
    def running(self) -> dict[str, list[int]]:
        """Running totals per row number, as JSON."""
        return {str(row.number): list(row.running) for row in self.rows if row.running}


def build_sheet(
    table: Table,
    games: Sequence[Game],
    *,
    games_per_list: int,
    typed: tuple[int, services.GameEntry, scoring.Entry] | None = None,
    seats: Sequence[Seat] = (),
) -> Sheet:
    """The list of ``table`` from its stored ``games``, optionally with the row ``typed``
    in place of the stored one; with ``seats``, the shares of the seats a substitute took
    over."""
    tournament = table.series.tournament
    size = table.size
    system = tournament.list_system
    rules = tournament.rule_set
    pairs = {game.number: (game, scored) for game, scored in services.list_rows(games, size, rules)}
    if typed is not None:
        number, entry, scored = typed
        stand_in = Game(
            table=table,
            table_size=size,
            number=number,
            passed=entry.passed,
            declarer=entry.declarer,
            ramsch=None if entry.ramsch is None else {},
        )
        pairs[number] = (stand_in, scored)
    rows: list[SheetRow] = []
    totals = [0] * size
    last = max(pairs, default=0)
    for number in range(1, max(games_per_list, last) + 1):
        dealer = scoring.dealer_seat(number, size)
        game, scored = pairs.get(number, (None, None))
        scores: tuple[int, ...] = (0,) * size
        running: tuple[int, ...] | None = None
        if game is not None:
            if scored is not None:
                scores = scoring.row_scores(
                    scored,
                    declarer=None if game.declarer is None else game.declarer - 1,
                    dealer=dealer,
                    table_size=size,
                    system=system,
                    rules=rules,
                )
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
            running = tuple(totals)
        rows.append(
            SheetRow(
                number=number,
                dealer=dealer + 1,
                sits_out=tuple(s + 1 for s in scoring.sitting_out(dealer, size, rules)),
                game=game,
                scored=scored,
                scores=scores,
                running=running,
                breakdown=breakdown(scored),
            )
        )
    ordered = [pairs[number] for number in sorted(pairs)]
    summaries = services.summarize(ordered, size, tournament.list_system, rules)
    summary = [summary_column(s, size, system) for s in summaries]
    return Sheet(
        size=size,
        system=system,
        rows=rows,
        summary=summary,
        recorded=len(pairs),
        shares=shares(seats, ordered, size, system, rules, games_per_list),
    )


@dataclass(frozen=True, slots=True)
class SeatSignature:
    """One person who signs a list: a seat's player, or the substitute who took the seat
    over (``substitute``) and signs for his games apart from the player who left."""

    seat: Seat
    signature: Signature | None
    substitute: bool = False

    @property
    def person(self) -> Player:
        if self.substitute and self.seat.substitute is not None:
            return self.seat.substitute
        return self.seat.player

    @property
    def games(self) -> tuple[int, int | None] | None:
        """The games this person sat in where the seat changed hands (the last open)."""
        start = self.seat.substitute_from
        if start is None:
            return None
        return (start, None) if self.substitute else (1, start - 1)


@dataclass(frozen=True, slots=True)
class Signatures:
    """Who of a list's seated players (and substitutes) signed it."""

    seats: list[SeatSignature]
    complete: bool
    kept_at_table: bool
    seat_codes: bool = False
    """Whether each signer types his seat's code (``Tournament.seat_codes``)."""

    @property
    def signed(self) -> int:
        return sum(1 for item in self.seats if item.signature is not None)

    @property
    def all_signed(self) -> bool:
        return bool(self.seats) and self.signed == len(self.seats)


def signers(seats: Iterable[Seat], found: Iterable[Signature] = ()) -> list[SeatSignature]:
    """Everyone who signs a list of ``seats`` in seat order, the player who left before his
    substitute, each with his signature among ``found``."""
    by_key = {(signature.position, signature.substitute): signature for signature in found}
    return [
        SeatSignature(seat, by_key.get((seat.position, substitute)), substitute)
        for seat in seats
        for substitute in ((False, True) if seat.substitute_id is not None else (False,))
    ]


def short_name(name: str) -> str:
    """ "Anna Schmidt" → "Anna S.", for the narrow standings strip.

    >>> short_name("Anna Maria Schmidt"), short_name("Bernd")
    ('Anna S.', 'Bernd')
    """
    first, *rest = name.split() or [""]
    return f"{first} {rest[-1][0]}." if rest else first


def seat_names(seat: Seat, number: int | None) -> dict[str, Any]:
    """Who sits on ``seat`` for game ``number`` (the substitute from his first game on), by
    name and short name, and the seat's player and substitute both: the table device names
    the right one for each game it moves on to (``table-queue.js``)."""
    now = str(seat.player_for(number) if number else seat.player)
    substitute = str(seat.substitute) if seat.substitute_id is not None else ""
    return {
        "position": seat.position,
        "name": now,
        "short": short_name(now),
        "player": str(seat.player),
        "player_short": short_name(str(seat.player)),
        "substitute": substitute,
        "substitute_short": short_name(substitute) if substitute else "",
        "from": seat.substitute_from if substitute else None,
    }


def signatures_cleared(table: Table, status: Signatures) -> Change | None:
    """The last clearing of the list's signatures (a correction after signing), while not
    everyone has signed again (``status``, the list's :func:`signatures`): the table
    device says so. A clearing deletes every signature, so each one there is newer; only a
    complete list is signed."""
    if status.all_signed or not status.complete:
        return None
    cleared = table.changes.filter(action=Change.Action.SIGNATURES_CLEARED)
    return cleared.select_related("user").order_by("-id").first()


def signatures(
    table: Table, games: int | None = None, seats: list[Seat] | None = None
) -> Signatures:
    """The signature status of ``table`` (``games``: its number of games, and ``seats``: its
    seats in order with their players, where already read)."""
    if seats is None:
        seats = list(table.seats.select_related("player", "substitute").order_by("position"))
    if games is None:
        games = table.games.count()
    return Signatures(
        seats=signers(seats, table.signatures.all()),
        complete=games == table.series.tournament.games_per_list(table.size),
        kept_at_table=kept_at_table(table),
        seat_codes=table.series.tournament.seat_codes,
    )


def sign_code(seat: Seat, substitute: bool = False) -> str:
    """The seat code the player of ``seat`` (with ``substitute``: the substitute who took it
    over) signs its list with, where the tournament asks for one (``Tournament.seat_codes``).
    """
    return seat.substitute_code if substitute else seat.sign_code


@dataclass(frozen=True, slots=True)
class SeatCode:
    """A player's seat code for one open list: series, table, seat and the code."""

    series: int
    table: int
    position: int
    code: str


def player_sign_codes(player: Player, tournament: Tournament) -> list[SeatCode]:
    """The seat codes ``player`` signs his open lists of ``tournament`` with, as a player or
    as a substitute, in series order; none where the tournament asks for no seat codes."""
    if not tournament.seat_codes:
        return []
    seats = (
        Seat.objects.filter(series__tournament=tournament, table__closed_at__isnull=True)
        .filter(Q(player=player) | Q(substitute=player))
        .select_related("series", "table")
        .order_by("series__number")
    )
    return [
        SeatCode(
            seat.series.number,
            seat.table.number,
            seat.position,
            sign_code(seat, substitute=seat.substitute_id == player.pk),
        )
        for seat in seats
    ]


def _totals(row: SheetRow, declarer: str, sits_out: str) -> list[dict[str, str]]:
    """Each player's cell of ``row``: its seat's number, its classes (after the first) and
    its running total."""
    return [
        {
            "seat": str(seat),
            "classes": (declarer if cell.declarer else "") + (sits_out if cell.sits_out else ""),
            "running": "" if cell.running is None else plain(cell.running),
        }
        for seat, cell in enumerate(row.cells, start=1)
    ]


_READONLY_CLASSES = {
    (declarer, sits_out): SafeString(
        (" declarer" if declarer else "") + (" sits-out" if sits_out else "")
    )
    for declarer in (False, True)
    for sits_out in (False, True)
}
"""A read-only list's total cell's classes (after the first), by (declares, sits out)."""


def _readonly_totals(row: SheetRow) -> list[dict[str, str]]:
    """Each player's cell of ``row`` on the read-only list: its classes and its running
    total, numbers and fixed words the template writes out without escaping them anew."""
    declarer = row.game.declarer if row.game is not None else None
    running = row.running
    return [
        {
            "classes": _READONLY_CLASSES[seat == declarer, seat in row.sits_out],
            "running": SafeString("" if running is None else plain(running[seat - 1])),
        }
        for seat in range(1, len(row.scores) + 1)
    ]


def readonly_list_rows(rows: Iterable[tuple[SheetRow, str, str]]) -> list[dict[str, Any]]:
    """What ``public/table.html`` shows of each row of the read-only list, given with the
    declarer's name and the game's label: its numbers as text the template need not escape
    (a list page is built anew after every save at its table)."""
    passed = gettext("eingepasst")
    return [
        {
            "number": SafeString(row.number),
            "played": row.game is not None,
            "passed": passed if row.game is not None and row.game.passed else "",
            "declarer": declarer,
            "label": label,
            "breakdown": row.breakdown,
            "entry": SafeString(row.entry),
            "totals": _readonly_totals(row),
        }
        for row, declarer, label in rows
    ]


def middle_span(kontra: bool) -> int:
    """The referee's list's columns from the declarer to the result: a passed game or a
    Ramsch spans them; one more for the doubling column where the rules have Kontra."""
    return 10 + kontra


def list_rows(
    sheet: Sheet, *, editing: int | None, closed: bool, only: Collection[int] | None = None
) -> list[dict[str, Any]]:
    """What ``referee/list.html`` (the table link's page too) shows of each row: its classes
    (saved or empty, edited, passed, lost), whether it links to its correction (saved rows
    while the list is open), and its cells' texts, every word translated once per list.
    With ``only``, just the rows of those numbers (what a save changed)."""
    words = list_words(translation.get_language())
    edit = gettext("Spiel %(number)s bearbeiten")
    # The games' names as get_game_display gives them, translated once, not once per row.
    names = {value: str(label) for value, label in GameType.choices}
    shown = []
    for row in sheet.rows:
        if only is not None and row.number not in only:
            continue
        game, scored, number = row.game, row.scored, row.number
        # A lost game is marked, and every Ramsch: someone is charged.
        lost = scored is not None and not getattr(scored, "won", None)
        passed = game is not None and game.passed
        ramsch = game is not None and game.ramsch is not None
        shown.append(
            {
                "number": str(number),
                "dealer": str(row.dealer),
                "classes": ("is-saved" if game else "is-empty")
                + (" is-editing" if number == editing else "")
                + (" is-passed" if passed else "")
                + (" is-lost" if lost else ""),
                "edit": edit % {"number": number} if game is not None and not closed else "",
                "spans": passed or ramsch,
                "ramsch": ramsch,
                "spanned": words["passed"] if passed else row.breakdown,
                "entry": row.entry,
                "totals": _totals(row, " is-declarer", " sits-out"),
                **({} if passed or ramsch else _declared(row, words, names)),
            }
        )
    return shown


DECLARED_CELLS = (
    *("declarer", "game", "game_label", "matadors", "hand", "announced", "ouvert", "doubled"),
    *("bid", "card_points", "tricks", "result", "value_class", "value", "overbid"),
)


def _declared(row: SheetRow, words: dict[str, str], names: dict[str, str]) -> dict[str, Any]:
    """A declared game's cells of the referee's list (empty for a row not yet played)."""
    game, scored = row.game, row.scored
    cells: dict[str, Any] = dict.fromkeys(DECLARED_CELLS, "")
    cells["breakdown"] = row.breakdown
    if game is not None:
        cells |= {
            "declarer": "" if game.declarer is None else str(game.declarer),
            "game": game.game,
            "game_label": names.get(game.game) or game.game,
            "matadors": "" if game.matadors is None else f"{game.matadors:+d}",
            "hand": words["mark:hand"] if game.hand else "",
            "announced": words["mark:schwarz"]
            if game.schwarz_announced
            else words["mark:schneider"]
            if game.schneider_announced
            else "",
            "ouvert": words["mark:ouvert"] if game.ouvert else "",
            "doubled": doubling_mark(game, words),
            "bid": "" if game.bid is None else str(game.bid),
            "card_points": "" if game.card_points is None else str(game.card_points),
            "tricks": "" if game.tricks is None else str(game.tricks),
        }
    if isinstance(scored, scoring.ScoredGame):
        won = scored.won
        mark = (
            words["mark:schwarz"]
            if scored.schwarz
            else words["mark:schneider"]
            if scored.schneider
            else ""
        )
        cells |= {
            "result": ("+" if won else "−") + (f" {mark}" if mark else ""),
            "value_class": " won" if won else " lost",
            "value": row.entry,
            "overbid": scored.overbid,
        }
    return cells


def shares(
    seats: Sequence[Seat],
    ordered: Sequence[tuple[Game, scoring.Entry]],
    size: int,
    system: scoring.ListSystem,
    rules: scoring.RuleSet,
    games_per_list: int,
) -> tuple[Share, ...]:
    """The parts of the seats a substitute took over, from the same result lines as the
    stored result rows."""
    taken = {seat.position: seat for seat in seats if seat.substitute_id is not None}
    if not taken:
        return ()
    rows = [services.list_row(game.number, game.declarer, scored, size) for game, scored in ordered]
    lines = services.result_lines(
        rows, [services.Sitting.of(seat) for seat in seats], size, system, rules
    )
    result = []
    for line in lines:
        seat = taken.get(line.position)
        if seat is None:
            continue
        first = seat.substitute_from or 1
        leaver = line.player == seat.player_id
        result.append(
            Share(
                position=line.position,
                player=who.public_name
                if (who := seat.player if leaver else seat.substitute)
                else "",
                first=1 if leaver else first,
                last=first - 1 if leaver else games_per_list,
                summary=summary_column(line.summary, size, system),
            )
        )
    return tuple(result)


def summary_column(
    summary: scoring.ListSummary, size: int, system: scoring.ListSystem
) -> SummaryColumn:
    seeger = system is scoring.ListSystem.SEEGER_FABIAN
    return SummaryColumn(
        game_points=summary.game_points,
        won=summary.won,
        lost=summary.lost,
        others_lost=summary.others_lost,
        won_lost_bonus=WON_BONUS * (summary.won - summary.lost) if seeger else 0,
        others_lost_bonus=scoring.others_lost_bonus(size) * summary.others_lost if seeger else 0,
        bonus=summary.bonus,
        total=summary.total,
    )

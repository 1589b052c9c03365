"""A list (Spielliste) as the referee sees it: one row per game, running totals, summary rows.

Every number comes from the engine through the services (``list_rows``, ``summarize``) and
``scoring.row_scores``; this module only arranges them. The same sheet serves the page and
the JSON preview, where one row is replaced by the row being typed. The rows of the list
pages, the referee's and the public one, are written here in one pass (``list_rows_html``,
``readonly_rows_html``), as the standings' body rows are (``tables.FastTable``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

import scoring
from scoring.lists import WON_BONUS
from skatliga import services
from skatliga.entries import list_entry, list_entry_text
from skatliga.models import Game, GameType, Seat, Table
from skatliga.pdf.base import signed
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


EMPTY_ROW = ' class="empty"'


def readonly_rows_html(rows: Iterable[tuple[SheetRow, str, str]]) -> SafeString:
    """The body rows of the read-only list (``public/table.html``), each with the declarer's
    name and the game's label, written in one pass: a template loop over 48 rows of eight
    cells cost more than reading and scoring the list. The text is the template's, space for
    space; every text is escaped (the numbers are written as they are)."""
    passed = f"<em>{conditional_escape(gettext('eingepasst'))}</em>"
    html = []
    for row, declarer, label in rows:
        game = row.game
        if game is None:
            who = what = ""
        elif game.passed:
            who, what = "", passed
        else:
            who = conditional_escape(declarer)
            what = (
                f"{conditional_escape(label)}"
                f'<small class="breakdown">{conditional_escape(row.breakdown)}</small>'
            )
        cells = "".join(
            f'<td class="number{" declarer" if cell.declarer else ""}'
            f'{" sits-out" if cell.sits_out else ""}">'
            f"{'' if cell.running is None else cell.running}</td>"
            for cell in row.cells
        )
        html.append(
            f"\n    <tr{'' if game else EMPTY_ROW}>"
            f'\n      <td class="number">{row.number}</td>'
            f"\n      <td>{who}</td>"
            f"\n      <td>{what}</td>"
            f'\n      <td class="number">{conditional_escape(row.entry)}</td>'
            f"\n      {cells}\n    </tr>\n  "
        )
    return mark_safe("".join(html))  # noqa: S308 - names, labels and texts escaped above


def middle_span(kontra: bool) -> int:
    """The referee's list's columns from the declarer to the result: a passed game or a
    Ramsch spans them; one more for the doubling column where the rules have Kontra."""
    return 10 + kontra


def list_rows_html(sheet: Sheet, *, editing: int | None, closed: bool, kontra: bool) -> SafeString:
    """The body rows of the referee's list (``referee/list.html``; the table link's too),
    written in one pass as :func:`readonly_rows_html` is: the row being edited marked, saved
    rows linked for editing while the list is open, the doubling column where the rules
    have Kontra. The text is the template's, space for space; every text is escaped (the
    numbers are written as they are)."""
    words = {key: conditional_escape(word) for key, word in list_words(get_language()).items()}
    # The games' names as get_game_display gives them, translated once, not once per row.
    names = {value: conditional_escape(label) for value, label in GameType.choices}
    span = middle_span(kontra)
    html = []
    for row in sheet.rows:
        game, scored, number = row.game, row.scored, row.number
        # A lost game is marked, and every Ramsch: someone is charged.
        lost = scored is not None and not getattr(scored, "won", None)
        classes = (
            ("is-saved" if game else "is-empty")
            + (" is-editing" if number == editing else "")
            + (" is-passed" if game is not None and game.passed else "")
            + (" is-lost" if lost else "")
        )
        if game is not None and not closed:
            link = f'data-href="?game={number}#entry"'
            edit = conditional_escape(gettext("Spiel %(number)s bearbeiten") % {"number": number})
            shown = f'<a href="?game={number}#entry" title="{edit}">{number}</a>'
        else:
            link, shown = "", str(number)
        entry = conditional_escape(row.entry)
        if game is not None and game.passed:
            middle = (
                f'\n                <td class="c-passed" colspan="{span}">'
                f"{words['passed']}</td>"
                f'\n                <td class="c-value">{entry}</td>'
            )
        elif game is not None and game.ramsch is not None:
            middle = (
                f'\n                <td class="c-passed c-ramsch" colspan="{span}">'
                f"{conditional_escape(row.breakdown)}</td>"
                f'\n                <td class="c-value">{entry}</td>'
            )
        else:
            middle = _declared_cells(row, words, names, kontra)
        cells = "".join(
            f'<td class="c-total{" is-declarer" if cell.declarer else ""}'
            f'{" sits-out" if cell.sits_out else ""}" data-seat="{seat}">'
            f"{'' if cell.running is None else cell.running}</td>"
            for seat, cell in enumerate(row.cells, start=1)
        )
        html.append(
            f'\n            \n            <tr id="row-{number}" data-number="{number}"'
            f'\n                class="{classes}"'
            f"\n                {link}>"
            f'\n              <th scope="row" class="c-num">{shown}</th>'
            f'\n              <td class="c-dealer">{row.dealer}</td>'
            f"\n              {middle}\n              "
            f"\n              {cells}\n            </tr>\n            \n          "
        )
    return mark_safe("".join(html))  # noqa: S308 - every text escaped above


def _declared_cells(
    row: SheetRow, words: dict[str, str], names: dict[str, str], kontra: bool
) -> str:
    """A declared game's cells of the referee's list (empty for a row not yet played)."""
    game, scored = row.game, row.scored
    if game is None:
        declarer = kind = matadors = hand = announced = ouvert = doubled = bid = ""
        card_points = tricks = ""
    else:
        declarer, bid = str(game.declarer), str(game.bid)
        kind = (
            f'<span class="suit suit-{conditional_escape(game.game)}" aria-hidden="true"></span>'
            f"{names.get(game.game) or conditional_escape(game.game)}"
        )
        matadors = "" if game.matadors is None else f"{game.matadors:+d}"
        hand = words["mark:hand"] if game.hand else ""
        announced = (
            words["mark:schwarz"]
            if game.schwarz_announced
            else words["mark:schneider"]
            if game.schneider_announced
            else ""
        )
        ouvert = words["mark:ouvert"] if game.ouvert else ""
        doubled = doubling_mark(game, words)
        card_points = "" if game.card_points is None else str(game.card_points)
        tricks = "" if game.tricks is None else str(game.tricks)
    if scored:
        won = scored.won
        result = ("+" if won else "−") + (
            f" {words['mark:schwarz']}"
            if scored.schwarz
            else f" {words['mark:schneider']}"
            if scored.schneider
            else ""
        )
        value_class = " won" if won else " lost"
        overbid = (
            f'<abbr class="overbid" title="{words["overbid"]}">ü</abbr>' if scored.overbid else ""
        )
        value = f"{conditional_escape(row.entry)}{overbid}"
    else:
        result = value_class = value = ""
    title = f' title="{conditional_escape(row.breakdown)}"' if row.breakdown else ""
    doubling = f'<td class="c-flag">{doubled}</td>' if kontra else ""
    return (
        f'\n                <td class="c-declarer">{declarer}</td>'
        f'\n                <td class="c-game">{kind}</td>'
        f'\n                <td class="c-mat">{matadors}</td>'
        f'\n                <td class="c-flag">{hand}</td>'
        f'\n                <td class="c-flag">{announced}</td>'
        f'\n                <td class="c-flag">{ouvert}</td>'
        f"\n                {doubling}"
        f'\n                <td class="c-bid">{bid}</td>'
        f'\n                <td class="c-cp">{card_points}</td>'
        f'\n                <td class="c-tricks">{tricks}</td>'
        f'\n                <td class="c-result">{result}</td>'
        f'\n                <td class="c-value{value_class}"{title}>{value}</td>'
    )


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
                player=str(seat.player if leaver else seat.substitute),
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


def seat_names(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    return [{"position": seat.position, "name": str(seat.player)} for seat in seats]

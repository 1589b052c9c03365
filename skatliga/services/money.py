"""The settlement of a Preisskat evening, to the cent.

Lost-game fees come from each list's result rows (``ListResult.lost``): per player and list,
``lost_fee`` for each of the first ``lost_fee_threshold`` lost games and ``lost_fee_later``
for each one after. The pot is every entry fee plus every lost-game fee. Prizes go by the
tournament's ranking: a fixed amount, or a share of the pot rounded down to whole euros;
players sharing a rank share the prizes of the places they take, equally, rounded down to
the cent. What the prizes leave of the pot (the rest) stays with the organiser. Whether an entry fee
was paid is what the check-in desk marked (``Arrival.fee``).

A player's balance (Saldo) is what changes hands now: his prize less what he still owes, his
lost-game fees and his entry fee unless it was paid at the door. The personal page and the
referee's settlement read it from the same :class:`PlayerMoney`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from django.db import transaction
from django.utils import formats
from django.utils.translation import gettext as _

from skatliga import revisions
from skatliga.entries import MINUS
from skatliga.models import Arrival, ListResult, Purse, Series, Tournament
from skatliga.services.common import ServiceError, lock_tournament

CENT = Decimal("0.01")
EURO = Decimal("1")


def euros(amount: Decimal) -> str:
    """An amount in the active language, to the cent, a debt with a real minus sign:
    ``138,50``, ``−1,50``."""
    text = formats.number_format(abs(amount), 2)
    return f"{MINUS}{text}" if amount < 0 else text


def lost_game_fee(lost: int, purse: Purse) -> Decimal:
    """The fee for ``lost`` games lost in one list.

    >>> purse = Purse(lost_fee=Decimal("0.50"), lost_fee_later=Decimal("1.00"))
    >>> lost_game_fee(2, purse), lost_game_fee(3, purse), lost_game_fee(5, purse)
    (Decimal('1.00'), Decimal('1.50'), Decimal('3.50'))
    """
    early = min(lost, purse.lost_fee_threshold)
    return early * purse.lost_fee + (lost - early) * purse.lost_fee_later


def parse_prize(text: str) -> tuple[str, Decimal]:
    """A prize as typed: ``("amount", 20.00)`` or ``("share", 0.30)`` for "30%"."""
    text = text.strip().replace(",", ".").replace("€", "").strip()
    try:
        if text.endswith("%"):
            share = Decimal(text[:-1].strip()) / 100
            if not 0 < share <= 1:
                raise ServiceError("prize_invalid", "prizes", prize=text)
            return "share", share
        amount = Decimal(text).quantize(CENT)
    except InvalidOperation:
        raise ServiceError("prize_invalid", "prizes", prize=text) from None
    if not amount.is_finite() or amount < 0:
        raise ServiceError("prize_invalid", "prizes", prize=text)
    return "amount", amount


@dataclass(frozen=True, slots=True)
class TableFees:
    series: int
    table: int
    fees: Decimal


@dataclass(frozen=True, slots=True)
class PlayerMoney:
    rank: int
    player_id: int
    player: str
    entry: Decimal
    """The entry fee he owes the pot: none for a substitute who is not registered."""
    lost: int
    lost_fees: Decimal
    prize: Decimal
    fee: str = ""
    """How the entry fee was marked at the check-in desk (``Arrival.Fee``): "" open."""
    pays_entry: bool = True
    """False for a substitute who only finished someone's list (docs/rules.md 10.7)."""

    @property
    def fee_paid(self) -> bool:
        return self.pays_entry and self.fee in Arrival.PAID

    @property
    def fee_text(self) -> str:
        if not self.pays_entry:
            return _("kein Startgeld")
        return str(Arrival.Fee(self.fee).label)

    @property
    def paid(self) -> Decimal:
        """What he puts into the pot in all: his entry fee and his lost-game fees."""
        return self.entry + self.lost_fees

    @property
    def entry_paid(self) -> Decimal:
        """The entry fee paid at the door already."""
        return self.entry if self.fee_paid else Decimal("0.00")

    @property
    def due(self) -> Decimal:
        """What he still owes: his lost-game fees, and his entry fee unless paid."""
        return self.paid - self.entry_paid

    @property
    def balance(self) -> Decimal:
        """What changes hands now: positive, he gets it; negative, he pays it."""
        return self.prize - self.due

    @property
    def balance_text(self) -> str:
        """The balance as the settlement page writes it: ``69,00``, ``−10,50``."""
        return euros(self.balance)


@dataclass(frozen=True, slots=True)
class Settlement:
    tables: tuple[TableFees, ...]
    players: tuple[PlayerMoney, ...]
    entries: Decimal
    lost_fees: Decimal
    prizes: tuple[Decimal, ...]
    """The prize of each place, first place first."""
    entries_paid: Decimal = Decimal("0.00")
    """The entry fees marked paid (cash or card) at the check-in desk."""

    @property
    def entries_open(self) -> Decimal:
        return self.entries - self.entries_paid

    @property
    def pot(self) -> Decimal:
        return self.entries + self.lost_fees

    @property
    def paid_out(self) -> Decimal:
        return sum((p.prize for p in self.players), Decimal("0.00"))

    @property
    def rest(self) -> Decimal:
        return self.pot - self.paid_out

    @property
    def to_collect(self) -> Decimal:
        """What the players who owe pay now (their negative balances)."""
        return -sum((p.balance for p in self.players if p.balance < 0), Decimal("0.00"))

    @property
    def to_pay_out(self) -> Decimal:
        """What the players who get money are paid now (their positive balances)."""
        return sum((p.balance for p in self.players if p.balance > 0), Decimal("0.00"))


def purse_of(tournament: Tournament) -> Purse:
    return Purse.objects.filter(tournament=tournament).first() or Purse(tournament=tournament)


def settle(tournament: Tournament, series: Series | None = None) -> Settlement:
    """The evening's settlement, or one series' lost-game fees (no entry fees or prizes)."""
    purse = purse_of(tournament)
    results = ListResult.objects.for_tournament(tournament)
    if series is not None:
        results = results.for_series(series)
    fees: dict[int, Decimal] = {}
    lost: dict[int, int] = {}
    tables: dict[tuple[int, int], Decimal] = {}
    for player_id, lost_games, series_number, table_number in results.values_list(
        "player_id", "lost", "series__number", "table__number"
    ).order_by("series__number", "table__number", "position"):
        fee = lost_game_fee(lost_games, purse)
        fees[player_id] = fees.get(player_id, Decimal("0.00")) + fee
        lost[player_id] = lost.get(player_id, 0) + lost_games
        key = (series_number, table_number)
        tables[key] = tables.get(key, Decimal("0.00")) + fee
    evening = series is None
    rows = results.standings(lots_of=tournament if evening else None)
    # Entry fees are the registered players'; a substitute who only finished someone's
    # list pays none (docs/rules.md section 10.7).
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    fee = Decimal(purse.entry_fee).quantize(CENT) if evening else Decimal("0.00")
    entries = fee * len(registered)
    fees_marked = dict(
        Arrival.objects.filter(registration__tournament=tournament).values_list(
            "registration__player_id", "fee"
        )
    )
    paid = sum(1 for marked in fees_marked.values() if marked in Arrival.PAID)
    lost_total = sum(fees.values(), Decimal("0.00"))
    pot = entries + lost_total
    prizes = tuple(_prize(text, pot) for text in purse.prizes) if evening else ()
    # A substitute who paid no entry fee takes no prize where the evening says so: the
    # places go to the registered players below him.
    rows = list(rows)
    eligible = [
        row for row in rows if row.player_id in registered or not purse.substitutes_without_prize
    ]
    won = dict(
        zip(
            (row.player_id for row in eligible),
            _award(prizes, [row.rank for row in eligible]),
            strict=True,
        )
    )
    players = tuple(
        PlayerMoney(
            rank=row.rank,
            player_id=row.player_id,
            player=row.player,
            entry=fee if row.player_id in registered else Decimal("0.00"),
            lost=lost.get(row.player_id, 0),
            lost_fees=fees.get(row.player_id, Decimal("0.00")),
            prize=won.get(row.player_id, Decimal("0.00")),
            fee=fees_marked.get(row.player_id, ""),
            pays_entry=row.player_id in registered,
        )
        for row in rows
    )
    return Settlement(
        tables=tuple(TableFees(s, t, f) for (s, t), f in sorted(tables.items())),
        players=players,
        entries=entries,
        lost_fees=lost_total,
        prizes=prizes,
        entries_paid=fee * paid,
    )


def player_money(tournament: Tournament, player_id: int) -> PlayerMoney | None:
    """One registered player's line of the evening's settlement; before his first result,
    his entry fee and how the desk marked it. None where he is not in the settlement and
    not registered."""
    line = next((p for p in settle(tournament).players if p.player_id == player_id), None)
    if line is not None:
        return line
    registration = tournament.registrations.filter(player_id=player_id).first()
    if registration is None:
        return None
    marked = Arrival.objects.filter(registration=registration).values_list("fee", flat=True)
    return PlayerMoney(
        rank=0,
        player_id=player_id,
        player=str(registration.player),
        entry=Decimal(purse_of(tournament).entry_fee).quantize(CENT),
        lost=0,
        lost_fees=Decimal("0.00"),
        prize=Decimal("0.00"),
        fee=marked.first() or "",
    )


def _prize(text: str, pot: Decimal) -> Decimal:
    kind, value = parse_prize(text)
    if kind == "share":
        return (pot * value).quantize(EURO, ROUND_DOWN).quantize(CENT)
    return value


def _award(prizes: tuple[Decimal, ...], ranks: list[int]) -> list[Decimal]:
    """Each ranked player's prize: players sharing a rank share the places they take."""
    awarded = [Decimal("0.00")] * len(ranks)
    start = 0
    while start < len(ranks):
        end = start
        while end < len(ranks) and ranks[end] == ranks[start]:
            end += 1
        places = prizes[start:end]
        if places:
            share = (sum(places, Decimal("0.00")) / (end - start)).quantize(CENT, ROUND_DOWN)
            for index in range(start, end):
                awarded[index] = share
        start = end
    return awarded


@transaction.atomic
def save_purse(
    tournament: Tournament,
    *,
    entry_fee: Decimal,
    lost_fee: Decimal,
    lost_fee_threshold: int,
    lost_fee_later: Decimal,
    prizes: list[str],
    substitutes_without_prize: bool = True,
    currency: str = "EUR",
) -> Purse:
    """Set the evening's money rules and currency (an ISO code of ``CURRENCIES``); every
    prize is checked (``prize_invalid``)."""
    for prize in prizes:
        parse_prize(prize)
    if min(entry_fee, lost_fee, lost_fee_later) < 0:
        raise ServiceError("amount_negative")
    tournament = lock_tournament(pk=tournament.pk)
    purse = Purse.objects.select_for_update().filter(tournament=tournament).first()
    purse = purse or Purse(tournament=tournament)
    purse.entry_fee, purse.lost_fee, purse.lost_fee_later = entry_fee, lost_fee, lost_fee_later
    purse.lost_fee_threshold, purse.prizes = lost_fee_threshold, [p.strip() for p in prizes]
    purse.substitutes_without_prize = substitutes_without_prize
    purse.currency = currency
    purse.save()
    revisions.touch(tournament)
    return purse

"""The settlement as a printed list: each player's money, then each table's lost-game fees
and the totals. A pure function of the settlement (no database access)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from skatliga import pdf
from skatliga.services.money import Settlement, euros


@dataclass(frozen=True, slots=True)
class MoneyLine:
    rank: str
    label: str
    entry: str = ""
    fee: str = ""
    lost: str = ""
    fees: str = ""
    prize: str = ""
    balance: str = ""


def lines(settlement: Settlement, sign: str = "€") -> list[MoneyLine]:
    """The players' rows, the tables' fees, then the totals with the currency's ``sign``."""
    rows = [
        MoneyLine(
            f"{p.rank}.",
            p.player,
            euros(p.entry) if p.pays_entry else "—",
            p.fee_text,
            str(p.lost),
            euros(p.lost_fees),
            euros(p.prize),
            euros(p.balance),
        )
        for p in settlement.players
    ]
    rows += [
        MoneyLine(
            "",
            _("Serie %(series)d, Tisch %(table)d: Verlustspiele")
            % {"series": t.series, "table": t.table},
            fees=euros(t.fees),
        )
        for t in settlement.tables
    ]

    def total(amount: Decimal) -> str:
        return f"{euros(amount)}\N{NO-BREAK SPACE}{sign}"

    rows += [
        MoneyLine("", _("Startgelder"), entry=total(settlement.entries)),
        MoneyLine("", _("davon bezahlt"), entry=total(settlement.entries_paid)),
        MoneyLine("", _("davon offen"), entry=total(settlement.entries_open)),
        MoneyLine("", _("Verlustspielgelder"), fees=total(settlement.lost_fees)),
        MoneyLine("", _("Topf"), balance=total(settlement.pot)),
        MoneyLine("", _("Preise"), prize=total(settlement.paid_out)),
        MoneyLine("", _("Rest"), balance=total(settlement.rest)),
        MoneyLine("", _("jetzt einzunehmen"), balance=total(settlement.to_collect)),
        MoneyLine("", _("jetzt auszuzahlen"), balance=total(settlement.to_pay_out)),
    ]
    return rows


def settlement_pdf(title: str, subtitle: str, settlement: Settlement, sign: str = "€") -> bytes:
    def text(name: str) -> Callable[[MoneyLine], str]:
        return lambda row: str(getattr(row, name))

    columns = [
        pdf.Column(pgettext("rank", "Platz"), text("rank"), 0.06),
        pdf.Column(_("Spieler"), text("label"), 0.26, "LEFT", bold=True),
        pdf.Column(_("Startgeld"), text("entry"), 0.1),
        pdf.Column(_("bezahlt"), text("fee"), 0.08),
        pdf.Column(_("verl."), text("lost"), 0.07),
        pdf.Column(_("Verlustspiele"), text("fees"), 0.12),
        pdf.Column(_("Preis"), text("prize"), 0.1),
        pdf.Column(_("Saldo"), text("balance"), 0.21, bold=True),
    ]
    return pdf.result_list_pdf(title, subtitle, columns, lines(settlement, sign))

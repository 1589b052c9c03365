"""The match report ("Spielbericht") as a PDF: per series each team's line-up, substitutions,
game and match points, then the totals, the lost-game fees per table and the captains'
answers. It prints the rows the report's pages show (``league.report_rows.ReportView``,
taken as any object with those attributes): no database access here."""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, LongTable, Paragraph, Spacer, TableStyle

from skatliga.pdf.base import BOLD, FONT, build, date_text, frame_width, mm, register_fonts

SIZE = 8
_TITLE = ParagraphStyle("report-title", fontName=BOLD, fontSize=13, leading=16)
_TEXT = ParagraphStyle("report-text", fontName=FONT, fontSize=SIZE, leading=SIZE + 2)
_STAMP = ParagraphStyle(
    "report-stamp", fontName=BOLD, fontSize=10, leading=13, textColor=colors.Color(0.6, 0.1, 0.1)
)
_SECTION = ParagraphStyle(
    "report-section", fontName=BOLD, fontSize=10, leading=13, spaceBefore=5 * mm, spaceAfter=2 * mm
)
_STYLE = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), FONT, SIZE),
        ("FONT", (0, 0), (-1, 0), BOLD, SIZE),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.88, 0.88, 0.88)),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.Color(0.6, 0.6, 0.6)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
    ]
)


def _table(rows: list[list[Any]], shares: list[float]) -> LongTable:
    full = frame_width()
    table = LongTable(rows, colWidths=[full * s for s in shares], repeatRows=1)
    table.setStyle(_STYLE)
    return table


def _money(amount: str) -> str:
    """An amount as the active language writes it (0,50 in German)."""
    return number_format(Decimal(amount), 2)


def _cell(text: str) -> Paragraph:
    return Paragraph(escape(text), _TEXT)


def report_pdf(view: Any) -> bytes:
    """The report's PDF from its rows (``ReportView``)."""
    register_fonts()
    flow: list[Flowable] = [Paragraph(escape(_("Spielbericht")), _TITLE)]
    flow.append(Paragraph(escape(view.title), _TEXT))
    where = " · ".join(t for t in (date_text(view.date), view.venue) if t)
    flow.append(Paragraph(escape(where), _TEXT))
    if view.provisional:
        flow.append(Spacer(1, 2 * mm))
        flow.append(Paragraph(escape(_("vorläufig")) + " · " + escape(view.state_text), _STAMP))
    else:
        flow.append(Paragraph(escape(view.state_text), _TEXT))
    heading = [_("Mannschaft"), _("Spieler"), _("Spielpunkte"), _("Matchpunkte")]
    for series in view.series:
        flow.append(Paragraph(escape(_("Serie %(n)s") % {"n": series["number"]}), _SECTION))
        rows: list[list[Any]] = [heading]
        for team in series["teams"]:
            players = team["players_text"]
            if team["changes_text"]:
                players += " · " + _("Wechsel") + ": " + team["changes_text"]
            rows.append(
                [
                    _cell(team["name"]),
                    _cell(players),
                    team["points_text"],
                    f"{team['won_text']}:{team['lost_text']}",
                ]
            )
        flow.append(_table(rows, [0.25, 0.5, 0.12, 0.13]))
    flow.append(Paragraph(escape(_("Gesamt")), _SECTION))
    rows = [[_("Mannschaft"), "", _("Spielpunkte"), _("Matchpunkte")]]
    for team in view.totals:
        rows.append(
            [
                _cell(team["name"]),
                "",
                team["points_text"],
                f"{team['won_text']}:{team['lost_text']}",
            ]
        )
    flow.append(_table(rows, [0.25, 0.5, 0.12, 0.13]))
    flow.append(Paragraph(escape(_("Verlustspielgeld")), _SECTION))
    rows = [[_("Serie"), _("Tisch"), _("verlorene Spiele"), _("Betrag")]]
    for table in view.tables:
        rows.append(
            [str(table["series"]), str(table["table"]), str(table["lost"]), _money(table["fee"])]
        )
    rows.append([_("Summe"), "", "", _money(view.fees)])
    flow.append(_table(rows, [0.25, 0.25, 0.25, 0.25]))
    flow.append(
        Paragraph(
            escape(
                _("%(fee)s je verlorenes Spiel; erhält: %(to)s")
                % {"fee": _money(view.fee), "to": view.fees_to}
            ),
            _TEXT,
        )
    )
    if view.answers:
        flow.append(Paragraph(escape(_("Mannschaftsführer")), _SECTION))
        for answer in view.answers:
            text = (
                answer["team"]
                + ": "
                + (
                    _("bestätigt")
                    if answer["confirmed"]
                    else _("Einspruch") + " – " + answer["reason"]
                )
            )
            if answer["decision"]:
                text += " · " + _("Entscheidung") + ": " + answer["decision"]
            flow.append(_cell(text))
    return build(flow, title=_("Spielbericht"), footer=view.title)

"""The score sheet's substitute lines and signature boxes, read back as laid out
(pdftotext's word boxes): nothing cut, nothing running into its neighbour."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from skatliga import pdf
from skatliga.pdf.base import MARGIN
from skatliga.pdf.sheet_parts import value_index
from skatliga.pdf.sheets import _column_widths
from tests.web.test_pdf import flat, long_sheet, read

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="needs pdftotext from poppler"
)

Word = tuple[float, float, float, float, str]


def words(data: bytes) -> list[Word]:
    """Every word of the first page: left, right, top, bottom, text."""
    found = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=data, capture_output=True, check=True
    ).stdout
    root = ET.fromstring(found.decode().replace('xmlns="http://www.w3.org/1999/xhtml"', ""))
    page = next(root.iter("page"))
    return [
        (
            float(w.get("xMin", 0)),
            float(w.get("xMax", 0)),
            float(w.get("yMin", 0)),
            float(w.get("yMax", 0)),
            w.text or "",
        )
        for w in page.iter("word")
    ]


def substitute_sheet() -> pdf.SheetData:
    """12 games at a 4-table; seat 4's long-named player hands over to Dieter Schwarz after
    game 8, and every seat signed on a device with a long name."""
    sheet = long_sheet(12, 4)
    players = list(sheet.players)
    leaver = "Friederike-Charlotte von Hohenstein-Bergmann"
    players[3] = pdf.SheetPlayer(leaver, "SC Altenburg", "Dieter Schwarz", 9)
    device = "Samsung Galaxy A52 am Tisch 3"
    signed = tuple(f"✓ 21:4{seat} · {device}\nam Tischgerät" for seat in range(3)) + (
        f"Dieter Schwarz: ✓ 21:47 · {device}\nam Tischgerät\n"
        f"{leaver}: ✓ 20:15 · {device}\nam Tischgerät",
    )
    return replace(
        sheet,
        players=tuple(players),
        shares=(
            pdf.SheetShare(4, leaver, 1, 8, pdf.SheetSummary(96, 2, 0, 3, 190, 286)),
            pdf.SheetShare(4, "Dieter Schwarz", 9, 12, pdf.SheetSummary(36, 1, 0, 1, 80, 116)),
        ),
        signed=signed,
    )


def test_the_substitute_line_prints_whole_with_his_total():
    (text,) = read(pdf.score_sheets_pdf([substitute_sheet()]))

    assert "Dieter Schwarz Spiele 9–12: 36 Spielpunkte, Gesamt 116" in flat(text)
    assert "Friederike-Charlotte von Hohenstein-Bergmann Spiele 1–8" in flat(text)
    notes = flat(text).split("Ersatzspieler:")[1]
    assert "…" not in notes


def test_signatures_stay_inside_their_boxes():
    sheet = substitute_sheet()
    laid_out = words(pdf.score_sheets_pdf([sheet]))
    widths = _column_widths(4, False)
    first = value_index(False) + 1
    edges = [MARGIN + sum(widths[: first + 2 * seat]) for seat in range(5)]
    (label,) = [w for w in laid_out if w[4] == "Unterschriften"]
    (legend,) = [w for w in laid_out if w[4] == "Geber;"]
    signature = [
        w for w in laid_out if label[2] - 1 <= w[2] < legend[2] and w[4] != "Unterschriften"
    ]

    assert {"Dieter", "Schwarz:", "21:47", "Tischgerät"} <= {w[4] for w in signature}
    for left, right, top, bottom, text in signature:
        seat = [s for s in range(4) if edges[s] - 0.5 <= left and right <= edges[s + 1] + 0.5]
        assert seat, (text, left, right)
        # Nothing reaches over the label, left of the first box.
        assert not (left < label[1] and top < label[3] and bottom > label[2]), text


def test_a_double_name_in_the_heading_breaks_at_its_hyphen():
    """Seat 4's "Friederike-Charlotte von Hohenstein-Bergmann" is too wide for its column:
    the heading breaks after "Friederike-", never inside "Charlotte"."""
    laid_out = {w[4] for w in words(pdf.score_sheets_pdf([substitute_sheet()]))}

    assert "Friederike-" in laid_out
    assert not {"Friederike-Charl", "otte"} & laid_out

"""Printable output: score sheets and result lists as PDF bytes (reportlab platypus).

Pure functions of plain row objects: nothing here reads the database. The rows come from
``skatliga.printing`` (score sheets) and from the standings (result lists).
"""

from skatliga.pdf.base import register_fonts
from skatliga.pdf.lists import Column, columns_of, result_list_pdf, standings_pdf
from skatliga.pdf.rows import (
    LEVELS,
    SheetData,
    SheetPlayer,
    SheetRow,
    SheetShare,
    SheetSummary,
)
from skatliga.pdf.sheets import score_sheets_pdf

__all__ = [
    "LEVELS",
    "Column",
    "columns_of",
    "SheetData",
    "SheetPlayer",
    "SheetRow",
    "SheetShare",
    "SheetSummary",
    "register_fonts",
    "result_list_pdf",
    "score_sheets_pdf",
    "standings_pdf",
]

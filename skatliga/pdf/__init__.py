"""Printable output: score sheets and result lists as PDF bytes (reportlab platypus).

Pure functions of plain row objects: nothing here reads the database. The rows come from
``skatliga.printing`` (score sheets) and from the standings (result lists).
"""

from skatliga.pdf.base import register_fonts
from skatliga.pdf.lists import (
    Column,
    PlayerLine,
    TeamLine,
    player_columns,
    result_list_pdf,
    standings_pdf,
    team_columns,
    team_standings_pdf,
)
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
    "PlayerLine",
    "SheetData",
    "SheetPlayer",
    "SheetRow",
    "SheetShare",
    "SheetSummary",
    "TeamLine",
    "player_columns",
    "register_fonts",
    "result_list_pdf",
    "score_sheets_pdf",
    "standings_pdf",
    "team_columns",
    "team_standings_pdf",
]

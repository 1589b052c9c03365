"""Public pages, no login: standings at every level, players' and teams' pages, the hall
display, the read-only lists and the printable PDFs; one module per family of pages, what
they share in ``common``."""

from skatliga.views.public.hall import hall
from skatliga.views.public.league import division, division_embed, league
from skatliga.views.public.lists import seats, seats_pdf, series_sheets_pdf, table
from skatliga.views.public.players import player, team
from skatliga.views.public.ratings import ratings
from skatliga.views.public.seasons import season, season_results_pdf, season_teams_pdf
from skatliga.views.public.tournaments import (
    series,
    series_results_pdf,
    tournament,
    tournament_results_pdf,
    tournament_teams_pdf,
    tournaments,
)

__all__ = [
    "division",
    "division_embed",
    "league",
    "hall",
    "player",
    "ratings",
    "season",
    "season_results_pdf",
    "season_teams_pdf",
    "seats",
    "seats_pdf",
    "series",
    "series_results_pdf",
    "series_sheets_pdf",
    "table",
    "team",
    "tournament",
    "tournament_results_pdf",
    "tournament_teams_pdf",
    "tournaments",
]

"""Use cases: one function each, in a transaction, locking what it writes.

Every value, verdict and point comes from the engine (``scoring``); the services store them,
keep each list's result rows (``ListResult``) up to date and record every change. Errors are
raised as :class:`ServiceError` with a stable code that the UI translates.

- ``games``: the rows of a list, closing and reopening lists, the result rows;
- ``tournaments``: settings, referees, teams;
- ``seating``: players, the draw, swapping seats;
- ``publishing``: publishing a series' results and withdrawing the publication.
"""

from skatliga.services.common import Conflict, ServiceError, User, acting_user
from skatliga.services.games import (
    GameEntry,
    close_table,
    delete_last_game,
    list_results,
    list_rows,
    new_game,
    recompute_results,
    record_game,
    reopen_table,
    score_entry,
    summarize,
)
from skatliga.services.publishing import (
    publish_complete_series,
    publish_series,
    withdraw_publication,
)
from skatliga.services.seating import (
    delete_player,
    draw_tables,
    parse_roster,
    register_players,
    remove_registration,
    roster_problems,
    seat_in_order,
    swap_seats,
    table_sizes,
    withdraw_player,
)
from skatliga.services.tournaments import (
    RESCORING,
    SETTINGS,
    Blocking,
    add_referee,
    assign_teams,
    create_team,
    create_tournament,
    remove_referee,
    update_tournament,
)

__all__ = [
    "RESCORING",
    "SETTINGS",
    "Blocking",
    "Conflict",
    "GameEntry",
    "ServiceError",
    "User",
    "acting_user",
    "add_referee",
    "assign_teams",
    "close_table",
    "create_team",
    "create_tournament",
    "delete_last_game",
    "delete_player",
    "draw_tables",
    "list_results",
    "list_rows",
    "new_game",
    "parse_roster",
    "publish_complete_series",
    "publish_series",
    "recompute_results",
    "record_game",
    "register_players",
    "remove_referee",
    "remove_registration",
    "roster_problems",
    "reopen_table",
    "score_entry",
    "seat_in_order",
    "summarize",
    "swap_seats",
    "table_sizes",
    "update_tournament",
    "withdraw_player",
    "withdraw_publication",
]

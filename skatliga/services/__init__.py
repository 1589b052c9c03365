"""Use cases: one function each, in a transaction, locking what it writes.

Every value, verdict and point comes from the engine (``scoring``); the services store them,
keep each list's result rows (``ListResult``) up to date and record every change. Errors are
raised as :class:`ServiceError` with a stable code that the UI translates.

Locks are taken in one order, so that two services can wait for each other but never
deadlock: the tournament's row first (``common.lock_tournament``; several tournaments in the
order of their ids), then its series, tables, registrations and the rows below them, and the
season's row last (``revisions.touch``).

- ``games``: the rows of a list, reopening lists;
- ``results``: the result rows of a list, written at every change to it;
- ``confirmation``: signatures, double entry and closing lists;
- ``tournaments``: settings, referees, teams;
- ``seating``: players, the draw, swapping seats;
- ``forbidden``: pairs of players the draw keeps apart;
- ``publishing``: publishing a series' results and withdrawing the publication;
- ``substitutes``: a player who leaves during a list, and his substitute;
- ``calls``: a table's call for the referee, and objections against a game;
- ``rating``: the Skat rating, rated again from a list, a tournament or a player on.
"""

from skatliga.services.calls import (
    acknowledge_call,
    call_referee,
    decide_objection,
    file_objection,
)
from skatliga.services.common import Conflict, ServiceError, User, acting_user
from skatliga.services.confirmation import (
    Difference,
    close_table,
    differences,
    list_state,
    pick_entry,
    record_second_entry,
    sign_list,
)
from skatliga.services.forbidden import (
    allow_pair,
    forbid_pair,
    forbidden_pairs,
    pairs_kept_apart,
    series_forbidden_pairs,
)
from skatliga.services.games import (
    GameEntry,
    delete_last_game,
    dispute_entry,
    game_values,
    list_games,
    list_rows,
    list_seats,
    new_game,
    recompute_results,
    record_game,
    reopen_table,
    score_entry,
    settle_dispute,
)
from skatliga.services.publishing import (
    publish_complete_series,
    publish_series,
    withdraw_publication,
)
from skatliga.services.rating import (
    Replay,
    rate_everything,
    rate_list,
    rate_owed,
    rate_player_lists,
    rate_tournament,
)
from skatliga.services.results import (
    ResultLine,
    Sitting,
    list_row,
    result_lines,
    result_rows,
    summarize,
    table_results,
)
from skatliga.services.seating import (
    delete_player,
    draw_tables,
    find_or_create_player,
    met_pairs,
    parse_roster,
    register_players,
    remove_registration,
    roster_problems,
    series_repeat_pairs,
    swap_seats,
    table_sizes,
    withdraw_player,
)
from skatliga.services.seeding import seat_in_order
from skatliga.services.substitutes import appoint_substitute, remove_substitute
from skatliga.services.tournaments import (
    RESCORING,
    SETTINGS,
    Blocking,
    add_referee,
    assign_teams,
    create_team,
    create_tournament,
    playing_other_rules,
    remove_referee,
    rescore_season,
    update_tournament,
)

__all__ = [
    "RESCORING",
    "Replay",
    "SETTINGS",
    "Blocking",
    "Conflict",
    "Difference",
    "GameEntry",
    "ResultLine",
    "ServiceError",
    "Sitting",
    "User",
    "acknowledge_call",
    "acting_user",
    "add_referee",
    "allow_pair",
    "appoint_substitute",
    "assign_teams",
    "call_referee",
    "close_table",
    "create_team",
    "create_tournament",
    "decide_objection",
    "delete_last_game",
    "dispute_entry",
    "delete_player",
    "differences",
    "file_objection",
    "draw_tables",
    "find_or_create_player",
    "forbid_pair",
    "forbidden_pairs",
    "game_values",
    "list_row",
    "list_state",
    "list_games",
    "list_rows",
    "list_seats",
    "met_pairs",
    "new_game",
    "pairs_kept_apart",
    "parse_roster",
    "pick_entry",
    "publish_complete_series",
    "publish_series",
    "rate_everything",
    "rate_list",
    "rate_owed",
    "rate_player_lists",
    "rate_tournament",
    "recompute_results",
    "record_game",
    "record_second_entry",
    "register_players",
    "remove_referee",
    "remove_registration",
    "remove_substitute",
    "roster_problems",
    "reopen_table",
    "result_lines",
    "result_rows",
    "score_entry",
    "settle_dispute",
    "seat_in_order",
    "series_forbidden_pairs",
    "series_repeat_pairs",
    "sign_list",
    "summarize",
    "swap_seats",
    "table_results",
    "table_sizes",
    "playing_other_rules",
    "rescore_season",
    "update_tournament",
    "withdraw_player",
    "withdraw_publication",
]

"""The data: clubs, players, seasons, teams, tournaments, their series, tables and games.

Values, verdicts and points are computed by the engine (``scoring``) in ``services`` and
stored with each game; ``ListResult`` holds one row per player per list, written whenever a
list changes, so that standings are grouped queries over it. Named constraints mirror the
engine's rules as a backstop.
"""

from skatliga.models.calls import Objection, RefereeCall
from skatliga.models.changes import Change
from skatliga.models.checkin import Arrival, CheckInLink, ForbiddenPair
from skatliga.models.choices import (
    NULL_GAMES,
    TRUMP_GAMES,
    Category,
    GameType,
    ListSystem,
    RuleSetName,
)
from skatliga.models.compiled import compiled_objects, compiled_rows
from skatliga.models.confirmation import SecondEntry, Signature
from skatliga.models.jobs import Job, TaskWorker
from skatliga.models.league import Club, Player, Season, Team, match_points_rule, public_name
from skatliga.models.limits import Hits
from skatliga.models.money import Purse
from skatliga.models.notices import Notice
from skatliga.models.personal import PersonalLink
from skatliga.models.results import (
    RESULT_FIGURES,
    HistoryRow,
    ListResult,
    ListResultQuerySet,
    StandingRow,
    Standings,
)
from skatliga.models.tournaments import (
    Game,
    GameRow,
    Registration,
    Seat,
    Series,
    SeriesQuerySet,
    Table,
    TableLink,
    Tournament,
)

__all__ = [
    "Arrival",
    "Category",
    "Change",
    "CheckInLink",
    "Club",
    "ForbiddenPair",
    "Game",
    "GameRow",
    "GameType",
    "HistoryRow",
    "Hits",
    "Job",
    "ListResult",
    "ListResultQuerySet",
    "ListSystem",
    "NULL_GAMES",
    "Notice",
    "Objection",
    "PersonalLink",
    "Player",
    "Purse",
    "RESULT_FIGURES",
    "RefereeCall",
    "Registration",
    "RuleSetName",
    "Season",
    "SecondEntry",
    "Seat",
    "Series",
    "SeriesQuerySet",
    "Signature",
    "StandingRow",
    "Standings",
    "TRUMP_GAMES",
    "TaskWorker",
    "public_name",
    "Table",
    "TableLink",
    "Team",
    "Tournament",
    "compiled_objects",
    "compiled_rows",
    "match_points_rule",
]

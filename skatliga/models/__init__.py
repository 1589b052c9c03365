"""The data: clubs, players, seasons, teams, tournaments, their series, tables and games.

Values, verdicts and points are computed by the engine (``scoring``) in ``services`` and
stored with each game; ``ListResult`` holds one row per player per list, written whenever a
list changes, so that standings are grouped queries over it. Named constraints mirror the
engine's rules as a backstop.
"""

from skatliga.models.calls import Objection, RefereeCall
from skatliga.models.changes import Change
from skatliga.models.checkin import Arrival, CheckInClaim, CheckInLink, ForbiddenPair
from skatliga.models.choices import (
    NULL_GAMES,
    TRUMP_GAMES,
    Category,
    GameType,
    ListSystem,
    RuleSetName,
)
from skatliga.models.clubs import Club, Player, Transfer, club_on, public_name
from skatliga.models.confirmation import SecondEntry, Signature
from skatliga.models.jobs import Job, TaskWorker
from skatliga.models.league import (
    Division,
    League,
    Level,
    RosterEntry,
    Season,
    Team,
    match_points_rule,
)
from skatliga.models.limits import Hits
from skatliga.models.matchdays import (
    GroupTeam,
    LineUp,
    LineUpPlayer,
    MatchDay,
    MatchGroup,
    TeamLink,
)
from skatliga.models.money import Purse
from skatliga.models.notices import Notice
from skatliga.models.personal import PersonalLink
from skatliga.models.rating import (
    PlayerRating,
    RatingBook,
    RatingChange,
    TournamentChange,
)
from skatliga.models.reports import (
    Fine,
    FineCode,
    FineKind,
    LeagueRules,
    MatchReport,
    Payment,
    ReportAnswer,
    Withdrawal,
)
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
    "FineCode",
    "Fine",
    "FineKind",
    "LeagueRules",
    "MatchReport",
    "Payment",
    "ReportAnswer",
    "Withdrawal",
    "TeamLink",
    "MatchGroup",
    "MatchDay",
    "LineUpPlayer",
    "LineUp",
    "GroupTeam",
    "club_on",
    "Transfer",
    "RosterEntry",
    "Level",
    "League",
    "Division",
    "Arrival",
    "Category",
    "Change",
    "CheckInClaim",
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
    "PlayerRating",
    "Purse",
    "RESULT_FIGURES",
    "RatingBook",
    "RatingChange",
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
    "TournamentChange",
    "match_points_rule",
]

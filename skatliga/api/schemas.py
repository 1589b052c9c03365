"""What the API answers: one schema per object, documented in the OpenAPI description."""

from __future__ import annotations

import datetime
import types
from typing import Any

from ninja import Field, Schema
from pydantic import create_model

from skatliga.standings.metrics import METRICS
from skatliga.standings.rankings import API_LIST, API_PLAYERS, API_RATINGS, API_TEAMS, Ranking


def row_schema(name: str, ranking: Ranking, doc: str, base: type[Schema] = Schema) -> type[Schema]:
    """A schema of ``base``'s fields and a field for each metric of ``ranking``
    (``standings.metrics``), in its order: the metric's key, its API type, default and
    description. Made with pydantic's ``create_model``; the API answers such rows with
    ``Ranking.api``."""
    fields: dict[str, Any] = {
        found.key: (found.api_type, Field(found.api_default, description=found.description))
        for found in ranking.metrics
    }
    return create_model(name, __base__=base, __doc__=doc, **fields)


def many(item: type[Schema]) -> Any:
    """``list[item]`` for a schema made at run time (:func:`row_schema`), which a type
    checker cannot read as a type."""
    return types.GenericAlias(list, (item,))


class SeasonOut(Schema):
    slug: str
    name: str
    year: int
    match_points: str = Field(description="The team match-point scheme (see TeamRowOut).")
    changed_at: datetime.datetime | None = Field(
        None, description="The last change to anything its pages show (`changed_since`)."
    )


class TournamentOut(Schema):
    slug: str
    name: str
    date: datetime.date
    starts_at: datetime.time | None = Field(None, description="When play begins, if known.")
    venue: str
    address: str = Field("", description="The venue's postal address, if known.")
    season: str | None = Field(description="The season's slug, or null.")
    match_day: int | None
    rules: str | dict[str, Any] = Field(
        description="As in the archive: a preset's name, or the preset with the house options."
    )
    rules_text: str = Field(description="The rule set in words, in the language asked for.")
    list_system: str = Field(description="seeger-fabian, classic or zero-sum.")
    rounds_per_series: int
    status: str = Field(description="planned, running or finished.")
    series: list[int] = Field(description="Numbers of the published series.")
    changed_at: datetime.datetime | None = Field(
        None, description="The last change to anything its pages show (`changed_since`)."
    )


class TableSummaryOut(Schema):
    number: int
    size: int
    closed: bool


class SeriesOut(Schema):
    tournament: str
    number: int
    published_at: datetime.datetime
    tables: list[TableSummaryOut]


class PlayerOut(Schema):
    id: int
    name: str
    club: str


class SeatOut(Schema):
    position: int
    player: PlayerOut
    substitute: PlayerOut | None = Field(
        None, description="Who took the seat over during the list (SkWO 4.4), if anyone."
    )
    substitute_from: int | None = Field(None, description="The substitute's first game.")


class RamschOut(Schema):
    card_points: list[int]
    tricks: list[int]


class ComputedOut(Schema):
    value: int | None = Field(
        None, description="The game value the engine computed (declared games)."
    )
    won: bool | None = Field(None, description="The engine's verdict: won (declared games).")
    overbid: bool | None = Field(None, description="Overbid (declared games).")
    list_score: int | None = Field(None, description="The declarer's entry on the classic list.")
    charge: int | None = Field(None, description="What a Ramsch charges the player(s) charged.")
    points: list[int] = Field(description="What the row gives each seat, as on the list.")
    running: list[int] = Field(description="Each seat's running total after this row.")


class GameOut(Schema):
    """A row of a list: the archive's game object plus ``number`` and ``computed``."""

    number: int
    passed: bool | None = None
    declarer: int | None = Field(None, description="The declarer's player id.")
    game: str | None = None
    bid: int | None = None
    matadors: int | None = None
    hand: bool | None = None
    schneider_announced: bool | None = None
    schwarz_announced: bool | None = None
    ouvert: bool | None = None
    kontra: bool | None = None
    re: bool | None = None
    supra: bool | None = None
    resupra: bool | None = None
    card_points: int | None = None
    tricks: int | None = None
    won: bool | None = None
    schneider: bool | None = None
    schwarz: bool | None = None
    ramsch: RamschOut | None = None
    computed: ComputedOut


class ListResultOut(Schema):
    """One player's summary rows of a list (docs/rules.md section 5): a seat's, or where a
    substitute took the seat over, each one's share of it (``first_game`` to ``last_game``)."""

    position: int
    player: PlayerOut
    first_game: int | None = None
    last_game: int | None = None
    game_points: int = Field(description=METRICS["game_points"].description)
    won: int = Field(description=METRICS["won"].description)
    lost: int = Field(description=METRICS["lost"].description)
    others_lost: int = Field(description=METRICS["others_lost"].description)
    won_lost_bonus: int = Field(description="The bonus for W and L: 50 × (W − L).")
    others_lost_bonus: int = Field(description="The bonus for O: (40 or 30) × O.")
    bonus: int = Field(description=METRICS["bonus"].description)
    total: int = Field(description=METRICS["total"].description)


class TableOut(Schema):
    tournament: str
    series: int
    number: int
    size: int
    closed: bool
    seats: list[SeatOut]
    games: list[GameOut]
    results: list[ListResultOut]


StandingRowOut = row_schema(
    "StandingRowOut",
    API_PLAYERS,
    "A player's line in a standing: the same row and rank as the page.",
)
TeamRowOut = row_schema(
    "TeamRowOut",
    API_TEAMS,
    "A team's line: match points for and against (halves as .5), then Spielpunkte.",
)


class ParameterErrorOut(Schema):
    field: str = Field(description="The parameter, e.g. `page` or `date`.")
    code: str = Field(description="A stable code, e.g. `int_parsing`, `greater_than_equal`.")
    message: str = Field(description="The message, in the language asked for.")


class ErrorOut(Schema):
    detail: str = Field(description="What went wrong, in the language asked for.")
    errors: list[ParameterErrorOut] | None = Field(
        None, description="With 422: each bad parameter."
    )


class PlayerListPlace(Schema):
    tournament: str
    date: datetime.date
    season: str | None = Field(description="The season's slug, or null.")
    series: int
    table: int
    position: int = Field(description="His seat at the table (1 = first dealer).")
    team: int | None = Field(description="The team id he played for, or null.")
    games: list[GameOut] | None = Field(
        None, description="With `games=true`: the list's games, as in TableOut."
    )


PlayerListOut = row_schema(
    "PlayerListOut",
    API_LIST,
    "One list a player played in a published series, with his figures on it.",
    PlayerListPlace,
)


class RatingMark(Schema):
    provisional: bool = Field(
        description="True until the player has played ten lists (docs/rating.md)."
    )


RatingRowOut = row_schema(
    "RatingRowOut",
    API_RATINGS,
    "A player's line in the public rating list: the same rank as the page.",
    RatingMark,
)


class RatingTournamentOut(Schema):
    tournament: str = Field(description="The tournament's slug.")
    name: str
    date: datetime.date
    lists: int = Field(description="His rated lists in it.")
    rating_before: float
    rating_after: float
    change: float


class PlayerRatingOut(RatingMark):
    player: PlayerOut
    rating: float = Field(description="His rating (docs/rating.md), to one decimal.")
    lists: int = Field(description="The lists it rests on.")
    tournaments: list[RatingTournamentOut] = Field(
        description="What each tournament did to his rating, in the order played."
    )


class ClubOut(Schema):
    id: int
    name: str


class TeamSummaryOut(Schema):
    id: int
    name: str
    club: str
    season: str = Field(description="The season's slug.")


class RosterEntryOut(Schema):
    player: PlayerOut
    position: int | None = Field(description="Its place among the regulars (1 first), or null.")
    substitute: bool


class TeamOut(TeamSummaryOut):
    players: list[PlayerOut] = Field(description="The roster.")
    division: int | None = Field(None, description="The league division's id, or null.")
    captain: PlayerOut | None = Field(None, description="The captain, or null.")
    roster: list[RosterEntryOut] = Field(
        [], description="The roster in order: regulars by position, then substitutes."
    )


class ClubDetailOut(ClubOut):
    players: list[PlayerOut] = Field(description="Its players with a published result.")
    teams: list[TeamSummaryOut]


LiveStandingOut = create_model(
    "LiveStandingOut",
    __base__=Schema,
    provisional=(
        bool,
        Field(
            description="True while a list is open or a series is not published: the "
            "standing may still change."
        ),
    ),
    items=(many(StandingRowOut), ...),
)
StandingRowsOut, TeamRowsOut, PlayerListsOut, RatingRowsOut = map(
    many, (StandingRowOut, TeamRowOut, PlayerListOut, RatingRowOut)
)

"""What the API answers: one schema per object, documented in the OpenAPI description."""

from __future__ import annotations

import datetime
from typing import Any

from ninja import Field, Schema

from skatliga.models import RESULT_FIGURES

FIGURES = {
    "game_points": "Game points: the sum of the list scores (docs/rules.md section 5).",
    "won": "Games won as declarer (W).",
    "lost": "Games lost as declarer (L), overbid games too.",
    "others_lost": "Games the others at the table lost as declarer (O).",
    "bonus": "The list system's bonus: 50 × (W − L) + (40 or 30) × O in Seeger-Fabian, "
    "0 on the classic list.",
    "total": "Game points plus bonus: what ranks.",
}
"""Each figure of ``models.RESULT_FIGURES`` as the OpenAPI description says it."""


def figure(name: str) -> Any:
    return Field(description=FIGURES[name])


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
    game_points: int = figure("game_points")
    won: int = figure("won")
    lost: int = figure("lost")
    others_lost: int = figure("others_lost")
    won_lost_bonus: int = Field(description="The bonus for W and L: 50 × (W − L).")
    others_lost_bonus: int = Field(description="The bonus for O: (40 or 30) × O.")
    bonus: int = figure("bonus")
    total: int = figure("total")


class TableOut(Schema):
    tournament: str
    series: int
    number: int
    size: int
    closed: bool
    seats: list[SeatOut]
    games: list[GameOut]
    results: list[ListResultOut]


class StandingRowOut(Schema):
    """A player's line in a standing: the same row and rank as the page."""

    rank: int
    player_id: int
    player: str
    club: str
    lists: int
    games: int
    """Games played as declarer: won and lost (passed-in rows and Ramsch not counted)."""
    # The figures of the list, in their one order (``models.RESULT_FIGURES``).
    __annotations__.update(dict.fromkeys(RESULT_FIGURES, "int"))
    locals().update({name: figure(name) for name in RESULT_FIGURES})
    withdrawn: bool = Field(False, description="Withdrawn from the tournament (results stay).")
    average: float | None = Field(
        None, description="In a season ranked by the average per series played: that average."
    )


class TeamRowOut(Schema):
    """A team's line: match points for and against (halves as .5), then Spielpunkte."""

    rank: int
    team_id: int
    team: str
    club: str
    series: int
    match_points: float
    match_points_against: float
    match_points_text: str
    game_points: int
    scheme: str = Field(
        description="How the match points are given: places (n−1 … 0 per series), "
        "pairings (2/1/0 per pair of teams and match day), series-points (Wertungspunkte: "
        "2/1/0 per pair of teams and series)."
    )
    scheme_text: str = Field(description="The scheme in words, in the request's language.")


class ParameterErrorOut(Schema):
    field: str = Field(description="The parameter, e.g. `page` or `date`.")
    code: str = Field(description="A stable code, e.g. `int_parsing`, `greater_than_equal`.")
    message: str = Field(description="The message, in the language asked for.")


class ErrorOut(Schema):
    detail: str = Field(description="What went wrong, in the language asked for.")
    errors: list[ParameterErrorOut] | None = Field(
        None, description="With 422: each bad parameter."
    )


class PlayerListOut(Schema):
    """One list a player played in a published series, with his figures on it."""

    tournament: str
    date: datetime.date
    season: str | None = Field(description="The season's slug, or null.")
    series: int
    table: int
    position: int = Field(description="His seat at the table (1 = first dealer).")
    team: int | None = Field(description="The team id he played for, or null.")
    __annotations__.update(dict.fromkeys(RESULT_FIGURES, "int"))
    locals().update({name: figure(name) for name in RESULT_FIGURES})
    games: list[GameOut] | None = Field(
        None, description="With `games=true`: the list's games, as in TableOut."
    )


class ClubOut(Schema):
    id: int
    name: str


class TeamSummaryOut(Schema):
    id: int
    name: str
    club: str
    season: str = Field(description="The season's slug.")


class TeamOut(TeamSummaryOut):
    players: list[PlayerOut] = Field(description="The roster.")


class ClubDetailOut(ClubOut):
    players: list[PlayerOut] = Field(description="Its players with a published result.")
    teams: list[TeamSummaryOut]


class LiveStandingOut(Schema):
    provisional: bool = Field(
        description="True while a list is open or a series is not published: the standing "
        "may still change."
    )
    items: list[StandingRowOut]

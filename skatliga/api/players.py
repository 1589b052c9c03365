"""The API's people: players with every list they played, clubs, and team rosters.

Only players with a result in a published series are in it, with public fields only (never
membership numbers).
"""

from typing import Any

from django.db.models import Exists, OuterRef, Prefetch
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Schema

from skatliga.api import schemas
from skatliga.api.views import (
    ERRORS,
    PAGE_SIZE,
    Rows,
    api,
    paged,
    player_json,
    published_results,
    season_named,
    table_json,
    tournament_named,
)
from skatliga.models import (
    Category,
    Club,
    League,
    Player,
    PlayerRating,
    RatingChange,
    RosterEntry,
    Table,
    Team,
)
from skatliga.standings.rankings import API_LIST, API_RATINGS


class PlayerFilter(Schema):
    season: str | None = None
    tournament: str | None = None
    name: str | None = None


def public_players() -> Any:
    """Players with a result in a published series; public fields only (never numbers)."""
    return Player.objects.select_related("club").filter(
        Exists(published_results().filter(player=OuterRef("pk")))
    )


@api.get("/players", response={200: list[schemas.PlayerOut], **ERRORS}, tags=["players"])
@paged(PAGE_SIZE)
def players(request: HttpRequest, filters: Query[PlayerFilter]) -> Any:
    """Players who played a published series; by season or tournament (slug), name contains."""
    listed = public_players()
    if filters.season is not None:
        listed = listed.filter(
            pk__in=published_results().for_season(season_named(filters.season)).values("player_id")
        )
    if filters.tournament is not None:
        listed = listed.filter(
            pk__in=published_results()
            .for_tournament(tournament_named(filters.tournament))
            .values("player_id")
        )
    if filters.name:  # a full name shown by initials is not found by it
        listed = listed.filter(name__icontains=filters.name, initials_only=False)
    return Rows(listed.order_by("name", "pk"), player_json)


@api.get("/players/{pk}", response={200: schemas.PlayerOut, **ERRORS}, tags=["players"])
def player(request: HttpRequest, pk: int) -> Any:
    return player_json(get_object_or_404(public_players(), pk=pk))


class ListsFilter(Schema):
    season: str | None = None
    games: bool = Field(False, description="Each list's games too, as in TableOut.")


@api.get(
    "/players/{pk}/lists",
    response={200: schemas.PlayerListsOut, **ERRORS},
    tags=["players"],
    exclude_unset=True,
)
def player_lists(request: HttpRequest, pk: int, filters: Query[ListsFilter]) -> Any:
    """Every list the player played in a published series, oldest first, with his figures
    (and with ``games=true`` its games): a season's lists in one request."""
    found = get_object_or_404(public_players(), pk=pk)
    rows = published_results().for_player(found.pk)
    if filters.season is not None:
        rows = rows.filter(season=season_named(filters.season))
    rows = rows.select_related("tournament", "season", "series", "table").order_by(
        "tournament__date", "tournament_id", "series__number", "table__number"
    )
    lists = []
    for row in rows:
        data = {
            "tournament": row.tournament.slug,
            "date": row.tournament.date,
            "season": row.season.slug if row.season else None,
            "series": row.series.number,
            "table": row.table.number,
            "position": row.position,
            "team": row.team_id,
            **API_LIST.api([row])[0],
        }
        if filters.games:
            table: Table = row.table
            table.series = row.series
            table.series.tournament = row.tournament
            data["games"] = table_json(table)["games"]
        lists.append(data)
    return lists


# --- clubs and teams ------------------------------------------------------------------------


def _team_json(team: Team) -> dict[str, Any]:
    return {
        "id": team.pk,
        "name": team.name,
        "club": team.club.name if team.club else "",
        "season": team.season.slug,
    }


@api.get("/clubs", response={200: list[schemas.ClubOut], **ERRORS}, tags=["clubs"])
@paged(PAGE_SIZE)
def clubs(request: HttpRequest) -> Any:
    """Clubs with a player who played a published series, or with a team."""
    listed = Club.objects.filter(
        Exists(public_players().filter(club=OuterRef("pk")))
        | Exists(Team.objects.filter(club=OuterRef("pk")))
    )
    return Rows(listed.order_by("name", "pk"), lambda c: {"id": c.pk, "name": c.name})


@api.get("/clubs/{pk}", response={200: schemas.ClubDetailOut, **ERRORS}, tags=["clubs"])
def club(request: HttpRequest, pk: int) -> Any:
    """A club: its players who played a published series, and its teams."""
    found = get_object_or_404(Club, pk=pk)
    return {
        "id": found.pk,
        "name": found.name,
        "players": [player_json(p) for p in public_players().filter(club=found).order_by("name")],
        "teams": [
            _team_json(t)
            for t in found.team_set.select_related("season", "club").order_by("season", "name")
        ],
    }


@api.get("/teams/{pk}", response={200: schemas.TeamOut, **ERRORS}, tags=["clubs"])
def team(request: HttpRequest, pk: int) -> Any:
    """A team and its roster (in order, regulars and substitutes), its division and captain."""
    found = get_object_or_404(
        Team.objects.select_related("season", "club", "captain__club").prefetch_related(
            Prefetch("players", queryset=Player.objects.select_related("club").order_by("name")),
            Prefetch(
                "roster",
                queryset=RosterEntry.objects.select_related("player__club").order_by(
                    "substitute", "position", "player__name"
                ),
            ),
        ),
        pk=pk,
    )
    return {
        **_team_json(found),
        "players": [player_json(p) for p in found.players.all()],
        "division": found.division_id,
        "captain": player_json(found.captain) if found.captain else None,
        "roster": [
            {
                "player": player_json(entry.player),
                "position": entry.position,
                "substitute": entry.substitute,
            }
            for entry in found.roster.all()
        ],
    }


class RatingFilter(Schema):
    club: int | None = Field(None, description="A club's id.")
    league: str | None = Field(None, description="A league's slug: players on its rosters.")
    category: str | None = Field(None, description="A category (`damen`, `senioren`, …).")


@api.get("/ratings", response={200: schemas.RatingRowsOut, **ERRORS}, tags=["players"])
@paged(PAGE_SIZE)
def ratings(request: HttpRequest, filters: Query[RatingFilter]) -> Any:
    """The public rating list (docs/rating.md), highest first: players who keep their rating
    from the public are not in it; by club, league or category, ranked within."""
    listed = PlayerRating.objects.listed()
    if filters.club is not None:
        listed = listed.in_club(filters.club)
    if filters.league is not None:
        listed = listed.in_league(get_object_or_404(League, slug=filters.league).pk)
    if filters.category is not None:
        if filters.category not in Category.values:
            return []
        listed = listed.in_category(filters.category)
    rows = listed.rows()
    answered = API_RATINGS.api(rows)
    for row, line in zip(rows, answered, strict=True):
        line["provisional"] = row.provisional
    return answered


@api.get(
    "/players/{pk}/rating", response={200: schemas.PlayerRatingOut, **ERRORS}, tags=["players"]
)
def player_rating(request: HttpRequest, pk: int) -> Any:
    """A player's rating and what each tournament did to it; 404 where he has none or keeps
    it from the public."""
    player = get_object_or_404(Player.objects.only("pk"), pk=pk)  # an id out of range: 404
    rating = get_object_or_404(
        PlayerRating.objects.listed().select_related("player__club"), player=player
    )
    changes = RatingChange.objects.filter(player_id=pk).per_tournament()
    return {
        "player": player_json(rating.player),
        "rating": round(rating.rating, 1),
        "lists": rating.lists,
        "provisional": rating.provisional,
        "tournaments": [
            {
                "tournament": change.tournament.slug,
                "name": change.tournament.name,
                "date": change.played_on,
                "lists": change.lists,
                "rating_before": round(change.rating_before, 1),
                "rating_after": round(change.rating_after, 1),
                "change": round(change.change, 1),
            }
            for change in changes
        ],
    }

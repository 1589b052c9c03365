"""The API's operations: seasons, tournaments, series, tables with their games, players, and
standings at every level, the same rows and ranks as the public pages.

Only published series are in it (``Series.objects.public(final=True)``); standings are computed
over the result rows of published series only. Every answer carries an ETag (304 when the client
already has it), and each address may ask ``settings.API_RATE`` times.
"""

import datetime
import logging
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, cast

from django.conf import settings
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_cache_control, set_response_etag
from ninja import Field, NinjaAPI, Query, Schema
from ninja.errors import Throttled, ValidationError
from ninja.pagination import PageNumberPagination, paginate
from ninja.throttling import SimpleRateThrottle
from pydantic import StringConstraints

import scoring
from skatliga.api import schemas
from skatliga.archive import game_json
from skatliga.messages import message
from skatliga.models import (
    Category,
    ListResult,
    ListResultQuerySet,
    Player,
    Season,
    Seat,
    Series,
    Table,
    Tournament,
)
from skatliga.models.limits import hit
from skatliga.models.tournaments import SeriesQuerySet
from skatliga.sheet import build_sheet
from skatliga.standings.queries import match_points_scheme, running_in, team_standings
from skatliga.standings.rankings import API_PLAYERS, API_TEAMS

PAGE_SIZE = 50
STANDINGS_PAGE_SIZE = 100
MOST_PER_PAGE = 1000

logger = logging.getLogger("django.request")


# What a parameter may be: a database integer, a text without NUL (PostgreSQL refuses it);
# anything else is a 422 with the parameter named, not an error in the query.
Whole = Annotated[int, Field(ge=0, le=2**63 - 1)]
Text = Annotated[str, StringConstraints(max_length=200, pattern=r"^[^\x00]*$")]


F = TypeVar("F", bound=Callable[..., Any])


def paged(size: int) -> Callable[[F], F]:
    """Answers in pages of ``size`` rows unless ``page_size`` asks otherwise (at most
    ``MOST_PER_PAGE``, more is cut to it), both shown in the OpenAPI description."""

    class Pages(PageNumberPagination):
        class Input(Schema):
            page: int = Field(1, ge=1, le=10**6, description="The page, from 1.")
            page_size: int = Field(
                size,
                ge=1,
                le=10**6,
                description=f"Rows per page: {size} unless asked, at most {MOST_PER_PAGE}.",
                json_schema_extra={"maximum": MOST_PER_PAGE},
            )

    return cast(Callable[[F], F], paginate(Pages, page_size=size, max_page_size=MOST_PER_PAGE))


class AddressThrottle(SimpleRateThrottle):
    """Requests per client address (``NINJA_NUM_PROXIES`` says which proxy header to trust),
    at ``settings.API_RATE``, read at each request so that a deployment or a test may set it,
    counted where every worker sees the count (``skatliga.models.limits``)."""

    scope = "api"

    def __init__(self) -> None:
        super().__init__(rate="1/s")
        self.left = 1

    def allow_request(self, request: HttpRequest) -> bool:
        allowed, seconds = self.parse_rate(settings.API_RATE)
        hits, self.left = hit(f"api:{self.get_ident(request)}", seconds or 1)
        return hits <= (allowed or 0)

    def wait(self) -> float:
        return self.left


class OpenDataAPI(NinjaAPI):
    """Answers with an ETag and revalidation, and ``304 Not Modified`` to a matching
    ``If-None-Match``: a club website polling the API transfers nothing while nothing changed."""

    def create_response(
        self,
        request: HttpRequest,
        data: Any,
        *,
        status: int | None = None,
        temporal_response: HttpResponse | None = None,
    ) -> HttpResponse:
        response = super().create_response(
            request, data, status=status, temporal_response=temporal_response
        )
        if request.method not in ("GET", "HEAD") or response.status_code != 200:
            return response
        set_response_etag(response)
        patch_cache_control(response, public=True, no_cache=True)
        conditional = get_conditional_response(request, etag=response["ETag"], response=response)
        return conditional if conditional is not None else response


api = OpenDataAPI(
    title="skatliga open data",
    version="1",
    description=(
        "Read-only results of skatliga: seasons, tournaments, published series, lists with "
        "their games, and standings at every level. Conditional requests (ETag, "
        "If-None-Match), pages (`page`, `page_size`), and a limit of requests per address."
    ),
    urls_namespace="api",
    throttle=[AddressThrottle()],
    openapi_extra={
        "info": {
            "license": {
                "name": "CC BY 4.0 (the data; skatliga itself is AGPL-3.0-or-later)",
                "url": "https://creativecommons.org/licenses/by/4.0/",
            },
            "contact": {"name": "The operator of this site, named in its imprint (/impressum/)."},
        }
    },
)


# --- errors, in the language asked for (Accept-Language) ------------------------------------


def error(request: HttpRequest, status: int, detail: str, **extra: Any) -> HttpResponse:
    """An error as JSON (``schemas.ErrorOut``)."""
    return api.create_response(request, {"detail": detail, **extra}, status=status)


@api.exception_handler(Exception)
def _failed(request: HttpRequest, exc: Exception) -> HttpResponse:
    logger.error("Internal Server Error: %s", request.path, exc_info=exc)
    return error(request, 500, message("api_server_error"))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error(request, 404, message("api_not_found"))


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = []
    for wrong in exc.errors:
        field = ".".join(str(part) for part in wrong.get("loc", ())[1:]) or "?"
        errors.append(
            {
                "field": field,
                "code": wrong.get("type", "invalid"),
                "message": message("api_invalid_value", field=field),
            }
        )
    return error(request, 422, message("api_invalid_parameters"), errors=errors)


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    seconds = max(1, int(exc.wait or 1))
    response = error(request, 429, message("api_too_many_requests", seconds=seconds))
    response["Retry-After"] = str(seconds)
    return response


LIMITED: dict[int, type[Schema]] = {429: schemas.ErrorOut}
"""What every operation may answer besides 200: the rate limit."""
CHECKED = {422: schemas.ErrorOut, **LIMITED}
"""… where it reads parameters that may be invalid (pages, numbers, filters)."""
LOOKED_UP = {404: schemas.ErrorOut, **LIMITED}
"""… where it looks something up that may not exist."""
ERRORS = {**LOOKED_UP, **CHECKED}


# --- what is published ----------------------------------------------------------------------


def published_results() -> ListResultQuerySet:
    """The result rows of published series: every standing of the API is grouped over them."""
    return ListResult.objects.public(final=True)


def tournament_named(slug: Text) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("season"), slug=slug)


def _series(slug: Text, number: Whole) -> Series:
    return get_object_or_404(
        Series.objects.public(final=True).select_related("tournament"),
        tournament__slug=slug,
        number=number,
    )


def _table(slug: Text, number: Whole, table: Whole) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament").filter(
            series__in=Series.objects.public(final=True)
        ),
        series__tournament__slug=slug,
        series__number=number,
        number=table,
    )


def season_named(slug: Text) -> Season:
    return get_object_or_404(Season, slug=slug)


# --- seasons --------------------------------------------------------------------------------


class Changed(Schema):
    changed_since: datetime.datetime | None = Field(
        None,
        description="Only what changed at or after this moment (ISO 8601, e.g. "
        "`2026-11-21T14:00:00Z`): poll with the time of the last answer.",
    )


def changed(listed: Any, filters: Changed) -> Any:
    """``listed`` (seasons or tournaments) changed since ``filters.changed_since``."""
    if filters.changed_since is None:
        return listed
    return listed.filter(revised_at__gte=filters.changed_since)


def _season_json(season: Season) -> dict[str, Any]:
    return {
        "slug": season.slug,
        "name": season.name,
        "year": season.year,
        "match_points": season.match_points,
        "changed_at": season.revised_at,
    }


@api.get("/seasons", response={200: list[schemas.SeasonOut], **CHECKED}, tags=["seasons"])
@paged(PAGE_SIZE)
def seasons(request: HttpRequest, filters: Query[Changed]) -> Any:
    """Every season, newest first."""
    return Rows(changed(Season.objects.all(), filters), _season_json)


@api.get("/seasons/{slug}", response={200: schemas.SeasonOut, **LOOKED_UP}, tags=["seasons"])
def season(request: HttpRequest, slug: Text) -> Any:
    return _season_json(season_named(slug))


@api.get(
    "/seasons/{slug}/standings",
    response={200: schemas.StandingRowsOut, **ERRORS},
    tags=["standings"],
)
@paged(STANDINGS_PAGE_SIZE)
def season_standings(request: HttpRequest, slug: Text, category: Category | None = None) -> Any:
    """The season's individual ranking over its published series; with ``category`` the
    ranking within it (damen, senioren, junioren)."""
    rows = in_category(published_results().for_season(season_named(slug)), category)
    return API_PLAYERS.api(rows.standings())


def in_category(results: ListResultQuerySet, category: Category | None) -> ListResultQuerySet:
    return results if category is None else results.in_category(category)


@api.get("/seasons/{slug}/teams", response={200: schemas.TeamRowsOut, **ERRORS}, tags=["standings"])
@paged(STANDINGS_PAGE_SIZE)
def season_teams(request: HttpRequest, slug: Text) -> Any:
    """The league table: teams by match points, then Spielpunkte (docs/rules.md section 7)."""
    found = season_named(slug)
    rows = team_standings(published_results().for_season(found), found.match_points)
    return API_TEAMS.api(rows)


# --- tournaments ----------------------------------------------------------------------------


class TournamentFilter(Changed):
    season: Text | None = None
    date: datetime.date | None = None
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    status: Tournament.Status | None = None


def _tournament_json(tournament: Tournament, series: list[int]) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date,
        "starts_at": tournament.starts_at,
        "venue": tournament.venue,
        "address": tournament.address,
        "season": tournament.season.slug if tournament.season else None,
        "match_day": tournament.match_day,
        "rules": scoring.rules_to_json(tournament.rule_set),
        "rules_text": tournament.rules_text,
        "list_system": tournament.scoring,
        "rounds_per_series": tournament.rounds_per_series,
        "status": tournament.status,
        "series": series,
        "changed_at": tournament.revised_at,
    }


def _published_numbers() -> Prefetch[str, SeriesQuerySet, str]:
    return Prefetch(
        "series", queryset=Series.objects.public(final=True).order_by("number"), to_attr="published"
    )


@api.get(
    "/tournaments", response={200: list[schemas.TournamentOut], **ERRORS}, tags=["tournaments"]
)
@paged(PAGE_SIZE)
def tournaments(request: HttpRequest, filters: Query[TournamentFilter]) -> Any:
    """Tournaments, newest first; filtered by season (slug), date or a range of dates, status."""
    listed = Tournament.objects.select_related("season").prefetch_related(_published_numbers())
    if filters.season is not None:
        listed = listed.filter(season=season_named(filters.season))
    if filters.date is not None:
        listed = listed.filter(date=filters.date)
    if filters.date_from is not None:
        listed = listed.filter(date__gte=filters.date_from)
    if filters.date_to is not None:
        listed = listed.filter(date__lte=filters.date_to)
    if filters.status is not None:
        listed = listed.filter(status=filters.status)
    listed = changed(listed, filters)
    return Rows(listed, lambda t: _tournament_json(t, [s.number for s in t.published]))


class Rows:
    """A queryset whose page is turned into dicts after slicing: a page reads only its rows."""

    def __init__(self, queryset: Any, to_json: Any) -> None:
        self.queryset = queryset
        self.to_json = to_json

    def __len__(self) -> int:
        return int(self.queryset.count())

    def __getitem__(self, index: slice) -> list[dict[str, Any]]:
        return [self.to_json(item) for item in self.queryset[index]]


@api.get(
    "/tournaments/{slug}", response={200: schemas.TournamentOut, **LOOKED_UP}, tags=["tournaments"]
)
def tournament(request: HttpRequest, slug: Text) -> Any:
    found = tournament_named(slug)
    numbers = list(
        found.series.public(final=True).order_by("number").values_list("number", flat=True)
    )
    return _tournament_json(found, numbers)


@api.get(
    "/tournaments/{slug}/standings",
    response={200: schemas.StandingRowsOut, **ERRORS},
    tags=["standings"],
)
@paged(STANDINGS_PAGE_SIZE)
def tournament_standings(request: HttpRequest, slug: Text, category: Category | None = None) -> Any:
    """The sum of the tournament's published series, ranked (a recorded draw by lot decides);
    with ``category`` the ranking within it."""
    found = tournament_named(slug)
    rows = in_category(published_results().for_tournament(found), category)
    return API_PLAYERS.api(rows.standings(lots_of=found))


@api.get(
    "/tournaments/{slug}/live",
    response={200: schemas.LiveStandingOut, **LOOKED_UP},
    tags=["standings"],
)
def tournament_live(request: HttpRequest, slug: Text) -> Any:
    """The standing as the tournament's page shows it while play goes on: open lists and
    series not yet published count (unless the tournament hides them), marked
    ``provisional`` until every list is closed and every series published. For live tables."""
    found = tournament_named(slug)
    results = ListResult.objects.for_tournament(found).public_in(found)
    provisional = bool(running_in(found).lists) or results.provisional()
    return {"provisional": provisional, "items": API_PLAYERS.api(results.standings(lots_of=found))}


@api.get(
    "/tournaments/{slug}/teams",
    response={200: schemas.TeamRowsOut, **ERRORS},
    tags=["standings"],
)
@paged(STANDINGS_PAGE_SIZE)
def tournament_teams(request: HttpRequest, slug: Text) -> Any:
    found = tournament_named(slug)
    rows = team_standings(published_results().for_tournament(found), match_points_scheme(found))
    return API_TEAMS.api(rows)


# --- series and tables ----------------------------------------------------------------------


def _series_json(series: Series) -> dict[str, Any]:
    return {
        "tournament": series.tournament.slug,
        "number": series.number,
        "published_at": series.published_at,
        "tables": [
            {"number": t.number, "size": t.size, "closed": t.is_closed}
            for t in series.tables.order_by("number")
        ],
    }


@api.get(
    "/tournaments/{slug}/series",
    response={200: list[schemas.SeriesOut], **LOOKED_UP},
    tags=["series"],
)
def series_list(request: HttpRequest, slug: Text) -> Any:
    """The tournament's published series."""
    found = tournament_named(slug)
    return [_series_json(s) for s in found.series.public(final=True).order_by("number")]


@api.get(
    "/tournaments/{slug}/series/{number}",
    response={200: schemas.SeriesOut, **ERRORS},
    tags=["series"],
)
def series(request: HttpRequest, slug: Text, number: Whole) -> Any:
    return _series_json(_series(slug, number))


@api.get(
    "/tournaments/{slug}/series/{number}/standings",
    response={200: schemas.StandingRowsOut, **ERRORS},
    tags=["standings"],
)
@paged(STANDINGS_PAGE_SIZE)
def series_standings(request: HttpRequest, slug: Text, number: Whole) -> Any:
    return API_PLAYERS.api(ListResult.objects.for_series(_series(slug, number)).standings())


@api.get(
    "/tournaments/{slug}/series/{number}/teams",
    response={200: schemas.TeamRowsOut, **ERRORS},
    tags=["standings"],
)
@paged(STANDINGS_PAGE_SIZE)
def series_teams(request: HttpRequest, slug: Text, number: Whole) -> Any:
    found = _series(slug, number)
    rows = team_standings(
        ListResult.objects.for_series(found), match_points_scheme(found.tournament)
    )
    return API_TEAMS.api(rows)


def player_json(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.public_name,
        "club": player.club.name if player.club else "",
    }


@api.get(
    "/tournaments/{slug}/series/{number}/tables/{table}",
    response={200: schemas.TableOut, **ERRORS},
    tags=["series"],
    exclude_unset=True,
)
def table(request: HttpRequest, slug: Text, number: Whole, table: Whole) -> Any:
    """One list: its seats, every game as in the archive with the engine's numbers (value,
    verdict, each seat's points and running totals, as on the page), and the summary rows."""
    return table_json(_table(slug, number, table))


def table_json(found: Table) -> dict[str, Any]:
    tournament = found.series.tournament
    seats: list[Seat] = list(
        found.seats.select_related("player__club", "substitute__club").order_by("position")
    )
    ids = [seat.player_id for seat in seats]
    sheet = build_sheet(
        found,
        list(found.games.order_by("number")),
        games_per_list=tournament.games_per_list(found.size),
        seats=seats,
    )
    games = []
    for row in sheet.rows:
        if row.game is None:
            continue
        data: dict[str, Any] = {"number": row.number, **game_json(row.game, ids)}
        computed = dict(data.get("computed", {}))
        if isinstance(row.scored, scoring.RamschScore):
            computed["charge"] = row.scored.charge
        computed["points"] = list(row.scores)
        computed["running"] = list(row.running or ())
        data["computed"] = computed
        games.append(data)
    return {
        "tournament": tournament.slug,
        "series": found.series.number,
        "number": found.number,
        "size": found.size,
        "closed": found.is_closed,
        "seats": [_seat_json(s) for s in seats],
        "games": games,
        "results": _results_json(seats, sheet),
    }


def _seat_json(seat: Seat) -> dict[str, Any]:
    data = {"position": seat.position, "player": player_json(seat.player)}
    if seat.substitute is not None:
        data |= {
            "substitute": player_json(seat.substitute),
            "substitute_from": seat.substitute_from,
        }
    return data


def _results_json(seats: list[Seat], sheet: Any) -> list[dict[str, Any]]:
    """Each seat's summary rows; a seat a substitute took over as each one's share."""
    shares = {(share.position, share.first): share for share in sheet.shares}
    results = []
    for seat, column in zip(seats, sheet.summary, strict=True):
        if seat.substitute is None:
            results.append(
                {"position": seat.position, "player": player_json(seat.player), **column.to_json()}
            )
            continue
        for player, first in ((seat.player, 1), (seat.substitute, seat.substitute_from or 1)):
            share = shares[seat.position, first]
            results.append(
                {
                    "position": seat.position,
                    "player": player_json(player),
                    "first_game": share.first,
                    "last_game": share.last,
                    **share.summary.to_json(),
                }
            )
    return results


@api.get(
    "/tournaments/{slug}/series/{number}/tables/{table}/standings",
    response={200: schemas.StandingRowsOut, **ERRORS},
    tags=["standings"],
)
def table_standings(request: HttpRequest, slug: Text, number: Whole, table: Whole) -> Any:
    """The players of one list, ranked by their total on it."""
    return API_PLAYERS.api(ListResult.objects.for_table(_table(slug, number, table)).standings())

"""Players and seats: register players, draw the tables of a series, swap seats."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

import scoring
from skatliga import revisions
from skatliga.models import (
    Change,
    Club,
    Game,
    LineUpPlayer,
    ListResult,
    MatchGroup,
    Player,
    Registration,
    Seat,
    Series,
    Table,
    Tournament,
)
from skatliga.services.common import ServiceError, User, acting_user, lock_tournament
from skatliga.services.forbidden import forbidden_pairs
from skatliga.services.games import recompute_results
from skatliga.services.partners import (
    Pair,
    arrange,
    deal_teams,
    pair,
    pairs_of,
    repeat_pairs,
    separate,
    team_tables,
)
from skatliga.services.seeding import (
    seat_in_order,
    seeded_league_tables,
    seeding_order,
    spread,
    teams_apart,
)

# --- players and tables ----------------------------------------------------------------------


def parse_roster(text: str) -> list[tuple[str, str]]:
    """Pasted lines "Name" or "Name; Club" (also tab- or comma-separated) as (name, club).

    >>> parse_roster("Anna Schmidt; SC Altenburg\\n\\nBernd Łukasz")
    [('Anna Schmidt', 'SC Altenburg'), ('Bernd Łukasz', '')]
    """
    roster = []
    for line in text.splitlines():
        for separator in (";", "\t", ","):
            if separator in line:
                name, _, club = line.partition(separator)
                break
        else:
            name, club = line, ""
        if name.strip():
            roster.append((" ".join(name.split()), " ".join(club.split())))
    return roster


def roster_problems(roster: Sequence[tuple[str, str]]) -> list[ServiceError]:
    """Every line whose name or club is longer than its column holds (1-based line numbers).

    The database would cut or refuse such a name; SQLite would keep all of it, and every
    printout would have to draw it.
    """
    most_name = Player._meta.get_field("name").max_length or 0
    most_club = Club._meta.get_field("name").max_length or 0
    problems = []
    for line, (name, club) in enumerate(roster, start=1):
        if len(name) > most_name:
            problems.append(ServiceError("name_too_long", "players", line=line, most=most_name))
        if len(club) > most_club:
            problems.append(ServiceError("club_too_long", "players", line=line, most=most_club))
    return problems


def find_or_create_player(name: str, club: str = "") -> Player:
    """The player of that name and club, created (and his club) where there is none yet.

    ServiceError ``name_too_long``/``club_too_long`` (fields ``name``, ``club``) for a name
    longer than its column.
    """
    name, club = " ".join(name.split()), " ".join(club.split())
    for problem in roster_problems([(name, club)]):
        raise ServiceError(problem.code, problem.code.removesuffix("_too_long"), **problem.params)
    club_row = Club.objects.get_or_create(name=club)[0] if club else None
    player = Player.objects.filter(name=name, club=club_row).first()
    return player or Player.objects.create(name=name, club=club_row)


@transaction.atomic
def register_players(
    tournament: Tournament,
    roster: Sequence[tuple[str, str]] = (),
    *,
    players: Sequence[Player] = (),
) -> tuple[list[Registration], list[Registration]]:
    """Enter players by name (and club), creating players and clubs not known yet, and
    ``players`` of the roster as they are.

    Returns the registrations added and those that were there already (a player pasted
    twice is added once and then reported as there already). ServiceError
    ``name_too_long``/``club_too_long`` for a line that does not fit, and nothing is saved.
    """
    problems = roster_problems(roster)
    if problems:
        raise problems[0]
    tournament = lock_tournament(pk=tournament.pk)
    added: list[Registration] = []
    already: list[Registration] = []
    for player in [*players, *(find_or_create_player(name, club) for name, club in roster)]:
        registration, created = Registration.objects.get_or_create(
            tournament=tournament, player=player
        )
        if created:
            added.append(registration)
        elif registration not in already:
            already.append(registration)
    revisions.touch(tournament)
    return added, already


@transaction.atomic
def remove_registration(registration: Registration) -> None:
    """Withdraw a player from a tournament before its first series is drawn."""
    tournament = lock_tournament(pk=registration.tournament_id)
    if tournament.series.exists():
        raise ServiceError("series_drawn")
    Registration.objects.filter(pk=registration.pk).delete()
    revisions.touch(tournament)


def table_sizes(players: int, system: scoring.ListSystem | None = None) -> list[int]:
    """As many 4-tables as possible, the rest 3-tables; ServiceError if none fits.

    Five players sit at one 5-table where the list ``system`` allows it (``classic`` and
    ``zero-sum``, docs/rules.md sections 6 and 8).

    >>> table_sizes(12), table_sizes(13), table_sizes(14), table_sizes(15)
    ([4, 4, 4], [4, 3, 3, 3], [4, 4, 3, 3], [4, 4, 4, 3])
    >>> table_sizes(5, scoring.ListSystem.CLASSIC)
    [5]
    """
    if players == 5 and system is not None and not scoring.check_table(5, system):
        return [5]
    for threes in range(4):
        rest = players - 3 * threes
        if rest >= 0 and rest % 4 == 0 and players >= 3:
            return [4] * (rest // 4) + [3] * threes
    raise ServiceError("players_cannot_be_seated", "players", players=players)


DRAW_METHODS = ("lot", "standings", "standings_spread", "rating", "rating_spread")
"""How :func:`draw_tables` seats the players: by lot, or seeded ("Setzliste") by the
tournament's standings so far or by the players' ratings (docs/rating.md section 9): the top
tables together as in a final, or (``_spread``) the strongest spread over the tables."""


@transaction.atomic
def draw_tables(
    tournament: Tournament,
    *,
    user: User = None,
    method: str = "lot",
    seed: int | None = None,
    avoid_repeats: bool = True,
    despite_open_lists: bool = False,
) -> Series:
    """Draw the tables of the next series (docs/rules.md section 6).

    ``lot``: at random; with ``avoid_repeats``, players who shared a table in an earlier
    series of the tournament are seated apart as far as the seating allows
    (:func:`~skatliga.services.partners.arrange`). ``standings``: in the order of the
    tournament standings so far, players without results last in an order drawn by lot;
    table 1 takes the first four, table 2 the next, the 3-tables (:func:`table_sizes`) come
    last. ``rating``: so, in the order of the players' ratings on the tournament's day
    (:func:`rating_order`). ``standings_spread``, ``rating_spread``: in the same orders, the
    strongest spread over the tables (:func:`spread`). A league group's match day seats its
    line-ups so too when seeded, team-mates always apart (:func:`seeded_league_tables`).
    Team-mates are kept apart when the tournament says so (ServiceError
    ``teammates_cannot_be_separated`` when no seating does; see :func:`seat_in_order`), and
    the referee's forbidden pairs (``services.forbidden``) where a seating can: by lot
    through :func:`~skatliga.services.partners.arrange`, seeded by the nearest swap
    (:func:`~skatliga.services.partners.separate`); the change log lists the pairs still
    together (``forbidden_together``).
    Players who withdrew are not drawn. The same ``seed`` draws the same tables. The change
    log records the tables and how many pairs of players sit together again
    (``repeat_pairs``).

    While lists of earlier series are open, ServiceError ``lists_open`` (with ``open``, the
    number of them) unless ``despite_open_lists``: the referee draws on deliberately.
    """
    if method not in DRAW_METHODS:
        raise ServiceError("draw_method_unknown", "method")
    tournament = lock_tournament(pk=tournament.pk)
    still_open = Table.objects.filter(series__tournament=tournament, closed_at__isnull=True)
    if not despite_open_lists and still_open.exists():
        raise ServiceError("lists_open", open=still_open.count())
    registrations = list(
        tournament.registrations.filter(withdrawn_at__isnull=True).order_by(
            "player__name", "player_id"
        )
    )
    rng = random.Random(seed)
    apart = tournament.keep_teammates_apart
    met = met_pairs(tournament)
    number = (
        tournament.series.order_by("-number").values_list("number", flat=True).first() or 0
    ) + 1
    line_ups = series_line_ups(tournament, number)
    if line_ups is not None:
        by_player = {r.player_id: r for r in registrations}
        drawn: dict[str, Any] = {"line_ups": True}
        if method == "lot":
            drawn_ids = league_tables(line_ups, number - 1, met=met, rng=rng)
        else:
            playing = [by_player[p] for team in line_ups for p in team]
            order = seeding_order(method, tournament, playing, rng)
            team_of = {p: index for index, team in enumerate(line_ups) for p in team}
            drawn_ids = seeded_league_tables(
                [r.player_id for r in order], team_of, spread_out=method.endswith("_spread")
            )
            drawn["method"] = method
        tables = [[by_player[p] for p in group] for group in drawn_ids]
        return _seat_series(tournament, number, tables, met, user=user, after=drawn)
    sizes = table_sizes(len(registrations), tournament.list_system)
    if method == "lot":
        order = list(registrations)
        rng.shuffle(order)
    else:
        order = seeding_order(method, tournament, registrations, rng)
    if method.endswith("_spread"):
        tables = spread(order, sizes)
        if apart and not all(teams_apart(group) for group in tables):
            seated = {r.player_id: r for r in registrations}
            moved = separate(
                [[r.player_id for r in group] for group in tables],
                forbidden=set(),
                teams={r.player_id: r.team_id for r in registrations},
            )
            tables = [[seated[p] for p in group] for group in moved]
            if not all(teams_apart(group) for group in tables):
                tables = seat_in_order(order, sizes, apart=True)
    else:
        tables = seat_in_order(order, sizes, apart=apart)
    forbidden = forbidden_pairs(tournament)
    by_player = {r.player_id: r for r in registrations}
    teams = {r.player_id: r.team_id for r in registrations} if apart else {}
    ids = [[r.player_id for r in group] for group in tables]
    if method == "lot" and (avoid_repeats and met or forbidden):
        arranged = arrange(
            ids, met=met if avoid_repeats else set(), teams=teams, rng=rng, forbidden=forbidden
        )
        tables = [[by_player[p] for p in group] for group in arranged]
        for group in tables:
            rng.shuffle(group)
    elif forbidden:
        separated = separate(ids, forbidden=forbidden, teams=teams)
        tables = [[by_player[p] for p in group] for group in separated]
    after: dict[str, Any] = {}
    if forbidden:
        after["forbidden_together"] = [
            list(p)
            for p in sorted(pairs_of([[r.player_id for r in g] for g in tables]) & forbidden)
        ]
    if method != "lot":
        after["method"] = method
    elif not avoid_repeats:
        after["avoid_repeats"] = False
    return _seat_series(tournament, number, tables, met, user=user, after=after)


def _seat_series(
    tournament: Tournament,
    number: int,
    tables: Sequence[Sequence[Registration]],
    met: set[Pair],
    *,
    user: User,
    after: dict[str, Any],
) -> Series:
    """Create series ``number`` with ``tables`` seated in order, log the draw, raise the
    tournament's revision."""
    series = Series.objects.create(tournament=tournament, number=number)
    for table_number, group in enumerate(tables, start=1):
        table = Table.objects.create(series=series, number=table_number, size=len(group))
        Seat.objects.bulk_create(
            Seat(table=table, series=series, position=position, player_id=r.player_id)
            for position, r in enumerate(group, start=1)
        )
        recompute_results(table)
    drawn = [[r.player_id for r in group] for group in tables]
    after = {"tables": drawn, "repeat_pairs": len(repeat_pairs(drawn, met)), **after}
    Change.objects.create(
        user=acting_user(user),
        tournament=tournament,
        series=series,
        action=Change.Action.TABLES_DRAWN,
        after=after,
    )
    revisions.touch(tournament)
    return series


def met_pairs(tournament: Tournament, before: int | None = None) -> set[Pair]:
    """Every pair of players who shared a table in a series of ``tournament`` (numbered
    below ``before``, if given); a substitute shared his table too."""
    seats = Seat.objects.filter(series__tournament=tournament)
    if before is not None:
        seats = seats.filter(series__number__lt=before)
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id, substitute_id in seats.values_list(
        "table_id", "player_id", "substitute_id"
    ):
        tables[table_id] += [player_id] if substitute_id is None else [player_id, substitute_id]
    return pairs_of(tables.values())


def series_line_ups(tournament: Tournament, number: int) -> list[list[int]] | None:
    """The players of each team's line-up for series ``number`` of a league group's match
    day (``models.matchdays``), in line-up order, the teams in the order of their names;
    None for a tournament that is no league group. ServiceError ``line_ups_missing`` (with
    the teams) while a team of the group has no line-up for the series."""
    group = (
        MatchGroup.objects.filter(tournament=tournament)
        .select_related("match_day__division__level")
        .first()
    )
    if group is None:
        return None
    most = group.match_day.division.level.series
    if number > most:
        raise ServiceError("series_out_of_range", "series", series=number, most=most)
    teams = list(group.teams.order_by("name", "pk"))
    found: dict[int, list[int]] = {}
    for team_id, player_id in (
        LineUpPlayer.objects.filter(line_up__group=group, line_up__series=number)
        .order_by("line_up__team", "position")
        .values_list("line_up__team_id", "player_id")
    ):
        found.setdefault(team_id, []).append(player_id)
    missing = [team.name for team in teams if team.pk not in found]
    if missing:
        raise ServiceError("line_ups_missing", teams=", ".join(missing), series=number)
    return [found[team.pk] for team in teams]


def league_tables(
    line_ups: Sequence[Sequence[int]], series: int, *, met: set[Pair], rng: random.Random
) -> list[list[int]]:
    """The tables of series ``series`` (0-based) of a league group: no table seats two
    players of one team, and the players who met in earlier series of the match day are
    kept apart where the seating allows (docs/rules.md section 11.5). The pattern over GF(4)
    or GF(5) (:func:`~skatliga.services.partners.team_tables`) or the players dealt round the
    tables team by team, whichever repeats fewer meetings, improved by
    :func:`~skatliga.services.partners.arrange` with team-mates weighing most.
    ServiceError ``players_cannot_be_seated`` when tables of three or four cannot keep the
    teams apart."""
    total = sum(len(players) for players in line_ups)
    count = max(max(len(players) for players in line_ups), -(-total // 4))
    teams = {player: index for index, players in enumerate(line_ups) for player in players}
    candidates = [
        tables
        for tables in (team_tables(line_ups, series), deal_teams(line_ups, count))
        if tables is not None
        and len(tables) == count
        and all(3 <= len(table) <= 4 for table in tables)
    ]
    if not candidates:
        raise ServiceError("players_cannot_be_seated", "players", players=total)
    start = min(candidates, key=lambda tables: len(repeat_pairs(tables, met)))
    return arrange(start, met=met, teams=teams, rng=rng)


def series_repeat_pairs(series: Series) -> list[tuple[Seat, Seat]]:
    """The pairs of players at one table of ``series`` who shared a table in an earlier
    series of the tournament, in table and seat order."""
    met = met_pairs(series.tournament, before=series.number)
    seats = list(
        Seat.objects.filter(series=series)
        .select_related("player", "table")
        .order_by("table__number", "position")
    )
    return [
        (a, b)
        for a, b in combinations(seats, 2)
        if a.table_id == b.table_id and pair(a.player_id, b.player_id) in met
    ]


@transaction.atomic
def swap_seats(
    series: Series, first: Seat, second: Seat, *, user: User = None, reason: str = ""
) -> None:
    """Swap two players' seats before the series has started."""
    tournament = lock_tournament(series=series.pk)
    series = Series.objects.select_for_update().get(pk=series.pk)
    series.tournament = tournament
    if Game.objects.filter(table__series=series).exists():
        raise ServiceError("series_started")
    a = Seat.objects.select_for_update().get(pk=first.pk, series=series)
    b = Seat.objects.select_for_update().get(pk=second.pk, series=series)
    if a.pk == b.pk:
        raise ServiceError("same_seat")
    players = a.player_id, b.player_id
    # Swapping in place would break seat_one_table_per_series midway: re-create both seats.
    # A substitute already recorded stays with his seat.
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    ListResult.objects.filter(table_id__in={a.table_id, b.table_id}).delete()
    Seat.objects.bulk_create(
        [
            Seat(
                table_id=seat.table_id,
                series=series,
                position=seat.position,
                player_id=player,
                substitute_id=seat.substitute_id,
                substitute_from=seat.substitute_from,
            )
            for seat, player in ((a, players[1]), (b, players[0]))
        ]
    )
    for table in Table.objects.filter(pk__in={a.table_id, b.table_id}):
        recompute_results(table)
    Change.objects.create(
        user=acting_user(user),
        tournament=series.tournament,
        series=series,
        action=Change.Action.SEATS_SWAPPED,
        before={
            "seats": [[a.table_id, a.position, players[0]], [b.table_id, b.position, players[1]]]
        },
        after={
            "seats": [[a.table_id, a.position, players[1]], [b.table_id, b.position, players[0]]]
        },
        reason=reason,
    )
    revisions.touch(series.tournament)


def delete_player(player: Player) -> None:
    """Delete a player who has never played; one with seats or results is kept."""
    try:
        player.delete()
    except ProtectedError as error:
        raise ServiceError("player_has_results") from error


@transaction.atomic
def withdraw_player(
    registration: Registration, *, user: User = None, reason: str = ""
) -> Registration:
    """A player leaves the tournament between series: he is no longer drawn, his results
    stay, and the tournament's standing marks him.

    Refused while he sits at a list still open (``player_at_open_table``): close it first,
    or record a substitute for the rest of it.
    """
    tournament = lock_tournament(registrations=registration.pk)
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=registration.pk)
    )
    registration.tournament = tournament
    if registration.withdrawn_at is not None:
        raise ServiceError("player_already_withdrawn")
    if Seat.objects.filter(
        series__tournament=tournament,
        player_id=registration.player_id,
        table__closed_at=None,
        substitute__isnull=True,
    ).exists():
        raise ServiceError("player_at_open_table", player=registration.player.name)
    last = tournament.series.order_by("-number").values_list("number", flat=True).first()
    registration.withdrawn_at = timezone.now()
    registration.withdrawn_after = last or 0
    registration.save(update_fields=["withdrawn_at", "withdrawn_after"])
    Change.objects.create(
        user=acting_user(user),
        tournament=tournament,
        action=Change.Action.PLAYER_WITHDRAWN,
        after={
            "player": {"id": registration.player_id, "name": registration.player.name},
            "after_series": registration.withdrawn_after,
        },
        reason=reason.strip(),
    )
    revisions.touch(tournament)
    return registration

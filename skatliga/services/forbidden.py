"""Forbidden pairings: two players of a tournament the draw keeps apart (family, one
household), where it can; :func:`~skatliga.services.seating.draw_tables` reads them."""

from __future__ import annotations

from itertools import combinations

from django.db import transaction

from skatliga import revisions
from skatliga.models import ForbiddenPair, Registration, Seat, Series, Tournament
from skatliga.services.common import ServiceError, lock_tournament
from skatliga.services.partners import Pair, pair


@transaction.atomic
def forbid_pair(tournament: Tournament, first: int, second: int) -> ForbiddenPair:
    """Keep the players of two registrations (by id) of ``tournament`` apart in its draws.

    ServiceError ``same_player``, ``registration_not_in_tournament`` or
    ``pair_already_apart``.
    """
    if first == second:
        raise ServiceError("same_player", "second")
    tournament = lock_tournament(pk=tournament.pk)
    low, high = sorted((first, second))
    if Registration.objects.filter(tournament=tournament, pk__in=(low, high)).count() != 2:
        raise ServiceError("registration_not_in_tournament", "second")
    kept, created = ForbiddenPair.objects.get_or_create(first_id=low, second_id=high)
    if not created:
        raise ServiceError("pair_already_apart", "second")
    revisions.touch(tournament)
    return kept


@transaction.atomic
def allow_pair(kept: ForbiddenPair) -> None:
    """The two may sit at one table again."""
    tournament = lock_tournament(registrations=kept.first_id)
    ForbiddenPair.objects.filter(pk=kept.pk).delete()
    revisions.touch(tournament)


def pairs_kept_apart(tournament: Tournament) -> list[ForbiddenPair]:
    """The tournament's forbidden pairs, with both players, by the first's name."""
    return list(
        ForbiddenPair.objects.filter(first__tournament=tournament)
        .select_related("first__player__club", "second__player__club")
        .order_by("first__player__name", "second__player__name")
    )


def forbidden_pairs(tournament: Tournament) -> set[Pair]:
    """The tournament's forbidden pairs as pairs of player ids."""
    rows = ForbiddenPair.objects.filter(first__tournament=tournament).values_list(
        "first__player_id", "second__player_id"
    )
    return {pair(a, b) for a, b in rows}


def series_forbidden_pairs(series: Series) -> list[tuple[Seat, Seat]]:
    """The forbidden pairs the draw of ``series`` could not keep apart, in table and seat
    order."""
    forbidden = forbidden_pairs(series.tournament)
    if not forbidden:
        return []
    seats = list(
        Seat.objects.filter(series=series)
        .select_related("player", "table")
        .order_by("table__number", "position")
    )
    return [
        (a, b)
        for a, b in combinations(seats, 2)
        if a.table_id == b.table_id and pair(a.player_id, b.player_id) in forbidden
    ]

"""Check-in: issue the poster's link, find a player in the roster, check him in (through
the same service that enters players on the referee's page), and the desk's marks."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from skatliga.models import Arrival, CheckInLink, Player, Registration, Tournament
from skatliga.services import ServiceError, User, acting_user, register_players
from skatliga.services.common import lock_tournament

TOKEN_BYTES = 16
"""128 random bits: short enough for a poster's URL, and guessing is rate-limited."""
FOUND_AT_MOST = 8
SHORTEST_QUERY = 2


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@transaction.atomic
def checkin_link(tournament: Tournament, *, renew: bool = False) -> CheckInLink:
    """The tournament's active check-in link, issued now if it has none; ``renew`` revokes
    the old one and issues another."""
    tournament = lock_tournament(pk=tournament.pk)
    active = CheckInLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
    if renew:
        active.update(revoked_at=timezone.now())
    link = active.first()
    return link or CheckInLink.objects.create(tournament=tournament, token=new_token())


def is_token(text: str) -> bool:
    """Whether ``text`` has the shape of a token: URL-safe base64, as ``new_token`` makes."""
    return re.fullmatch(r"[A-Za-z0-9_-]{1,64}", text) is not None


def link_for_token(token: str) -> CheckInLink | None:
    """The unrevoked link with this token, with its tournament; None for a text that cannot
    be a token (a NUL or a stray character never reaches the database)."""
    if not is_token(token):
        return None
    return (
        CheckInLink.objects.select_related("tournament")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def find_players(query: str) -> list[Player]:
    """Roster players whose membership number is ``query``, or whose name holds each of its
    words; at most ``FOUND_AT_MOST``. ServiceError ``search_too_short``."""
    words = query.split()
    if not words or len("".join(words)) < SHORTEST_QUERY:
        raise ServiceError("search_too_short", "q")
    players = Player.objects.select_related("club").order_by("name", "pk")
    by_number = list(players.filter(number=" ".join(words))[:1])
    if by_number:
        return by_number
    where = Q()
    for word in words:
        where &= Q(name__icontains=word)
    return list(players.filter(where)[:FOUND_AT_MOST])


@transaction.atomic
def check_in(
    tournament: Tournament, *, player: Player | None = None, name: str = "", club: str = ""
) -> Arrival:
    """The player (found in the roster, or a guest by ``name`` and ``club``) is here: he is
    entered in the tournament as the referee enters players (``register_players``), once,
    and his arrival recorded, once. After the first draw he arrives ``late``.

    ServiceError ``player_name_missing`` (field ``name``), ``name_too_long`` or
    ``club_too_long``.
    """
    if player is None and not name.strip():
        raise ServiceError("player_name_missing", "name")
    if player is None:
        added, already = register_players(tournament, [(name, club)])
    else:
        added, already = register_players(tournament, players=[player])
    registration = (added or already)[0]
    return _arrive(registration, guest=player is None and not registration.player.number)


def _arrive(registration: Registration, *, guest: bool = False) -> Arrival:
    """The registration's arrival, recorded now unless it is already (the tournament is
    locked)."""
    arrival = Arrival.objects.filter(registration=registration).first()
    if arrival is not None:
        return arrival
    return Arrival.objects.create(
        registration=registration,
        token=new_token(),
        arrived_at=timezone.now(),
        guest=guest,
        late=registration.tournament.series.exists(),
    )


@transaction.atomic
def mark(
    registration: Registration,
    *,
    fee: str | None = None,
    late: bool | None = None,
    user: User = None,
) -> Arrival:
    """The desk's marks: the player is here (recorded now if he checked in at no phone),
    his entry fee (``Arrival.Fee``) and whether he came late. ServiceError ``fee_unknown``."""
    if fee is not None and fee not in Arrival.Fee.values:
        raise ServiceError("fee_unknown", "fee")
    lock_tournament(pk=registration.tournament_id)
    arrival = _arrive(registration)
    arrival = Arrival.objects.select_for_update().get(pk=arrival.pk)
    if fee is not None:
        arrival.fee, arrival.fee_marked_by = fee, acting_user(user)
    if late is not None:
        arrival.late = late
    arrival.save()
    return arrival


@dataclass(frozen=True, slots=True)
class DeskRow:
    registration: Registration
    arrival: Arrival | None


def desk_rows(tournament: Tournament) -> list[DeskRow]:
    """Every registered player: those here first, the last to arrive on top; then the
    others by name. Withdrawn players are left out."""
    registrations = (
        tournament.registrations.filter(withdrawn_at__isnull=True)
        .select_related("player__club", "arrival")
        .order_by("player__name", "pk")
    )
    rows = [DeskRow(r, getattr(r, "arrival", None)) for r in registrations]

    def order(row: DeskRow) -> tuple[bool, float]:
        return row.arrival is None, -row.arrival.arrived_at.timestamp() if row.arrival else 0.0

    return sorted(rows, key=order)


def desk_stamp(tournament: Tournament) -> str:
    """What changes whenever the desk's list does: an ETag for its poll."""
    registrations = tournament.registrations.aggregate(
        count=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_at__isnull=False))
    )
    arrivals = Arrival.objects.filter(registration__tournament=tournament).aggregate(
        count=Count("pk"), last=Max("updated_at")
    )
    last = arrivals["last"].timestamp() if arrivals["last"] else 0
    return (
        f'"desk-{tournament.pk}-{registrations["count"]}-{registrations["withdrawn"]}-'
        f'{arrivals["count"]}-{last}"'
    )

"""Check-in: issue the poster's link, find the players it may name, take a phone's claim
to the desk, check a player in when the desk confirms it (through the same service that
enters players on the referee's page), and the desk's marks.

Behind the poster's link nothing private is found and nothing enters the tournament or the
roster by itself (docs/security.md, "Check-in"): the search matches public names of the
players the link may name (:func:`claimable_players`), a phone's "this is me" or a guest's
name is a claim (``CheckInClaim``) that waits for the desk, and only the phone whose claim
the desk confirmed sees the player's personal link.
"""

from __future__ import annotations

import datetime
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum

from django.db import transaction
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet
from django.utils import timezone

from skatliga.models import (
    Arrival,
    CheckInClaim,
    CheckInLink,
    ListResult,
    Player,
    Registration,
    Tournament,
)
from skatliga.services import ServiceError, User, acting_user, register_players
from skatliga.services.common import lock_tournament
from skatliga.services.seating import roster_problems

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


def claimable_players(tournament: Tournament) -> QuerySet[Player]:
    """The players the tournament's check-in link may name: those registered for it (and
    not withdrawn), and those the public pages already show (a result in a series the public
    may see, ``ListResult.objects.public``). Nobody else of the roster is found or claimed
    behind the poster's link."""
    registered = Registration.objects.filter(
        tournament=tournament, player=OuterRef("pk"), withdrawn_at__isnull=True
    )
    shown = ListResult.objects.public().filter(player=OuterRef("pk"))
    return Player.objects.filter(Exists(registered) | Exists(shown))


def find_players(tournament: Tournament, query: str) -> list[Player]:
    """The claimable players (:func:`claimable_players`) whose public name holds each word
    of ``query``, at most ``FOUND_AT_MOST``: a player shown by initials is found by his
    initials alone, never by the name he keeps private, and a membership number finds
    nobody (it is not public either). ServiceError ``search_too_short``."""
    words = query.split()
    if not words or len("".join(words)) < SHORTEST_QUERY:
        raise ServiceError("search_too_short", "q")
    players = claimable_players(tournament).select_related("club")
    named = players.filter(initials_only=False)
    for word in words:
        named = named.filter(name__icontains=word)
    found = list(named.order_by("name", "pk")[:FOUND_AT_MOST])
    found += [
        player
        for player in players.filter(initials_only=True)
        if all(word.casefold() in player.public_name.casefold() for word in words)
    ]
    found.sort(key=lambda player: (player.public_name.casefold(), player.pk))
    return found[:FOUND_AT_MOST]


def claimable_player(tournament: Tournament, chosen: str) -> Player | None:
    """The claimable player whose id is ``chosen`` (the form's text), else None."""
    if not re.fullmatch(r"[0-9]{1,18}", chosen):
        return None
    return claimable_players(tournament).filter(pk=int(chosen)).first()


def guest_entry(name: str, club: str) -> tuple[str, str]:
    """A guest's name and club as the roster would keep them (spaces folded). ServiceError
    ``player_name_missing`` (field ``name``), ``name_invalid`` for a control character,
    ``name_too_long`` or ``club_too_long``."""
    name, club = " ".join(name.split()), " ".join(club.split())
    if not name:
        raise ServiceError("player_name_missing", "name")
    if any(ord(char) < 32 or ord(char) == 127 for char in name + club):
        raise ServiceError("name_invalid", "name")
    for problem in roster_problems([(name, club)]):
        raise ServiceError(problem.code, problem.code.removesuffix("_too_long"), **problem.params)
    return name, club


# --- claims: a phone's check-in, waiting for the desk ------------------------------------------


OPEN_CLAIMS_PER_PLAYER = 5
"""A player not here yet may be claimed this many times at once (by his phone, a second
phone, a stranger's); the desk sees each, and confirms the one whose phone is in front of it."""


class Standing(StrEnum):
    """What a new claim of a player would be (:func:`claim_standing`)."""

    FREE = "free"
    """He is not here yet: never counted, never refused for a flood."""
    DOUBTFUL = "doubtful"
    """He is checked in already: the desk decides; counted as a flood's would be."""
    FULL = "full"
    """He has :data:`OPEN_CLAIMS_PER_PLAYER` claims waiting: the desk first."""


def claim_standing(tournament: Tournament, player: Player) -> Standing:
    """Whether a new claim of ``player`` is free, doubtful or one too many (:class:`Standing`).
    No count of addresses can tell the player from a stranger who claimed him first, so a
    claim of a player not here yet is never refused for a flood; what bounds those is the
    number of claimable players times :data:`OPEN_CLAIMS_PER_PLAYER` (docs/security.md)."""
    arrived = Arrival.objects.filter(
        registration__tournament=tournament, registration__player=player
    ).exists()
    if arrived:
        return Standing.DOUBTFUL
    waiting = tournament.checkin_claims.filter(player=player, state=CheckInClaim.State.OPEN)
    return Standing.FULL if waiting.count() >= OPEN_CLAIMS_PER_PLAYER else Standing.FREE


def own_claim(
    tournament: Tournament,
    tokens: list[str],
    *,
    player: Player | None = None,
    name: str = "",
    club: str = "",
) -> CheckInClaim | None:
    """The phone's own claim (``tokens``, the claims it made) of the same player or guest,
    unless the desk refused it: asking twice is one claim."""
    claims = tournament.checkin_claims.filter(token__in=tokens).exclude(
        state=CheckInClaim.State.REFUSED
    )
    if player is not None:
        return claims.filter(player=player).first()
    return claims.filter(player__isnull=True, name=name, club=club).first()


@transaction.atomic
def claim(
    tournament: Tournament, *, player: Player | None = None, name: str = "", club: str = ""
) -> CheckInClaim:
    """A phone's check-in, for the desk to confirm: ``player`` of the roster (a claimable
    one, :func:`claimable_player`) or a guest by ``name`` and ``club`` (as
    :func:`guest_entry` gives them). Nothing else is written: no registration, no arrival,
    no player or club. Each claim has the next number of the tournament, which its phone
    and the desk show side by side."""
    if player is None:
        name, club = guest_entry(name, club)
    tournament = lock_tournament(pk=tournament.pk)
    last = tournament.checkin_claims.aggregate(last=Max("number"))["last"] or 0
    return CheckInClaim.objects.create(
        tournament=tournament,
        number=last + 1,
        token=new_token(),
        player=player,
        name="" if player else name,
        club="" if player else club,
    )


def claim_for_token(link: CheckInLink, token: str) -> CheckInClaim | None:
    """The claim behind a phone's confirmation page, in the link's tournament."""
    if not is_token(token):
        return None
    return (
        CheckInClaim.objects.select_related("player__club", "registration__player__club")
        .filter(tournament_id=link.tournament_id, token=token)
        .first()
    )


def _decide(tournament: Tournament, pk: int) -> tuple[Tournament, CheckInClaim]:
    """The tournament, locked, and its open claim ``pk``, locked. ServiceError
    ``claim_decided`` where the desk decided it already."""
    tournament = lock_tournament(pk=tournament.pk)
    found = (
        CheckInClaim.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=pk, tournament=tournament)
    )
    if not found.is_open:
        raise ServiceError("claim_decided")
    return tournament, found


@transaction.atomic
def confirm_claim(tournament: Tournament, pk: int, *, user: User = None) -> Arrival:
    """The desk confirms claim ``pk``: its player stands there. He is checked in
    (:func:`check_in`; a guest enters the roster now, not before) and the claim's phone
    may see his personal link. ServiceError ``claim_decided``."""
    tournament, found = _decide(tournament, pk)
    arrival = check_in(tournament, player=found.player, name=found.name, club=found.club)
    found.state = CheckInClaim.State.CONFIRMED
    found.registration = arrival.registration
    found.decided_at, found.decided_by = timezone.now(), acting_user(user)
    found.save()
    return arrival


@transaction.atomic
def refuse_claim(tournament: Tournament, pk: int, *, user: User = None) -> CheckInClaim:
    """The desk refuses claim ``pk``: nobody is checked in, its phone is told to come to
    the desk. ServiceError ``claim_decided``."""
    tournament, found = _decide(tournament, pk)
    found.state = CheckInClaim.State.REFUSED
    found.decided_at, found.decided_by = timezone.now(), acting_user(user)
    found.save()
    return found


@transaction.atomic
def check_in(
    tournament: Tournament, *, player: Player | None = None, name: str = "", club: str = ""
) -> Arrival:
    """The player (of the roster, or a guest by ``name`` and ``club``) is here, as the desk
    says (:func:`confirm_claim`): he is entered in the tournament as the referee enters
    players (``register_players``), once, and his arrival recorded, once. After the first
    draw he arrives ``late``.

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


@dataclass(frozen=True, slots=True)
class ClaimRow:
    """An open claim as the desk shows it: the player's full name (the desk is the
    referee's), and what the referee should know before confirming it."""

    claim: CheckInClaim
    name: str
    club: str
    here: datetime.datetime | None
    """When the player was checked in already, if he was."""
    again: bool
    """Whether the player was claimed more than once: the number on the phone tells."""


DESK_CLAIMS = 40
"""The open claims the desk lists, the newest; it finds any other by its number."""


@dataclass(frozen=True, slots=True)
class OpenClaims:
    rows: list[ClaimRow]
    waiting: int
    """How many claims wait in all (``rows`` may show fewer)."""


def open_claims(tournament: Tournament, number: int | None = None) -> OpenClaims:
    """The claims waiting for the desk, the newest :data:`DESK_CLAIMS` on top; with
    ``number``, that one alone (the number its phone shows)."""
    waiting = tournament.checkin_claims.filter(state=CheckInClaim.State.OPEN)
    shown = waiting if number is None else waiting.filter(number=number)
    claims = list(shown.select_related("player__club").order_by("-number")[:DESK_CLAIMS])
    players = {found.player_id for found in claims if found.player_id is not None}
    here = dict(
        Arrival.objects.filter(
            registration__tournament=tournament, registration__player__in=players
        ).values_list("registration__player", "arrived_at")
    )
    claimed = dict(
        tournament.checkin_claims.filter(player__in=players)
        .values("player")
        .annotate(claims=Count("pk"))
        .values_list("player", "claims")
    )
    rows = [
        ClaimRow(
            claim=found,
            name=found.player.name if found.player else found.name,
            club=str(found.player.club or "") if found.player else found.club,
            here=here.get(found.player_id) if found.player_id is not None else None,
            again=found.player_id is not None and claimed.get(found.player_id, 0) > 1,
        )
        for found in claims
    ]
    return OpenClaims(rows=rows, waiting=waiting.count())


def desk_stamp(tournament: Tournament) -> str:
    """What changes whenever the desk's list does: an ETag for its poll."""
    registrations = tournament.registrations.aggregate(
        count=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_at__isnull=False))
    )
    arrivals = Arrival.objects.filter(registration__tournament=tournament).aggregate(
        count=Count("pk"), last=Max("updated_at")
    )
    claims = tournament.checkin_claims.aggregate(
        count=Count("pk"), open=Count("pk", filter=Q(state=CheckInClaim.State.OPEN))
    )
    last = arrivals["last"].timestamp() if arrivals["last"] else 0
    return (
        f'"desk-{tournament.pk}-{registrations["count"]}-{registrations["withdrawn"]}-'
        f'{arrivals["count"]}-{last}-{claims["count"]}-{claims["open"]}"'
    )

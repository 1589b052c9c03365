"""The Skat rating kept current (docs/rating.md).

The ratings are a function of the closed lists alone: each closed list is one match of its
players ranked by their points on it (``ListResult.total``), rated in the order of
:data:`~skatliga.models.rating.ListKey` with :func:`skatliga.rating.model.rate`. A seat that a
substitute took over during the list is left out of it (neither of the two played the whole
list); a list with fewer than two players left is not rated.

Every change is a replay from a point in the order (:func:`replay`): the lists from there on
are read with the rating rows stored for them; a list is rated again where it is new, gone,
moved or has other points or players, or where a player of it was rated again before; every
other list keeps its rows, and its players the ratings it left them. The figures are the
same, to the last bit, as a replay of every list from the first (a test holds this): the model
is deterministic, each player's state before the point is the one his first stored row after
it started from, and floats are stored as the doubles they are.

- :func:`rate_list`: a list closed or reopened (``close_table``, ``reopen_table``);
- :func:`rate_tournament`: a tournament imported, re-scored or moved to another day;
- :func:`rate_player_lists`: a player's lists that moved to another player (a merge);
- :func:`rate_everything`: from the first list on (``manage.py rate_lists``), after a change
  of the model's parameters (:data:`~skatliga.rating.model.PARAMETERS`).

A request does only what is cheap. Where a task worker can run (:func:`worker_can_run`), it
replays at once only when at most :data:`CHEAP_ROWS` rating rows stand from the start on,
or from what is owed if earlier (a list closed at the end of the history, a tournament
imported there, a correction of a recent one), and rates at most :data:`MOST_IN_REQUEST`
lists; any other replay leaves the rows as they are, notes the day
(``RatingBook.stale_from``) from which every list is to be rated again, and enqueues the
background task ``skatliga.tasks.rating`` (one at a time), which does what is owed
(:func:`rate_owed`) with its progress reported. Where none can run, a replay inside a
request rates at most :data:`MOST_IN_REQUEST` lists and leaves a longer one to
``manage.py rate_lists`` the same way. The book's row is locked last of all the locks a
service takes (``services.common.lock_tournaments``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet

from skatliga.models import ListResult, Player, Table, Tournament
from skatliga.models.rating import (
    KEY_FIELDS,
    ListKey,
    PlayerRating,
    RatingBook,
    RatingChange,
)
from skatliga.rating import model
from skatliga.rating.model import PARAMETERS, Parameters, Skill

MOST_IN_REQUEST = 1000
"""The most lists a replay inside a request rates: about 5 s on two busy cores (the bench's
correction of its oldest list rated 2,889 lists in 15.6 s at load 7, docs/benchmarks.md),
a second or two on a quiet machine. Only where no task worker can run."""

CHEAP_ROWS = 100
"""The most rating rows that may stand from a replay's start on for a request to replay at
once where a task worker can run: about 25 lists rated before, a tenth of a second; more is
the background task's. Lists not rated yet (closed at the end of the history, a tournament
imported) are rated at once up to :data:`MOST_IN_REQUEST`."""

Report = Callable[[int, int, str], None]
"""How a replay reports its progress: lists done, lists in all, the step."""

_RESULT_KEY: tuple[str, str, str, str] = (
    "tournament__date",
    "tournament_id",
    "series__number",
    "table__number",
)
""":data:`ListKey`'s parts as paths from a ``ListResult``."""
_FIRST: ListKey = (datetime.date.min, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class RatedList:
    """A closed list as the rating sees it: its place in the order, its table, and its
    players (by seat) with their points."""

    key: ListKey
    table: int
    players: tuple[int, ...]
    points: tuple[int, ...]


@dataclass
class Replay:
    """What a replay did: lists rated again, rows written, players whose rating changed;
    ``deferred`` if it needed more lists than it may rate and left the work to
    ``manage.py rate_lists``."""

    lists: int = 0
    rows: int = 0
    players: set[int] = field(default_factory=set)
    deferred: bool = False


def _tournaments_from(start: ListKey) -> QuerySet[Tournament]:
    """The tournaments whose lists may stand at ``start`` or after it: its own and those
    after it. The rows of lists are narrowed to them (by an index each) and the lists of
    the start's tournament before the start dropped as they are read: a statement cheaper
    to build than one with the whole key (docs/benchmarks.md, the rating)."""
    day, tournament = start[0], start[1]
    return Tournament.objects.filter(Q(date__gt=day) | Q(date=day, pk__gte=tournament))


def closed_lists(start: ListKey | None = None) -> list[RatedList]:
    """The closed lists at ``start`` and after it (all without), in the rating's order."""
    results = ListResult.objects.filter(table__closed_at__isnull=False)
    if start is not None:
        results = results.filter(tournament_id__in=_tournaments_from(start).values("pk"))
    rows = results.order_by(*_RESULT_KEY, "position", "player_id").values_list(
        *_RESULT_KEY, "table_id", "position", "player_id", "total"
    )
    lists: list[RatedList] = []
    seats: list[tuple[int, int, int]] = []
    current: tuple[ListKey, int] | None = None

    def close() -> None:
        if current is None:
            return
        taken = [position for position, _player, _points in seats]
        whole = [(p, t) for position, p, t in seats if taken.count(position) == 1]
        if len(whole) >= 2:
            players, points = zip(*whole, strict=True)
            lists.append(RatedList(current[0], current[1], players, points))

    for day, tournament, series, number, table, position, player, total in rows:
        if current is None or current[1] != table:
            close()
            current, seats = ((day, tournament, series, number), table), []
            if start is not None and current[0] < start:
                current = None  # a list of the start's tournament before the start
        if current is not None:
            seats.append((position, player, total))
    close()
    return lists


@dataclass
class _Stored:
    """The rows stored for one list."""

    key: ListKey
    points: dict[int, int] = field(default_factory=dict)
    after: dict[int, Skill] = field(default_factory=dict)


def _stored(start: ListKey | None) -> tuple[dict[int, _Stored], dict[int, Skill]]:
    """The rating rows of lists at ``start`` and after it, by table; and each of their
    players' state before ``start``: the one his first row there started from."""
    rows = RatingChange.objects.all()
    if start is not None:
        day, tournament = start[0], start[1]
        rows = rows.filter(Q(played_on__gt=day) | Q(played_on=day, tournament_id__gte=tournament))
    found: dict[int, _Stored] = {}
    before: dict[int, Skill] = {}
    columns = ("table_id", "player_id", *KEY_FIELDS, "points", "lists")
    skills = ("mu_before", "sigma_before", "previous_on", "mu_after", "sigma_after")
    for table, player, day, event, series, number, points, lists, *skill in (
        rows.order_by(*KEY_FIELDS, "player_id").values_list(*columns, *skills).iterator(_CHUNK)
    ):
        mu_before, sigma_before, previous_on, mu_after, sigma_after = skill
        stored = found.get(table)
        if stored is None:
            key = (day, event, series, number)
            if start is not None and key < start:
                continue  # a list of the start's tournament before the start
            stored = found[table] = _Stored(key)
        stored.points[player] = points
        stored.after[player] = Skill(mu_after, sigma_after, lists, day)
        if player not in before:
            before[player] = Skill(mu_before, sigma_before, lists - 1, previous_on)
    return found, before


def replay(
    start: ListKey | None,
    players: Iterable[int] = (),
    *,
    everyone: bool = False,
    most: int | None = MOST_IN_REQUEST,
    parameters: Parameters = PARAMETERS,
    progress: Report | None = None,
) -> Replay:
    """Rate the closed lists from ``start`` on (every list without), as :mod:`this module
    <skatliga.services.rating>` says: those changed since they were rated, those of
    ``players`` (all with ``everyone``), and after them those of every player rated again.

    With ``most``, a replay that would rate more lists is left to ``manage.py rate_lists``
    (:class:`Replay` ``.deferred``). Runs in a transaction, the book's row locked.
    """
    # Without a savepoint of its own inside a caller's transaction: it raises no error of its
    # own to recover from, and a database error fails the caller's transaction.
    with transaction.atomic(savepoint=False):
        book = _locked_book()
        owed = _owed(book, parameters)
        if owed is not None:
            everyone = True
            start = None if owed == _FIRST or start is None else min(owed, start)
        done = _replay(start, set(players), everyone, most, parameters, progress)
        if done.deferred:
            _mark_stale(book, start)
            return done
        if book.parameters != parameters.fingerprint() or book.stale_from is not None:
            book.parameters = parameters.fingerprint()
            book.stale_from = None
            book.save(update_fields=["parameters", "stale_from"])
        return done


def _mark_stale(book: RatingBook, start: ListKey | None) -> None:
    """Note in the locked ``book`` that the lists from ``start`` on wait to be rated again."""
    day = datetime.date.min if start is None else start[0]
    if book.stale_from is None or day < book.stale_from:
        book.stale_from = day
        book.save(update_fields=["stale_from"])


_RECOMPUTE: list[Callable[[], object]] = []
"""What enqueues the background recompute: ``skatliga.tasks.rating.enqueue``, set by
``skatliga.apps`` (:func:`recompute_with`); a use case does not import the tasks above it."""


def recompute_with(enqueue: Callable[[], object]) -> None:
    """Let ``enqueue`` start the background recompute (once, on the site's start)."""
    _RECOMPUTE[:] = [enqueue]


def worker_can_run() -> bool:
    """Whether a background task will run the recompute: one is set (:func:`recompute_with`)
    and the tasks go to the database queue (``settings.TASKS``), which the worker that the
    start command keeps beside gunicorn takes (``skatliga.tasks.worker``; /healthz warns
    when none reports). Another backend would run the task inside the request or never."""
    backend = settings.TASKS.get("default", {}).get("BACKEND", "")
    return bool(_RECOMPUTE) and backend == "django_tasks_db.DatabaseBackend"


def _rows_after(start: ListKey, most: int) -> int:
    """How many rating rows stand at ``start`` and after it in the rating's order (lists
    rated before, which a replay from there may have to rate again), counted up to
    ``most + 1``: a range of the rows' key index, cheap however many there are."""
    day, tournament, series, number = start
    rows = RatingChange.objects.filter(
        Q(played_on__gt=day)
        | Q(played_on=day, tournament_id__gt=tournament)
        | Q(played_on=day, tournament_id=tournament, series_number__gt=series)
        | Q(
            played_on=day,
            tournament_id=tournament,
            series_number=series,
            table_number__gte=number,
        )
    )
    return len(rows.values_list("pk", flat=True)[: most + 1])


def in_request(start: ListKey, players: Iterable[int] = ()) -> Replay:
    """A replay asked for by a request (a list closed or corrected, a tournament re-scored,
    two players merged): at once where it is cheap, else left to the background task (see
    the module). Where no task worker can run, :func:`replay` with its bound."""
    if not worker_can_run():
        return replay(start, players)
    with transaction.atomic(savepoint=False):
        book = _locked_book()
        owed = _owed(book, PARAMETERS)
        first = start if owed is None else min(owed, start)
        if _rows_after(first, CHEAP_ROWS) <= CHEAP_ROWS:
            done = replay(start, players)
        else:
            _mark_stale(book, start)
            done = Replay(deferred=True)
        if done.deferred:
            for enqueue in _RECOMPUTE:
                enqueue()
        return done


def _locked_book() -> RatingBook:
    """The book's one row, locked (made on first use)."""
    book = RatingBook.objects.select_for_update().filter(pk=1).first()
    if book is None:
        RatingBook.objects.get_or_create(pk=1)
        book = RatingBook.objects.select_for_update().get(pk=1)
    return book


def _owed(book: RatingBook, parameters: Parameters) -> ListKey | None:
    """Where a replay of every list must start before anything else: the first list if
    nothing was rated yet (a site that closed lists before it rated them) or the stored
    ratings were made with other parameters, the book's ``stale_from`` if a replay was left
    for later; None if nothing is owed."""
    if not book.parameters:
        return _FIRST if Table.objects.filter(closed_at__isnull=False).exists() else None
    if book.parameters != parameters.fingerprint():
        return _FIRST
    if book.stale_from is not None:
        return _FIRST if book.stale_from == datetime.date.min else (book.stale_from, 0, 0, 0)
    return None


def _replay(
    start: ListKey | None,
    dirty: set[int],
    everyone: bool,
    most: int | None,
    p: Parameters,
    progress: Report | None = None,
) -> Replay:
    report = progress or (lambda done, total, step: None)
    report(0, 0, "reading")
    lists = closed_lists(start)
    done = Replay()
    if start is None:
        # Every list from the first: no stored row counts, every player starts anew.
        if most is not None and len(lists) > most:
            done.deferred = True
            return done
        stored: dict[int, _Stored] = {}
        before: dict[int, Skill] = {}
    else:
        stored, before = _stored(start)
    current = {list_.table for list_ in lists}
    gone = [table for table in stored if table not in current]
    for table in gone:
        dirty.update(stored[table].points)
    wanted = {player for list_ in lists for player in list_.players} - set(before)
    known = {} if start is None else _current(wanted)
    states: dict[int, Skill] = {}

    def state(player: int) -> Skill:
        found = states.get(player) or before.get(player) or known.get(player)
        return found or model.newcomer(p)

    rows: list[RatingChange] = []
    rated: list[int] = []
    for at, list_ in enumerate(lists):
        report(at, len(lists), "writing")
        old = stored.get(list_.table)
        unchanged = (
            old is not None
            and old.key == list_.key
            and old.points == dict(zip(list_.players, list_.points, strict=True))
        )
        if unchanged and not everyone and dirty.isdisjoint(list_.players):
            assert old is not None
            states.update(old.after)
            continue
        if most is not None and len(rated) >= most:
            done.deferred = True
            return done
        skills = [state(player) for player in list_.players]
        after = model.rate(skills, list_.points, list_.key[0], p)
        rows += _rows(list_, skills, after, p)
        states.update(zip(list_.players, after, strict=True))
        dirty.update(list_.players)
        rated.append(list_.table)
        done.players.update(list_.players)
        if old is not None:
            done.players.update(old.points)
    for table in gone:
        done.players.update(stored[table].points)
    if start is None:
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
    else:
        for chunk in _chunks([*(table for table in rated if table in stored), *gone]):
            RatingChange.objects.filter(table_id__in=chunk).delete()
    RatingChange.objects.bulk_create(rows, batch_size=_CHUNK)
    _keep_current({player: state(player) for player in done.players}, p)
    report(len(lists), len(lists), "writing")
    done.lists, done.rows = len(rated), len(rows)
    return done


_CHUNK = 2000
"""Rows or keys per statement in the replay's bulk reads and writes."""


def _chunks(keys: Iterable[int]) -> Iterable[list[int]]:
    ordered = sorted(keys)
    for at in range(0, len(ordered), _CHUNK):
        yield ordered[at : at + _CHUNK]


def _current(players: set[int]) -> dict[int, Skill]:
    """The stored current ratings of ``players`` (those who have one)."""
    found: dict[int, Skill] = {}
    for chunk in _chunks(players):
        for rating in PlayerRating.objects.filter(player_id__in=chunk):
            found[rating.player_id] = rating.skill
    return found


def _rows(
    list_: RatedList, before: list[Skill], after: list[Skill], p: Parameters
) -> list[RatingChange]:
    day, tournament, series, number = list_.key
    places = model.places(list_.points)
    return [
        RatingChange(
            player_id=player,
            table_id=list_.table,
            tournament_id=tournament,
            played_on=day,
            series_number=series,
            table_number=number,
            players=len(list_.players),
            points=points,
            place=place,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
            rating_before=old.rating(p),
            rating_after=new.rating(p),
            lists=new.lists,
            previous_on=old.last_played,
        )
        for player, points, place, old, new in zip(
            list_.players, list_.points, places, before, after, strict=True
        )
    ]


def _keep_current(states: dict[int, Skill], p: Parameters) -> None:
    """Each player's current rating as ``states`` leave it: written, or deleted where he
    has no rated list left."""
    none = [player for player, skill in states.items() if skill.last_played is None]
    for chunk in _chunks(none):
        PlayerRating.objects.filter(player_id__in=chunk).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player,
                mu=skill.mu,
                sigma=skill.sigma,
                rating=skill.rating(p),
                lists=skill.lists,
                last_played=skill.last_played,
            )
            for player, skill in sorted(states.items())
            if skill.last_played is not None
        ],
        batch_size=_CHUNK,
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "rating", "lists", "last_played"],
    )


def list_key(table: Table) -> ListKey:
    """Where ``table``'s list stands in the rating's order."""
    series = table.series
    return (series.tournament.date, series.tournament_id, series.number, table.number)


def rate_list(table: Table) -> Replay:
    """Rate a list that was closed, or take back the rating of one reopened, and rate the
    later lists of its players again where that changes them."""
    return in_request(list_key(table))


def rate_tournament(tournament: Tournament, *, since: datetime.date | None = None) -> Replay:
    """Rate a tournament's lists as they stand (imported, re-scored, or moved to another
    day: ``since`` then is its old day) and what follows them."""
    day = tournament.date if since is None else min(tournament.date, since)
    return in_request((day, tournament.pk, 0, 0))


def rate_player_lists(player: Player | int) -> Replay:
    """Rate again from the first list ``player`` was rated on: his lists were moved to
    another player (a merge) or taken from him."""
    pk = player if isinstance(player, int) else player.pk
    first = RatingChange.objects.for_player(pk).first()
    if first is None:
        return Replay()
    return in_request(first.key, [pk])


def rate_everything(*, most: int | None = None) -> Replay:
    """Rate every closed list again from the first (``manage.py rate_lists --all``)."""
    return replay(None, everyone=True, most=most)


def rate_owed(progress: Report | None = None) -> Replay | None:
    """Do what is owed (``manage.py rate_lists``, the background task): every list again if
    the parameters changed, every list from the book's ``stale_from`` on if a replay was
    left for later; None if nothing is owed."""
    with transaction.atomic():
        owed = _owed(_locked_book(), PARAMETERS)
        if owed is None:
            return None
        start = None if owed == _FIRST else owed
        return replay(start, everyone=True, most=None, progress=progress)

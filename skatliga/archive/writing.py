"""Writing an archive document that reading found valid: one transaction, all or nothing.

Games, seats, registrations and result rows, which nobody reads back by id, go to the
database's own bulk path (:func:`insert`): ``COPY … FROM STDIN`` on PostgreSQL, one prepared
``executemany`` on SQLite. ``Model.objects.bulk_create`` compiles every value of every row
through the field's SQL preparation, and most of an import's time went there. The values go
to the driver as they are (integers, strings, booleans, None; times adapted once per field),
the constraints are the database's as always, and the caller's transaction keeps it all or
nothing. ``bench/run.py`` sets the import (games per second: reading, scoring and writing)
against the floor, the same rows already built and scored written by this same bulk path.
On SQLite at small (a shared machine, so in ranges), import ÷ floor was 0.36–0.41 before the
archive became this package and 0.28–0.43 after (four runs each of ``bench/run.py``); as
medians of 6 × 10 documents, run alternately, 0.42–0.45 before and 0.43–0.45 after.
``bulk_create`` of the games alone, without reading or scoring, reaches 0.14–0.20 of the
floor: about half of what the whole import does on this path.
"""

from __future__ import annotations

import contextlib
import datetime
import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from operator import itemgetter
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.text import slugify

import scoring
from skatliga import revisions, services
from skatliga.archive.document import (
    BATCH,
    FORMAT,
    ArchiveError,
    ArchiveProblem,
    Document,
    ReadPlayer,
    ReadTable,
    chunks,
)
from skatliga.archive.reading import read_archive
from skatliga.models import (
    Change,
    Club,
    Game,
    ListResult,
    Objection,
    Player,
    RefereeCall,
    Registration,
    Season,
    Seat,
    Series,
    Table,
    Team,
    Tournament,
)
from skatliga.models.tournaments import new_sign_code


def load_archive(
    data: object,
    *,
    season: Season | None = None,
    match_day: int | None = None,
    teams: Mapping[str, Team] | None = None,
    user: services.User = None,
    once: bool = False,
    progress: Progress | None = None,
    then: Callable[[Tournament], None] | None = None,
) -> Tournament:
    """Create the tournament of a parsed ``skatliga-archive/1`` document, all or nothing.

    The whole document is checked first; :class:`ArchiveError` lists every problem and
    nothing is saved. ``season`` and ``match_day`` place the tournament in a league;
    ``teams`` gives the team a player (by his id in the document) plays for. With ``once``,
    a document whose tournament (name, date, venue) is here already is refused
    (``already_imported``), so that importing it again takes a deliberate second step.
    A finished tournament (every list complete) is published.

    ``progress(done, total, step)`` hears how far it is, a step per table read
    (``"reading"``) and per table written (``"writing"``), for a progress bar; ``then``
    gets the new tournament inside the import's transaction, for what must be saved with it.
    """
    ticks = _Ticks(progress, data)
    with _collector_paused():
        return _load(data, season, match_day, teams, user, once, ticks, then)


Progress = Callable[[int, int, str], None]


class _Ticks:
    """Counts the tables read and written for ``progress``: twice the document's tables."""

    def __init__(self, progress: Progress | None, data: object) -> None:
        self.progress = progress
        self.done = 0
        series = data.get("series") if isinstance(data, dict) else None
        self.total = 2 * sum(
            len(item["tables"])
            for item in (series if isinstance(series, list) else [])
            if isinstance(item, dict) and isinstance(item.get("tables"), list)
        )

    def reading(self) -> None:
        self.tick("reading")

    def writing(self) -> None:
        self.tick("writing")

    def say(self, step: str) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total, step)

    def tick(self, step: str) -> None:
        if self.progress is not None:
            self.done = min(self.done + 1, self.total)
            self.progress(self.done, self.total, step)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused: an import makes tens of thousands of small objects
    and frees none before it ends, and the collector would only scan them again and again
    (an eighth of an import's time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load(
    data: object,
    season: Season | None,
    match_day: int | None,
    teams: Mapping[str, Team] | None,
    user: services.User,
    once: bool,
    ticks: _Ticks,
    then: Callable[[Tournament], None] | None,
) -> Tournament:
    document = read_archive(data, ticks.reading)
    if once:
        existing = Tournament.objects.filter(
            name=document.name, date=document.date, venue=document.venue
        ).first()
        if existing is not None:
            raise ArchiveError(
                [
                    ArchiveProblem(
                        path="tournament", code="already_imported", params={"slug": existing.slug}
                    )
                ]
            )
    ticks.say("writing")  # before the transaction: seen on every database
    with transaction.atomic():
        tournament = _write(
            document,
            season,
            match_day,
            teams or {},
            user if user is not None and user.is_authenticated else None,
            ticks,
        )
        if then is not None:
            then(tournament)
        return tournament


def _write(
    document: Document,
    season: Season | None,
    match_day: int | None,
    teams: Mapping[str, Team],
    user: Any,
    ticks: _Ticks,
) -> Tournament:
    players = _create_players(document.players)
    now = timezone.now()
    complete = [
        len(table.games) == document.rounds * len(table.seats)
        for series in document.series
        for table in series.tables
    ]
    game_count = sum(len(t.games) for s in document.series for t in s.tables)
    if complete and all(complete):
        status = Tournament.Status.FINISHED
    elif game_count:
        status = Tournament.Status.RUNNING
    else:
        status = Tournament.Status.PLANNED
    tournament = Tournament.objects.create(
        name=document.name,
        slug=_unique_slug(document.name, document.date),
        date=document.date,
        starts_at=document.starts_at,
        venue=document.venue,
        address=document.address,
        objection_minutes=document.objection_minutes,
        season=season,
        match_day=match_day,
        rules=document.rules.preset,
        rule_options=document.rules.changes(),
        scoring=document.scoring,
        rounds_per_series=document.rounds,
        status=status,
    )
    team_ids = {players[p.id]: teams[p.id].pk for p in document.players if p.id in teams}
    # A player who only took a seat over during a list is not a participant: not registered.
    seated = {p for s in document.series for t in s.tables for p in t.seats}
    only_substitutes = {
        player
        for s in document.series
        for t in s.tables
        for player, _first in t.substitutes.values()
        if player not in seated
    }
    # Nobody needs the registrations' ids: written in the bulk path, without model instances.
    insert(
        Registration,
        [
            {
                "tournament_id": tournament.pk,
                "player_id": players[p.id],
                "team_id": team_ids.get(players[p.id]),
            }
            for p in document.players
            if p.id not in only_substitutes
        ],
    )
    series_rows = Series.objects.bulk_create(
        [Series(tournament=tournament, number=s.number) for s in document.series]
    )
    tables = Table.objects.bulk_create(
        [
            Table(
                series=series_row,
                number=table.number,
                size=len(table.seats),
                closed_at=now if len(table.games) == document.rounds * len(table.seats) else None,
            )
            for series_row, series in zip(series_rows, document.series, strict=True)
            for table in series.tables
        ]
    )
    read_tables = [table for series in document.series for table in series.tables]
    insert(
        Seat,
        [
            {
                "table_id": row.pk,
                "series_id": row.series_id,
                "position": position,
                "player_id": players[player_id],
                "substitute_id": players[table.substitutes[position][0]]
                if position in table.substitutes
                else None,
                "substitute_from": table.substitutes[position][1]
                if position in table.substitutes
                else None,
                "sign_code": new_sign_code(),
                "substitute_code": new_sign_code(),
            }
            for row, table in zip(tables, read_tables, strict=True)
            for position, player_id in enumerate(table.seats, start=1)
        ],
    )
    system = scoring.ListSystem(document.scoring)
    batch: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for row, table in zip(tables, read_tables, strict=True):
        size = len(table.seats)
        for number, (entry, scored) in enumerate(table.games, start=1):
            game = services.game_values(entry, scored)
            game.update(table_id=row.pk, number=number, table_size=size)
            batch.append(game)
        if len(batch) >= BATCH:
            insert(Game, batch)
            batch = []
        sittings = []
        for position, player in enumerate(table.seats, start=1):
            substitute, first = table.substitutes.get(position, (None, None))
            sittings.append(
                services.Sitting(
                    position,
                    players[player],
                    team_ids.get(players[player]),
                    None if substitute is None else players[substitute],
                    first,
                )
            )
        where = {
            "table_id": row.pk,
            "series_id": row.series_id,
            "tournament_id": tournament.pk,
            "season_id": tournament.season_id,
        }
        games = [
            (number, entry.declarer, scored)
            for number, (entry, scored) in enumerate(table.games, 1)
        ]
        results += services.result_rows(where, games, sittings, size, system, document.rules)
        ticks.writing()
    insert(Game, batch)
    insert(ListResult, results)
    _write_calls(tables, read_tables)
    insert(
        Change,
        [
            Change(
                user=user,
                tournament=tournament,
                action=Change.Action.IMPORTED,
                after={
                    "format": FORMAT,
                    "players": len(document.players),
                    "series": len(document.series),
                    "tables": len(tables),
                    "games": game_count,
                },
            )
        ],
    )
    published = []
    if status == Tournament.Status.FINISHED:
        # A finished tournament's lists are all closed: its results are final.
        published = services.publish_complete_series(tournament, user=user)
    for series_row, series in zip(series_rows, document.series, strict=True):
        # The window the archive's publication had, where the import published it too.
        if series.objections_until is not None and any(p.pk == series_row.pk for p in published):
            Series.objects.filter(pk=series_row.pk).update(objections_until=series.objections_until)
    if not published:
        # Publishing raised the revisions already, in this transaction.
        revisions.touch(tournament)
    services.rate_tournament(tournament)
    return tournament


def _write_calls(tables: Sequence[Table], read_tables: Sequence[ReadTable]) -> None:
    """The tables' calls and objections, with the moments the archive gives them (their
    ``created_at`` is set on insert, and written again after it)."""
    calls: list[tuple[RefereeCall, datetime.datetime]] = []
    objections: list[tuple[Objection, datetime.datetime]] = []
    for row, table in zip(tables, read_tables, strict=True):
        if not (table.calls or table.objections):
            continue
        for call in table.calls:
            made = RefereeCall(
                table=row,
                reason=call.reason,
                device=call.device,
                acknowledged_at=call.acknowledged_at,
            )
            calls.append((made, call.at))
        if not table.objections:
            continue
        games = dict(Game.objects.filter(table=row).values_list("number", "pk"))
        seats = dict(Seat.objects.filter(table=row).values_list("position", "pk"))
        for objection in table.objections:
            made_objection = Objection(
                game_id=games[objection.game],
                seat_id=seats[objection.seat],
                reason=objection.reason,
                device=objection.device,
                decided_at=objection.decided_at,
                decision=objection.decision,
                decision_reason=objection.decision_reason,
            )
            objections.append((made_objection, objection.at))
    if calls:
        made_calls = RefereeCall.objects.bulk_create([call for call, _at in calls])
        for made_call, (_made, at) in zip(made_calls, calls, strict=True):
            made_call.created_at = at
        RefereeCall.objects.bulk_update(made_calls, ["created_at"])
    if objections:
        made_objections = Objection.objects.bulk_create([o for o, _at in objections])
        for saved, (_saved, moment) in zip(made_objections, objections, strict=True):
            saved.created_at = moment
        Objection.objects.bulk_update(made_objections, ["created_at"])


def _create_players(players: Sequence[ReadPlayer]) -> dict[str, int]:
    """The database's player id for every player of the document, creating those not known."""
    new = [p for p in players if p.existing is None]
    club_names = sorted({p.club for p in new if p.club})
    clubs: dict[str, int] = {}
    for chunk in chunks(club_names):
        clubs.update(Club.objects.filter(name__in=chunk).values_list("name", "pk"))
    created = Club.objects.bulk_create(Club(name=name) for name in club_names if name not in clubs)
    clubs.update((club.name, club.pk) for club in created)
    rows = Player.objects.bulk_create(
        Player(name=p.name, club_id=clubs.get(p.club), number=p.number) for p in new
    )
    ids = {p.id: row.pk for p, row in zip(new, rows, strict=True)}
    ids.update((p.id, p.existing) for p in players if p.existing is not None)
    return ids


def _unique_slug(name: str, date: datetime.date) -> str:
    base = slugify(f"{name} {date.isoformat()}")[:72].strip("-") or "turnier"
    # The slug and every "<base>-…" in one statement, by the slug's index on both databases:
    # PostgreSQL's LIKE uses its pattern index, SQLite's GLOB (case-sensitive) its unique
    # index. A slug is [-a-z0-9_]: no wildcard of GLOB; LIKE's "_" only finds a few more.
    quote = connection.ops.quote_name
    table, slug = (
        quote(Tournament._meta.db_table),
        quote(str(Tournament._meta.get_field("slug").column)),
    )
    pattern = "GLOB %s" if connection.vendor == "sqlite" else "LIKE %s"
    wildcard = "*" if connection.vendor == "sqlite" else "%"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {slug} FROM {table} WHERE {slug} = %s OR {slug} {pattern}",
            [base, f"{base}-{wildcard}"],
        )
        taken = {row[0] for row in cursor.fetchall()}
    if base not in taken:
        return base
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"


_AS_THEY_ARE = (
    models.IntegerField,
    models.BooleanField,
    models.CharField,
    models.TextField,
    models.ForeignKey,
)
"""Fields whose Python values the drivers take unchanged; others (JSON, decimals, …) are
prepared by the field, once per value."""


def insert(model: type[models.Model], objects: Sequence[models.Model | Mapping[str, Any]]) -> None:
    """Insert ``objects`` into ``model``'s table: unsaved instances without primary keys, or
    mappings of attribute names to values (every field left out takes its default), which
    spare building a model instance for each row."""
    if not objects:
        return
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    now = timezone.now()
    base = {field.attname: field.get_default() for field in fields}
    # Set once for every row: auto_now fields, already adapted.
    constant: dict[str, Any] = {}
    adapt: dict[int, Callable[[Any], Any]] = {}
    for index, field in enumerate(fields):
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            constant[field.attname] = connection.ops.adapt_datetimefield_value(now)
        elif isinstance(field, models.DateTimeField):
            adapt[index] = connection.ops.adapt_datetimefield_value
        elif isinstance(field, models.DateField):
            adapt[index] = connection.ops.adapt_datefield_value
        elif not isinstance(field, _AS_THEY_ARE):
            adapt[index] = partial(field.get_db_prep_save, connection=connection)
    row_of = itemgetter(*(field.attname for field in fields))
    rows: list[Any] = [
        row_of({**base, **(obj.__dict__ if isinstance(obj, models.Model) else obj), **constant})
        for obj in objects
    ]
    if adapt:
        # None is NULL to every field and driver: only other values are prepared.
        for number, row in enumerate(rows):
            values = None
            for index, prepare in adapt.items():
                if row[index] is not None:
                    values = values or list(row)
                    values[index] = prepare(row[index])
            if values is not None:
                rows[number] = values
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(str(field.column)) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)

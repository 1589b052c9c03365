"""What changed, as numbers in the database: the keys of the cached public pages.

Every tournament and every season carries a ``revision``, a number raised in the same
transaction as any change its pages show (a game saved, corrected or deleted, a list closed or
reopened, a draw, a seat swap, an import, new settings, teams), and ``revised_at``, when.
A public page, CSV or PDF is cached under the revisions it was built from, read from the
database on every request: a change committed by one process (a gunicorn worker, a management
command) makes the next request in every other process miss its old entry, whatever cache
each of them has. Pages of other tournaments and seasons keep their revisions and stay cached.

- The services call :func:`touch` for the tournament they change (raising its season's too).
- A game saved, corrected or deleted changes one list: :func:`touch_list` raises that
  table's and its series' revisions with the tournament's and the season's, and leaves the
  tournament's ``frame_revision`` alone. A list's public page is keyed on the frame and its
  table's revision, a series' page on the frame and its series' revision
  (:func:`list_revision_of`): a save leaves the other lists and the other series cached,
  while the tournament's standings, the hall, the players' pages and the season (keyed on
  the tournament's or season's ``revision``) change with it. Every other change raises the
  frame, and so reaches every page of the tournament.
- Edits outside the services (the admin, the shell) reach the pages through the signals at
  the bottom: a renamed player, club, team or season raises every tournament and season that
  shows the name.

Revisions only ever grow, so a key once used never comes back with other content (a full
save of a row read earlier leaves its revision alone: ``models.league.KeepsRevision``); a key
is read before the data it covers, so a page stored under it is never older than the key.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import F, Q, QuerySet
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from skatliga.models import Club, Player, Season, Series, Table, Team, Tournament


def revision_of(model: type[Tournament | Season], slug: str) -> tuple[Any, ...] | None:
    """(id, revision, revised_at, language, objection minutes) of the tournament or season
    with ``slug``, None if there is none: all that a page served from the cache reads (a
    season has no objection window: 0).

    By hand, the one statement of the kind: the ORM's query (``filter(slug=…).values_list(…)
    .first()``) took 0.57 ms to build and run against 0.06 ms for this statement (SQLite, the
    bench's small season, best of 5 × 3,000), and a cached tournament page took 1.2–1.3 ms
    with it against 0.8–0.9 ms (``bench/run.py``, "from the cache")."""
    q = connection.ops.quote_name
    window = q("objection_minutes") if model is Tournament else "0"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {q('id')}, {q('revision')}, {q('revised_at')}, {q('language')}, {window} "
            f"FROM {q(model._meta.db_table)} WHERE {q('slug')} = %s",
            [slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    pk, revision, revised_at, language, minutes = row
    if revised_at is not None and timezone.is_naive(revised_at):  # SQLite: naive, in UTC
        revised_at = timezone.make_aware(revised_at, datetime.UTC)
    return pk, revision, revised_at, language, minutes


def objection_minute(revised_at: datetime.datetime | None, minutes: int) -> str:
    """The minute a tournament's pages are built in while an objection window may be
    running out, else "": part of their cache key, so that "Einspruch bis 21:45" turns into
    "endgültig" on time without a change to the data.

    A window ends ``minutes`` (on a full minute) after a series' publication, which raised
    the revision; so it has ended once ``minutes`` and one more have passed since the last
    change (``revised_at``). Without a window a page keeps its key until the next change.
    """
    now = timezone.now()
    if not minutes or revised_at is None:
        return ""
    if now - revised_at > datetime.timedelta(minutes=minutes + 1):
        return ""
    return now.strftime("%Y-%m-%dT%H:%M")


def list_revision_of(slug: str, series: int, table: int | None) -> tuple[Any, ...] | None:
    """(tournament's id, frame_revision, revised_at, language, objection minutes, series' id
    and revision, table's id and revision) for the list ``table`` of series ``series``
    (None: the series' page) of the tournament with ``slug``; the series' and table's parts
    None where there is none; None if there is no such tournament. By hand, as
    :func:`revision_of`: one statement, the tables joined by their numbers."""
    q = connection.ops.quote_name
    t, s, tb = (q(m._meta.db_table) for m in (Tournament, Series, Table))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {t}.{q('id')}, {t}.{q('frame_revision')}, {t}.{q('revised_at')}, "
            f"{t}.{q('language')}, {t}.{q('objection_minutes')}, {s}.{q('id')}, "
            f"{s}.{q('revision')}, "
            f"{tb}.{q('id')}, {tb}.{q('revision')} "
            f"FROM {t} LEFT JOIN {s} ON {s}.{q('tournament_id')} = {t}.{q('id')} "
            f"AND {s}.{q('number')} = %s "
            f"LEFT JOIN {tb} ON {tb}.{q('series_id')} = {s}.{q('id')} AND {tb}.{q('number')} = %s "
            f"WHERE {t}.{q('slug')} = %s",
            [series, table if table is not None else 0, slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    pk, frame, revised_at, language, *rest = row
    if revised_at is not None and timezone.is_naive(revised_at):  # SQLite: naive, in UTC
        revised_at = timezone.make_aware(revised_at, datetime.UTC)
    return (pk, frame, revised_at, language, *rest)


def list_mark(frame_revision: int, table_revision: int) -> str:
    """What a list's page says its rows show, so that a save can answer with only the rows it
    changed (``list_page.saved_answer``): the tournament's frame and the table's revision.
    A game saved, corrected or deleted raises the table's; every other change that could
    alter a row (settings that re-score the lists) the frame."""
    return f"{frame_revision}.{table_revision}"


def touch(tournament: Tournament) -> None:
    """Mark ``tournament`` (and its season) changed: call inside the changing transaction.
    Its frame changes too: every page of the tournament is built anew."""
    now = timezone.now()
    raised = {"revision": F("revision") + 1, "revised_at": now}
    Tournament.objects.filter(pk=tournament.pk).update(
        frame_revision=F("frame_revision") + 1, **raised
    )
    if tournament.season_id is not None:
        Season.objects.filter(pk=tournament.season_id).update(**raised)


def touch_list(table: Table) -> None:
    """Mark one list's games changed (a game saved, corrected, deleted): the table, its
    series, its tournament and season, not the tournament's frame. Call inside the changing
    transaction, ``table.series.tournament`` loaded.

    On every save of a game: one statement per row raised (:func:`_raise_revision`)."""
    now = timezone.now()
    tournament = table.series.tournament
    _raise_revision(Table, table.pk)
    _raise_revision(Series, table.series_id)
    _raise_revision(Tournament, tournament.pk, now)
    if tournament.season_id is not None:
        _raise_revision(Season, tournament.season_id, now)


def _raise_revision(
    model: type[Table | Series | Tournament | Season],
    pk: int,
    at: datetime.datetime | None = None,
) -> None:
    """``model.objects.filter(pk=pk).update(revision=F("revision") + 1)``, and
    ``revised_at=at`` if given, by hand as :func:`revision_of` reads: the ORM's update,
    built and compiled on each save, took the four of :func:`touch_list` 1.6 ms of a save's
    CPU time, written so 0.6 ms (PostgreSQL, the bench's medium season, a busy machine)."""
    q = connection.ops.quote_name
    revised = f", {q('revised_at')} = %s" if at is not None else ""
    params: list[Any] = [connection.ops.adapt_datetimefield_value(at)] if at is not None else []
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(model._meta.db_table)} SET {q('revision')} = {q('revision')} + 1"
            f"{revised} WHERE {q('id')} = %s",
            [*params, pk],
        )


def touch_tournaments(
    tournaments: QuerySet[Tournament], *, season_ids: Iterable[int] | None = None
) -> None:
    """Raise the revision of every tournament in ``tournaments`` and, unless ``season_ids``
    names the seasons to raise instead, of their seasons."""
    now = timezone.now()
    tournaments.update(
        revision=F("revision") + 1, frame_revision=F("frame_revision") + 1, revised_at=now
    )
    if season_ids is None:
        seasons = tournaments.exclude(season=None).values("season_id")
        Season.objects.filter(pk__in=seasons).update(revision=F("revision") + 1, revised_at=now)
    else:
        touch_seasons(season_ids)


def touch_seasons(season_ids: Iterable[int]) -> None:
    """Raise the revision of the seasons (their own pages: names, teams, match days)."""
    ids = list(season_ids)
    if ids:
        Season.objects.filter(pk__in=ids).update(
            revision=F("revision") + 1, revised_at=timezone.now()
        )


# --- edits outside the services --------------------------------------------------------------


def _touch_where(condition: Q, season_ids: Iterable[int] = ()) -> None:
    touch_tournaments(Tournament.objects.filter(condition).distinct())
    touch_seasons(season_ids)


@receiver(post_save, sender=Tournament)
@receiver(post_delete, sender=Tournament)
def _tournament_changed(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    # Its season lists it by name. A changed tournament's own pages show its fields: raised
    # whoever saved it (the services raise it too; a revision raised twice is still new).
    if kwargs.get("created") is False:
        touch_tournaments(Tournament.objects.filter(pk=instance.pk))
    elif instance.season_id is not None:
        touch_seasons([instance.season_id])


@receiver(post_save, sender=Series)
def _series_changed(sender: Any, instance: Series, **kwargs: Any) -> None:
    # Publishing a series (final, no longer provisional) changes how its pages show it.
    touch_tournaments(Tournament.objects.filter(pk=instance.tournament_id))


@receiver(post_save, sender=Season)
def _season_changed(sender: Any, instance: Season, created: bool, **kwargs: Any) -> None:
    if not created:
        touch_tournaments(Tournament.objects.filter(season=instance), season_ids=[instance.pk])


@receiver(post_save, sender=Player)
@receiver(post_delete, sender=Player)
def _player_changed(sender: Any, instance: Player, **kwargs: Any) -> None:
    _touch_where(Q(registrations__player=instance) | Q(results__player=instance))


@receiver(post_save, sender=Club)
@receiver(post_delete, sender=Club)
def _club_changed(sender: Any, instance: Club, **kwargs: Any) -> None:
    _touch_where(
        Q(registrations__player__club=instance) | Q(registrations__team__club=instance),
        Team.objects.filter(club=instance).values_list("season_id", flat=True),
    )


@receiver(post_save, sender=Team)
@receiver(post_delete, sender=Team)
def _team_changed(sender: Any, instance: Team, **kwargs: Any) -> None:
    _touch_where(Q(registrations__team=instance), [instance.season_id])


@receiver(m2m_changed, sender=Team.players.through)
def _team_players_changed(sender: Any, instance: Any, action: str, **kwargs: Any) -> None:
    if not action.startswith("post_"):
        return
    if isinstance(instance, Team):
        touch_seasons([instance.season_id])
    elif isinstance(instance, Player):
        touch_seasons(instance.teams.values_list("season_id", flat=True))

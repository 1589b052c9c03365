"""The referee's change log in words: what each kind of ``Change`` stored, with the names of
the players, tables, teams and seasons it refers to by id, in the referee's language.

A change stores plain data (``before`` and ``after``): ids, choice values, timestamps.
:func:`change_names` reads the names a page of changes needs in at most four queries, and
:func:`describe_change` turns one change into a line; nothing of it is shown as raw data.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django_stubs_ext import StrPromise

from skatliga.messages import DRAW_METHODS, SUBSTITUTE_ACTIONS, describe_substitute
from skatliga.models import Change, Objection, Player, Season, Signature, Table, Team, Tournament
from skatliga.words import describe_game

CHANGE_KEYS: dict[str, StrPromise] = {
    # What a change stores beside a tournament's settings (their own field names).
    "tables": gettext_lazy("Tische"),
    "repeat_pairs": gettext_lazy("wiederholte Tischpartner"),
    "forbidden_together": gettext_lazy("getrennte Paare"),
    "method": gettext_lazy("Auslosung"),
    "avoid_repeats": gettext_lazy("Wiederholte Tischpartner vermeiden"),
    "series": gettext_lazy("Serie"),
    "published_at": gettext_lazy("veröffentlicht"),
    "seats": gettext_lazy("Plätze"),
    "seat": pgettext_lazy("seat", "Platz"),
    "signed": gettext_lazy("unterschrieben"),
    "player": gettext_lazy("Spieler"),
    "players": pgettext_lazy("Mehrzahl", "Spieler"),
    "after_series": gettext_lazy("nach Serie"),
    "referees": gettext_lazy("Turnierleiter"),
    "team": gettext_lazy("Mannschaft"),
    "teams": gettext_lazy("Mannschaften"),
    "picked": gettext_lazy("gewählt"),
    "signed_with": gettext_lazy("Unterschrift"),
    "decision": gettext_lazy("Entscheidung"),
    "signatures": gettext_lazy("Unterschriften"),
    "format": gettext_lazy("Format"),
    "games": gettext_lazy("Spiele"),
    "club": gettext_lazy("Verein"),
    "name": gettext_lazy("Name"),
    "number": gettext_lazy("Nummer"),
}
"""The words for a change's keys; a tournament's settings are named by their fields."""

CHANGE_VALUES: dict[str, dict[str, StrPromise]] = {
    "method": DRAW_METHODS,
    "signed_with": dict(Signature.Method.choices),
    "decision": dict(Objection.Decision.choices),
    "picked": {"first": gettext_lazy("Liste"), "second": gettext_lazy("Zweiteingabe")},
}
"""The words for the values of closed sets a change stores."""


@dataclass(frozen=True, slots=True)
class ChangeNames:
    """The names of what changes refer to by id: players, tables (their numbers), teams,
    seasons."""

    players: Mapping[int, str] = field(default_factory=dict)
    tables: Mapping[int, int] = field(default_factory=dict)
    teams: Mapping[int, str] = field(default_factory=dict)
    seasons: Mapping[int, str] = field(default_factory=dict)

    def player(self, pk: Any) -> str:
        return self.players.get(_int(pk), "—" if pk is None else f"#{pk}")

    def team(self, pk: Any) -> str:
        return self.teams.get(_int(pk), "—" if pk is None else f"#{pk}")


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def change_names(changes: Iterable[Change]) -> ChangeNames:
    """The names the ``changes`` refer to by id, one query per kind of name they need."""
    players: set[int] = set()
    tables: set[int] = set()
    teams: set[int] = set()
    seasons: set[int] = set()
    for change in changes:
        before = change.before if isinstance(change.before, dict) else {}
        after = change.after if isinstance(change.after, dict) else {}
        if change.action == Change.Action.TABLES_DRAWN:
            players.update(_int(p) for group in after.get("tables") or () for p in group)
            players.update(_int(p) for pair in after.get("forbidden_together") or () for p in pair)
        elif change.action == Change.Action.SEATS_SWAPPED:
            for seat in [*(before.get("seats") or ()), *(after.get("seats") or ())]:
                tables.add(_int(seat[0]))
                players.add(_int(seat[2]))
        for data in (before, after):
            for player, team in (data.get("teams") or {}).items():
                players.add(_int(player))
                teams.add(_int(team))
            if data.get("season") is not None:
                seasons.add(_int(data["season"]))
    return ChangeNames(
        players=dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
        if players
        else {},
        tables=dict(Table.objects.filter(pk__in=tables).values_list("pk", "number"))
        if tables
        else {},
        teams=dict(Team.objects.filter(pk__in=teams).values_list("pk", "name")) if teams else {},
        seasons=dict(Season.objects.filter(pk__in=seasons).values_list("pk", "name"))
        if seasons
        else {},
    )


def _key_word(key: str) -> str:
    if key in CHANGE_KEYS:
        return str(CHANGE_KEYS[key])
    try:
        field = Tournament._meta.get_field(key)
    except FieldDoesNotExist:
        return key.replace("_", " ")
    return str(getattr(field, "verbose_name", key))


def _moment(value: str) -> str:
    """A stored timestamp as the referee's language writes a date and time."""
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return value
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "SHORT_DATETIME_FORMAT")


def _value(key: str, value: Any, names: ChangeNames) -> str:
    """One stored value in words: a choice's label, a name for an id, yes or no, a date,
    lists and mappings spelt out; never JSON."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return _("ja") if value else _("nein")
    words = CHANGE_VALUES.get(key)
    if words is None:
        try:
            choices = Tournament._meta.get_field(key).flatchoices  # type: ignore[union-attr]
        except (FieldDoesNotExist, AttributeError):
            choices = None
        words = dict(choices) if choices else None
    if words is not None and isinstance(value, str) and value in words:
        return str(words[value])
    if key == "season":
        return names.seasons.get(_int(value), str(value))
    if isinstance(value, str) and key.endswith("_at"):
        return _moment(str(value))
    if isinstance(value, str) and key == "date":
        try:
            return formats.date_format(datetime.date.fromisoformat(value), "SHORT_DATE_FORMAT")
        except ValueError:
            return value
    if isinstance(value, dict):
        if "name" in value:
            extra = [value.get("club")] + (
                [_("Nr. %(number)s") % {"number": value["number"]}] if value.get("number") else []
            )
            shown = ", ".join(str(x) for x in extra if x)
            return f"{value['name']} ({shown})" if shown else str(value["name"])
        return ", ".join(f"{_key_word(k)}: {_value(k, v, names)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_value(key, item, names) for item in value)
    return str(value)


def _generic(change: Change, names: ChangeNames) -> str:
    """Each key whose value differs as ``key: before → after``; keys only before or after
    as they were or became."""
    before = change.before if isinstance(change.before, dict) else {}
    after = change.after if isinstance(change.after, dict) else {}
    if not isinstance(change.before, dict) and change.before is not None:
        before = {"": change.before}
    if not isinstance(change.after, dict) and change.after is not None:
        after = {"": change.after}
    parts = []
    for key in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(key), after.get(key)
        if key in ("teams",):
            text = _teams(old or {}, new or {}, names)
        elif key in before and key in after:
            if old == new:
                continue
            text = f"{_value(key, old, names)} → {_value(key, new, names)}"
        elif key in before:
            text = f"{_value(key, old, names)} → —"
        else:
            text = _value(key, new, names)
        parts.append(f"{_key_word(key)}: {text}" if key else text)
    return "; ".join(parts)


def _teams(before: Mapping[str, Any], after: Mapping[str, Any], names: ChangeNames) -> str:
    """Players moved between teams: "Anna Berg: — → Kreuz Buben"."""
    return ", ".join(
        f"{names.player(player)}: {names.team(before.get(player))} → "
        f"{names.team(after.get(player))}"
        for player in [*before, *(p for p in after if p not in before)]
    )


def _drawn(change: Change, names: ChangeNames) -> str:
    after = change.after if isinstance(change.after, dict) else {}
    tables = "; ".join(
        _("Tisch %(number)s: %(players)s")
        % {"number": number, "players": ", ".join(names.player(p) for p in group)}
        for number, group in enumerate(after.get("tables") or (), start=1)
    )
    parts = [tables] if tables else []
    if "repeat_pairs" in after:
        parts.append(f"{_key_word('repeat_pairs')}: {after['repeat_pairs']}")
    if after.get("forbidden_together"):
        pairs = ", ".join(
            " + ".join(names.player(p) for p in pair) for pair in after["forbidden_together"]
        )
        parts.append(f"{_key_word('forbidden_together')}: {pairs}")
    for key in ("method", "avoid_repeats"):
        if key in after:
            parts.append(f"{_key_word(key)}: {_value(key, after[key], names)}")
    return "; ".join(parts)


def _swapped(change: Change, names: ChangeNames) -> str:
    before = change.before if isinstance(change.before, dict) else {}
    seats = before.get("seats") or ()
    where = [
        _("%(player)s (Tisch %(table)s, Platz %(seat)s)")
        % {
            "player": names.player(player),
            "table": names.tables.get(_int(table), "?"),
            "seat": position,
        }
        for table, position, player in seats
    ]
    return " ↔ ".join(where)


def _published(change: Change, names: ChangeNames) -> str:
    before = change.before if isinstance(change.before, dict) else {}
    after = change.after if isinstance(change.after, dict) else {}
    moment = after.get("published_at") or before.get("published_at")
    if change.action == Change.Action.SERIES_WITHDRAWN:
        return _("Serie %(series)s, veröffentlicht am %(moment)s: jetzt vorläufig") % {
            "series": after.get("series", before.get("series", "")),
            "moment": _moment(str(moment)) if moment else "—",
        }
    return _("Serie %(series)s, veröffentlicht am %(moment)s") % {
        "series": after.get("series", ""),
        "moment": _moment(str(moment)) if moment else "—",
    }


def _withdrawn(change: Change, names: ChangeNames) -> str:
    after = change.after if isinstance(change.after, dict) else {}
    return _("%(player)s, nach Serie %(series)s") % {
        "player": _value("player", after.get("player"), names),
        "series": after.get("after_series", "—"),
    }


def _merged(change: Change, names: ChangeNames) -> str:
    before = change.before if isinstance(change.before, dict) else {}
    after = change.after if isinstance(change.after, dict) else {}
    return _("%(dropped)s in %(kept)s") % {
        "dropped": _value("player", before.get("player"), names),
        "kept": _value("player", after.get("player"), names),
    }


def _seat_player(change: Change, names: ChangeNames) -> str:
    """A signature or an objection: who at which seat, and how he signed."""
    after = change.after if isinstance(change.after, dict) else {}
    text = _("%(player)s (Platz %(seat)s)") % {
        "player": after.get("player", ""),
        "seat": after.get("seat", ""),
    }
    if "signed_with" in after:
        text += f" · {_value('signed_with', after['signed_with'], names)}"
    return text


def _decided(change: Change, names: ChangeNames) -> str:
    after = change.after if isinstance(change.after, dict) else {}
    return _("Platz %(seat)s: %(decision)s") % {
        "seat": after.get("seat", ""),
        "decision": _value("decision", after.get("decision"), names),
    }


def _cleared(change: Change, names: ChangeNames) -> str:
    before = change.before if isinstance(change.before, dict) else {}
    count = _int(before.get("signatures"))
    return ngettext(
        "%(count)s Unterschrift gelöscht", "%(count)s Unterschriften gelöscht", count
    ) % {"count": count}


def _closed(change: Change, names: ChangeNames) -> str:
    after = change.after if isinstance(change.after, dict) else {}
    if not after:
        return ""
    return _("%(signed)s von %(seats)s unterschrieben") % {
        "signed": after.get("signed", "—"),
        "seats": after.get("seats", "—"),
    }


def _picked(change: Change, names: ChangeNames) -> str:
    before = change.before if isinstance(change.before, dict) else {}
    after = change.after if isinstance(change.after, dict) else {}
    versions = CHANGE_VALUES["picked"]
    shown = " | ".join(
        f"{versions[key]}: {describe_game(before[key], {}) if before.get(key) else '—'}"
        for key in versions
    )
    chosen = _("gewählt: %(version)s") % {"version": _value("picked", after.get("picked"), names)}
    return f"{shown} → {chosen}" if shown else chosen


def _imported(change: Change, names: ChangeNames) -> str:
    after = change.after if isinstance(change.after, dict) else {}
    return _("%(players)s Spieler, %(series)s Serien, %(tables)s Tische, %(games)s Spiele") % {
        key: after.get(key, 0) for key in ("players", "series", "tables", "games")
    }


DESCRIBERS: dict[str, Callable[[Change, ChangeNames], str]] = {
    Change.Action.TABLES_DRAWN: _drawn,
    Change.Action.SEATS_SWAPPED: _swapped,
    Change.Action.SERIES_PUBLISHED: _published,
    Change.Action.SERIES_WITHDRAWN: _published,
    Change.Action.PLAYER_WITHDRAWN: _withdrawn,
    Change.Action.PLAYERS_MERGED: _merged,
    Change.Action.LIST_SIGNED: _seat_player,
    Change.Action.OBJECTION_FILED: _seat_player,
    Change.Action.OBJECTION_DECIDED: _decided,
    Change.Action.SIGNATURES_CLEARED: _cleared,
    Change.Action.LIST_CLOSED: _closed,
    Change.Action.ENTRY_PICKED: _picked,
    Change.Action.IMPORTED: _imported,
}
"""The kinds of change that have words of their own; the others (a tournament's settings)
name each key that changed."""


def _is_game(data: Any) -> bool:
    return isinstance(data, dict) and bool({"game", "passed", "ramsch"} & set(data))


def describe_change(change: Change, names: ChangeNames | None = None) -> str:
    """What a ``Change`` changed, in one line for the change log: a game in words
    (``words.describe_game``), a seat taken over as ``describe_substitute`` words it, the
    kinds in ``DESCRIBERS`` by their own words, a tournament's settings as
    ``key: before → after``. ``names`` (:func:`change_names`) names the players, tables and
    teams the change refers to by id."""
    names = names if names is not None else ChangeNames()
    if change.action in SUBSTITUTE_ACTIONS:
        return f"{describe_substitute(change.before)} → {describe_substitute(change.after)}"
    if _is_game(change.before) or _is_game(change.after):
        games = [describe_game(data, {}) for data in (change.before, change.after) if data]
        return " → ".join(games)
    describer = DESCRIBERS.get(change.action)
    if describer is not None:
        return describer(change, names)
    return _generic(change, names)

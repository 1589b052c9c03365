"""A division's and a team's match days as an iCalendar feed (RFC 5545, written by the
``icalendar`` library): a phone or a club's website subscribes to
``/league/divisions/<id>/calendar.ics`` or ``/league/teams/<id>/calendar.ics``. Only a
published schedule is shown; each group is one event at its venue."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

import icalendar
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from skatliga.models import Division, MatchGroup, Team

CALENDAR = "text/calendar; charset=utf-8"
HOURS = 6
"""How long a match day's event lasts when it has a start time."""


def _event(request: HttpRequest, group: MatchGroup) -> icalendar.Event:
    day = group.match_day
    division = day.division
    teams = ", ".join(t.name for t in sorted(group.teams.all(), key=lambda t: t.name))
    event = icalendar.Event()
    event.add("uid", f"league-group-{group.pk}@{request.get_host().split(':')[0]}")
    event.add("dtstamp", timezone.now())
    if group.starts_at is None:
        event.add("dtstart", group.date)
        event.add("dtend", group.date + datetime.timedelta(days=1))
    else:
        start = timezone.make_aware(datetime.datetime.combine(group.date, group.starts_at))
        event.add("dtstart", start)
        event.add("dtend", start + datetime.timedelta(hours=HOURS))
    summary = _("%(division)s: %(day)s. Spieltag, Gruppe %(group)s") % {
        "division": division,
        "day": day.number,
        "group": group.number,
    }
    event.add("summary", summary)
    host = _("Gastgeber: %(team)s") % {"team": group.host.name} if group.host else ""
    event.add("description", "\n".join(part for part in (teams, host) if part))
    where = ", ".join(part for part in (group.venue, group.address) if part)
    if where:
        event.add("location", where)
    return event


def _feed(request: HttpRequest, name: str, groups: Iterable[MatchGroup]) -> HttpResponse:
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//skatliga//league//DE")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    for group in groups:
        calendar.add_component(_event(request, group))
    response = HttpResponse(calendar.to_ical(), content_type=CALENDAR)
    response["Cache-Control"] = "public, max-age=300"
    return response


def _groups(**where: object) -> Iterable[MatchGroup]:
    return (
        MatchGroup.objects.filter(match_day__division__published_at__isnull=False, **where)
        .select_related("match_day__division__level", "host")
        .prefetch_related("teams")
        .order_by("date", "match_day__number", "number")
    )


def division_feed(request: HttpRequest, pk: int) -> HttpResponse:
    division = get_object_or_404(Division.objects.select_related("level"), pk=pk)
    if division.published_at is None:
        raise Http404
    return _feed(request, str(division), _groups(match_day__division=division))


def team_feed(request: HttpRequest, pk: int) -> HttpResponse:
    team = get_object_or_404(Team, pk=pk, division__published_at__isnull=False)
    return _feed(request, team.name, _groups(teams=team))

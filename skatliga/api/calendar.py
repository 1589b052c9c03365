"""The match days and tournaments as an iCalendar feed (RFC 5545): a club website or a
phone subscribes to ``/api/v1/calendar.ics`` (``?season=`` for one season's)."""

import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, set_response_etag

from skatliga.api.views import LOOKED_UP, Text, api, season_named
from skatliga.models import Tournament

CALENDAR = "text/calendar; charset=utf-8"


def text(value: str) -> str:
    r"""``value`` as an iCalendar TEXT.

    >>> text("Saal 2; Hauptstr. 1, Bonn")
    'Saal 2\\; Hauptstr. 1\\, Bonn'
    """
    for char in ("\\", ";", ","):
        value = value.replace(char, "\\" + char)
    return value.replace("\r\n", "\\n").replace("\n", "\\n")


def folded(line: str) -> str:
    """``line`` folded at 75 octets, as RFC 5545 section 3.1 asks."""
    parts: list[str] = []
    current = ""
    for char in line:
        if len((current + char).encode()) > (75 if not parts else 74):
            parts.append(current)
            current = ""
        current += char
    return "\r\n ".join([*parts, current])


def utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def event(request: HttpRequest, tournament: Tournament) -> list[str]:
    if tournament.starts_at is None:
        start = f"DTSTART;VALUE=DATE:{tournament.date:%Y%m%d}"
    else:
        local = datetime.datetime.combine(tournament.date, tournament.starts_at)
        start = f"DTSTART:{utc(timezone.make_aware(local))}"
    where = ", ".join(part for part in (tournament.venue, tournament.address) if part)
    stamp = tournament.revised_at or timezone.now()
    url = request.build_absolute_uri(reverse("standings", args=[tournament.slug]))
    lines = [
        "BEGIN:VEVENT",
        f"UID:tournament-{tournament.pk}@{request.get_host().split(':')[0]}",
        f"DTSTAMP:{utc(stamp)}",
        start,
        f"SUMMARY:{text(tournament.name)}",
        f"URL:{url}",
    ]
    if where:
        lines.append(f"LOCATION:{text(where)}")
    if tournament.season is not None:
        lines.append(f"CATEGORIES:{text(tournament.season.name)}")
    return [*lines, "END:VEVENT"]


@api.get(
    "/calendar.ics",
    response=LOOKED_UP,
    tags=["tournaments"],
    openapi_extra={
        "responses": {
            200: {
                "description": "An iCalendar (RFC 5545): one event per tournament.",
                "content": {"text/calendar": {"schema": {"type": "string"}}},
            }
        }
    },
)
def calendar(request: HttpRequest, season: Text | None = None) -> Any:
    """Every tournament and match day (a season's, with ``season``) as a calendar: date,
    start time and address where known, and the link to its page."""
    listed = Tournament.objects.select_related("season").order_by("date", "pk")
    if season is not None:
        listed = listed.filter(season=season_named(season))
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//skatliga//calendar//DE"]
    lines += ["CALSCALE:GREGORIAN", f"X-WR-TIMEZONE:{settings.TIME_ZONE}"]
    for tournament in listed:
        lines += event(request, tournament)
    lines.append("END:VCALENDAR")
    response = HttpResponse("".join(folded(line) + "\r\n" for line in lines), content_type=CALENDAR)
    response["Content-Disposition"] = 'inline; filename="skatliga.ics"'
    set_response_etag(response)
    patch_cache_control(response, public=True, no_cache=True)
    conditional = get_conditional_response(request, etag=response["ETag"], response=response)
    return conditional if conditional is not None else response

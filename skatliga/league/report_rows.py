"""A match report as its pages and its PDF show it: plain rows with their words, made once
from the report's content (``services.reports``), so that the captain's page, the official's
page and the printout say the same."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from skatliga.entries import half_points, plain
from skatliga.models import MatchReport
from skatliga.services import reports


def match_points(halves: int) -> str:
    """Match points kept in halves as a league writes them: 3, 1½, ½."""
    return half_points(Fraction(halves, 2))


def state_label(state: str) -> str:
    return {
        reports.State.OBJECTED: _("Einspruch offen"),
        reports.State.WAITING: _("wartet auf Bestätigung"),
        reports.State.CONFIRMED: _("bestätigt, nicht freigegeben"),
        reports.State.RELEASED: _("freigegeben"),
        reports.State.BINDING: _("verbindlich"),
    }[state]


@dataclass(frozen=True, slots=True)
class ReportView:
    title: str
    date: datetime.date
    venue: str
    state: str
    state_text: str
    provisional: bool
    binding_on: datetime.date
    series: list[dict[str, Any]] = field(default_factory=list)
    totals: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    fee: str = ""
    fees: str = ""
    fees_to: str = ""
    answers: list[dict[str, Any]] = field(default_factory=list)


def report_view(report: MatchReport, today: datetime.date | None = None) -> ReportView:
    """The report's rows with their words, in the active language."""
    today = today or timezone.localdate()
    group = report.group
    day = group.match_day
    content = report.content
    state = reports.state_of(report, today)

    def team_row(row: dict[str, Any]) -> dict[str, Any]:
        return {
            **row,
            "points_text": plain(row["game_points"]),
            "won_text": match_points(row["won"]),
            "lost_text": match_points(row["lost"]),
            "players_text": ", ".join(
                p["name"] + (" (E)" if p["substitute"] else "") for p in row.get("players", [])
            ),
            "changes_text": "; ".join(
                [_("für %(out)s: %(in)s") % {"out": o, "in": i} for o, i in _pairs(row)]
            ),
        }

    answers = []
    for answer in report.answers.all().order_by("team__name"):
        answers.append(
            {
                "pk": answer.pk,
                "team": answer.team.name,
                "confirmed": answer.answer == answer.Answer.CONFIRMED,
                "reason": answer.reason,
                "open": answer.is_open,
                "decision": answer.decision,
                "at": answer.at,
            }
        )
    return ReportView(
        title=_("%(division)s · %(day)s. Spieltag · Gruppe %(group)s")
        % {"division": day.division, "day": day.number, "group": group.number},
        date=group.date,
        venue=", ".join(v for v in (group.venue, group.address) if v),
        state=state,
        state_text=state_label(state),
        provisional=report.released_at is None and state != reports.State.BINDING,
        binding_on=report.binding_on,
        series=[
            {"number": s["number"], "teams": [team_row(t) for t in s["teams"]]}
            for s in content["series"]
        ],
        totals=[team_row(t) for t in content["totals"]],
        tables=content["tables"],
        fee=content["fee"],
        fees=content["fees"],
        fees_to=content["fees_to_name"] or _("Staffelleiter"),
        answers=answers,
    )


def _pairs(row: dict[str, Any]) -> list[tuple[str, str]]:
    """Who came in for whom in a series, in line-up order."""
    return list(zip(row.get("went_out", []), row.get("came_in", []), strict=False))

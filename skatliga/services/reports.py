"""A group's match report ("Spielbericht"): written once the group's series are played and
closed, confirmed or objected to by each team's captain through the team link, released by
the division's official, binding ``LeagueRules.binding_days`` after the match day unless an
objection is open. Whether a report is binding is a function of the date (``today``), so no
scheduled job is needed; after that only the official rewrites it, with a reason, in the
change log.

The report's ``content`` (written by :func:`report_content`)::

    {"series": [{"number": 1, "teams": [{"team": id, "name": …, "players": [{"name": …,
      "substitute": bool}], "came_in": [names], "went_out": [names], "game_points": int,
      "won": halves, "lost": halves}]}],
     "totals": [{"team": id, "name": …, "game_points": int, "won": halves, "lost": halves}],
     "tables": [{"series": 1, "table": 1, "lost": games, "fee": "2.50"}],
     "fee": "0.50", "fees": "7.50", "fees_to": "host" | "official", "fees_to_name": …}

Match points are kept in halves (a shared place gives 3/2), as ``scoring.series_match_points``
gives them; line-ups and game points come from ``LineUp`` and the list results.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from scoring import series_match_points
from skatliga.models import (
    Change,
    Division,
    League,
    LeagueRules,
    LineUp,
    ListResult,
    MatchGroup,
    MatchReport,
    ReportAnswer,
    Table,
    Team,
)
from skatliga.services.common import ServiceError, User, acting_user


def rules_of(league: League | None) -> LeagueRules:
    """The league's choices (its defaults until the official sets them)."""
    if league is None:
        return LeagueRules()
    return LeagueRules.objects.get_or_create(league=league)[0]


def _group(pk: int) -> MatchGroup:
    return MatchGroup.objects.select_related(
        "match_day__division__level", "match_day__division__season__league", "tournament", "host"
    ).get(pk=pk)


def is_complete(group: MatchGroup) -> bool:
    """Whether every series of the level is drawn and every list of them closed."""
    tournament = group.tournament
    if tournament is None:
        return False
    level = group.match_day.division.level
    if tournament.series.count() < level.series:
        return False
    tables = Table.objects.filter(series__tournament=tournament)
    return tables.exists() and not tables.filter(closed_at__isnull=True).exists()


def report_content(group: MatchGroup) -> dict[str, Any]:
    """The report of ``group`` as its lists and line-ups stand now (see the module's doc)."""
    group = _group(group.pk)
    tournament = group.tournament
    level = group.match_day.division.level
    rules = rules_of(group.match_day.division.season.league)
    teams = list(group.teams.order_by("name"))
    line_ups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for line_up in LineUp.objects.filter(group=group).prefetch_related("entries__player"):
        line_ups[(line_up.team_id, line_up.series)] = [
            {"name": e.player.name, "substitute": e.substitute}
            for e in sorted(line_up.entries.all(), key=lambda e: e.position)
        ]
    found = (
        ListResult.objects.filter(tournament=tournament).team_series_points() if tournament else {}
    )
    totals: dict[int, dict[str, Any]] = {
        t.pk: {"team": t.pk, "name": t.name, "game_points": 0, "won": 0, "lost": 0} for t in teams
    }
    series_rows = []
    for number in range(1, level.series + 1):
        points = {t.pk: 0 for t in teams}
        if tournament is not None:
            points.update(found.get((tournament.pk, number), {}))
        match = series_match_points(points)
        rows = []
        for team in teams:
            players = line_ups.get((team.pk, number), [])
            before = {p["name"] for p in line_ups.get((team.pk, number - 1), [])}
            now = [p["name"] for p in players]
            won, lost = match[team.pk]
            row: dict[str, Any] = {
                "team": team.pk,
                "name": team.name,
                "players": players,
                "came_in": [n for n in now if number > 1 and n not in before],
                "went_out": sorted(n for n in before if n not in now),
                "game_points": points[team.pk],
                "won": int(won * 2),
                "lost": int(lost * 2),
            }
            rows.append(row)
            total = totals[team.pk]
            total["game_points"] += row["game_points"]
            total["won"] += row["won"]
            total["lost"] += row["lost"]
        series_rows.append({"number": number, "teams": rows})
    tables = []
    if tournament is not None:
        for series, table, lost in (
            ListResult.objects.filter(tournament=tournament)
            .order_by()
            .values_list("series__number", "table__number")
            .annotate(lost=Sum("lost"))
            .order_by("series__number", "table__number")
        ):
            fee = rules.lost_game_fee * lost
            tables.append({"series": series, "table": table, "lost": lost, "fee": str(fee)})
    to_host = rules.lost_fees_to == LeagueRules.FeesTo.HOST and group.host is not None
    return {
        "series": series_rows,
        "totals": sorted(totals.values(), key=lambda t: (-t["won"], -t["game_points"], t["name"])),
        "tables": tables,
        "fee": str(rules.lost_game_fee),
        "fees": str(sum((Decimal(t["fee"]) for t in tables), Decimal("0.00"))),
        "fees_to": "host" if to_host else "official",
        "fees_to_name": group.host.name if to_host and group.host else "",
    }


@transaction.atomic
def write_report(group: MatchGroup) -> MatchReport:
    """The group's report, written now; refused while a series is missing or a list open."""
    group = MatchGroup.objects.select_for_update().get(pk=group.pk)
    group = _group(group.pk)
    if MatchReport.objects.filter(group=group).exists():
        raise ServiceError("report_written")
    if not is_complete(group):
        raise ServiceError("match_day_not_complete")
    rules = rules_of(group.match_day.division.season.league)
    return MatchReport.objects.create(
        group=group,
        content=report_content(group),
        written_at=timezone.now(),
        binding_on=group.match_day.date + datetime.timedelta(days=rules.binding_days),
    )


def write_due_reports(division: Division) -> list[MatchReport]:
    """The reports of the division's complete groups that have none yet, written now: the
    official's and the captains' pages call this, so a report is there when they look."""
    written = []
    for group in MatchGroup.objects.filter(
        match_day__division=division, report__isnull=True, tournament__isnull=False
    ).select_related("match_day__division__level", "tournament"):
        if is_complete(group):
            written.append(write_report(group))
    return written


def open_objections(report: MatchReport) -> int:
    return report.answers.filter(
        answer=ReportAnswer.Answer.OBJECTED, decided_at__isnull=True
    ).count()


def is_binding(report: MatchReport, today: datetime.date | None = None) -> bool:
    """Binding from its date on, unless an objection is open (the date is today's unless
    given: ``timezone.localdate``, which a test moves by patching ``timezone.now``)."""
    return report.is_binding(today or timezone.localdate(), open_objections(report))


class State:
    """A report's state in words' codes, the order the official works through them."""

    OBJECTED = "objected"
    WAITING = "waiting"
    CONFIRMED = "confirmed"
    RELEASED = "released"
    BINDING = "binding"


def state_of(report: MatchReport, today: datetime.date | None = None) -> str:
    """``objected`` (an objection open), ``binding``, ``released``, ``confirmed`` (every
    captain confirmed) or ``waiting`` (for a captain's answer)."""
    today = today or timezone.localdate()
    answers = list(report.answers.all())
    if any(a.is_open for a in answers):
        return State.OBJECTED
    if report.is_binding(today, 0):
        return State.BINDING
    if report.released_at is not None:
        return State.RELEASED
    teams = {t["team"] for t in report.content["totals"]}
    if teams <= {a.team_id for a in answers}:
        return State.CONFIRMED
    return State.WAITING


def _log(report: MatchReport, action: str, user: User, **fields: Any) -> None:
    tournament = report.group.tournament
    if tournament is None:
        return
    Change.objects.create(user=acting_user(user), tournament=tournament, action=action, **fields)


def _locked(report: MatchReport) -> MatchReport:
    return (
        MatchReport.objects.select_for_update(of=("self",))
        .select_related("group__tournament", "group__match_day__division")
        .get(pk=report.pk)
    )


@transaction.atomic
def answer_report(
    report: MatchReport,
    team: Team,
    *,
    confirm: bool,
    reason: str = "",
    today: datetime.date | None = None,
) -> ReportAnswer:
    """The captain of ``team`` confirms the report or objects with ``reason`` (which the
    division's official then decides). Refused for a team not in the group, a second answer,
    an objection without reason, or a report already binding."""
    report = _locked(report)
    if not report.group.places.filter(team=team).exists():
        raise ServiceError("team_not_in_group", team=team.name)
    if report.answers.filter(team=team).exists():
        raise ServiceError("report_answered")
    reason = reason.strip()
    if not confirm and not reason:
        raise ServiceError("objection_needs_reason", "reason")
    if is_binding(report, today):
        raise ServiceError("report_binding")
    answer = ReportAnswer.objects.create(
        report=report,
        team=team,
        answer=ReportAnswer.Answer.CONFIRMED if confirm else ReportAnswer.Answer.OBJECTED,
        reason=reason,
        at=timezone.now(),
    )
    if not confirm:
        _log(report, Change.Action.REPORT_OBJECTION, None, reason=reason, after={"team": team.name})
    return answer


@transaction.atomic
def decide_objection(answer: ReportAnswer, decision: str, *, user: User = None) -> ReportAnswer:
    """The official's decision on a captain's objection, with its reasons."""
    report = _locked(answer.report)
    answer = ReportAnswer.objects.select_for_update().get(pk=answer.pk)
    if not answer.is_open:
        raise ServiceError("objection_not_open")
    decision = decision.strip()
    if not decision:
        raise ServiceError("decision_needs_reason", "decision")
    answer.decision = decision
    answer.decided_at = timezone.now()
    answer.decided_by = acting_user(user)
    answer.save(update_fields=["decision", "decided_at", "decided_by"])
    _log(
        report,
        Change.Action.OBJECTION_DECIDED,
        user,
        reason=decision,
        before={"team": answer.team.name, "objection": answer.reason},
    )
    return answer


@transaction.atomic
def release_report(report: MatchReport, *, user: User = None) -> MatchReport:
    """The official releases the report: no longer provisional. Refused while an objection
    is open."""
    report = _locked(report)
    if report.released_at is not None:
        raise ServiceError("report_released")
    if open_objections(report):
        raise ServiceError("objection_open")
    report.released_at = timezone.now()
    report.released_by = acting_user(user)
    report.save(update_fields=["released_at", "released_by"])
    _log(report, Change.Action.REPORT_RELEASED, user)
    return report


@transaction.atomic
def rewrite_report(report: MatchReport, reason: str, *, user: User = None) -> MatchReport:
    """The official writes the report again from the lists as they stand (after he corrected
    one), with ``reason``; the report before and after go to the change log."""
    report = _locked(report)
    reason = reason.strip()
    if not reason:
        raise ServiceError("decision_needs_reason", "reason")
    before = report.content
    report.content = report_content(report.group)
    report.save(update_fields=["content"])
    _log(
        report,
        Change.Action.REPORT_AMENDED,
        user,
        reason=reason,
        before={"totals": before["totals"]},
        after={"totals": report.content["totals"]},
    )
    return report


def reports_of(division: Division) -> list[MatchReport]:
    """The division's reports with their groups and answers, match day by match day."""
    return list(
        MatchReport.objects.filter(group__match_day__division=division)
        .select_related("group__match_day", "group__host", "released_by")
        .prefetch_related("answers__team")
        .order_by("group__match_day__number", "group__number")
    )


def fees_by_receiver(division: Division) -> dict[str, Decimal]:
    """The lost-game fees of the division's reports summed per receiver's name."""
    found: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
    for report in reports_of(division):
        found[report.content["fees_to_name"] or "official"] += Decimal(report.content["fees"])
    return dict(found)


def is_provisional(group: MatchGroup, today: datetime.date | None = None) -> bool:
    """Whether a public page shows the group's results as provisional: until the official
    releases its report, or the report is binding. A group without a report is provisional."""
    report = MatchReport.objects.filter(group=group).first()
    if report is None:
        return True
    return report.released_at is None and not is_binding(report, today)

"""A league's fines ("Ordnungsgeld") and the clubs' payments.

skatliga proposes the fines it can see at a group's match day (:func:`propose_fines`): a team
absent (no line-up at all), incomplete (a series with fewer players than the level's
``players``), a line-up for the first series set after the group's start, a report its
captain left unanswered past ``LeagueRules.report_days``; each at the amount of the league's
catalogue (``FineKind``), none where the catalogue has no line for it. The official confirms
or waives each (:func:`decide_fine`) and adds others (:func:`add_fine`). A club's statement
(:func:`statement`) lists its fines and payments with the balance; payments settle the
oldest due fines first. Where the league says so (``LeagueRules.bar_unpaid``), a confirmed
fine unpaid after its date bars the club's teams from the next match day (:func:`is_barred`).

A team's ``LeagueRules.withdraw_after``-th absence (3 by default) makes skatliga propose its
withdrawal (:func:`propose_withdrawal`, with the fines); the official confirms or waives it
(:func:`decide_withdrawal`), and the division's table marks the team withdrawn, its results
kept or annulled as the league's rule says at the confirmation.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django import forms
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from skatliga.models import (
    Club,
    Fine,
    FineCode,
    FineKind,
    GroupTeam,
    League,
    LeagueRules,
    LineUp,
    MatchGroup,
    MatchReport,
    Payment,
    Team,
    Withdrawal,
)
from skatliga.services.common import ServiceError, User, acting_user
from skatliga.services.reports import rules_of


def _seen(group: MatchGroup, today: datetime.date) -> list[tuple[Team, str, str]]:
    """(team, code, reason) of what the group's match day shows to be fined."""
    level = group.match_day.division.level
    line_ups: dict[int, list[LineUp]] = {}
    for line_up in LineUp.objects.filter(group=group).prefetch_related("entries"):
        line_ups.setdefault(line_up.team_id, []).append(line_up)
    start = (
        timezone.make_aware(datetime.datetime.combine(group.date, group.starts_at))
        if group.starts_at
        else None
    )
    report = MatchReport.objects.filter(group=group).first()
    rules = rules_of(group.match_day.division.season.league)
    report_due = group.match_day.date + datetime.timedelta(days=rules.report_days)
    answered = set(report.answers.values_list("team_id", flat=True)) if report else set()
    day = _("%(n)s. Spieltag") % {"n": group.match_day.number}
    found: list[tuple[Team, str, str]] = []
    for team in group.teams.order_by("name"):
        own = line_ups.get(team.pk, [])
        if not own:
            found.append((team, FineCode.ABSENT, day))
            continue
        short = sorted(lu.series for lu in own if lu.entries.count() < level.players)
        if short:
            found.append(
                (
                    team,
                    FineCode.INCOMPLETE,
                    _("%(day)s, Serie %(series)s") % {"day": day, "series": short[0]},
                )
            )
        first = next((lu for lu in own if lu.series == 1), None)
        if start is not None and first is not None and first.set_at > start:
            found.append((team, FineCode.LATE_LINE_UP, day))
        if report is not None and today > report_due and team.pk not in answered:
            found.append((team, FineCode.LATE_REPORT, day))
    return found


@transaction.atomic
def propose_fines(group: MatchGroup, *, today: datetime.date | None = None) -> list[Fine]:
    """The fines the group's match day shows, proposed once each (a second call adds only
    what is new), at the catalogue's amounts."""
    group = MatchGroup.objects.select_related(
        "match_day__division__level", "match_day__division__season__league"
    ).get(pk=group.pk)
    league = group.match_day.division.season.league
    if league is None:
        return []
    today = today or timezone.localdate()
    catalogue = {k.code: k for k in FineKind.objects.filter(league=league).exclude(code="other")}
    made = []
    for team, code, reason in _seen(group, today):
        if code == FineCode.ABSENT:
            propose_withdrawal(team, today=today)
        kind = catalogue.get(code)
        if kind is None or team.club_id is None:
            continue
        fine, created = Fine.objects.get_or_create(
            team=team,
            group=group,
            code=code,
            proposed=True,
            defaults={
                "league": league,
                "club_id": team.club_id,
                "amount": kind.amount,
                "reason": f"{kind.name} ({reason})",
                "created_at": timezone.now(),
            },
        )
        if created:
            made.append(fine)
    return made


@transaction.atomic
def decide_fine(
    fine: Fine, *, confirm: bool, user: User = None, today: datetime.date | None = None
) -> Fine:
    """The official confirms a proposed fine (payable within the league's ``pay_days``) or
    waives it."""
    fine = Fine.objects.select_for_update().get(pk=fine.pk)
    if fine.state != Fine.State.PROPOSED:
        raise ServiceError("fine_decided")
    today = today or timezone.localdate()
    fine.decided_at = timezone.now()
    fine.decided_by = acting_user(user)
    if confirm:
        fine.state = Fine.State.CONFIRMED
        fine.due_on = today + datetime.timedelta(days=rules_of(fine.league).pay_days)
    else:
        fine.state = Fine.State.WAIVED
    fine.save(update_fields=["state", "decided_at", "decided_by", "due_on"])
    return fine


def absences(team: Team, *, today: datetime.date | None = None) -> list[MatchGroup]:
    """The groups of the team's division, dated before ``today``, where it set no line-up at
    all, in date order."""
    today = today or timezone.localdate()
    places = GroupTeam.objects.filter(team=team, group__date__lt=today).values_list(
        "group_id", flat=True
    )
    with_line_up = LineUp.objects.filter(team=team).values_list("group_id", flat=True)
    return list(
        MatchGroup.objects.filter(pk__in=places).exclude(pk__in=with_line_up).order_by("date", "pk")
    )


@transaction.atomic
def propose_withdrawal(team: Team, *, today: datetime.date | None = None) -> Withdrawal | None:
    """The team's withdrawal, proposed once when its absences reach the league's
    ``withdraw_after`` (none where that is 0 or the team has no league)."""
    league = team.season.league
    if league is None:
        return None
    limit = rules_of(league).withdraw_after
    found = Withdrawal.objects.filter(team=team).first()
    if found is not None or limit == 0:
        return found
    missed = absences(team, today=today)
    if len(missed) < limit:
        return None
    return Withdrawal.objects.create(
        team=team, group=missed[limit - 1], absences=len(missed), created_at=timezone.now()
    )


@transaction.atomic
def decide_withdrawal(withdrawal: Withdrawal, *, confirm: bool, user: User = None) -> Withdrawal:
    """The official confirms a proposed withdrawal (its results kept or annulled as the
    league's rule says now) or waives it."""
    withdrawal = Withdrawal.objects.select_for_update().get(pk=withdrawal.pk)
    if withdrawal.state != Withdrawal.State.PROPOSED:
        raise ServiceError("withdrawal_decided")
    withdrawal.decided_at = timezone.now()
    withdrawal.decided_by = acting_user(user)
    if confirm:
        withdrawal.state = Withdrawal.State.CONFIRMED
        rules = rules_of(withdrawal.team.season.league)
        withdrawal.annulled = rules.withdrawn_results == LeagueRules.WithdrawnResults.ANNUL
    else:
        withdrawal.state = Withdrawal.State.WAIVED
    withdrawal.save(update_fields=["state", "decided_at", "decided_by", "annulled"])
    return withdrawal


@transaction.atomic
def add_fine(
    league: League,
    club: Club,
    amount: Decimal,
    reason: str,
    *,
    team: Team | None = None,
    user: User = None,
    today: datetime.date | None = None,
) -> Fine:
    """A fine the official sets himself, with its reason: confirmed at once."""
    reason = reason.strip()
    if not reason:
        raise ServiceError("fine_needs_reason", "reason")
    if amount <= 0:
        raise ServiceError("amount_invalid", "amount")
    today = today or timezone.localdate()
    return Fine.objects.create(
        league=league,
        club=club,
        team=team,
        code=FineCode.OTHER,
        amount=amount,
        reason=reason,
        state=Fine.State.CONFIRMED,
        created_at=timezone.now(),
        decided_at=timezone.now(),
        decided_by=acting_user(user),
        due_on=today + datetime.timedelta(days=rules_of(league).pay_days),
    )


def record_payment(
    league: League, club: Club, amount: Decimal, paid_on: datetime.date, note: str = ""
) -> Payment:
    if amount <= 0:
        raise ServiceError("amount_invalid", "amount")
    return Payment.objects.create(
        league=league, club=club, amount=amount, paid_on=paid_on, note=note
    )


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a club's statement: a confirmed fine (``charge``) or a payment."""

    on: datetime.date
    text: str
    charge: Decimal | None
    payment: Decimal | None
    balance: Decimal
    due_on: datetime.date | None = None
    overdue: bool = False


@dataclass(frozen=True, slots=True)
class Statement:
    club: Club
    league: League
    lines: list[Line] = field(default_factory=list)
    balance: Decimal = Decimal("0.00")
    """What the club owes (negative: paid ahead)."""
    overdue: Decimal = Decimal("0.00")
    """What of it is past its date."""
    barred: bool = False
    proposed: list[Fine] = field(default_factory=list)


def _overdue(fines: list[Fine], paid: Decimal, today: datetime.date) -> Decimal:
    """What of the confirmed ``fines`` is past its date and not covered by ``paid``: the
    payments settle the fines in the order of their dates."""
    left = paid
    overdue = Decimal("0.00")
    for fine in sorted(fines, key=lambda f: (f.due_on or today, f.pk)):
        covered = min(left, fine.amount)
        left -= covered
        if fine.due_on is not None and fine.due_on < today:
            overdue += fine.amount - covered
    return overdue


def statement(league: League, club: Club, *, today: datetime.date | None = None) -> Statement:
    """The club's fines and payments in the league, in date order, with the running balance;
    what is overdue and whether the club's teams are barred from the next match day."""
    today = today or timezone.localdate()
    fines = list(
        Fine.objects.filter(league=league, club=club, state=Fine.State.CONFIRMED).select_related(
            "team"
        )
    )
    payments = list(Payment.objects.filter(league=league, club=club))
    events: list[tuple[datetime.date, int, str, Decimal | None, Decimal | None, Fine | None]] = []
    for fine in fines:
        on = (fine.decided_at or fine.created_at).date()
        text = fine.reason if fine.team is None else f"{fine.team.name}: {fine.reason}"
        events.append((on, 0, text, fine.amount, None, fine))
    for payment in payments:
        events.append(
            (payment.paid_on, 1, payment.note or _("Zahlung"), None, payment.amount, None)
        )
    events.sort(key=lambda e: (e[0], e[1]))
    balance = Decimal("0.00")
    lines = []
    for on, _kind, text, charge, paid, source in events:
        balance += (charge or 0) - (paid or 0)
        lines.append(
            Line(
                on=on,
                text=text,
                charge=charge,
                payment=paid,
                balance=balance,
                due_on=source.due_on if source else None,
                overdue=bool(source and source.due_on and source.due_on < today),
            )
        )
    overdue = _overdue(fines, sum((p.amount for p in payments), Decimal("0.00")), today)
    return Statement(
        club=club,
        league=league,
        lines=lines,
        balance=balance,
        overdue=overdue,
        barred=rules_of(league).bar_unpaid and overdue > 0,
        proposed=list(Fine.objects.filter(league=league, club=club, state=Fine.State.PROPOSED)),
    )


def is_barred(team: Team, *, today: datetime.date | None = None) -> bool:
    """Whether ``team``'s club has a fine unpaid past its date in the team's league, and the
    league bars for it: the team may not play the next match day."""
    league = team.season.league
    if league is None or team.club is None:
        return False
    return statement(league, team.club, today=today).barred


@transaction.atomic
def save_rules(
    rules: forms.ModelForm[LeagueRules], catalogue: forms.BaseModelFormSet[Any, Any]
) -> None:
    """A league's rules and its catalogue of fines as its officials' page sent them (both
    valid), saved together or not at all."""
    rules.save()
    catalogue.save()

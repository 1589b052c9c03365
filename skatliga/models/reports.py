"""What follows a group's match day: its match report ("Spielbericht") with the captains'
answers, and the league's fines ("Ordnungsgeld") with the clubs' payments.

A report (:class:`MatchReport`) is written once the group's series are all played and closed
(``services.reports.write_report``): its ``content`` is the match day as the report prints it,
kept as it was written so that a later change is a logged amendment, never a silent one. Each
team's captain confirms it or objects (:class:`ReportAnswer`); the division's official
releases it; it is binding ``binding_days`` after the match day unless an objection is open
(:meth:`MatchReport.is_binding`, a function of the date alone).

A league's catalogue of fines (:class:`FineKind`), the fines themselves (:class:`Fine`:
proposed by skatliga or added by the official, then confirmed or waived) and the clubs'
payments (:class:`Payment`) make each club's statement. The league's choices for all of this
are :class:`LeagueRules`."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skatliga.models.clubs import Club
from skatliga.models.league import League, Team
from skatliga.models.matchdays import MatchGroup


class LeagueRules(models.Model):
    """A league's choices for reports, deadlines and fines; the defaults are the DSkV's."""

    class FeesTo(models.TextChoices):
        HOST = "host", _("Gastgeber")
        OFFICIAL = "official", _("Staffelleiter")

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="rules")
    lost_game_fee = models.DecimalField(
        _("Verlustspielgeld je verlorenes Spiel"),
        max_digits=6,
        decimal_places=2,
        default=Decimal("0.50"),
    )
    lost_fees_to = models.CharField(
        _("Verlustspielgeld erhält"), max_length=8, choices=FeesTo.choices, default=FeesTo.HOST
    )
    binding_days = models.PositiveSmallIntegerField(
        _("verbindlich nach Tagen"),
        default=14,
        help_text=_("So viele Tage nach dem Spieltag ist der Spielbericht verbindlich."),
    )
    report_days = models.PositiveSmallIntegerField(
        _("Frist für die Bestätigung in Tagen"),
        default=2,
        help_text=_("So viele Tage nach dem Spieltag bestätigen die Mannschaftsführer."),
    )
    pay_days = models.PositiveSmallIntegerField(
        _("Zahlungsfrist in Tagen"), default=14, help_text=_("Ab der Bestätigung einer Strafe.")
    )
    bar_unpaid = models.BooleanField(
        _("Sperre bei offener Strafe"),
        default=False,
        help_text=_(
            "Eine nach ihrer Frist unbezahlte Strafe sperrt die Mannschaften des Vereins "
            "für den nächsten Spieltag."
        ),
    )

    class WithdrawnResults(models.TextChoices):
        KEEP = "keep", _("bleiben in der Tabelle")
        ANNUL = "annul", _("werden annulliert")

    withdraw_after = models.PositiveSmallIntegerField(
        _("Rückzug nach Nichtantritten"),
        default=3,
        help_text=_(
            "Beim so vielten Nichtantritt schlägt skatliga den Rückzug der Mannschaft vor; 0: nie."
        ),
    )
    withdrawn_results = models.CharField(
        _("Ergebnisse einer zurückgezogenen Mannschaft"),
        max_length=5,
        choices=WithdrawnResults.choices,
        default=WithdrawnResults.KEEP,
        help_text=_("Annulliert: die Matchpunkte gegen sie entfallen in der Tabelle der Staffel."),
    )

    class Meta:
        verbose_name = _("Ligaordnung")
        verbose_name_plural = _("Ligaordnungen")

    def __str__(self) -> str:
        return str(self.league)


class MatchReport(models.Model):
    """The report of one group's match day, as written (``content``: series, teams, line-ups,
    substitutions, game and match points, lost-game fees; see ``services.reports``)."""

    group = models.OneToOneField(MatchGroup, on_delete=models.CASCADE, related_name="report")
    content: models.JSONField[Any, Any] = models.JSONField()
    written_at = models.DateTimeField()
    released_at = models.DateTimeField(_("freigegeben"), null=True, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    binding_on = models.DateField(_("verbindlich ab"))
    """The match day's date plus the league's ``binding_days``, fixed when written."""

    class Meta:
        ordering = ["group"]
        verbose_name = _("Spielbericht")
        verbose_name_plural = _("Spielberichte")

    def __str__(self) -> str:
        return str(self.group)

    def is_binding(self, today: datetime.date, open_objections: int) -> bool:
        """Binding from ``binding_on`` on, unless an objection is still open."""
        return today >= self.binding_on and open_objections == 0


class ReportAnswer(models.Model):
    """A team's captain's answer to a report: confirmed, or an objection with its reason,
    which the official decides (``decision``, ``decided_at``)."""

    class Answer(models.TextChoices):
        CONFIRMED = "confirmed", _("bestätigt")
        OBJECTED = "objected", _("Einspruch")

    report = models.ForeignKey(MatchReport, on_delete=models.CASCADE, related_name="answers")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="report_answers")
    answer = models.CharField(max_length=10, choices=Answer.choices)
    reason = models.TextField(_("Grund"), blank=True)
    at = models.DateTimeField()
    decision = models.TextField(_("Entscheidung"), blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["report", "team__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "team"],
                name="report_answer_once",
                violation_error_code="report_answered",
            ),
            models.CheckConstraint(
                condition=~Q(answer="objected") | ~Q(reason=""),
                name="report_objection_has_reason",
                violation_error_code="objection_needs_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.report}: {self.team} {self.get_answer_display()}"

    @property
    def is_open(self) -> bool:
        return self.answer == self.Answer.OBJECTED and self.decided_at is None


class FineCode(models.TextChoices):
    """What a fine is for; skatliga proposes the first four itself."""

    ABSENT = "absent", _("Mannschaft nicht angetreten")
    INCOMPLETE = "incomplete", _("Mannschaft unvollständig")
    LATE_LINE_UP = "late_line_up", _("Aufstellung verspätet")
    LATE_REPORT = "late_report", _("Spielbericht nicht fristgerecht bestätigt")
    OTHER = "other", _("Sonstiges")


class FineKind(models.Model):
    """One line of a league's catalogue of fines."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="fine_kinds")
    code = models.CharField(_("Anlass"), max_length=14, choices=FineCode.choices)
    name = models.CharField(_("Bezeichnung"), max_length=160)
    amount = models.DecimalField(_("Betrag"), max_digits=8, decimal_places=2)
    set_by = models.CharField(
        _("verhängt von"),
        max_length=80,
        blank=True,
        help_text=_("Wer diese Strafe verhängt, etwa der Staffelleiter oder der Schatzmeister."),
    )

    class Meta:
        ordering = ["league", "code", "name"]
        verbose_name = _("Strafenkatalog")
        verbose_name_plural = _("Strafenkataloge")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "code"],
                condition=~Q(code="other"),
                name="fine_kind_code_once",
                violation_error_code="fine_kind_taken",
            ),
            models.CheckConstraint(
                condition=Q(amount__gt=0),
                name="fine_kind_amount_positive",
                violation_error_code="amount_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.amount})"


class Fine(models.Model):
    """A fine of a club (for one of its teams, at one match day's group where it says so):
    proposed by skatliga (``proposed``) or added by the official, then confirmed or waived."""

    class State(models.TextChoices):
        PROPOSED = "proposed", _("vorgeschlagen")
        CONFIRMED = "confirmed", _("verhängt")
        WAIVED = "waived", _("erlassen")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="fines")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="fines")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="fines"
    )
    group = models.ForeignKey(
        MatchGroup, null=True, blank=True, on_delete=models.SET_NULL, related_name="fines"
    )
    code = models.CharField(_("Anlass"), max_length=14, choices=FineCode.choices)
    amount = models.DecimalField(_("Betrag"), max_digits=8, decimal_places=2)
    reason = models.TextField(_("Begründung"))
    state = models.CharField(max_length=10, choices=State.choices, default=State.PROPOSED)
    proposed = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    due_on = models.DateField(_("zahlbar bis"), null=True, blank=True)

    class Meta:
        ordering = ["club", "created_at", "pk"]
        verbose_name = _("Strafe")
        verbose_name_plural = _("Strafen")
        constraints = [
            models.UniqueConstraint(
                fields=["team", "group", "code"],
                condition=Q(proposed=True),
                name="fine_proposed_once",
                violation_error_code="fine_proposed",
            ),
            models.CheckConstraint(
                condition=Q(amount__gt=0),
                name="fine_amount_positive",
                violation_error_code="amount_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.get_code_display()} {self.amount}"


class Payment(models.Model):
    """A club's payment towards its fines in a league."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="payments")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(_("Betrag"), max_digits=8, decimal_places=2)
    paid_on = models.DateField(_("bezahlt am"))
    note = models.CharField(_("Vermerk"), max_length=160, blank=True)

    class Meta:
        ordering = ["club", "paid_on", "pk"]
        verbose_name = _("Zahlung")
        verbose_name_plural = _("Zahlungen")
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0),
                name="payment_amount_positive",
                violation_error_code="amount_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.amount} ({self.paid_on})"


class Withdrawal(models.Model):
    """A team withdrawn from its division after its ``LeagueRules.withdraw_after``-th absence:
    proposed by skatliga at that absence (``group``), then confirmed or waived by the official.
    ``annulled`` is the league's rule at the confirmation: the match points won and lost
    against the team then leave the division's table."""

    class State(models.TextChoices):
        PROPOSED = "proposed", _("vorgeschlagen")
        CONFIRMED = "confirmed", _("zurückgezogen")
        WAIVED = "waived", _("verworfen")

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="withdrawal")
    group = models.ForeignKey(
        MatchGroup, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    absences = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.PROPOSED)
    annulled = models.BooleanField(_("Ergebnisse annulliert"), default=False)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["team"]
        verbose_name = _("Rückzug")
        verbose_name_plural = _("Rückzüge")

    def __str__(self) -> str:
        return f"{self.team}: {self.get_state_display()}"

"""What a table asks of the referee from its device: a call to come to the table, and an
objection (Einspruch) against one game of its list, with the referee's decision.

An objection is a seat's claim that a game is wrong; it is not ``Game.disputed``, which holds
a table's own version of a row the referee wrote last."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skatliga.models.tournaments import Game, Seat, Table


class RefereeCall(models.Model):
    """A table called the referee; open until the referee acknowledges it (one at a time)."""

    class Reason(models.TextChoices):
        RULE = "rule", _("Regelfrage")
        DISPUTE = "dispute", _("Streitfall")
        DEVICE = "device", _("Problem mit dem Gerät")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    reason = models.CharField(_("Grund"), max_length=12, choices=Reason.choices)
    device = models.CharField(_("Gerät am Tisch"), max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("Ruf")
        verbose_name_plural = _("Rufe")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(acknowledged_at__isnull=True),
                name="referee_call_one_open_per_table",
                violation_error_code="call_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.get_reason_display()}"

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None


class Objection(models.Model):
    """A seat's objection (Einspruch) against one game of its table's list, and the
    referee's decision on it: the game stands, or the referee corrected it."""

    class Decision(models.TextChoices):
        KEPT = "kept", _("Spiel bleibt")
        CORRECTED = "corrected", _("Spiel korrigiert")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="objections")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="objections")
    reason = models.CharField(_("Grund"), max_length=200)
    device = models.CharField(_("Gerät am Tisch"), max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision = models.CharField(
        _("Entscheidung"), max_length=12, choices=Decision.choices, blank=True
    )
    decision_reason = models.TextField(_("Begründung"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("Einspruch")
        verbose_name_plural = _("Einsprüche")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=Q(decided_at__isnull=True),
                name="objection_one_open_per_seat",
                violation_error_code="objection_open",
            ),
            models.CheckConstraint(
                condition=Q(decided_at__isnull=True, decision="")
                | Q(decided_at__isnull=False) & ~Q(decision=""),
                name="objection_decided_with_decision",
                violation_error_code="objection_decision_missing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} – {self.seat.position}"

    @property
    def is_open(self) -> bool:
        return self.decided_at is None

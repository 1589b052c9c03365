"""What the players and the referee confirm about a list: the players' signatures at the
table, and the second, independent entry of a list under double entry."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from skatliga.models.tournaments import GameRow, Table


class Signature(models.Model):
    """A seated player confirmed the complete list at the table (tapping their own name);
    where a substitute took the seat over, the substitute signs for his games apart from the
    player who left. Any change to the list's games deletes every signature of it."""

    class Method(models.TextChoices):
        """How the signature was made."""

        DEVICE = "device", _("am Tischgerät")
        CODE = "code", _("mit Sitzcode")
        REFEREE = "referee", _("durch die Turnierleitung")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="signatures")
    position = models.PositiveSmallIntegerField(pgettext_lazy("seat", "Platz"))
    signed_at = models.DateTimeField(auto_now_add=True)
    # The name of the device the player signed on (a table link's device).
    device = models.CharField(_("Gerät am Tisch"), max_length=60, blank=True)
    # Signed by the seat's substitute (for the games from his first on).
    substitute = models.BooleanField(_("vom Ersatzspieler"), default=False)
    method = models.CharField(
        _("Art der Unterschrift"), max_length=10, choices=Method.choices, default=Method.DEVICE
    )

    class Meta:
        ordering = ["table", "position", "substitute"]
        verbose_name = _("Unterschrift")
        verbose_name_plural = _("Unterschriften")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position", "substitute"],
                name="signature_once_per_seat",
                violation_error_code="already_signed",
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=5),
                name="signature_position_at_a_table",
                violation_error_code="seat_unknown",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.position}"


class SecondEntry(GameRow):
    """Row ``number`` of a list entered a second time, independently (double entry). It is
    checked by the same engine as the list's game and compared with it row by row."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="second_entries")
    number = models.PositiveSmallIntegerField(_("Spiel Nr."))
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    device = models.CharField(_("Gerät am Tisch"), max_length=60, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Zweiteingabe")
        verbose_name_plural = _("Zweiteingaben")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"],
                name="second_entry_number_unique_per_list",
                violation_error_code="game_number_taken",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="second_entry_number_positive",
                violation_error_code="game_number_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {_('Zweiteingabe')} {self.number}"

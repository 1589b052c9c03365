"""A Preisskat evening's money settings."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skatliga.models.tournaments import Tournament

CURRENCIES = {"EUR": "€", "DKK": "kr.", "SEK": "kr", "NOK": "kr", "CHF": "CHF", "GBP": "£"}
"""The currencies a purse may be kept in, by ISO 4217 code, with the sign shown after amounts."""


class Purse(models.Model):
    """A Preisskat evening's money: entry fee, lost-game fees and the prizes by place.

    Lost-game fees per list: ``lost_fee`` for each of a player's first ``lost_fee_threshold``
    lost games, ``lost_fee_later`` for each one after (the SkWO's example: 0.50 € for the
    first three, 1.00 € from the fourth). ``prizes`` by place, first place first: a fixed
    amount ("20.00") or a share of the pot ("30%"), shares rounded down to whole euros.
    ``substitutes_without_prize``: a substitute who paid no entry fee takes no prize.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="purse")
    entry_fee = models.DecimalField(
        _("Startgeld"), max_digits=8, decimal_places=2, default=Decimal("0.00")
    )
    lost_fee = models.DecimalField(
        _("Verlustspielgeld"), max_digits=6, decimal_places=2, default=Decimal("0.50")
    )
    lost_fee_threshold = models.PositiveSmallIntegerField(_("bis zum verlorenen Spiel"), default=3)
    lost_fee_later = models.DecimalField(
        _("danach je verlorenes Spiel"), max_digits=6, decimal_places=2, default=Decimal("1.00")
    )
    prizes = models.JSONField(_("Preise"), default=list, blank=True)
    substitutes_without_prize = models.BooleanField(
        _("Ersatzspieler ohne Preisgeld"),
        default=True,
        help_text=_(
            "Ein Ersatzspieler zahlt kein Startgeld: er erhält keinen Preis, sein Platz geht "
            "an den Nächsten."
        ),
    )
    currency = models.CharField(
        _("Währung"), max_length=3, choices=[(code, code) for code in CURRENCIES], default="EUR"
    )

    class Meta:
        verbose_name = _("Preisgeld")
        verbose_name_plural = _("Preisgelder")
        constraints = [
            models.CheckConstraint(
                condition=Q(entry_fee__gte=0) & Q(lost_fee__gte=0) & Q(lost_fee_later__gte=0),
                name="purse_amounts_not_negative",
                violation_error_code="amount_negative",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)

    @property
    def currency_sign(self) -> str:
        return CURRENCIES.get(self.currency, self.currency)

"""Check-in at the door: a tournament's check-in link, the claims phones make behind it, each
player's arrival and entry fee, and pairs of players the draw keeps apart."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from skatliga.models.clubs import Player
from skatliga.models.tournaments import Registration, Tournament


class CheckInLink(models.Model):
    """The link on a tournament's check-in poster: ``token`` is the unguessable part of
    ``/c/<token>/``. Renewing revokes the old link; only an unrevoked link opens."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="checkin_links"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at"]
        verbose_name = _("Check-in-Link")
        verbose_name_plural = _("Check-in-Links")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(revoked_at__isnull=True),
                name="checkin_link_one_active",
                violation_error_code="checkin_link_active",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class CheckInClaim(models.Model):
    """A check-in from a phone behind the poster's link, waiting for the desk: "this is me"
    for a player of the roster (``player``), or a guest's ``name`` and ``club``.

    Nothing enters the tournament or the roster while it waits: the referee confirms it
    (``services.checkin.confirm_claim``) when its player stands at the desk and the phone
    shows the same ``number``. Only then does the phone that made it, which alone holds
    ``token`` (the unguessable part of ``/c/<link>/<token>/``), see the personal link."""

    class State(models.TextChoices):
        OPEN = "open", _("wartet")
        CONFIRMED = "confirmed", _("bestätigt")
        REFUSED = "refused", _("abgelehnt")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="checkin_claims"
    )
    number = models.PositiveIntegerField(_("Nummer"))
    token = models.CharField(max_length=64, unique=True)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    name = models.CharField(_("Name"), max_length=120, blank=True)
    club = models.CharField(_("Verein"), max_length=120, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    registration = models.ForeignKey(
        Registration, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    """The registration the confirmation checked in."""

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("Check-in-Meldung")
        verbose_name_plural = _("Check-in-Meldungen")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                name="checkin_claim_number_unique",
                violation_error_code="checkin_claim_number_taken",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False, name="") | (Q(player__isnull=True) & ~Q(name="")),
                name="checkin_claim_player_or_guest",
                violation_error_code="player_name_missing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.player or self.name}"

    @property
    def guest(self) -> bool:
        return self.player_id is None

    @property
    def is_open(self) -> bool:
        return self.state == self.State.OPEN


class Arrival(models.Model):
    """A registered player at the door: when he arrived, whether late, his entry fee. A
    phone's page is its claim's (``CheckInClaim``), not the arrival's."""

    class Fee(models.TextChoices):
        OPEN = "", pgettext_lazy("fee", "offen")
        CASH = "cash", _("bar")
        CARD = "card", _("Karte")
        LATER = "later", _("später")

    PAID = (Fee.CASH, Fee.CARD)

    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="arrival"
    )
    arrived_at = models.DateTimeField(_("angekommen"))
    guest = models.BooleanField(_("Gast"), default=False)
    late = models.BooleanField(_("verspätet"), default=False)
    fee = models.CharField(_("Startgeld"), max_length=8, choices=Fee.choices, blank=True)
    fee_marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["arrived_at"]
        verbose_name = _("Ankunft")
        verbose_name_plural = _("Ankünfte")

    def __str__(self) -> str:
        return str(self.registration)

    @property
    def paid(self) -> bool:
        return self.fee in self.PAID


class ForbiddenPair(models.Model):
    """Two players of a tournament who must not sit at one table (family, one household);
    ``first`` is the registration with the lower id."""

    first = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["first", "second"]
        verbose_name = _("getrenntes Paar")
        verbose_name_plural = _("getrennte Paare")
        constraints = [
            models.UniqueConstraint(
                fields=["first", "second"],
                name="forbidden_pair_unique",
                violation_error_code="pair_already_apart",
            ),
            models.CheckConstraint(
                condition=Q(first__lt=F("second")),
                name="forbidden_pair_ordered",
                violation_error_code="same_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"

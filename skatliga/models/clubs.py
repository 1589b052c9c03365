"""Clubs, players, and the players' moves from one club to another."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skatliga.models.choices import Category


class Club(models.Model):
    name = models.CharField(_("Name"), max_length=120, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("Verein")
        verbose_name_plural = _("Vereine")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("Name"), max_length=120)
    club = models.ForeignKey(
        Club,
        verbose_name=_("Verein"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="players",
    )
    number = models.CharField(_("Mitgliedsnummer"), max_length=32, blank=True)
    category = models.CharField(_("Kategorie"), max_length=12, choices=Category.choices, blank=True)
    initials_only = models.BooleanField(
        _("nur mit Initialen zeigen"),
        default=False,
        help_text=_("Öffentliche Seiten, PDFs, Tabellen und die API zeigen „A. B.“."),
    )
    rating_listed = models.BooleanField(
        _("in der öffentlichen Wertungsliste"),
        null=True,
        blank=True,
        help_text=_("Leer: wie die Voreinstellung der Liga."),
    )
    """His own choice whether the public sees his rating; None: the site's default
    (``settings.RATING_LISTED_DEFAULT``)."""

    class Meta:
        ordering = ["name"]
        verbose_name = _("Spieler")
        verbose_name_plural = _("Spieler")
        constraints = [
            models.UniqueConstraint(
                fields=["number"],
                condition=~Q(number=""),
                name="player_number_unique",
                violation_error_code="player_number_taken",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rating_shown(self) -> bool:
        """Whether the public sees his rating (his choice, else the site's default)."""
        if self.rating_listed is None:
            return bool(settings.RATING_LISTED_DEFAULT)
        return self.rating_listed

    @property
    def public_name(self) -> str:
        """The name as everything public shows it (:func:`public_name`)."""
        return public_name(self.name, self.initials_only)


def public_name(name: str, initials_only: bool) -> str:
    """A player's name as the public sees it: in full, or by initials where he asked for it.
    Every public page, PDF, spreadsheet and the API show names through this.

    >>> public_name("Anna-Lena von Berg", True), public_name("Anna Berg", False)
    ('A. v. B.', 'Anna Berg')
    """
    if not initials_only:
        return name
    return " ".join(f"{part[0]}." for part in name.split() if part)


class Transfer(models.Model):
    """A player's move to ``club`` on ``on`` (from ``from_club``, his club before it).

    A player plays for one club in a calendar year (docs/rules.md section 11.4): the
    transfers say which club he belonged to on a given day (:func:`club_on`); his
    ``Player.club`` is the club of his latest transfer."""

    player = models.ForeignKey(
        Player, verbose_name=_("Spieler"), on_delete=models.CASCADE, related_name="transfers"
    )
    from_club = models.ForeignKey(
        Club,
        verbose_name=_("bisheriger Verein"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    club = models.ForeignKey(
        Club, verbose_name=_("neuer Verein"), on_delete=models.PROTECT, related_name="+"
    )
    on = models.DateField(_("Wechsel am"))
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["player", "on"]
        verbose_name = _("Vereinswechsel")
        verbose_name_plural = _("Vereinswechsel")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "on"],
                name="transfer_one_per_day",
                violation_error_code="transfer_same_day",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.from_club or '—'} → {self.club} ({self.on})"


def club_on(
    current: int | None,
    transfers: Sequence[tuple[datetime.date, int | None, int]],
    day: datetime.date,
) -> int | None:
    """The club (id) a player belonged to on ``day``: that of his latest transfer up to that
    day; before his first transfer, the club he came from; without transfers, ``current``.
    ``transfers`` are (date, from club, to club) in the order of their dates.

    >>> moves = [(datetime.date(2026, 6, 1), 1, 2)]
    >>> club_on(2, moves, datetime.date(2026, 5, 31)), club_on(2, moves, datetime.date(2026, 6, 1))
    (1, 2)
    >>> club_on(7, [], datetime.date(2026, 1, 1))
    7
    """
    found = current
    for index, (on, from_club, club) in enumerate(transfers):
        if on <= day:
            found = club
        elif index == 0:
            return from_club
        else:
            break
    return found

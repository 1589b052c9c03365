"""Clubs, players, seasons and their teams."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from skatliga.models.choices import Category, language_field
from skatliga.models.rules import PlaysRules


class KeepsRevision(models.Model):
    """A model whose ``revision`` and ``revised_at`` change in the database alone
    (``skatliga.revisions``): a full save of a row read earlier (the admin's, a script's)
    writes every other field and leaves those two as they are now. Written back, an older
    revision would bring a key back that a cached page was built under."""

    class Meta:
        abstract = True

    KEPT: ClassVar[tuple[str, ...]] = ("revision", "revised_at")

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding and kwargs.get("update_fields") is None:
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key
                and field.name not in self.KEPT
                and field.attname not in deferred
            ]
        super().save(*args, **kwargs)


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


class Season(KeepsRevision, PlaysRules):
    """A league or club season; its rule set and list system are its new tournaments'."""

    class Ranking(models.TextChoices):
        SUM = "sum", _("Summe aller Serien")
        BEST = "best", _("beste Serien")
        AVERAGE = "average", _("Durchschnitt je Serie")

    class MatchPoints(models.TextChoices):
        """How teams score against each other (docs/rules.md section 10.6)."""

        PLACES = "places", _("n−1 … 0 Matchpunkte je Serie")
        PAIRINGS = "pairings", _("2/1/0 je Paarung und Spieltag")
        SERIES_POINTS = "series-points", _("Wertungspunkte je Serie")

    name = models.CharField(_("Name"), max_length=120)
    slug = models.SlugField(unique=True)
    year = models.PositiveIntegerField(_("Jahr"))
    ranking = models.CharField(
        _("Einzelwertung"), max_length=10, choices=Ranking.choices, default=Ranking.SUM
    )
    ranking_series = models.PositiveSmallIntegerField(
        _("Serien"),
        default=1,
        help_text=_("Beste Serien: wie viele zählen. Durchschnitt: wie viele mindestens."),
    )
    match_points = models.CharField(
        _("Mannschaftswertung"),
        max_length=16,
        choices=MatchPoints.choices,
        default=MatchPoints.PLACES,
    )
    language = language_field()
    revision = models.PositiveBigIntegerField(default=0, db_default=0, editable=False)
    """Stamp of the last change to anything the season's pages show (``skatliga.revisions``)."""
    revised_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-year", "name"]
        verbose_name = _("Saison")
        verbose_name_plural = _("Saisons")
        constraints = [
            models.CheckConstraint(
                condition=Q(ranking_series__gte=1),
                name="season_ranking_series_positive",
                violation_error_code="ranking_series_invalid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ranking_text(self) -> str:
        """The individual ranking in words, as the season's page and PDF say it."""
        n = self.ranking_series
        if self.ranking == self.Ranking.BEST:
            return ngettext("die beste Serie zählt", "die besten %(n)d Serien zählen", n) % {"n": n}
        if self.ranking == self.Ranking.AVERAGE:
            return ngettext(
                "Durchschnitt je gespielter Serie, ab %(n)d Serie",
                "Durchschnitt je gespielter Serie, ab %(n)d Serien",
                n,
            ) % {"n": n}
        return str(_("Summe aller Serien"))

    @property
    def match_points_rule(self) -> str:
        """The team match-point scheme in words (``match_points_rule``)."""
        return match_points_rule(self.match_points)


def match_points_rule(scheme: str) -> str:
    """A team match-point scheme (``Season.MatchPoints``) in words, as the season's page,
    the exports and the PDF say it."""
    if scheme == Season.MatchPoints.PAIRINGS:
        return str(
            _(
                "Mannschaftswertung 2/1/0 je Paarung: an jedem Spieltag erhält jede Mannschaft "
                "gegen jede andere 2 Punkte für mehr Spielpunkte, 1 für gleich viele, 0 für "
                "weniger"
            )
        )
    if scheme == Season.MatchPoints.SERIES_POINTS:
        return str(
            _(
                "Mannschaftswertung nach Wertungspunkten je Serie: in jeder Serie erhält jede "
                "Mannschaft gegen jede andere 2 Punkte für mehr Spielpunkte, 1 für gleich viele, "
                "0 für weniger (bei vier Mannschaften 6:0, 4:2, 2:4, 0:6)"
            )
        )
    return str(
        _(
            "Mannschaftswertung nach Plätzen je Serie: bei n Mannschaften n−1 Matchpunkte für "
            "die beste bis 0 für die letzte; gleich viele Spielpunkte teilen sich die Plätze"
        )
    )


class Team(models.Model):
    season = models.ForeignKey(
        Season, verbose_name=_("Saison"), on_delete=models.PROTECT, related_name="teams"
    )
    name = models.CharField(_("Name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("Verein"), null=True, blank=True, on_delete=models.PROTECT
    )
    players = models.ManyToManyField(Player, verbose_name=_("Spieler"), related_name="teams")

    class Meta:
        ordering = ["name"]
        verbose_name = _("Mannschaft")
        verbose_name_plural = _("Mannschaften")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "name"],
                name="team_name_unique_per_season",
                violation_error_code="team_name_taken",
            ),
        ]

    def __str__(self) -> str:
        return self.name

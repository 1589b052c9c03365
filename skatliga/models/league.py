"""Leagues, their levels and divisions, seasons, and their teams with rosters.

Clubs and players are ``models.clubs``; the match days of a division, their groups, line-ups
and team links are ``models.matchdays``."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from skatliga.models.choices import Category, language_field
from skatliga.models.clubs import Club, Player
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


class League(models.Model):
    """A federation's or a region's team league: its levels in order, a season a year.

    ``officials`` run the whole league (its seasons, levels, divisions and the divisions'
    officials); a division's own officials run that division alone."""

    class TieRule(models.TextChoices):
        """What ranks teams of a division's table level on match points and game points
        (docs/rules.md section 11.6)."""

        SHARED = "shared", _("sie teilen sich den Platz")
        HEAD_TO_HEAD = "head-to-head", _("direkter Vergleich der Serien gegeneinander")
        FEWER_AGAINST = "fewer-against", _("weniger Minuspunkte")

    name = models.CharField(_("Name"), max_length=120, unique=True)
    slug = models.SlugField(unique=True)
    tie_rule = models.CharField(
        _("bei Gleichstand"),
        max_length=16,
        choices=TieRule.choices,
        default=TieRule.SHARED,
        help_text=_("Was Mannschaften mit gleichen Match- und Spielpunkten trennt."),
    )
    category = models.CharField(
        _("nur Kategorie"),
        max_length=12,
        choices=Category.choices,
        blank=True,
        help_text=_("Eine Damen- oder Seniorenliga: nur Spieler dieser Kategorie spielen."),
    )
    officials = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Ligaleitung"),
        blank=True,
        related_name="officiated_leagues",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("Liga")
        verbose_name_plural = _("Ligen")

    def __str__(self) -> str:
        return self.name


SERIES_PER_MATCH_DAY = (2, 3, 4)


class Level(models.Model):
    """One level of a league ("1. Bundesliga", "Landesliga"), ``rank`` 1 the highest, and
    how its match days are played."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="levels")
    name = models.CharField(_("Name"), max_length=120)
    rank = models.PositiveSmallIntegerField(
        _("Rang"), help_text=_("1 ist die höchste Spielklasse.")
    )
    series = models.PositiveSmallIntegerField(
        _("Serien je Spieltag"), default=3, help_text=_("2, 3 oder 4.")
    )
    players = models.PositiveSmallIntegerField(
        _("Spieler je Serie"), default=4, help_text=_("So viele Spieler stellt eine Mannschaft.")
    )
    players_least = models.PositiveSmallIntegerField(
        _("mindestens"), default=3, help_text=_("Mit so vielen darf eine Mannschaft antreten.")
    )
    substitutes = models.PositiveSmallIntegerField(
        _("Ersatzspieler je Serie"),
        default=2,
        help_text=_("So viele Ersatzspieler des Kaders dürfen in einer Serie spielen."),
    )
    promoted = models.PositiveSmallIntegerField(
        _("Aufsteiger je Staffel"), default=0, help_text=_("Die Besten jeder Staffel steigen auf.")
    )
    promoted_compared = models.PositiveSmallIntegerField(
        _("weitere Aufsteiger im Staffelvergleich"),
        default=0,
        help_text=_(
            "So viele der Mannschaften auf dem nächsten Platz aller Staffeln steigen auch auf: "
            "die besten nach Wertungspunkten, dann Spielpunkten."
        ),
    )
    relegated = models.PositiveSmallIntegerField(
        _("Absteiger je Staffel"), default=0, help_text=_("Die Letzten jeder Staffel steigen ab.")
    )
    relegated_compared = models.PositiveSmallIntegerField(
        _("weitere Absteiger im Staffelvergleich"),
        default=0,
        help_text=_(
            "So viele der Mannschaften auf dem Platz darüber in allen Staffeln steigen auch "
            "ab: die schwächsten nach Wertungspunkten, dann Spielpunkten."
        ),
    )

    class Meta:
        ordering = ["league", "rank"]
        verbose_name = _("Spielklasse")
        verbose_name_plural = _("Spielklassen")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "rank"],
                name="level_rank_unique",
                violation_error_code="level_rank_taken",
            ),
            models.CheckConstraint(
                condition=Q(series__in=SERIES_PER_MATCH_DAY),
                name="level_series_2_to_4",
                violation_error_code="level_series_invalid",
            ),
            models.CheckConstraint(
                condition=Q(players_least__gte=1)
                & Q(players_least__lte=F("players"))
                & Q(players__lte=8),
                name="level_players_in_range",
                violation_error_code="level_players_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} – {self.name}"


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
    league = models.ForeignKey(
        League,
        verbose_name=_("Liga"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seasons",
        help_text=_("Ohne Liga: eine Saison aus Spieltagen ohne Staffeln."),
    )
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

    def is_run_by(self, user: object) -> bool:
        """Whether ``user`` runs this season's league (its officials, or a superuser): the
        season's end is theirs."""
        if not getattr(user, "is_authenticated", False) or self.league_id is None:
            return False
        if getattr(user, "is_superuser", False):
            return True
        key: int = getattr(user, "pk", 0)
        return League.officials.through.objects.filter(
            league_id=self.league_id, user_id=key
        ).exists()

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


class DivisionQuerySet(models.QuerySet["Division"]):
    def officiated_by(self, user: object) -> DivisionQuerySet:
        """The divisions ``user`` may change: his own, those of the leagues he runs, every
        one for a superuser, none for an anonymous visitor. Every league official's page asks
        this."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        if getattr(user, "is_superuser", False):
            return self.all()
        key: int = getattr(user, "pk", 0)
        return self.filter(
            Q(pk__in=Division.officials.through.objects.filter(user_id=key).values("division_id"))
            | Q(
                season__league__in=League.officials.through.objects.filter(user_id=key).values(
                    "league_id"
                )
            )
        )


class Division(models.Model):
    """A division ("Staffel") of one level in one season: its teams meet on its match days
    (``models.matchdays``). ``officials`` may change it and nothing else."""

    season = models.ForeignKey(
        Season, verbose_name=_("Saison"), on_delete=models.PROTECT, related_name="divisions"
    )
    level = models.ForeignKey(
        Level, verbose_name=_("Spielklasse"), on_delete=models.PROTECT, related_name="divisions"
    )
    name = models.CharField(_("Name"), max_length=120)
    officials = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Staffelleiter"),
        blank=True,
        related_name="officiated_divisions",
    )
    published_at = models.DateTimeField(_("Spielplan veröffentlicht"), null=True, blank=True)
    """When the official published the schedule; None while it is a draft."""

    objects = DivisionQuerySet.as_manager()

    class Meta:
        ordering = ["season", "level__rank", "name"]
        verbose_name = _("Staffel")
        verbose_name_plural = _("Staffeln")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "level", "name"],
                name="division_name_unique",
                violation_error_code="division_name_taken",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.level.name} – {self.name}"

    def is_officiated_by(self, user: object) -> bool:
        """Whether ``user`` may change this division (:meth:`DivisionQuerySet.officiated_by`)."""
        return Division.objects.officiated_by(user).filter(pk=self.pk).exists()


class Team(models.Model):
    season = models.ForeignKey(
        Season, verbose_name=_("Saison"), on_delete=models.PROTECT, related_name="teams"
    )
    division = models.ForeignKey(
        Division,
        verbose_name=_("Staffel"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="teams",
    )
    name = models.CharField(_("Name"), max_length=120)
    club = models.ForeignKey(
        Club, verbose_name=_("Verein"), null=True, blank=True, on_delete=models.PROTECT
    )
    players = models.ManyToManyField(
        Player, verbose_name=_("Spieler"), related_name="teams", through="RosterEntry"
    )
    captain = models.ForeignKey(
        Player,
        verbose_name=_("Mannschaftsführer"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="captained_teams",
    )

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


class RosterEntry(models.Model):
    """A player on a team's roster ("Kader"): a regular player in his ``position`` (1 plays
    first), or a substitute (``substitute``) listed after the regulars. The roster of a
    division's team is kept by ``league.rosters.set_roster``, which checks eligibility."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="roster_entries")
    position = models.PositiveSmallIntegerField(_("Position"), null=True, blank=True)
    """1, 2, … in the order the team names them; None for a season's team without order."""
    substitute = models.BooleanField(_("Ersatzspieler"), default=False)

    class Meta:
        ordering = ["team", "position"]
        verbose_name = _("Kaderplatz")
        verbose_name_plural = _("Kader")
        constraints = [
            models.UniqueConstraint(
                fields=["team", "player"],
                name="roster_player_once",
                violation_error_code="player_on_roster",
            ),
            models.UniqueConstraint(
                fields=["team", "position"],
                name="roster_position_unique",
                violation_error_code="roster_position_taken",
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1),
                name="roster_position_positive",
                violation_error_code="roster_position_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.position}: {self.player}"

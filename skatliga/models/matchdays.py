"""A division's schedule and what a match day needs: the match days, their groups of teams
(each played as one tournament), the teams' line-ups per series and the captains' team links.

A match day of a division (:class:`MatchDay`) splits its teams into groups of three to five
(:class:`MatchGroup`, the teams by :class:`GroupTeam`); a group meets at its host's venue, or
every group of a central match day at one venue, and plays as one tournament
(``MatchGroup.tournament``) with the level's number of series. Before each series each team
names who plays (:class:`LineUp`, its players :class:`LineUpPlayer`): its captain through the
team's link (:class:`TeamLink`), or the match day's referee.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skatliga.models.clubs import Player
from skatliga.models.league import Division, Team
from skatliga.models.links import Link
from skatliga.models.tournaments import Tournament


class MatchDay(models.Model):
    """Match day ``number`` of a division: its date, and for a central one its venue."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="match_days")
    number = models.PositiveSmallIntegerField(_("Spieltag"))
    date = models.DateField(_("Datum"))
    central = models.BooleanField(
        _("zentral"), default=False, help_text=_("Alle Gruppen spielen an einem Ort.")
    )
    venue = models.CharField(_("Ort"), max_length=160, blank=True)
    address = models.CharField(_("Anschrift"), max_length=200, blank=True)

    class Meta:
        ordering = ["division", "number"]
        verbose_name = _("Spieltag")
        verbose_name_plural = _("Spieltage")
        constraints = [
            models.UniqueConstraint(
                fields=["division", "number"],
                name="match_day_number_unique",
                violation_error_code="match_day_taken",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="match_day_number_positive",
                violation_error_code="match_day_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.division} – {_('Spieltag')} {self.number}"


class MatchGroup(models.Model):
    """One group of a match day: its teams meet at ``venue`` on ``date`` (the match day's
    unless moved), hosted by ``host``; ``tournament`` is the group's tournament once set up."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField(_("Gruppe"))
    date = models.DateField(_("Datum"))
    starts_at = models.TimeField(_("Beginn"), null=True, blank=True)
    host = models.ForeignKey(
        Team,
        verbose_name=_("Gastgeber"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_groups",
    )
    venue = models.CharField(_("Ort"), max_length=160, blank=True)
    address = models.CharField(_("Anschrift"), max_length=200, blank=True)
    teams = models.ManyToManyField(Team, through="GroupTeam", related_name="match_groups")
    tournament = models.OneToOneField(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="match_group",
    )

    class Meta:
        ordering = ["match_day", "number"]
        verbose_name = _("Spielgruppe")
        verbose_name_plural = _("Spielgruppen")
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "number"],
                name="match_group_number_unique",
                violation_error_code="match_group_taken",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_day} – {_('Gruppe')} {self.number}"


class GroupTeam(models.Model):
    """A team in a group; a team plays in one group per match day."""

    group = models.ForeignKey(MatchGroup, on_delete=models.CASCADE, related_name="places")
    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="group_places")

    class Meta:
        ordering = ["group", "team__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "team"],
                name="group_team_once_per_match_day",
                violation_error_code="team_in_two_groups",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.group}: {self.team}"


class LineUp(models.Model):
    """Who plays for ``team`` in series ``series`` of a group's match day, set by its captain
    (``via`` captain, through the team's link) or the match day's referee."""

    class Via(models.TextChoices):
        CAPTAIN = "captain", _("Mannschaftsführer")
        REFEREE = "referee", _("Turnierleitung")

    group = models.ForeignKey(MatchGroup, on_delete=models.CASCADE, related_name="line_ups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="line_ups")
    series = models.PositiveSmallIntegerField(_("Serie"))
    set_at = models.DateTimeField(auto_now=True)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via = models.CharField(max_length=8, choices=Via.choices, default=Via.REFEREE)
    players = models.ManyToManyField(Player, through="LineUpPlayer", related_name="line_ups")

    class Meta:
        ordering = ["group", "series", "team__name"]
        verbose_name = _("Aufstellung")
        verbose_name_plural = _("Aufstellungen")
        constraints = [
            models.UniqueConstraint(
                fields=["group", "team", "series"],
                name="line_up_once_per_series",
                violation_error_code="line_up_exists",
            ),
            models.CheckConstraint(
                condition=Q(series__gte=1),
                name="line_up_series_positive",
                violation_error_code="series_number_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.group} – {self.team}, {_('Serie')} {self.series}"


class LineUpPlayer(models.Model):
    """A player of a line-up at ``position`` (1 first), a substitute of the roster or not."""

    line_up = models.ForeignKey(LineUp, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="line_up_entries")
    position = models.PositiveSmallIntegerField(_("Position"))
    substitute = models.BooleanField(_("Ersatzspieler"), default=False)

    class Meta:
        ordering = ["line_up", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["line_up", "player"],
                name="line_up_player_once",
                violation_error_code="player_twice_in_line_up",
            ),
            models.UniqueConstraint(
                fields=["line_up", "position"],
                name="line_up_position_unique",
                violation_error_code="line_up_position_taken",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.line_up} {self.position}: {self.player}"


class TeamLink(Link):
    """The captain's link to his team's match days and line-ups (``models.links.Link``):
    ``/team/<token>/``, or its code typed at ``/team/``."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="links")

    class Meta:
        ordering = ["team", "-created_at"]
        verbose_name = _("Mannschaftslink")
        verbose_name_plural = _("Mannschaftslinks")
        constraints = [
            models.UniqueConstraint(
                fields=["team"],
                condition=Q(revoked_at__isnull=True),
                name="team_link_one_active",
                violation_error_code="team_link_active",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} – {self.code}"

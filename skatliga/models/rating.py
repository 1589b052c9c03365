"""The Skat rating as kept (docs/rating.md): each player's current rating, one row per player
and rated list with his rating before and after it, and the book of what they were computed
with. ``services.rating`` writes them with the model of ``skatliga.rating.model``; the rating
list, a player's history and the change each list or tournament made are reads of these rows.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from skatliga.models.clubs import Player, public_name
from skatliga.models.league import RosterEntry
from skatliga.models.tournaments import Table, Tournament
from skatliga.rating.model import PARAMETERS, Skill, widened

ListKey = tuple[datetime.date, int, int, int]
"""Where a list stands in the rating's order: the tournament's date, the tournament's id, the
series' number and the table's number. Lists are rated in this order; two lists of one series
have no player in common, so their order between them changes nothing."""

KEY_FIELDS = ("played_on", "tournament_id", "series_number", "table_number")
""":class:`RatingChange`'s fields that hold its list's :data:`ListKey`, in order."""


class RatingBook(models.Model):
    """One row: the parameters the stored ratings were computed with, and the day from which
    the lists still wait to be rated again (a recompute too long for a request)."""

    parameters = models.TextField(default="", blank=True)
    """``Parameters.fingerprint()`` of the stored ratings; empty before the first rating."""
    stale_from = models.DateField(null=True, blank=True)
    """The lists of this day and after are to be rated again (``manage.py rate_lists``)."""

    class Meta:
        verbose_name = _("Wertungsbuch")
        verbose_name_plural = _("Wertungsbuch")

    def __str__(self) -> str:
        return self.parameters


class PlayerRatingQuerySet(models.QuerySet["PlayerRating"]):
    def ranked(self) -> PlayerRatingQuerySet:
        """Highest rating first; level ratings by name."""
        return self.order_by("-rating", "player__name", "player_id")

    def settled(self) -> PlayerRatingQuerySet:
        """Ratings of players who have played enough lists (no longer provisional)."""
        return self.filter(lists__gte=PARAMETERS.provisional_lists)

    def provisional(self) -> PlayerRatingQuerySet:
        return self.filter(lists__lt=PARAMETERS.provisional_lists)

    def listed(self) -> PlayerRatingQuerySet:
        """The ratings the public sees: of players who chose to be in the rating list, and
        of those who did not choose where the site's default lists them
        (``settings.RATING_LISTED_DEFAULT``)."""
        shown = Q(player__rating_listed=True)
        if settings.RATING_LISTED_DEFAULT:
            shown |= Q(player__rating_listed__isnull=True)
        return self.filter(shown)

    def in_club(self, club_pk: int) -> PlayerRatingQuerySet:
        return self.filter(player__club_id=club_pk)

    def in_league(self, league_pk: int) -> PlayerRatingQuerySet:
        """Players on a roster of a team of one of the league's seasons."""
        rostered = RosterEntry.objects.filter(team__season__league_id=league_pk)
        return self.filter(player__in=rostered.values("player_id"))

    def in_category(self, category: str) -> PlayerRatingQuerySet:
        return self.filter(player__category=category)

    def rows(self) -> list[RatingRow]:
        """The rating list: these ratings ranked (level ratings share a place), as rows the
        metrics read (``standings.metrics``), names as the public sees them."""
        found = self.ranked().values_list(
            "player_id",
            "player__name",
            "player__initials_only",
            "player__club__name",
            "rating",
            "lists",
        )
        rows: list[RatingRow] = []
        for index, (pk, name, initials_only, club, rating, lists) in enumerate(found):
            shown = round(rating, 1)
            rank = rows[-1].rank if rows and rows[-1].rating == shown else index + 1
            provisional = lists < PARAMETERS.provisional_lists
            rows.append(
                RatingRow(
                    rank,
                    pk,
                    public_name(name, initials_only),
                    club or "",
                    shown,
                    lists,
                    provisional,
                )
            )
        return rows


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A line of the rating list: the player's place, his public name and club, his rating
    (to one decimal, as shown), the lists it rests on and whether it is provisional."""

    rank: int
    player_id: int
    player: str
    club: str
    rating: float
    lists: int
    provisional: bool


class PlayerRating(models.Model):
    """A player's rating after his last rated list."""

    player = models.OneToOneField(
        Player, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    """The mean of the belief about his skill."""
    sigma = models.FloatField()
    """Its uncertainty (a standard deviation) after his last list."""
    rating = models.FloatField(_("Wertungszahl"))
    """The displayed, conservative rating: ``mu − k · sigma``."""
    lists = models.PositiveIntegerField(_("Listen"))
    """The lists his rating rests on."""
    last_played = models.DateField(_("zuletzt gespielt"))

    objects = PlayerRatingQuerySet.as_manager()

    class Meta:
        verbose_name = _("Wertungszahl")
        verbose_name_plural = _("Wertungszahlen")
        indexes = [models.Index(fields=["-rating"], name="player_rating_rank")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.1f}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma, self.lists, self.last_played)

    @property
    def provisional(self) -> bool:
        """Fewer lists than a settled rating needs (``Parameters.provisional_lists``)."""
        return self.skill.provisional()

    def rating_on(self, day: datetime.date) -> float:
        """His conservative rating on ``day``, its uncertainty grown with the days since his
        last list (what his next list would start from)."""
        return self.mu - PARAMETERS.k * widened(self.skill, day)


class RatingChangeQuerySet(models.QuerySet["RatingChange"]):
    def chronological(self) -> RatingChangeQuerySet:
        """In the order the lists were rated."""
        return self.order_by(*KEY_FIELDS, "player_id")

    def for_player(self, player_pk: int) -> RatingChangeQuerySet:
        """One player's rated lists, in the order they were rated: his history."""
        return self.filter(player_id=player_pk).chronological()

    def per_tournament(self) -> list[TournamentChange]:
        """These rows summed per tournament, in the order played: what each tournament
        (an evening, a match day) did to each player's rating."""
        found: dict[tuple[int, int], TournamentChange] = {}
        for row in self.chronological().select_related("tournament"):
            key = (row.tournament_id, row.player_id)
            if key not in found:
                found[key] = TournamentChange(
                    row.player_id, row.tournament, row.played_on, 0, row.rating_before, 0.0
                )
            before = found[key]
            found[key] = TournamentChange(
                row.player_id,
                before.tournament,
                before.played_on,
                before.lists + 1,
                before.rating_before,
                row.rating_after,
            )
        return list(found.values())


@dataclass(frozen=True, slots=True)
class TournamentChange:
    """What one tournament did to one player's rating: its lists, before and after."""

    player_id: int
    tournament: Tournament
    played_on: datetime.date
    lists: int
    rating_before: float
    rating_after: float

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


class RatingChange(models.Model):
    """One player's rating before and after one rated list.

    The list's place in the rating's order (:data:`ListKey`) is copied here, so that a
    player's history, a replay from a point in time and the change a tournament made are
    reads of this table alone. "Before" is his rating as his previous list left it (the
    growth of its uncertainty for the days between is part of this list's change)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_changes"
    )
    played_on = models.DateField(_("Datum"))
    series_number = models.PositiveSmallIntegerField(_("Serie"))
    table_number = models.PositiveSmallIntegerField(_("Tisch"))
    players = models.PositiveSmallIntegerField(_("Spieler"))
    """How many players were rated on the list (its seats less those with a substitute)."""
    points = models.IntegerField(_("Punkte"))
    """His points on the list (``ListResult.total``): what the players were ranked by."""
    place = models.PositiveSmallIntegerField(pgettext_lazy("place on a list", "Platz"))
    """His place on the list by points among the rated players; level players share it."""
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.FloatField(_("Wertungszahl vorher"))
    rating_after = models.FloatField(_("Wertungszahl nachher"))
    lists = models.PositiveIntegerField(_("Listen"))
    """His rated lists with this one."""
    previous_on = models.DateField(null=True, blank=True)
    """The day of his previous rated list; None for his first."""

    objects = RatingChangeQuerySet.as_manager()

    class Meta:
        verbose_name = _("Änderung der Wertungszahl")
        verbose_name_plural = _("Änderungen der Wertungszahl")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "player"],
                name="rating_change_unique",
                violation_error_code="rating_change_exists",
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=models.F("players"), players__gte=2),
                name="rating_change_place_on_list",
                violation_error_code="rating_change_place_invalid",
            ),
        ]
        indexes = [
            models.Index(fields=["player", *KEY_FIELDS], name="rating_change_history"),
            models.Index(fields=list(KEY_FIELDS), name="rating_change_order"),
        ]

    def __str__(self) -> str:
        before, after = self.rating_before, self.rating_after
        return f"{self.table_id} – {self.player_id}: {before:.1f} → {after:.1f}"

    @property
    def change(self) -> float:
        """What the list (and the days before it) did to his displayed rating."""
        return self.rating_after - self.rating_before

    @property
    def before(self) -> Skill:
        """His skill as the list found it (before the growth for the days between)."""
        return Skill(self.mu_before, self.sigma_before, self.lists - 1, self.previous_on)

    @property
    def after(self) -> Skill:
        return Skill(self.mu_after, self.sigma_after, self.lists, self.played_on)

    @property
    def key(self) -> ListKey:
        return (self.played_on, self.tournament_id, self.series_number, self.table_number)

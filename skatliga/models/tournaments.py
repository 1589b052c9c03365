"""Tournaments, their registrations, series, tables, table links, seats and games."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import scoring
from skatliga.models.choices import NULL_GAMES, TRUMP_GAMES, GameType, language_field
from skatliga.models.clubs import Player
from skatliga.models.league import Division, KeepsRevision, Season, Team
from skatliga.models.links import Link
from skatliga.models.rules import PlaysRules

OBJECTION_MINUTES_MOST = 120
"""The longest objection window a tournament may set, in minutes (the cached public pages
rely on it: ``views.public.common.in_tournament``)."""


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def refereed_by(self, user: object) -> TournamentQuerySet:
        """The tournaments ``user`` may write to: those he referees and the match days of
        the divisions he runs (``DivisionQuerySet.officiated_by``), every one for a
        superuser, none for an anonymous visitor. Every permission check asks this."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        if getattr(user, "is_superuser", False):
            return self.all()
        key: int = getattr(user, "pk", 0)
        refereed = Tournament.referees.through.objects.filter(user_id=key)
        return self.filter(
            Q(pk__in=refereed.values("tournament_id"))
            | Q(match_group__match_day__division__in=Division.objects.officiated_by(user))
        )


class Tournament(KeepsRevision, PlaysRules):
    KEPT = ("revision", "frame_revision", "revised_at")

    class Status(models.TextChoices):
        PLANNED = "planned", _("geplant")
        RUNNING = "running", _("läuft")
        FINISHED = "finished", _("beendet")

    name = models.CharField(_("Name"), max_length=160)
    slug = models.SlugField(unique=True, max_length=80)
    date = models.DateField(_("Datum"))
    venue = models.CharField(_("Ort"), max_length=160, blank=True)
    starts_at = models.TimeField(_("Beginn"), null=True, blank=True)
    address = models.CharField(
        _("Anschrift"), max_length=200, blank=True, help_text=_("Für Kalender und Karten.")
    )
    season = models.ForeignKey(
        Season,
        verbose_name=_("Saison"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
    match_day = models.PositiveSmallIntegerField(_("Spieltag"), null=True, blank=True)
    rounds_per_series = models.PositiveSmallIntegerField(_("Runden pro Serie"), default=12)
    status = models.CharField(
        _("Status"), max_length=12, choices=Status.choices, default=Status.PLANNED
    )
    keep_teammates_apart = models.BooleanField(_("Mannschaftskameraden trennen"), default=False)
    hide_unpublished = models.BooleanField(
        _("Unveröffentlichte Serien verbergen"),
        default=False,
        help_text=_(
            "Ohne Haken zeigen die öffentlichen Seiten eine Serie vor der Veröffentlichung als "
            "vorläufig; mit Haken erst nach der Veröffentlichung."
        ),
    )
    double_entry = models.BooleanField(
        _("Doppelte Erfassung"),
        default=False,
        help_text=_(
            "Jede Liste wird zweimal unabhängig erfasst (am Tisch und von der Turnierleitung "
            "vom Papier); abgeschlossen wird sie erst, wenn beide Erfassungen übereinstimmen."
        ),
    )
    objection_minutes = models.PositiveSmallIntegerField(
        _("Einspruchsfrist (Minuten)"),
        default=0,
        validators=[MaxValueValidator(OBJECTION_MINUTES_MOST)],
        help_text=_(
            "Nach der Veröffentlichung einer Serie so viele Minuten Zeit für Einsprüche; "
            "danach sind die Ergebnisse endgültig. 0: keine Einspruchsfrist."
        ),
    )
    seat_codes = models.BooleanField(
        _("Unterschrift mit Sitzcode"),
        default=False,
        help_text=_(
            "Jeder Spieler unterschreibt am Tischgerät mit dem Sitzcode seines Platzes, der "
            "auf der Tischkarte steht: so kann ein Gerät nicht für alle unterschreiben."
        ),
    )
    language = language_field()
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("Turnierleiter"),
        blank=True,
        related_name="refereed_tournaments",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revision = models.PositiveBigIntegerField(default=0, db_default=0, editable=False)
    """Stamp of the last change to anything the tournament's pages show
    (``skatliga.revisions``)."""
    frame_revision = models.PositiveBigIntegerField(default=0, db_default=0, editable=False)
    """Stamp of the last change beyond a list's games: what every page of the tournament
    shows around a list or a series (names, settings, seats, publishing, closing)."""
    revised_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds_per_series__gte=1) & Q(rounds_per_series__lte=30),
                name="tournament_rounds_in_range",
                violation_error_code="rounds_out_of_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def games_per_list(self, table_size: int) -> int:
        return self.rounds_per_series * table_size

    def is_referee(self, user: AbstractBaseUser | AnonymousUser) -> bool:
        """Whether ``user`` may write to this tournament (``TournamentQuerySet.refereed_by``)."""
        if getattr(user, "is_superuser", False):  # refereed_by: every tournament, unasked
            return bool(getattr(user, "is_authenticated", False))
        return Tournament.objects.refereed_by(user).filter(pk=self.pk).exists()


class Registration(models.Model):
    """A player entered in a tournament, with the team he plays for and a draw by lot."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="registrations"
    )
    lot = models.PositiveSmallIntegerField(
        _("Losentscheid"),
        null=True,
        blank=True,
        help_text=_("Platz im Losentscheid bei Gleichstand (1 = vorn)"),
    )
    withdrawn_at = models.DateTimeField(_("zurückgezogen"), null=True, blank=True)
    """When the player withdrew: he is no longer drawn; his results stay."""
    withdrawn_after = models.PositiveSmallIntegerField(
        _("zurückgezogen nach Serie"), null=True, blank=True
    )

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="registration_unique",
                violation_error_code="player_already_registered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class SeriesQuerySet(models.QuerySet["Series"]):
    @staticmethod
    def shown(path: str = "", *, final: bool = False) -> Q:
        """What the public may see, as a condition on the series at ``path`` (``""`` for
        series, ``"series__"`` for result rows, ``"table__series__"`` for games): published
        series, and unpublished ones (as provisional) unless their tournament hides them
        until publication; with ``final`` (the API), published series alone. Every public
        page, export, PDF and API answer filters on this."""
        published = Q(**{f"{path}published_at__isnull": False})
        if final:
            return published
        return published | Q(**{f"{path}tournament__hide_unpublished": False})

    def public(self, *, final: bool = False) -> SeriesQuerySet:
        """The series the public may see (:meth:`shown`)."""
        return self.filter(self.shown(final=final))


class Series(KeepsRevision):
    KEPT = ("revision",)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveSmallIntegerField(_("Serie"))
    published_at = models.DateTimeField(_("veröffentlicht"), null=True, blank=True)
    """When the referee published the results; None while they are provisional."""
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    objections_until = models.DateTimeField(_("Einspruch bis"), null=True, blank=True)
    """The end of the objection window set at publication (on a full minute); None without
    one. Until then the published results may still change; after it they are final."""
    revision = models.PositiveBigIntegerField(default=0, db_default=0, editable=False)
    """Stamp of the last game saved in one of its lists (``skatliga.revisions``)."""

    objects = SeriesQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("Serie")
        verbose_name_plural = _("Serien")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"],
                name="series_number_unique",
                violation_error_code="series_number_taken",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="series_number_positive",
                violation_error_code="series_number_invalid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('Serie')} {self.number}"

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    def objections_open(self, now: datetime.datetime) -> bool:
        """Whether a seat may still object at ``now``: before publication, and after it
        until the objection window ends."""
        if self.published_at is None:
            return True
        return self.objections_until is not None and now < self.objections_until


class Table(KeepsRevision):
    """One table in one series, and so one list (Spielliste)."""

    KEPT = ("revision",)

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
    size = models.PositiveSmallIntegerField(_("Plätze"))
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revision = models.PositiveBigIntegerField(default=0, db_default=0, editable=False)
    """Stamp of the last game saved in its list (``skatliga.revisions``)."""

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("Tisch")
        verbose_name_plural = _("Tische")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "number"],
                name="table_number_unique",
                violation_error_code="table_number_taken",
            ),
            models.CheckConstraint(
                condition=Q(size__in=scoring.TABLE_SIZES),
                name="table_size_3_to_5",
                violation_error_code="table_size_invalid",
            ),
        ]
        indexes = [
            # The lists still open, for "läuft" on the public pages (standings.running_in):
            # a few among all the league's tables, found without reading the others.
            models.Index(
                fields=["series"], condition=Q(closed_at__isnull=True), name="table_open_series"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} – {_('Tisch')} {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class TableLink(Link):
    """A link that lets the players keep one list at the table without an account
    (``models.links.Link``): ``/t/<token>/``, or its code typed at ``/t/``."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")

    class Meta:
        ordering = ["table", "-created_at"]
        verbose_name = _("Tischlink")
        verbose_name_plural = _("Tischlinks")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="table_link_one_active",
                violation_error_code="table_link_active",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.code}"


SIGN_CODE_LENGTH = 4


def new_sign_code() -> str:
    """A seat's signature code: four random digits, typed on a number pad."""
    return "".join(secrets.choice("0123456789") for _ in range(SIGN_CODE_LENGTH))


class Seat(models.Model):
    """A player's seat at one table of a series, and the substitute who took it over from
    game ``substitute_from`` on when he left during the list (SkWO 4.4)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(pgettext_lazy("seat", "Platz"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    substitute = models.ForeignKey(
        Player,
        verbose_name=_("Ersatzspieler"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="substitutions",
    )
    substitute_from = models.PositiveSmallIntegerField(_("ab Spiel"), null=True, blank=True)
    # What the seat's player, and its substitute, type to sign the list where the tournament
    # asks for it (``Tournament.seat_codes``); random per seat of each list.
    sign_code = models.CharField(
        _("Sitzcode"), max_length=SIGN_CODE_LENGTH, default=new_sign_code, editable=False
    )
    substitute_code = models.CharField(
        _("Sitzcode des Ersatzspielers"),
        max_length=SIGN_CODE_LENGTH,
        default=new_sign_code,
        editable=False,
    )

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"],
                name="seat_position_unique",
                violation_error_code="seat_taken",
            ),
            models.UniqueConstraint(
                fields=["series", "player"],
                name="seat_one_table_per_series",
                violation_error_code="player_already_seated",
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=5),
                name="seat_position_1_to_5",
                violation_error_code="seat_position_invalid",
            ),
            models.UniqueConstraint(
                fields=["series", "substitute"],
                condition=Q(substitute__isnull=False),
                name="seat_substitute_once_per_series",
                violation_error_code="substitute_seated",
            ),
            models.CheckConstraint(
                condition=Q(substitute__isnull=True, substitute_from__isnull=True)
                | Q(substitute__isnull=False, substitute_from__isnull=False)
                & Q(substitute_from__gte=2)
                & ~Q(substitute=F("player")),
                name="seat_substitute_from_second_game",
                violation_error_code="substitute_game_out_of_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.position}: {self.player}"

    def player_for(self, number: int) -> Player:
        """Who sits here in game ``number``: the substitute from his first game on."""
        if self.substitute_id is not None and number >= (self.substitute_from or 0):
            assert self.substitute is not None
            return self.substitute
        return self.player


class GameRow(models.Model):
    """What a row of a list says: a passed-in deal, a Ramsch, or a declaration and its
    outcome, as entered. A list's game (:class:`Game`) and a second entry of it
    (:class:`~skatliga.models.SecondEntry`) share these fields."""

    passed = models.BooleanField(_("eingepasst"), default=False)
    declarer = models.PositiveSmallIntegerField(_("Alleinspieler (Platz)"), null=True, blank=True)
    game = models.CharField(_("Spiel"), max_length=12, choices=GameType.choices, blank=True)
    bid = models.PositiveSmallIntegerField(_("Reizwert"), null=True, blank=True)
    matadors = models.SmallIntegerField(_("Spitzen"), null=True, blank=True)
    hand = models.BooleanField(_("Hand"), default=False)
    schneider_announced = models.BooleanField(_("Schneider angesagt"), default=False)
    schwarz_announced = models.BooleanField(_("Schwarz angesagt"), default=False)
    ouvert = models.BooleanField(pgettext_lazy("ouvert", "offen"), default=False)
    kontra = models.BooleanField(_("Kontra"), default=False)
    re = models.BooleanField(_("Re"), default=False)
    supra = models.BooleanField(_("Supra"), default=False)
    resupra = models.BooleanField(_("Resupra"), default=False)
    ramsch = models.JSONField(
        _("Ramsch"),
        null=True,
        blank=True,
        help_text=_('{"card_points": [...], "tricks": [...]} der drei Spieler ab Vorhand'),
    )
    card_points = models.PositiveSmallIntegerField(_("Augen"), null=True, blank=True)
    tricks = models.PositiveSmallIntegerField(_("Stiche"), null=True, blank=True)
    won_flag = models.BooleanField(_("gewonnen (Liste)"), null=True, blank=True)
    schneider_flag = models.BooleanField(_("Schneider (Liste)"), null=True, blank=True)
    schwarz_flag = models.BooleanField(_("Schwarz (Liste)"), null=True, blank=True)

    class Meta:
        abstract = True


class Game(GameRow):
    """One row of a list: a passed-in deal or a declared game, and what the engine made of it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    table_size = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField(_("Spiel Nr."))
    # Derived by the engine when the game is recorded.
    won = models.BooleanField(_("gewonnen"), default=False)
    overbid = models.BooleanField(_("überreizt"), default=False)
    value = models.PositiveIntegerField(_("Spielwert"), default=0)
    list_score = models.IntegerField(_("Listenwert"), default=0)
    opponents_list_score = models.IntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    disputed = models.JSONField(null=True, blank=True)
    """A table's version of a row the referee wrote last, waiting for the referee:
    ``{"device": ..., "game": <the archive's game object>}``; the referee's row stands."""
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signatures_cleared = 0
    """Not a column: how many signatures of the list the save that returned this row
    deleted (:func:`~skatliga.services.games.record_game`)."""
    dispute_filed = False
    """Not a column: whether the save that returned this row only filed a table's version
    for the referee (``disputed``)."""
    list_revisions: tuple[str, str] | None = None
    """Not a column: the list's mark (``revisions.list_mark``) before and after the save
    that returned this row; None if that save wrote nothing."""
    list_games: tuple[Game, ...] = ()
    """Not a column: the list's games as the save that returned this row left them, in
    order (read under its lock); empty if that save wrote nothing."""

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Spiel")
        verbose_name_plural = _("Spiele")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"],
                name="game_number_unique_per_list",
                violation_error_code="game_number_taken",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1),
                name="game_number_positive",
                violation_error_code="game_number_invalid",
            ),
            models.CheckConstraint(
                condition=Q(
                    passed=True, declarer__isnull=True, game="", bid__isnull=True, ramsch=None
                )
                | (Q(passed=False, declarer__isnull=False, ramsch=None) & ~Q(game=""))
                | (
                    Q(passed=False, declarer__isnull=True, game="", bid__isnull=True)
                    & ~Q(ramsch=None)
                ),
                name="game_passed_declared_or_ramsch",
                violation_error_code="game_incomplete",
            ),
            models.CheckConstraint(
                condition=Q(bid__isnull=True) | Q(bid__gte=18),
                name="game_bid_at_least_18",
                violation_error_code="bid_not_legal",
            ),
            models.CheckConstraint(
                condition=Q(matadors__isnull=True, game__in=["", *NULL_GAMES])
                | Q(
                    game__in=[g for g in TRUMP_GAMES if g != "grand"],
                    matadors__isnull=False,
                    matadors__gte=-11,
                    matadors__lte=11,
                )
                & ~Q(matadors=0)
                | Q(game="grand", matadors__isnull=False, matadors__gte=-4, matadors__lte=4)
                & ~Q(matadors=0),
                name="game_matadors_where_they_exist",
                violation_error_code="matadors_out_of_range",
            ),
            models.CheckConstraint(
                condition=Q(card_points__isnull=True) | Q(card_points__lte=120),
                name="game_card_points_in_range",
                violation_error_code="card_points_out_of_range",
            ),
            models.CheckConstraint(
                condition=Q(tricks__isnull=True) | Q(tricks__lte=10),
                name="game_tricks_in_range",
                violation_error_code="tricks_out_of_range",
            ),
            models.CheckConstraint(
                condition=Q(declarer__isnull=True)
                | Q(declarer__gte=1, declarer__lte=F("table_size")),
                name="game_declarer_at_table",
                violation_error_code="declarer_not_at_table",
            ),
            # At a 4-table who sits out depends on the rule set (fourth_player); the
            # services check it. At a 5-table the dealer and the seat before him sit out.
            models.CheckConstraint(
                condition=~Q(table_size=5)
                | Q(declarer__isnull=True)
                | ~Q(declarer=Mod(F("number") - 1, 5) + 1)
                & ~Q(declarer=Mod(F("number") + 3, 5) + 1),
                name="game_sitters_do_not_declare_at_5_table",
                violation_error_code="declarer_sits_out",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {_('Spiel')} {self.number}"

    @property
    def dealer(self) -> int:
        """Seat position (1-based) of the dealer of this game."""
        return scoring.dealer_seat(self.number, self.table_size) + 1

"""The data: clubs, players, seasons, teams, tournaments, their series, tables and games.

Values, verdicts and points are computed by the engine (``scoring``) in ``services`` and
stored with each game; ``ListResult`` holds one row per player per list, written whenever a
list changes, so that standings are grouped queries over it. Named constraints mirror the
engine's rules as a backstop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, overload

from django.conf import settings
from django.db import connection, models
from django.db.models import Count, Exists, F, OuterRef, Q, Subquery, Sum, Window
from django.db.models.functions import Mod, Rank
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

import scoring
from skatliga.collation import german_key


class GameType(models.TextChoices):
    """Mirrors ``scoring.GameType`` (a test checks they match)."""

    CLUBS = "clubs", _("Kreuz")
    SPADES = "spades", _("Pik")
    HEARTS = "hearts", _("Herz")
    DIAMONDS = "diamonds", _("Karo")
    GRAND = "grand", _("Grand")
    NULL = "null", _("Null")
    REVOLUTION = "revolution", _("Revolution")


class RuleSetName(models.TextChoices):
    """Mirrors ``scoring.PRESETS``: the named presets of rule options."""

    ISKO = "isko", _("ISkO (Internationale Skatordnung)")
    ISKO_KONTRA = "isko-kontra", _("ISkO mit Kontra und Re")
    PRE1999 = "pre1999", _("vor 1999 (verlorene Handspiele einfach)")
    GRAND20 = "grand20", _("Grand 20")
    DSU = "dsu", _("Dansk Skat Union")
    SE = "se", _("Schwedisch")
    NL = "nl", _("Niederländisch")


class ListSystem(models.TextChoices):
    """Mirrors ``scoring.ListSystem``."""

    SEEGER_FABIAN = "seeger-fabian", _("Seeger-Fabian")
    CLASSIC = "classic", _("klassisch")
    ZERO_SUM = "zero-sum", _("Nullsumme")


TRUMP_GAMES = [g.value for g in scoring.GameType if g.is_trump_game]
NULL_GAMES = [g.value for g in scoring.GameType if not g.is_trump_game]


class Club(models.Model):
    name = models.CharField(_("Name"), max_length=120, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("Verein")
        verbose_name_plural = _("Vereine")

    def __str__(self) -> str:
        return self.name


class Category(models.TextChoices):
    """A player's category, with its own rankings (empty: none)."""

    WOMEN = "damen", _("Damen")
    SENIORS = "senioren", _("Senioren")
    JUNIORS = "junioren", _("Junioren")


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


class Season(models.Model):
    class Ranking(models.TextChoices):
        SUM = "sum", _("Summe aller Serien")
        BEST = "best", _("beste Serien")
        AVERAGE = "average", _("Durchschnitt je Serie")

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


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("geplant")
        RUNNING = "running", _("läuft")
        FINISHED = "finished", _("beendet")

    name = models.CharField(_("Name"), max_length=160)
    slug = models.SlugField(unique=True, max_length=80)
    date = models.DateField(_("Datum"))
    venue = models.CharField(_("Ort"), max_length=160, blank=True)
    season = models.ForeignKey(
        Season,
        verbose_name=_("Saison"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
    match_day = models.PositiveSmallIntegerField(_("Spieltag"), null=True, blank=True)
    rules = models.CharField(
        _("Regelwerk"), max_length=20, choices=RuleSetName.choices, default=RuleSetName.ISKO
    )
    rule_options = models.JSONField(
        _("Hausregeln"),
        default=dict,
        blank=True,
        help_text=_("Optionen, die vom Regelwerk abweichen, wie im Archiv geschrieben."),
    )
    scoring = models.CharField(
        _("Listenwertung"),
        max_length=20,
        choices=ListSystem.choices,
        default=ListSystem.SEEGER_FABIAN,
    )
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
    revised_at = models.DateTimeField(null=True, blank=True, editable=False)

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

    @property
    def rule_set(self) -> scoring.RuleSet:
        """The preset with the tournament's house options (rules.md section 8)."""
        if not self.rule_options:
            return scoring.get_rules(self.rules)
        return scoring.rules_from_json({"preset": self.rules, **self.rule_options})

    @property
    def rules_text(self) -> str:
        """The preset and the house options in words, as pages and printouts show them."""
        from skatliga.messages import describe_rules

        return describe_rules(self.rule_set)

    @property
    def list_system(self) -> scoring.ListSystem:
        return scoring.ListSystem(self.scoring)

    def games_per_list(self, table_size: int) -> int:
        return self.rounds_per_series * table_size

    def is_referee(self, user: object) -> bool:
        """Whether ``user`` may write to this tournament."""
        if not getattr(user, "is_authenticated", False):
            return False
        if getattr(user, "is_superuser", False):
            return True
        return self.referees.filter(pk=getattr(user, "pk", None)).exists()


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
    def published(self) -> SeriesQuerySet:
        """The series whose results the referee has published (final, not provisional)."""
        return self.filter(published_at__isnull=False)


class Series(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveSmallIntegerField(_("Serie"))
    published_at = models.DateTimeField(_("veröffentlicht"), null=True, blank=True)
    """When the referee published the results; None while they are provisional."""
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

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


class Table(models.Model):
    """One table in one series, and so one list (Spielliste)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"))
    size = models.PositiveSmallIntegerField(_("Plätze"))
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

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

    def __str__(self) -> str:
        return f"{self.series} – {_('Tisch')} {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class TableLink(models.Model):
    """A link that lets the players keep one list at the table without an account.

    ``token`` is the unguessable part of ``/t/<token>/``; ``code`` the short code to type
    instead. Renewing revokes the old link and issues a new one; only an unrevoked link opens.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")
    token = models.CharField(max_length=64, unique=True)
    code = models.CharField(max_length=12, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

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

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(pgettext_lazy("seat", "Platz"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

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
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.position}: {self.player}"


class Game(models.Model):
    """One row of a list: a passed-in deal or a declared game, and what the engine made of it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    table_size = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField(_("Spiel Nr."))
    passed = models.BooleanField(_("eingepasst"), default=False)
    declarer = models.PositiveSmallIntegerField(_("Alleinspieler (Platz)"), null=True, blank=True)
    game = models.CharField(_("Spiel"), max_length=12, choices=GameType.choices, blank=True)
    bid = models.PositiveSmallIntegerField(_("Reizwert"), null=True, blank=True)
    matadors = models.SmallIntegerField(_("Spitzen"), null=True, blank=True)
    hand = models.BooleanField(_("Hand"), default=False)
    schneider_announced = models.BooleanField(_("Schneider angesagt"), default=False)
    schwarz_announced = models.BooleanField(_("Schwarz angesagt"), default=False)
    ouvert = models.BooleanField(_("offen"), default=False)
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
    # Derived by the engine when the game is recorded.
    won = models.BooleanField(_("gewonnen"), default=False)
    overbid = models.BooleanField(_("überreizt"), default=False)
    value = models.PositiveIntegerField(_("Spielwert"), default=0)
    list_score = models.IntegerField(_("Listenwert"), default=0)
    opponents_list_score = models.IntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

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
                | (
                    Q(passed=False, declarer__isnull=False, bid__isnull=False, ramsch=None)
                    & ~Q(game="")
                )
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


class ListResultQuerySet(models.QuerySet["ListResult"]):
    """Result rows narrowed to a scope, and the standings over them."""

    def public(self) -> ListResultQuerySet:
        """The rows the public pages show: published series, and unpublished ones (as
        provisional) unless their tournament hides them until publication."""
        return self.filter(
            Q(series__published_at__isnull=False) | Q(tournament__hide_unpublished=False)
        )

    def provisional(self) -> bool:
        """Whether any of these rows belongs to a series not yet published."""
        return self.filter(series__published_at__isnull=True).exists()

    def for_table(self, table: Table) -> ListResultQuerySet:
        return self.filter(table=table)

    def for_series(self, series: Series) -> ListResultQuerySet:
        return self.filter(series=series)

    def for_tournament(self, tournament: Tournament) -> ListResultQuerySet:
        return self.filter(tournament=tournament)

    def for_season(self, season: Season) -> ListResultQuerySet:
        return self.filter(season=season)

    def standings(self, *, lots_of: Tournament | None = None) -> list[StandingRow]:
        """One row per player: the summed summary rows and the rank, in one grouped query.

        Ranked by total, then more games won, then fewer lost (rules.md section 5); players
        still level share the rank unless ``lots_of`` names the tournament whose recorded
        draw by lot decides.
        """
        return list(self.ranked(lots_of=lots_of))

    def ranked(self, *, lots_of: Tournament | None = None) -> Standings:
        """:meth:`standings` as a sequence read a slice at a time: a page of the standings
        costs one query for its rows (LIMIT/OFFSET) and one for the number of players."""
        return Standings(self, lots_of)

    def _ranked_sql(self, lots_of: Tournament | None) -> tuple[str, list[Any]]:
        """The grouped and ranked query: the result rows are summed per player first, and the
        players' names and clubs joined to the sums (not the sums grouped by names)."""
        sums = {f"sum_{name}": Sum(name) for name in StandingRow.SUMMED}
        order = [F("sum_total").desc(), F("sum_won").desc(), F("sum_lost").asc()]
        rows = self.order_by().values("player_id").annotate(lists=Count("id"), **sums)
        if lots_of is not None:
            rows = rows.annotate(
                lot=Subquery(
                    Registration.objects.filter(
                        tournament=lots_of, player=OuterRef("player_id")
                    ).values("lot")[:1]
                )
            )
            order.append(F("lot").asc(nulls_last=True))
            rows = rows.annotate(
                withdrawn=Exists(
                    Registration.objects.filter(
                        tournament=lots_of,
                        player=OuterRef("player_id"),
                        withdrawn_at__isnull=False,
                    )
                )
            )
        rows = rows.annotate(rank=Window(Rank(), order_by=order))
        inner, params = rows.query.sql_with_params()
        q = connection.ops.quote_name
        figures = ", ".join(f"r.{q('sum_' + name)}" for name in StandingRow.SUMMED)
        withdrawn = f"r.{q('withdrawn')}" if lots_of is not None else "0"
        sql = (
            f"SELECT r.{q('rank')}, r.{q('player_id')}, p.{q('name')}, c.{q('name')}, "
            f"r.{q('lists')}, {figures}, {withdrawn}, COUNT(*) OVER () FROM ({inner}) r "
            f"JOIN {q(Player._meta.db_table)} p ON p.{q('id')} = r.{q('player_id')} "
            f"LEFT JOIN {q(Club._meta.db_table)} c ON c.{q('id')} = p.{q('club_id')} "
            f"ORDER BY r.{q('rank')}, p.{q('name')}, r.{q('player_id')}"
        )
        return sql, list(params)


class Standings(Sequence["StandingRow"]):
    """The ranked rows of a standing, read lazily: ``len()`` counts the players, a slice
    reads just those rows; iterating or sorting reads them all once."""

    def __init__(self, results: ListResultQuerySet, lots_of: Tournament | None) -> None:
        self._results = results
        self._lots_of = lots_of
        self._all: list[StandingRow] | None = None
        self._count: int | None = None
        self._slices: dict[tuple[int, int], list[StandingRow]] = {}

    def _read(self, limit: int | None = None, offset: int = 0) -> list[StandingRow]:
        sql, params = self._results._ranked_sql(self._lots_of)
        if limit is not None:
            sql += " LIMIT %s OFFSET %s"
            params += [limit, offset]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        if fetched:
            self._count = fetched[0][-1]
        elif offset == 0:
            self._count = 0
        return [
            StandingRow(
                rank, player_id, name, club or "", lists, *figures, withdrawn=bool(withdrawn)
            )
            for rank, player_id, name, club, lists, *figures, withdrawn, _count in fetched
        ]

    def prefetch(self, start: int, stop: int) -> None:
        """Read rows ``start:stop`` now, and with them the number of players (one query
        where a paginator would ask for the count first and the page after)."""
        self._slices[start, stop] = self._read(stop - start, start)

    def rows(self) -> list[StandingRow]:
        if self._all is None:
            self._all = self._read()
            self._count = len(self._all)
        return self._all

    def __len__(self) -> int:
        if self._count is None:
            self._count = self._results.order_by().values("player_id").distinct().count()
        return self._count

    @overload
    def __getitem__(self, index: int) -> StandingRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[StandingRow]: ...

    def __getitem__(self, index: int | slice) -> StandingRow | list[StandingRow]:
        if self._all is None and isinstance(index, slice) and index.step in (None, 1):
            start, stop, _ = index.indices(len(self))
            if (start, stop) in self._slices:
                return self._slices[start, stop]
            return self._read(max(stop - start, 0), start) if stop > start else []
        return self.rows()[index]

    def __iter__(self) -> Iterator[StandingRow]:
        return iter(self.rows())

    def sort(self, *, key: Callable[[StandingRow], Any], reverse: bool = False) -> None:
        """Order every row by ``key`` (a table sorted by another column)."""
        self.rows().sort(key=key, reverse=reverse)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in a standing: the HTML table, the CSV and the PDF all use it."""

    SUMMED: ClassVar[tuple[str, ...]] = (
        "game_points",
        "won",
        "lost",
        "others_lost",
        "bonus",
        "total",
    )

    rank: int
    player_id: int
    player: str
    club: str
    lists: int
    game_points: int
    won: int
    lost: int
    others_lost: int
    bonus: int
    total: int
    withdrawn: bool = False
    """In a tournament's standing: the player withdrew (he is no longer drawn)."""
    average: Fraction | None = None
    """In a season ranked by average: total per series played."""

    @property
    def player_key(self) -> tuple[int, str, str]:
        """The player's name as sorted in German (``collation.german_key``)."""
        return german_key(self.player)

    @property
    def club_key(self) -> tuple[int, str, str]:
        return german_key(self.club)


class ListResult(models.Model):
    """One player's summary rows of one list, written whenever the list changes.

    Series, tournament, season and the player's team are copied here so that every standing
    is one grouped query over this table.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="results")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    position = models.PositiveSmallIntegerField()
    game_points = models.IntegerField(_("Spielpunkte"), default=0)
    won = models.PositiveSmallIntegerField(_("gewonnen"), default=0)
    lost = models.PositiveSmallIntegerField(_("verloren"), default=0)
    others_lost = models.PositiveSmallIntegerField(_("verloren (andere)"), default=0)
    bonus = models.IntegerField(_("Wertungspunkte"), default=0)
    total = models.IntegerField(_("Gesamt"), default=0)

    objects = ListResultQuerySet.as_manager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "player"],
                name="list_result_unique",
                violation_error_code="list_result_exists",
            ),
            models.CheckConstraint(
                condition=Q(total=F("game_points") + F("bonus")),
                name="list_result_total_is_sum",
                violation_error_code="list_result_total_wrong",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "player"], name="list_result_tournament"),
            models.Index(fields=["season", "player"], name="list_result_season"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.player}: {self.total}"


class Change(models.Model):
    """What happened to a list or a seating: who, when, before and after, and why."""

    class Action(models.TextChoices):
        GAME_RECORDED = "game_recorded", _("Spiel erfasst")
        GAME_CORRECTED = "game_corrected", _("Spiel korrigiert")
        GAME_DELETED = "game_deleted", _("Spiel gelöscht")
        LIST_CLOSED = "list_closed", _("Liste abgeschlossen")
        LIST_REOPENED = "list_reopened", _("Liste wieder geöffnet")
        TABLES_DRAWN = "tables_drawn", _("Tische ausgelost")
        SEATS_SWAPPED = "seats_swapped", _("Plätze getauscht")
        IMPORTED = "imported", _("importiert")
        TOURNAMENT_CHANGED = "tournament_changed", _("Turnier geändert")
        SERIES_PUBLISHED = "series_published", _("Serie veröffentlicht")
        SERIES_WITHDRAWN = "series_withdrawn", _("Veröffentlichung zurückgezogen")
        PLAYERS_MERGED = "players_merged", _("Spieler zusammengeführt")
        PLAYER_WITHDRAWN = "player_withdrawn", _("Spieler zurückgezogen")

    at = models.DateTimeField(auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="changes"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="changes"
    )
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=20, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(_("Grund"), blank=True)
    # The name the players gave their device, for a change made through a table link.
    device = models.CharField(_("Gerät am Tisch"), max_length=60, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("Änderung")
        verbose_name_plural = _("Änderungen")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"


class Purse(models.Model):
    """A Preisskat evening's money: entry fee, lost-game fees and the prizes by place.

    Lost-game fees per list: ``lost_fee`` for each of a player's first ``lost_fee_threshold``
    lost games, ``lost_fee_later`` for each one after (the SkWO's example: 0.50 € for the
    first three, 1.00 € from the fourth). ``prizes`` by place, first place first: a fixed
    amount ("20.00") or a share of the pot ("30%"), shares rounded down to whole euros.
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

"""The change log: every change to games, lists, seating, settings and publications."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from skatliga.models.tournaments import Series, Table, Tournament


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
        SUBSTITUTE_APPOINTED = "substitute_appointed", _("Ersatzspieler eingesetzt")
        SUBSTITUTE_REMOVED = "substitute_removed", _("Ersatzspieler entfernt")
        LIST_SIGNED = "list_signed", _("Liste unterschrieben")
        SIGNATURES_CLEARED = "signatures_cleared", _("Unterschriften gelöscht")
        SECOND_ENTRY = "second_entry", _("Zweiteingabe")
        ENTRY_PICKED = "entry_picked", _("Erfassung gewählt")
        OBJECTION_FILED = "objection_filed", _("Einspruch eingelegt")
        OBJECTION_DECIDED = "objection_decided", _("Einspruch entschieden")
        REPORT_RELEASED = "report_released", _("Spielbericht freigegeben")
        REPORT_AMENDED = "report_amended", _("Spielbericht geändert")
        REPORT_OBJECTION = "report_objection", _("Einspruch gegen den Spielbericht")

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

"""The Django admin: every model listed with search, a fallback for operators.

Results are derived facts written by the services: the admin shows them read-only where a
hand edit would bypass the engine (games, result rows, the change log).
"""

from __future__ import annotations

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from skatliga import models

ModelT = TypeVar("ModelT", bound=Model)


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin[models.Club]):
    search_fields = ["name"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin[models.Player]):
    list_display = ["name", "club", "number"]
    list_filter = ["club"]
    search_fields = ["name", "number", "club__name"]
    autocomplete_fields = ["club"]


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin[models.Season]):
    list_display = ["name", "year", "slug"]
    search_fields = ["name", "slug"]


class RosterInline(admin.TabularInline[models.RosterEntry, models.Team]):
    model = models.RosterEntry
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin[models.Team]):
    list_display = ["name", "season", "division", "club"]
    list_filter = ["season"]
    search_fields = ["name", "club__name", "season__name"]
    autocomplete_fields = ["season", "division", "club", "captain"]
    inlines = [RosterInline]


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin[models.League]):
    list_display = ["name", "category", "tie_rule"]
    search_fields = ["name"]
    autocomplete_fields = ["officials"]


@admin.register(models.Level)
class LevelAdmin(admin.ModelAdmin[models.Level]):
    list_display = ["name", "league", "rank", "series"]
    list_filter = ["league"]
    search_fields = ["name", "league__name"]


@admin.register(models.Division)
class DivisionAdmin(admin.ModelAdmin[models.Division]):
    list_display = ["name", "level", "season", "published_at"]
    list_filter = ["season", "level"]
    search_fields = ["name", "level__name", "season__name"]
    autocomplete_fields = ["season", "level", "officials"]


@admin.register(models.Transfer)
class TransferAdmin(admin.ModelAdmin[models.Transfer]):
    list_display = ["player", "from_club", "club", "on"]
    search_fields = ["player__name", "club__name"]
    autocomplete_fields = ["player", "from_club", "club"]


@admin.register(models.RosterEntry)
class RosterEntryAdmin(admin.ModelAdmin[models.RosterEntry]):
    list_display = ["team", "position", "player", "substitute"]
    search_fields = ["team__name", "player__name"]
    autocomplete_fields = ["team", "player"]


@admin.register(models.MatchDay)
class MatchDayAdmin(admin.ModelAdmin[models.MatchDay]):
    list_display = ["division", "number", "date", "central"]
    search_fields = ["division__name", "venue"]


@admin.register(models.MatchGroup)
class MatchGroupAdmin(admin.ModelAdmin[models.MatchGroup]):
    list_display = ["match_day", "number", "date", "host", "venue"]
    search_fields = ["venue", "host__name", "match_day__division__name"]
    autocomplete_fields = ["host", "tournament"]


@admin.register(models.GroupTeam)
class GroupTeamAdmin(admin.ModelAdmin[models.GroupTeam]):
    list_display = ["group", "team"]
    search_fields = ["team__name"]
    autocomplete_fields = ["team"]


@admin.register(models.LineUp)
class LineUpAdmin(admin.ModelAdmin[models.LineUp]):
    list_display = ["group", "team", "series", "via", "set_at"]
    search_fields = ["team__name"]
    autocomplete_fields = ["team"]


@admin.register(models.LineUpPlayer)
class LineUpPlayerAdmin(admin.ModelAdmin[models.LineUpPlayer]):
    list_display = ["line_up", "position", "player", "substitute"]
    search_fields = ["player__name", "line_up__team__name"]
    autocomplete_fields = ["player"]


@admin.register(models.TeamLink)
class TeamLinkAdmin(admin.ModelAdmin[models.TeamLink]):
    list_display = ["team", "code", "created_at", "revoked_at"]
    search_fields = ["team__name", "code"]
    readonly_fields = ["token", "code", "created_at", "created_by"]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin[models.Tournament]):
    list_display = ["name", "date", "season", "match_day", "status"]
    list_filter = ["status", "season"]
    search_fields = ["name", "slug", "venue"]
    autocomplete_fields = ["season", "referees"]
    date_hierarchy = "date"


@admin.register(models.Registration)
class RegistrationAdmin(admin.ModelAdmin[models.Registration]):
    list_display = ["player", "tournament", "team", "lot"]
    search_fields = ["player__name", "tournament__name", "team__name"]
    autocomplete_fields = ["player", "tournament", "team"]


@admin.register(models.Series)
class SeriesAdmin(admin.ModelAdmin[models.Series]):
    list_display = ["tournament", "number", "published_at"]
    search_fields = ["tournament__name"]
    readonly_fields = ["published_at", "published_by"]


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin[models.Table]):
    list_display = ["series", "number", "size", "closed_at"]
    search_fields = ["series__tournament__name"]
    readonly_fields = ["closed_at", "closed_by"]


@admin.register(models.Seat)
class SeatAdmin(admin.ModelAdmin[models.Seat]):
    list_display = ["table", "position", "player"]
    search_fields = ["player__name", "table__series__tournament__name"]
    autocomplete_fields = ["player"]


class ReadOnlyAdmin(admin.ModelAdmin[ModelT]):
    """Rows the services derive or log: to look at, not to edit by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ModelT | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ModelT | None = None) -> bool:
        return False


@admin.register(models.Game)
class GameAdmin(ReadOnlyAdmin[models.Game]):
    list_display = ["table", "number", "game", "declarer", "bid", "won", "value"]
    search_fields = ["table__series__tournament__name"]


@admin.register(models.ListResult)
class ListResultAdmin(ReadOnlyAdmin[models.ListResult]):
    list_display = ["player", "tournament", "series", "table", "total"]
    search_fields = ["player__name", "tournament__name"]


@admin.register(models.Change)
class ChangeAdmin(ReadOnlyAdmin[models.Change]):
    list_display = ["at", "tournament", "action", "user", "series", "table", "game_number"]
    list_filter = ["action"]
    search_fields = ["tournament__name", "reason", "user__username"]


@admin.register(models.Purse)
class PurseAdmin(admin.ModelAdmin[models.Purse]):
    list_display = ["tournament", "entry_fee", "lost_fee", "lost_fee_threshold", "lost_fee_later"]
    search_fields = ["tournament__name"]


@admin.register(models.TableLink)
class TableLinkAdmin(admin.ModelAdmin[models.TableLink]):
    list_display = ["table", "code", "created_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["code", "table__series__tournament__name"]
    readonly_fields = ["token", "code", "created_at", "created_by"]


@admin.register(models.Signature)
class SignatureAdmin(ReadOnlyAdmin[models.Signature]):
    list_display = ["table", "position", "signed_at", "method", "device"]
    search_fields = ["table__series__tournament__name", "device"]


@admin.register(models.SecondEntry)
class SecondEntryAdmin(ReadOnlyAdmin[models.SecondEntry]):
    list_display = ["table", "number", "game", "declarer", "bid", "updated_at"]
    search_fields = ["table__series__tournament__name"]


@admin.register(models.RefereeCall)
class RefereeCallAdmin(ReadOnlyAdmin[models.RefereeCall]):
    list_display = ["table", "reason", "created_at", "acknowledged_at", "device"]
    list_filter = ["reason"]
    search_fields = ["table__series__tournament__name", "device"]


@admin.register(models.Objection)
class ObjectionAdmin(ReadOnlyAdmin[models.Objection]):
    list_display = ["game", "seat", "reason", "created_at", "decision", "decided_at"]
    list_filter = ["decision"]
    search_fields = ["game__table__series__tournament__name", "reason"]


@admin.register(models.CheckInLink)
class CheckInLinkAdmin(admin.ModelAdmin[models.CheckInLink]):
    list_display = ["tournament", "created_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["tournament__name"]
    readonly_fields = ["token", "created_at"]


@admin.register(models.CheckInClaim)
class CheckInClaimAdmin(ReadOnlyAdmin[models.CheckInClaim]):
    """A phone's check-in waiting for the desk, or decided there; the desk decides."""

    list_display = ["tournament", "number", "player", "name", "state", "created_at"]
    list_filter = ["state"]
    search_fields = ["tournament__name", "player__name", "name"]


@admin.register(models.PersonalLink)
class PersonalLinkAdmin(admin.ModelAdmin[models.PersonalLink]):
    """A player's personal link; deleting one makes a new token on its next use."""

    list_display = ["registration", "created_at"]
    search_fields = ["registration__player__name", "registration__tournament__name"]
    readonly_fields = ["registration", "token", "created_at"]


@admin.register(models.Arrival)
class ArrivalAdmin(admin.ModelAdmin[models.Arrival]):
    list_display = ["registration", "arrived_at", "guest", "late", "fee"]
    list_filter = ["fee", "late", "guest"]
    search_fields = ["registration__player__name", "registration__tournament__name"]
    readonly_fields = ["arrived_at"]


@admin.register(models.ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin[models.ForbiddenPair]):
    list_display = ["first", "second"]
    search_fields = ["first__player__name", "second__player__name"]


@admin.register(models.Hits)
class HitsAdmin(admin.ModelAdmin[models.Hits]):
    """Rate limits' counts; deleting a row lifts that limit before its window ends."""

    list_display = ["key", "count", "until"]
    search_fields = ["key"]


@admin.register(models.Notice)
class NoticeAdmin(admin.ModelAdmin[models.Notice]):
    list_display = ["kind"]
    search_fields = ["text"]


@admin.register(models.PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin[models.PlayerRating]):
    """Written by ``services.rating`` alone (``manage.py rate_lists`` rates again)."""

    list_display = ["player", "rating", "mu", "sigma", "lists", "last_played"]
    search_fields = ["player__name", "player__number"]


@admin.register(models.RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin[models.RatingChange]):
    list_display = [
        "player",
        "tournament",
        "series_number",
        "table_number",
        "place",
        "rating_after",
    ]
    search_fields = ["player__name", "tournament__name"]


@admin.register(models.RatingBook)
class RatingBookAdmin(ReadOnlyAdmin[models.RatingBook]):
    list_display = ["parameters", "stale_from"]
    search_fields = ["parameters"]


@admin.register(models.Job)
class JobAdmin(ReadOnlyAdmin[models.Job]):
    """Background work, written by ``skatliga.tasks`` alone: to see what ran and how it ended."""

    list_display = ["kind", "state", "done", "total", "created_at", "finished_at"]
    list_filter = ["kind", "state"]
    search_fields = ["kind", "step", "task_id"]
    exclude = ["source"]


@admin.register(models.TaskWorker)
class TaskWorkerAdmin(ReadOnlyAdmin[models.TaskWorker]):
    """The running task workers' heartbeats; a row goes when its worker stops."""

    list_display = ["worker_id", "host", "pid", "started_at", "seen_at"]
    search_fields = ["worker_id", "host"]


@admin.register(models.LeagueRules)
class LeagueRulesAdmin(admin.ModelAdmin[models.LeagueRules]):
    list_display = ["league", "lost_game_fee", "lost_fees_to", "binding_days", "bar_unpaid"]
    search_fields = ["league__name"]


@admin.register(models.Withdrawal)
class WithdrawalAdmin(admin.ModelAdmin[models.Withdrawal]):
    list_display = ["team", "absences", "state", "annulled", "decided_at"]
    list_filter = ["state"]
    search_fields = ["team__name"]


@admin.register(models.FineKind)
class FineKindAdmin(admin.ModelAdmin[models.FineKind]):
    list_display = ["league", "code", "name", "amount", "set_by"]
    list_filter = ["league"]
    search_fields = ["name", "league__name"]


@admin.register(models.MatchReport)
class MatchReportAdmin(ReadOnlyAdmin[models.MatchReport]):
    list_display = ["group", "written_at", "released_at", "binding_on"]
    search_fields = ["group__match_day__division__name"]


@admin.register(models.ReportAnswer)
class ReportAnswerAdmin(ReadOnlyAdmin[models.ReportAnswer]):
    list_display = ["report", "team", "answer", "at", "decided_at"]
    search_fields = ["team__name", "reason"]


@admin.register(models.Fine)
class FineAdmin(ReadOnlyAdmin[models.Fine]):
    list_display = ["club", "team", "code", "amount", "state", "due_on"]
    list_filter = ["state", "code"]
    search_fields = ["club__name", "team__name", "reason"]


@admin.register(models.Payment)
class PaymentAdmin(ReadOnlyAdmin[models.Payment]):
    list_display = ["club", "amount", "paid_on", "note"]
    search_fields = ["club__name", "note"]

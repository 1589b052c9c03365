"""The referee's pages: tournaments, players, draws, score sheets and the archive.

Every view here needs a login; every page of a tournament needs its referee
(``Tournament.is_referee``), others get a 403 page. Views parse, call a service, render.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

import scoring
from scoring.lists import WON_BONUS
from skatliga import services
from skatliga.archive import ArchiveError, dump_archive, load_archive
from skatliga.forms import (
    PASSED,
    ArchiveUploadForm,
    DrawForm,
    GameRowForm,
    PlayersForm,
    RefereeForm,
    ReopenForm,
    SwapForm,
    TeamForm,
    TeamsForm,
    TournamentForm,
    coded_error,
)
from skatliga.messages import message
from skatliga.models import (
    Club,
    Game,
    GameType,
    Player,
    Registration,
    Seat,
    Series,
    Table,
    Tournament,
)
from skatliga.views.sheet import Sheet, build_sheet

View = Callable[..., HttpResponse]


def forbidden(request: HttpRequest) -> HttpResponse:
    return render(request, "referee/forbidden.html", status=403)


def referee_required(view: View) -> View:
    """Load the tournament by slug; anonymous users log in, others than its referees get 403."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not tournament.is_referee(request.user):
            return forbidden(request)
        return view(request, tournament, *args, **kwargs)

    return wrapper


def may_create_tournaments(user: Any) -> bool:
    return bool(user.is_authenticated and user.has_perm("skatliga.add_tournament"))


def action_error(error: services.ServiceError, action: str) -> dict[str, str]:
    return {"action": action, "code": error.code, "message": message(error.code, **error.params)}


# --- dashboard and tournaments ---------------------------------------------------------------


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.all()
    if not request.user.is_superuser:
        tournaments = tournaments.filter(referees=request.user)
    tournaments = tournaments.annotate(
        players=Count("registrations", distinct=True),
        series_count=Count("series", distinct=True),
    ).select_related("season")
    return render(
        request,
        "referee/dashboard.html",
        {
            "tournaments": tournaments,
            "may_create": may_create_tournaments(request.user),
        },
    )


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not may_create_tournaments(request.user):
        return forbidden(request)
    if request.method == "POST":
        form = TournamentForm(request.POST)
        if form.is_valid():
            tournament = services.create_tournament(user=request.user, **form.cleaned_data)
            messages.success(request, _("Turnier angelegt. Jetzt die Spieler eintragen."))
            return redirect("referee:tournament", slug=tournament.slug)
    else:
        form = TournamentForm(initial={"date": timezone.localdate()})
    return render(request, "referee/tournament_form.html", {"form": form})


def render_tournament(
    request: HttpRequest, tournament: Tournament, status: int = 200, **context: Any
) -> HttpResponse:
    registrations = tournament.registrations.select_related("player__club", "team")
    series = tournament.series.annotate(
        table_count=Count("tables", distinct=True),
        closed_count=Count("tables", filter=Q(tables__closed_at__isnull=False), distinct=True),
    )
    players = len(registrations)
    try:
        sizes = services.table_sizes(players)
    except services.ServiceError:
        sizes = []
    teams_form = context.pop("teams_form", None)
    if teams_form is None and tournament.season_id is not None:
        teams_form = TeamsForm(
            registrations=registrations, teams=list(tournament.season.teams.all())
        )
    context = {
        "tournament": tournament,
        "registrations": registrations,
        "series_list": series,
        "can_remove": not tournament.series.exists(),
        "players_form": PlayersForm(),
        "teams_form": teams_form,
        "player_rows": teams_form.rows() if teams_form else [(r, None) for r in registrations],
        "team_form": TeamForm(),
        "clubs": Club.objects.values_list("name", flat=True),
        "draw_form": DrawForm(),
        "table_sizes": sizes,
        "fours": sizes.count(4),
        "threes": sizes.count(3),
        **context,
    }
    return render(request, "referee/tournament.html", context, status=status)


@referee_required
@require_GET
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render_tournament(request, tournament)


@referee_required
@require_POST
def players_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayersForm(request.POST)
    if not form.is_valid():
        return render_tournament(request, tournament, players_form=form)
    registrations = services.register_players(tournament, form.cleaned_data["players"])
    messages.success(
        request,
        _("%(count)s Spieler eingetragen: %(names)s")
        % {"count": len(registrations), "names": ", ".join(str(r.player) for r in registrations)},
    )
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_GET
def player_search(request: HttpRequest, tournament: Tournament) -> JsonResponse:
    """Players of the roster whose name contains ``q``, for the type-ahead."""
    query = " ".join(request.GET.get("q", "").split())
    players = Player.objects.select_related("club").order_by("name")
    if query:
        players = players.filter(name__icontains=query)
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    return JsonResponse(
        {
            "players": [
                {
                    "id": player.pk,
                    "name": player.name,
                    "club": player.club.name if player.club else "",
                    "value": f"{player.name}; {player.club.name}" if player.club else player.name,
                    "registered": player.pk in registered,
                }
                for player in players[:20]
            ]
        }
    )


@referee_required
@require_POST
def registration_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration, pk=pk, tournament=tournament)
    try:
        services.remove_registration(registration)
    except services.ServiceError as error:
        return render_tournament(request, tournament, action_error=action_error(error, "remove"))
    messages.success(request, _("%(player)s entfernt.") % {"player": registration.player})
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_POST
def series_draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    method = request.POST.get("method") or "lot"
    try:
        series = services.draw_tables(tournament, user=request.user, method=method)
    except services.ServiceError as error:
        return render_tournament(request, tournament, action_error=action_error(error, "draw"))
    messages.success(request, _("Serie %(number)s ausgelost.") % {"number": series.number})
    return redirect("referee:series", slug=tournament.slug, series=series.number)


@referee_required
@require_POST
def teams_assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    teams = list(tournament.season.teams.all()) if tournament.season_id else []
    registrations = list(tournament.registrations.select_related("player__club", "team"))
    form = TeamsForm(request.POST, registrations=registrations, teams=teams)
    if not form.is_valid():
        return render_tournament(request, tournament, teams_form=form)
    try:
        changed = services.assign_teams(tournament, form.assignments(), user=request.user)
    except services.ServiceError as error:
        return render_tournament(
            request, tournament, teams_form=form, action_error=action_error(error, "teams")
        )
    messages.success(
        request,
        ngettext(
            "Mannschaften gespeichert: %(count)s Spieler geändert.",
            "Mannschaften gespeichert: %(count)s Spieler geändert.",
            len(changed),
        )
        % {"count": len(changed)},
    )
    return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")


@referee_required
@require_POST
def team_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TeamForm(request.POST)
    if form.is_valid():
        try:
            team = services.create_team(
                tournament, form.cleaned_data["name"], form.cleaned_data["club"], user=request.user
            )
        except services.ServiceError as error:
            if error.field in form.fields:
                form.add_error(error.field, coded_error(error.code, **error.params))
            else:
                return render_tournament(
                    request, tournament, team_form=form, action_error=action_error(error, "team")
                )
        else:
            messages.success(request, _("Mannschaft %(team)s angelegt.") % {"team": team})
            return redirect(reverse("referee:tournament", args=[tournament.slug]) + "#players")
    return render_tournament(request, tournament, team_form=form)


# --- settings and referees -------------------------------------------------------------------


def settings_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("referee:tournament-settings", args=[tournament.slug]) + anchor


def blocking_rows(tournament: Tournament, error: services.ServiceError) -> list[dict[str, Any]]:
    """The lists and games that keep new settings from being saved, with links to them."""
    rows = []
    for blocking in error.params.get("blocking", ()):
        where = {"series": blocking.series, "table": blocking.table, "game": blocking.game}
        url = reverse("referee:list", args=[tournament.slug, blocking.series, blocking.table])
        if blocking.game is None:
            text = _("Serie %(series)s, Tisch %(table)s") % where
        else:
            text = _("Serie %(series)s, Tisch %(table)s, Spiel %(game)s") % where
            url += f"?game={blocking.game}"
        rows.append(
            {"code": blocking.code, "where": text, "message": message(blocking.code), "url": url}
        )
    return rows


def render_settings(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: TournamentForm | None = None,
    referee_form: RefereeForm | None = None,
    **context: Any,
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "form": form or TournamentForm(instance=tournament),
        "referees": tournament.referees.order_by("username"),
        "referee_form": referee_form or RefereeForm(),
        "started": Game.objects.filter(table__series__tournament=tournament).exists(),
        **context,
    }
    return render(request, "referee/tournament_settings.html", context)


@referee_required
def tournament_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's settings; a new rule set, list system or rounds re-scores every list."""
    if request.method != "POST":
        return render_settings(request, tournament)
    # The form writes what it cleans into its instance: give it a copy of the tournament.
    form = TournamentForm(request.POST, instance=Tournament.objects.get(pk=tournament.pk))
    if not form.is_valid():
        return render_settings(request, tournament, form=form)
    fields = {name: form.cleaned_data[name] for name in services.SETTINGS}
    rescoring = any(fields[name] != getattr(tournament, name) for name in services.RESCORING)
    try:
        services.update_tournament(tournament, user=request.user, **fields)
    except services.ServiceError as error:
        if error.field in form.fields:
            form.add_error(error.field, coded_error(error.code, **error.params))
            return render_settings(request, tournament, form=form)
        return render_settings(
            request,
            tournament,
            form=form,
            action_error=action_error(error, "settings"),
            blocking=blocking_rows(tournament, error),
        )
    if rescoring and Game.objects.filter(table__series__tournament=tournament).exists():
        messages.success(request, _("Einstellungen gespeichert; alle Listen neu berechnet."))
    else:
        messages.success(request, _("Einstellungen gespeichert."))
    return redirect("referee:tournament", slug=tournament.slug)


@referee_required
@require_POST
def referee_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RefereeForm(request.POST)
    if form.is_valid():
        try:
            referee = services.add_referee(
                tournament, form.cleaned_data["username"], user=request.user
            )
        except services.ServiceError as error:
            form.add_error("username", coded_error(error.code, **error.params))
        else:
            messages.success(
                request,
                _("%(user)s leitet das Turnier jetzt mit.") % {"user": referee.get_username()},
            )
            return redirect(settings_url(tournament, "#referees"))
    return render_settings(request, tournament, referee_form=form)


@referee_required
@require_POST
def referee_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    referee = get_object_or_404(get_user_model(), pk=pk)
    try:
        services.remove_referee(tournament, referee, user=request.user)
    except services.ServiceError as error:
        return render_settings(
            request, tournament, action_error=action_error(error, "referee-remove")
        )
    messages.success(
        request, _("%(user)s leitet das Turnier nicht mehr.") % {"user": referee.get_username()}
    )
    if not tournament.is_referee(request.user):
        return redirect("referee:dashboard")
    return redirect(settings_url(tournament, "#referees"))


# --- series ----------------------------------------------------------------------------------


def render_series(
    request: HttpRequest, tournament: Tournament, series: Series, **context: Any
) -> HttpResponse:
    tables = series.tables.annotate(game_count=Count("games")).prefetch_related("seats__player")
    started = Game.objects.filter(table__series=series).exists()
    context = {
        "tournament": tournament,
        "series": series,
        "tables": [
            {
                "table": table,
                "seats": list(table.seats.all()),
                "games": table.game_count,
                "expected": tournament.games_per_list(table.size),
            }
            for table in tables
        ],
        "started": started,
        "swap_form": context.pop("swap_form", None) or SwapForm(series=series),
        **context,
    }
    return render(request, "referee/series.html", context)


@referee_required
@require_GET
def series_detail(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    return render_series(request, tournament, get_object_or_404(tournament.series, number=series))


@referee_required
@require_POST
def seats_swap(request: HttpRequest, tournament: Tournament, series: int) -> HttpResponse:
    series_obj = get_object_or_404(tournament.series, number=series)
    form = SwapForm(request.POST, series=series_obj)
    if not form.is_valid():
        return render_series(request, tournament, series_obj, swap_form=form)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    try:
        services.swap_seats(series_obj, first, second, user=request.user)
    except services.ServiceError as error:
        return render_series(
            request,
            tournament,
            series_obj,
            swap_form=form,
            action_error=action_error(error, "swap"),
        )
    messages.success(
        request,
        _("%(first)s und %(second)s getauscht.") % {"first": first.player, "second": second.player},
    )
    return redirect("referee:series", slug=tournament.slug, series=series_obj.number)


# --- lists -----------------------------------------------------------------------------------


def get_table(tournament: Tournament, series: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("series__tournament", "closed_by"),
        series__tournament=tournament,
        series__number=series,
        number=table,
    )


def list_url(table: Table) -> str:
    return reverse(
        "referee:list",
        args=[table.series.tournament.slug, table.series.number, table.number],
    )


def posted_number(request: HttpRequest, default: Callable[[], int]) -> int:
    """The row number posted, else ``default()`` (only called when needed)."""
    try:
        return max(1, int(request.POST["number"]))
    except (KeyError, TypeError, ValueError):
        return default()


def describe_game(data: dict[str, Any] | None, names: dict[int, str]) -> str:
    """A row as the archive stores it, in words: "2 Bernd: Grand, mit 2, Hand, Reizwert 24, …"."""
    if not data:
        return "—"
    if data.get("passed"):
        return _("eingepasst")
    parts = []
    try:
        parts.append(str(GameType(data.get("game")).label))
    except ValueError:
        parts.append(str(data.get("game")))
    matadors = data.get("matadors")
    if matadors is not None:
        template = _("mit %(count)s") if matadors > 0 else _("ohne %(count)s")
        parts.append(template % {"count": abs(matadors)})
    words = {
        "hand": _("Hand"),
        "schneider_announced": _("Schneider angesagt"),
        "schwarz_announced": _("Schwarz angesagt"),
        "ouvert": _("Ouvert"),
        "kontra": _("Kontra"),
        "re": _("Re"),
    }
    parts += [word for key, word in words.items() if data.get(key)]
    if data.get("bid") is not None:
        parts.append(_("Reizwert %(bid)s") % {"bid": data["bid"]})
    if data.get("card_points") is not None:
        parts.append(_("%(points)s Augen") % {"points": data["card_points"]})
    if data.get("tricks") is not None:
        parts.append(_("%(tricks)s Stiche") % {"tricks": data["tricks"]})
    if data.get("won") is not None:
        parts.append(_("gewonnen") if data["won"] else _("verloren"))
    if data.get("schwarz"):
        parts.append(_("Schwarz"))
    elif data.get("schneider"):
        parts.append(_("Schneider"))
    text = ", ".join(parts)
    seat = data.get("declarer_seat")
    if seat is not None:
        text = f"{seat} {names.get(seat, '')}: {text}"
    return text


def short_name(name: str) -> str:
    """ "Anna Schmidt" → "Anna S.", for the narrow standings strip.

    >>> short_name("Anna Maria Schmidt"), short_name("Bernd")
    ('Anna S.', 'Bernd')
    """
    first, *rest = name.split() or [""]
    return f"{first} {rest[-1][0]}." if rest else first


def summary_lines(sheet: Sheet) -> list[dict[str, Any]]:
    """The summary rows under the list (rules.md section 5), one value per player."""
    lines = [
        ("game_points", _("Spielpunkte")),
        ("won", _("gewonnen")),
        ("lost", _("verloren")),
    ]
    if sheet.seeger_fabian:
        lines += [
            ("others_lost", _("verloren (die anderen)")),
            (
                "won_lost_bonus",
                _("+%(points)s × (gewonnen − verloren)") % {"points": WON_BONUS},
            ),
            (
                "others_lost_bonus",
                _("+%(points)s × verloren (die anderen)")
                % {"points": scoring.others_lost_bonus(sheet.size)},
            ),
        ]
    lines.append(("total", _("Gesamt")))
    return [
        {
            "key": key,
            "label": label,
            "values": [getattr(column, key) for column in sheet.summary],
        }
        for key, label in lines
    ]


def render_list(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    *,
    form: GameRowForm | None = None,
    editing: int | None = None,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    seats = list(table.seats.select_related("player__club").order_by("position"))
    games = list(table.games.select_related("updated_by").order_by("number"))
    games_per_list = tournament.games_per_list(table.size)
    rules = tournament.rule_set
    by_number = {game.number: game for game in games}
    next_number = len(games) + 1 if len(games) < games_per_list else None
    if form is None and not table.is_closed:
        wanted = editing
        if wanted is None or (wanted not in by_number and wanted != next_number):
            wanted = next_number
        if wanted is not None:
            initial = (
                GameRowForm.initial_for(by_number[wanted])
                if wanted in by_number
                else {"number": wanted}
            )
            form = GameRowForm(initial=initial, seats=seats, number=wanted, rules=rules)
            editing = wanted
    if form is not None and editing is None:
        editing = form.initial.get("number") or posted_number(request, lambda: next_number or 1)
    names = {seat.position: str(seat.player) for seat in seats}
    sheet = build_sheet(table, games, games_per_list=games_per_list)
    history = [
        {
            "change": change,
            "before": describe_game(change.before, names) if change.before else "",
            "after": describe_game(change.after, names) if change.after else "",
        }
        for change in table.changes.select_related("user")[:200]
    ]
    editing_game = by_number.get(editing) if editing else None
    dealer = scoring.dealer_seat(editing, table.size) + 1 if editing else None
    context = {
        "tournament": tournament,
        "series": table.series,
        "table": table,
        "summary_lines": summary_lines(sheet),
        "standings": [
            (seat, short_name(str(seat.player)), column.total)
            for seat, column in zip(seats, sheet.summary, strict=True)
        ],
        "middle_span": 10 + rules.kontra,
        "label_span": 13 + rules.kontra,
        "seats": seats,
        "sheet": sheet,
        "form": form,
        "editing": editing,
        "editing_game": editing_game,
        "editing_dealer": names.get(dealer) if dealer else None,
        "editing_dealer_sits_out": table.size == 4,
        "games_per_list": games_per_list,
        "complete": len(games) == games_per_list,
        "last_game": games[-1] if games else None,
        "history": history,
        "bid_values": scoring.bid_values(rules),
        "kontra": rules.kontra,
        "reopen_form": context.pop("reopen_form", None) or ReopenForm(),
        "preview_url": reverse(
            "referee:preview", args=[tournament.slug, table.series.number, table.number]
        ),
        **context,
    }
    return render(request, "referee/list.html", context, status=status)


@referee_required
def table_list(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    """The score sheet: GET shows it (``?game=N`` edits row N); POST saves the row typed."""
    table_obj = get_table(tournament, series, table)
    if request.method != "POST":
        try:
            editing = int(request.GET["game"])
        except (KeyError, ValueError):
            editing = None
        return render_list(request, tournament, table_obj, editing=editing)

    seats = list(table_obj.seats.select_related("player").order_by("position"))
    number = posted_number(request, lambda: table_obj.games.count() + 1)
    rules = tournament.rule_set
    form = GameRowForm(request.POST, seats=seats, number=number, rules=rules)
    if not form.is_valid() or form.entry is None:
        if form.entry is not None:
            try:
                services.score_entry(form.entry, number, table_obj.size, rules)
            except services.ServiceError as error:
                form.add_problems(error.problems)
        return render_list(request, tournament, table_obj, form=form, editing=number)
    try:
        game = services.record_game(
            table_obj,
            number,
            form.entry,
            user=request.user,
            expected_version=form.cleaned_data.get("version"),
            reason=form.cleaned_data.get("reason") or "",
        )
    except services.Conflict as conflict:
        return render_conflict(request, tournament, table_obj, seats, number, conflict.current)
    except services.ServiceError as error:
        form.add_problems(error.problems)
        return render_list(request, tournament, table_obj, form=form, editing=number)
    if game.passed:
        note = _("Spiel %(number)s: eingepasst.") % {"number": game.number}
    else:
        note = _("Spiel %(number)s gespeichert: %(value)s.") % {
            "number": game.number,
            "value": f"{game.list_score:+d}" if game.list_score else game.value,
        }
    messages.success(request, note)
    return redirect(list_url(table_obj))


def render_conflict(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    seats: list[Seat],
    number: int,
    current: Game | None,
) -> HttpResponse:
    """Keep the typed row in the form, now against the current version, and show the current row."""
    data = request.POST.copy()
    data["version"] = str(current.version) if current is not None else ""
    if data.pop("passed", None):
        data["declarer"] = PASSED
    form = GameRowForm(data, seats=seats, number=number, rules=tournament.rule_set)
    form.is_valid()
    code = "conflict" if current is not None else "conflict_deleted"
    form.add_error(None, coded_error(code))
    names = {seat.position: str(seat.player) for seat in seats}
    conflict = {
        "code": code,
        "current": current,
        "description": (
            describe_game(services.GameEntry.from_game(current).to_json(), names)
            if current is not None
            else ""
        ),
    }
    return render_list(request, tournament, table, form=form, editing=number, conflict=conflict)


@referee_required
@require_POST
def table_preview(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> JsonResponse:
    """The engine's verdict on the row being typed, and the list with it: JSON, nothing saved."""
    table_obj = get_table(tournament, series, table)
    seats = list(table_obj.seats.select_related("player").order_by("position"))
    games = list(table_obj.games.order_by("number"))
    games_per_list = tournament.games_per_list(table_obj.size)
    number = posted_number(request, lambda: len(games) + 1)
    rules = tournament.rule_set
    form = GameRowForm(request.POST, seats=seats, number=number, rules=rules)
    scored: scoring.ScoredGame | None = None
    substitute = None
    valid = form.is_valid()
    if form.entry is not None:
        try:
            if number > min(len(games) + 1, games_per_list):
                raise services.ServiceError("game_number_invalid", "number")
            scored = services.score_entry(form.entry, number, table_obj.size, rules)
        except services.ServiceError as error:
            form.add_problems(error.problems)
        else:
            if valid:
                form.warnings = list(scored.warnings) if scored else []
                substitute = (number, form.entry, scored)
            else:
                scored = None
    sheet = build_sheet(table_obj, games, games_per_list=games_per_list, substitute=substitute)
    row = sheet.rows[number - 1] if number <= len(sheet.rows) else None
    return JsonResponse(
        {
            "number": number,
            "ok": substitute is not None,
            "passed": bool(substitute and substitute[1].passed),
            "value": scored.value if scored else None,
            "won": scored.won if scored else None,
            "overbid": scored.overbid if scored else None,
            "list_score": scored.list_score if scored else None,
            "breakdown": row.breakdown if row and substitute else "",
            "matadors": form.matadors_from_cards,
            "problems": form.problems(),
            "scores": list(row.scores) if row and substitute else None,
            "declarer": substitute[1].declarer if substitute else None,
            "running": sheet.running,
            "summary": [column.to_json() for column in sheet.summary],
        }
    )


@referee_required
@require_POST
def table_close(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    table_obj = get_table(tournament, series, table)
    try:
        services.close_table(table_obj, user=request.user)
    except services.ServiceError as error:
        return render_list(
            request, tournament, table_obj, action_error=action_error(error, "close")
        )
    messages.success(request, _("Liste abgeschlossen."))
    return redirect(list_url(table_obj))


@referee_required
@require_POST
def table_reopen(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    table_obj = get_table(tournament, series, table)
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.reopen_table(table_obj, user=request.user, reason=form.cleaned_data["reason"])
        except services.ServiceError as error:
            if error.field == "reason":
                form.add_error("reason", coded_error(error.code))
            else:
                return render_list(
                    request,
                    tournament,
                    table_obj,
                    reopen_form=form,
                    action_error=action_error(error, "reopen"),
                )
        else:
            messages.success(request, _("Liste wieder geöffnet."))
            return redirect(list_url(table_obj))
    return render_list(request, tournament, table_obj, reopen_form=form)


@referee_required
@require_POST
def game_delete_last(
    request: HttpRequest, tournament: Tournament, series: int, table: int
) -> HttpResponse:
    table_obj = get_table(tournament, series, table)
    try:
        number = int(request.POST["number"])
        version = int(request.POST["version"])
    except (KeyError, ValueError):
        return render_list(
            request,
            tournament,
            table_obj,
            action_error=action_error(services.ServiceError("only_last_game_deleted"), "delete"),
        )
    try:
        services.delete_last_game(
            table_obj,
            number,
            user=request.user,
            expected_version=version,
            reason=request.POST.get("reason", "").strip(),
        )
    except services.ServiceError as error:
        return render_list(
            request, tournament, table_obj, action_error=action_error(error, "delete")
        )
    messages.success(request, _("Spiel %(number)s gelöscht.") % {"number": number})
    return redirect(list_url(table_obj))


# --- archive ---------------------------------------------------------------------------------


@referee_required
@require_GET
def archive_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response = JsonResponse(dump_archive(tournament), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


@login_required
def archive_upload(request: HttpRequest) -> HttpResponse:
    """Import an archive as a new tournament; every problem with its path, nothing saved."""
    if not may_create_tournaments(request.user):
        return forbidden(request)
    problems: list[dict[str, str]] = []
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = json.loads(form.cleaned_data["file"].read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            form.add_error("file", coded_error("archive_not_json"))
        else:
            try:
                with transaction.atomic():
                    tournament = load_archive(data, user=request.user)
                    tournament.referees.add(request.user)
            except ArchiveError as error:
                problems = [
                    {"path": problem.path, "code": problem.code, "message": problem.message}
                    for problem in error.problems
                ]
            else:
                messages.success(request, _("Turnier importiert."))
                return redirect("referee:tournament", slug=tournament.slug)
    return render(request, "referee/archive_upload.html", {"form": form, "problems": problems})

"""The list page (Spielliste) as the referee and a table link show it: the sheet with its
entry form, saving the row typed, the live preview, a conflict's answer and the list's
history in words. The referee's actions on a list are ``skatliga.views.lists``; a table's
pages are ``skatliga.table.views``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.messages.storage.base import Message
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from scoring.lists import WON_BONUS
from skatliga import revisions, services
from skatliga.entries import plain, signed
from skatliga.forms import coded_error
from skatliga.forms.entry import PASSED, CloseForm, GameRowForm, ReopenForm
from skatliga.forms.players import SubstituteForm
from skatliga.messages import SUBSTITUTE_ACTIONS, describe_substitute, message
from skatliga.models import (
    Change,
    Game,
    Objection,
    Seat,
    SecondEntry,
    Signature,
    Table,
    Tournament,
)
from skatliga.sheet import (
    Sheet,
    build_sheet,
    list_rows,
    middle_span,
    seat_names,
    signatures,
    signatures_cleared,
)
from skatliga.words import describe_game


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


GAME_ROWS = (
    Change.Action.GAME_RECORDED,
    Change.Action.GAME_CORRECTED,
    Change.Action.GAME_DELETED,
    Change.Action.SECOND_ENTRY,
)


def describe_history(change: Change, names: dict[int, str]) -> dict[str, str]:
    """A line of a list's history in words: a row before and after, or what was signed,
    cleared, picked or closed."""
    before, after = change.before or {}, change.after or {}
    if change.action in GAME_ROWS:
        return {
            "before": describe_game(before, names) if before else "",
            "after": describe_game(after, names) if after else "",
        }
    if change.action in SUBSTITUTE_ACTIONS:
        return {
            "before": describe_substitute(before, names) if before else "",
            "after": describe_substitute(after, names) if after else "",
        }
    if change.action == Change.Action.OBJECTION_DECIDED:
        decision = after.get("decision", "")
        labels = dict(Objection.Decision.choices)
        return {"before": "", "after": str(labels.get(decision, decision))}
    if change.action in (Change.Action.LIST_SIGNED, Change.Action.OBJECTION_FILED):
        text = _("%(player)s (Platz %(seat)s)") % {
            "player": after.get("player", ""),
            "seat": after.get("seat", ""),
        }
        how = after.get("signed_with")
        if how in Signature.Method.values and how != Signature.Method.DEVICE:
            text += f" · {Signature.Method(how).label}"
        return {"before": "", "after": text}
    if change.action == Change.Action.SIGNATURES_CLEARED:
        count = int(before.get("signatures", 0))
        text = ngettext(
            "%(count)s Unterschrift gelöscht: bitte neu unterschreiben",
            "%(count)s Unterschriften gelöscht: bitte neu unterschreiben",
            count,
        ) % {"count": count}
        return {"before": "", "after": text}
    if change.action == Change.Action.ENTRY_PICKED:
        versions = {"first": _("Liste"), "second": _("Zweiteingabe")}
        return {
            "before": " | ".join(
                f"{versions[key]}: {describe_game(before.get(key), names)}" for key in versions
            ),
            "after": _("gewählt: %(version)s")
            % {"version": versions.get(after.get("picked", ""), "")},
        }
    if change.action == Change.Action.LIST_CLOSED and after:
        text = _("%(signed)s von %(seats)s unterschrieben") % after
        return {"before": "", "after": text}
    return {"before": "", "after": ""}


def summary_lines(sheet: Sheet) -> list[dict[str, Any]]:
    """The summary rows under the list (docs/rules.md section 5), one value per player, each
    with its seat's number: as text, written out as Django shows whole numbers (no
    thousands separator), not localized one at a time in the template."""
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
            "values": [
                (str(seat), plain(getattr(column, key)))
                for seat, column in enumerate(sheet.summary, start=1)
            ],
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
    seats = list(table.seats.select_related("player__club", "substitute").order_by("position"))
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
    if form is not None and form.is_bound:
        form.mark_errors()
    names = {seat.position: str(seat.player) for seat in seats}
    sheet = build_sheet(table, games, games_per_list=games_per_list, seats=seats)
    actions = dict(Change.Action.choices)  # get_action_display sorts the choices per call
    history = [
        {
            "change": change,
            "action": actions.get(change.action, change.action),
            **describe_history(change, names),
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
        # Who sits on each seat for the game being typed, and who from which game on.
        "standings": [
            {**seat_names(seat, editing), "total": plain(column.total)}
            for seat, column in zip(seats, sheet.summary, strict=True)
        ],
        "middle_span": middle_span(rules.kontra),
        "label_span": middle_span(rules.kontra) + 3,
        "seats": seats,
        "sheet": sheet,
        "rows": list_rows(sheet, editing=editing, closed=table.is_closed),
        "form": form,
        "editing": editing,
        # What the rows show, for a save in place (``saved_answer``); read before them.
        "list_mark": revisions.list_mark(tournament.frame_revision, table.revision),
        "editing_game": editing_game,
        "error_summary": form.error_summary() if form is not None and form.is_bound else [],
        "pass_confirm": (
            _("Spiel %(number)s (%(game)s, %(entry)s) wirklich als eingepasst speichern?")
            % {
                "number": editing_game.number,
                "game": editing_game.get_game_display(),
                "entry": signed(editing_game.list_score),
            }
            if editing_game is not None and not editing_game.passed
            else ""
        ),
        "editing_dealer": next(
            (
                str(seat.player_for(editing))
                for seat in seats
                if editing and seat.position == dealer
            ),
            None,
        ),
        "editing_dealer_sits_out": bool(editing)
        and dealer is not None
        and dealer - 1 in scoring.sitting_out(dealer - 1, table.size, rules),
        "games_per_list": games_per_list,
        "complete": len(games) == games_per_list,
        "last_game": games[-1] if games else None,
        "history": history,
        "disputes": [
            {
                "number": game.number,
                "device": game.disputed["device"],
                "description": describe_game(game.disputed["game"], names),
            }
            for game in games
            if game.disputed
        ],
        "objection": None if context.get("at_table") else asked_objection(request, table),
        "bid_values": scoring.bid_values(rules),
        "kontra": rules.kontra,
        "reopen_form": context.pop("reopen_form", None) or ReopenForm(),
        "substitute_form": context.pop("substitute_form", None)
        or SubstituteForm(table=table, seats=seats),
        "substitutes": [seat for seat in seats if seat.substitute_id is not None],
        "close_form": context.pop("close_form", None) or CloseForm(),
        "signatures": (signed_status := signatures(table, len(games), seats)),
        "cleared": signatures_cleared(table, signed_status) if context.get("at_table") else None,
        # What the referee confirms a seat's signature on (``services.sign_list``).
        "sign_state": services.list_state(table) if tournament.seat_codes else None,
        "differences": (
            describe_differences(services.differences(table), names)
            if tournament.double_entry
            else None
        ),
        "preview_url": reverse(
            "referee:preview", args=[tournament.slug, table.series.number, table.number]
        ),
        "entry_url": list_url(table),
        **context,
    }
    return render(request, "referee/list.html", context, status=status)


def describe_differences(
    differences: list[services.Difference], names: dict[int, str]
) -> list[dict[str, Any]]:
    """The rows where the two entries differ, each version in words, side by side."""
    return [
        {
            "number": d.number,
            "first": describe_game(d.first, names) if d.first else "",
            "second": describe_game(d.second, names) if d.second else "",
        }
        for d in differences
    ]


def asked_objection(request: HttpRequest, table: Table) -> Objection | None:
    """The open objection against a game of ``table`` the referee corrects the game for
    (``?objection=ID`` from the dashboard, then posted with the row), if any."""
    try:
        pk = int(request.POST.get("objection") or request.GET["objection"])
    except (KeyError, TypeError, ValueError):
        return None
    return (
        Objection.objects.select_related("game", "seat__player", "seat__substitute")
        .filter(pk=pk, game__table=table, decided_at__isnull=True)
        .first()
    )


def editing_number(request: HttpRequest) -> int | None:
    """The row ``?game=N`` asks to correct, if any."""
    try:
        return int(request.GET["game"])
    except (KeyError, ValueError):
        return None


def save_row(
    request: HttpRequest,
    tournament: Tournament,
    table_obj: Table,
    *,
    device: str = "",
    **page: Any,
) -> HttpResponse:
    """Save the row posted through ``services.record_game``, for the referee's page and the
    table link alike; ``page`` is the list page's context for where the form came from."""
    number = posted_number(request, lambda: table_obj.games.count() + 1)
    if not device and request.POST.get("dispute") in ("accept", "reject"):
        return settle_dispute(request, tournament, table_obj, number, **page)
    rules = tournament.rule_set
    # The row is read by seat numbers; the players' names are only read for a page to show.
    form = GameRowForm(request.POST, seats=None, size=table_obj.size, number=number, rules=rules)
    if not form.is_valid() or form.entry is None:
        form = shown_form(request.POST, table_obj, number, rules)
        if form.entry is not None:
            try:
                services.score_entry(form.entry, number, table_obj.size, rules)
            except services.ServiceError as error:
                form.add_problems(error.problems)
        return render_list(request, tournament, table_obj, form=form, editing=number, **page)
    objection = None if device else asked_objection(request, table_obj)
    if objection is not None and objection.game.number != number:
        objection = None
    try:
        if objection is not None:
            # The referee corrects the game an objection is against: the objection is
            # decided with the correction, in one transaction.
            game = services.decide_objection(
                objection,
                correction=form.entry,
                user=request.user,
                expected_version=form.cleaned_data.get("version"),
                reason=form.cleaned_data.get("reason") or "",
                signatures_confirmed=bool(form.cleaned_data.get("clear_signatures")),
            ).game
        else:
            game = services.record_game(
                table_obj,
                number,
                form.entry,
                user=request.user,
                expected_version=form.cleaned_data.get("version"),
                reason=form.cleaned_data.get("reason") or "",
                device=device,
                signatures_confirmed=bool(form.cleaned_data.get("clear_signatures")),
            )
    except services.Conflict as conflict:
        return render_conflict(
            request,
            tournament,
            table_obj,
            services.list_seats(table_obj),
            number,
            conflict.current,
            **page,
        )
    except services.ServiceError as error:
        data = request.POST.copy()
        if error.code == "signatures_would_clear":
            # Said: the next save of this row deletes the signatures.
            data["clear_signatures"] = "True"
        form = shown_form(data, table_obj, number, rules)
        form.add_problems(error.problems)
        return render_list(request, tournament, table_obj, form=form, editing=number, **page)
    if game.dispute_filed:
        form = shown_form(request.POST, table_obj, number, rules)
        form.add_error(None, coded_error("referee_version_stands"))
        return render_list(request, tournament, table_obj, form=form, editing=number, **page)
    if game.passed:
        note = _("Spiel %(number)s: eingepasst.") % {"number": game.number}
    else:
        note = _("Spiel %(number)s gespeichert: %(value)s.") % {
            "number": game.number,
            "value": signed(game.list_score),
        }
    notes = [Message(messages.SUCCESS, note)]
    if game.signatures_cleared:
        notes.append(
            Message(
                messages.WARNING,
                _(
                    "Die Liste wurde nach der Unterschrift geändert: alle Unterschriften sind "
                    "gelöscht. Bitte neu unterschreiben."
                ),
            )
        )
    if objection is not None:
        notes.append(
            Message(
                messages.SUCCESS,
                _("Einspruch zu Spiel %(number)s: das Spiel ist korrigiert.") % {"number": number},
            )
        )
        for shown in notes:
            messages.add_message(request, shown.level, shown.message)
        series = table_obj.series
        return redirect("referee:series", slug=tournament.slug, series=series.number)
    if request.headers.get("X-Requested-With") == "fetch":
        return saved_answer(tournament, table_obj, game, notes, shown=shown_revision(request))
    for shown in notes:
        messages.add_message(request, shown.level, shown.message)
    return redirect(page.get("entry_url") or list_url(table_obj))


def shown_revision(request: HttpRequest) -> str | None:
    """What the page's script says its rows show (``X-List-Revision``: the list's mark,
    ``revisions.list_mark``), if it says."""
    return request.headers.get("X-List-Revision") or None


def saved_answer(
    tournament: Tournament,
    table: Table,
    game: Game,
    notes: list[Message],
    *,
    shown: str | None = None,
) -> JsonResponse:
    """A saved row, answered to the page's script instead of the page: the list's rows and
    summary, its state and the notes, rendered by the templates the page includes, so that
    the device updates its page in place.

    A new row saved from a page that showed the list as it was before (its mark ``shown``,
    ``revisions.list_mark``) changes two rows: the one saved and the next, where the form
    moves on; the answer carries those and the summary. Otherwise (a correction, a page
    older than the list or its tournament's settings) it carries every row."""
    games = game.list_games or tuple(table.games.order_by("number"))
    games_per_list = tournament.games_per_list(table.size)
    following = len(games) + 1 if len(games) < games_per_list else None
    sheet = build_sheet(table, games, games_per_list=games_per_list)
    kontra = tournament.rule_set.kontra
    revised = game.list_revisions
    changed = (
        {game.number} | ({following} if following else set())
        if revised is not None and revised[0] == shown and game.version == 1
        else None
    )
    context = {
        "table": table,
        "sheet": sheet,
        "games_per_list": games_per_list,
        "rows": list_rows(sheet, editing=following, closed=table.is_closed, only=changed),
        "summary_lines": summary_lines(sheet),
        "middle_span": middle_span(kontra),
        "label_span": middle_span(kontra) + 3,
        "kontra": kontra,
        "messages": notes,
    }
    return JsonResponse(
        {
            "saved": True,
            "number": game.number,
            "version": game.version,
            "next": following,
            "signatures_cleared": bool(game.signatures_cleared),
            # A page older than the list (a substitute appointed since raises the frame) gets
            # the seats anew, with every row.
            "seats": [seat_names(seat, following) for seat in services.list_seats(table)]
            if shown is not None and changed is None
            else None,
            "revision": None if revised is None else revised[1],
            "every_row": changed is None,
            "rows": render_to_string("referee/_list_rows.html", context),
            "status": render_to_string("referee/_sheet_status.html", context),
            "messages": render_to_string("referee/_messages.html", context),
        }
    )


def settle_dispute(
    request: HttpRequest, tournament: Tournament, table: Table, number: int, **page: Any
) -> HttpResponse:
    """The referee takes or refuses a table's version of a row the referee wrote."""
    accept = request.POST["dispute"] == "accept"
    try:
        services.settle_dispute(table, number, accept=accept, user=request.user)
    except services.ServiceError as error:
        action_error = {"action": "save", "code": error.code, "message": message(error.code)}
        return render_list(request, tournament, table, action_error=action_error, **page)
    return redirect(page.get("entry_url") or list_url(table))


def shown_form(data: Any, table: Table, number: int, rules: scoring.RuleSet) -> GameRowForm:
    """The posted row's form as the page shows it: the players' names in the declarer's
    choices, the posted values checked."""
    form = GameRowForm(data, seats=services.list_seats(table), number=number, rules=rules)
    form.is_valid()
    return form


def render_conflict(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    seats: list[Seat],
    number: int,
    current: Game | SecondEntry | None,
    **page: Any,
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
        # Who saved it: the referee (``updated_by``), or a table's device, which the log names.
        "saved": table.changes.filter(game_number=number, action__in=GAME_ROWS[:2]).first(),
        "description": (
            describe_game(services.GameEntry.from_game(current).to_json(), names)
            if current is not None
            else ""
        ),
    }
    return render_list(
        request, tournament, table, form=form, editing=number, conflict=conflict, **page
    )


def preview_row(request: HttpRequest, tournament: Tournament, table_obj: Table) -> JsonResponse:
    """The live preview, for the referee's page and the table link alike."""
    seats = services.list_seats(table_obj)
    games = services.list_games(table_obj)
    games_per_list = tournament.games_per_list(table_obj.size)
    number = posted_number(request, lambda: len(games) + 1)
    rules = tournament.rule_set
    form = GameRowForm(request.POST, seats=seats, number=number, rules=rules)
    scored: scoring.Entry = None
    typed = None
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
                form.warnings = list(getattr(scored, "warnings", ()))
                typed = (number, form.entry, scored)
            else:
                scored = None
    sheet = build_sheet(table_obj, games, games_per_list=games_per_list, typed=typed)
    row = sheet.rows[number - 1] if number <= len(sheet.rows) else None
    if isinstance(scored, scoring.RamschScore):
        scored = None  # a Ramsch has no declarer's value: its points are in "scores"
    return JsonResponse(
        {
            "number": number,
            "ok": typed is not None,
            "passed": bool(typed and typed[1].passed),
            "value": scored.value if scored else None,
            "won": scored.won if scored else None,
            "overbid": scored.overbid if scored else None,
            "list_score": scored.list_score if scored else None,
            "breakdown": row.breakdown if row and typed else "",
            "entry": row.entry if row and typed else "",
            "entries_total": sheet.entries_total,
            "matadors": form.matadors_from_cards,
            "fields": form.notation_fields,
            "problems": form.problems(),
            "scores": list(row.scores) if row and typed else None,
            "declarer": typed[1].declarer if typed else None,
            "running": sheet.running,
            "summary": [column.to_json() for column in sheet.summary],
        }
    )

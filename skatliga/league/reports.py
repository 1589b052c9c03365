"""The match reports' pages: the captain's behind his team link (read the report, confirm it
or object with a reason), the official's release page of his division's reports, one report
with its answers (decide an objection, release, write it again with a reason) and its PDF.
Views parse, call ``services.reports``, render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from skatliga.league.captain import open_team_link
from skatliga.league.official import official_required
from skatliga.league.report_rows import report_view
from skatliga.league.views import saved
from skatliga.models import Division, MatchReport, ReportAnswer
from skatliga.pdf.reports import report_pdf as build_report_pdf
from skatliga.services import reports
from skatliga.table.views import private


class AnswerForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Begründung des Einspruchs"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Begründung"), widget=forms.Textarea(attrs={"rows": 2})
    )


def _report_of(division: Division, report_pk: int) -> MatchReport:
    return get_object_or_404(
        MatchReport.objects.select_related("group__match_day__division", "group__host"),
        pk=report_pk,
        group__match_day__division=division,
    )


# --- the captain -------------------------------------------------------------------------------


@private
def captain_report(request: HttpRequest, token: str, report_pk: int) -> HttpResponse:
    """The report of a group the team played, with its confirm and object buttons."""
    link = open_team_link(request, token)
    team = link.team
    report = get_object_or_404(
        MatchReport.objects.select_related("group__match_day__division"),
        pk=report_pk,
        group__teams=team,
    )
    form = AnswerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        confirm = request.POST.get("answer") == "confirm"
        if saved(
            form,
            lambda: reports.answer_report(
                report, team, confirm=confirm, reason=form.cleaned_data["reason"]
            ),
        ):
            messages.success(
                request,
                _("Spielbericht bestätigt.")
                if confirm
                else _("Einspruch eingelegt: der Staffelleiter entscheidet."),
            )
            return redirect("team:report", token=token, report_pk=report.pk)
    answer = ReportAnswer.objects.filter(report=report, team=team).first()
    return render(
        request,
        "league/report_captain.html",
        {
            "team": team,
            "token": token,
            "report": report,
            "view": report_view(report),
            "answer": answer,
            "can_answer": answer is None and not reports.is_binding(report),
            "form": form,
            "at_table": True,
        },
        status=400 if request.method == "POST" else 200,
    )


# --- the official ------------------------------------------------------------------------------


@official_required
def division_reports(request: HttpRequest, division: Division) -> HttpResponse:
    """The release page: the division's reports with their state, objections first."""
    reports.write_due_reports(division)
    today = timezone.localdate()
    rows = [
        {"report": report, "view": report_view(report, today)}
        for report in reports.reports_of(division)
    ]
    order = [
        reports.State.OBJECTED,
        reports.State.CONFIRMED,
        reports.State.WAITING,
        reports.State.RELEASED,
        reports.State.BINDING,
    ]
    rows.sort(key=lambda r: order.index(getattr(r["view"], "state", "")))
    return render(
        request, "league/report_list.html", {"division": division, "rows": rows, "today": today}
    )


@official_required
def official_report(request: HttpRequest, division: Division, report_pk: int) -> HttpResponse:
    """One report: decide an objection, release it, write it again from the lists."""
    report = _report_of(division, report_pk)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        action = request.POST.get("action", "")
        reason = form.cleaned_data["reason"]
        done = None
        if action == "decide":
            answer = get_object_or_404(
                ReportAnswer, pk=request.POST.get("answer", 0), report=report
            )
            done = saved(form, lambda: reports.decide_objection(answer, reason, user=request.user))
        elif action == "rewrite":
            done = saved(form, lambda: reports.rewrite_report(report, reason, user=request.user))
        if done:
            messages.success(request, _("Gespeichert."))
            return redirect("league:report", pk=division.pk, report_pk=report.pk)
    elif request.method == "POST" and request.POST.get("action") == "release":
        form = ReasonForm()
        if saved(form, lambda: reports.release_report(report, user=request.user)):
            messages.success(request, _("Spielbericht freigegeben."))
            return redirect("league:reports", pk=division.pk)
    return render(
        request,
        "league/report_official.html",
        {"division": division, "report": report, "view": report_view(report), "form": form},
        status=400 if request.method == "POST" else 200,
    )


@official_required
def official_report_pdf(request: HttpRequest, division: Division, report_pk: int) -> HttpResponse:
    report = _report_of(division, report_pk)
    response = HttpResponse(build_report_pdf(report_view(report)), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="spielbericht-{report.pk}.pdf"'
    return response


@private
def captain_report_pdf(request: HttpRequest, token: str, report_pk: int) -> HttpResponse:
    link = open_team_link(request, token)
    report = get_object_or_404(MatchReport, pk=report_pk, group__teams=link.team)
    response = HttpResponse(build_report_pdf(report_view(report)), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="spielbericht-{report.pk}.pdf"'
    return response

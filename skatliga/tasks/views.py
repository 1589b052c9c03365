"""The progress page of a job (``/referee/jobs/<id>/``) and its status, which the page's
script asks every second (``job.js`` through ``poll.js``).
A finished job with a result page (``result["url"]``) sends the starter there; a failed
one lists its problems with their paths. Only its starter and superusers see a job (one
started by ``import_archive --background`` has no starter)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from skatliga.archive import ArchiveProblem
from skatliga.models import Job

TITLES = {
    "import_archive": gettext_lazy("Archiv importieren"),
    "roll_over": gettext_lazy("Neue Saison anlegen"),
    "rescore_season": gettext_lazy("Spieltage neu werten"),
}
DONE = {
    "import_archive": gettext_lazy("Turnier importiert."),
    "roll_over": gettext_lazy("Die neue Saison ist angelegt, mit Auf- und Absteigern."),
    "rescore_season": gettext_lazy("Die Spieltage sind mit den Regeln der Saison neu gewertet."),
}
STEPS = {"reading": gettext_lazy("Prüfen"), "writing": gettext_lazy("Schreiben")}


def _own_job(request: HttpRequest, job_id: uuid.UUID) -> Job | None:
    job = get_object_or_404(Job, pk=job_id)
    mine = job.user_id is not None and job.user_id == request.user.pk
    return job if mine or request.user.is_superuser else None


def status_text(job: Job) -> str:
    """One line: waiting, the step and how far, done or failed."""
    if job.state == Job.State.WAITING:
        return _("Wartet auf den Hintergrunddienst …")
    if job.state == Job.State.RUNNING:
        step = STEPS.get(job.step, _("Läuft"))
        return _("%(step)s … %(percent)d %%") % {"step": step, "percent": job.percent}
    if job.state == Job.State.DONE:
        return _("Fertig.")
    return _("Fehlgeschlagen.")


@login_required
def job_page(request: HttpRequest, job_id: uuid.UUID) -> HttpResponse:
    job = _own_job(request, job_id)
    if job is None:
        return render(request, "referee/forbidden.html", status=403)
    if job.state == Job.State.DONE and job.result.get("url"):
        messages.success(request, str(DONE.get(job.kind, _("Fertig."))))
        return redirect(job.result["url"])
    problems = [
        {"path": p["path"], "code": p["code"], "message": ArchiveProblem(**p).message}
        for p in job.result.get("problems", [])
    ]
    return render(
        request,
        "tasks/job.html",
        {
            "job": job,
            "title": TITLES.get(job.kind, _("Hintergrundarbeit")),
            "text": status_text(job),
            "problems": problems,
            "existing_url": job.result.get("existing_url", ""),
        },
    )


@login_required
def job_status(request: HttpRequest, job_id: uuid.UUID) -> HttpResponse:
    job = _own_job(request, job_id)
    if job is None:
        return JsonResponse({"error": "forbidden"}, status=403)
    response = JsonResponse(
        {
            "state": job.state,
            "finished": job.finished,
            "percent": job.percent,
            "text": status_text(job),
        }
    )
    response["Cache-Control"] = "no-store"
    return response

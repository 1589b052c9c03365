"""The captain's audience: what a team link (or its short code) opens, nothing else."""

from django.urls import path

from skatliga.league import captain, fines, reports

app_name = "team"

urlpatterns = [
    path("", captain.code, name="code"),
    path("<str:token>/", captain.page, name="page"),
    path(
        "<str:token>/groups/<id:group_pk>/series/<id:series>/",
        captain.line_up,
        name="line-up",
    ),
    path("<str:token>/reports/<id:report_pk>/", reports.captain_report, name="report"),
    path("<str:token>/statement/", fines.team_statement, name="statement"),
    path("<str:token>/reports/<id:report_pk>/pdf/", reports.captain_report_pdf, name="report-pdf"),
]

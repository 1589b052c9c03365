"""The league pages, for referees who may change players: mounted under ``league/``."""

from django.urls import path

from skatliga.league import calendar, fines, official, reports, rules, season_end, views

app_name = "league"
urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<id:pk>/", views.club, name="club"),
    path("players/", views.players, name="players"),
    path("players/import/", views.roster_import, name="roster-import"),
    path("players/<id:pk>/", views.player, name="player"),
    path("players/<id:pk>/merge/", views.player_merge, name="player-merge"),
    path("seasons/<slug:slug>/", views.season, name="season"),
    path("seasons/<slug:slug>/teams/<id:pk>/", views.team, name="team"),
    path("seasons/<slug:slug>/end/", season_end.season_end, name="season-end"),
    path("seasons/<slug:slug>/rules/", rules.league_rules, name="rules"),
    path("divisions/", official.divisions, name="divisions"),
    path("divisions/<id:pk>/", official.division, name="division"),
    path("divisions/<id:pk>/teams/<id:team_pk>/", official.team, name="division-team"),
    path("groups/<id:group_pk>/line-ups/", official.line_ups, name="line-ups"),
    path("divisions/<id:pk>/reports/", reports.division_reports, name="reports"),
    path("divisions/<id:pk>/fines/", fines.division_fines, name="fines"),
    path("divisions/<id:pk>/clubs/<id:club_pk>/statement/", fines.club_statement, name="statement"),
    path("divisions/<id:pk>/reports/<id:report_pk>/", reports.official_report, name="report"),
    path(
        "divisions/<id:pk>/reports/<id:report_pk>/pdf/",
        reports.official_report_pdf,
        name="report-pdf",
    ),
    path("divisions/<id:pk>/calendar.ics", calendar.division_feed, name="division-calendar"),
    path("teams/<id:pk>/calendar.ics", calendar.team_feed, name="team-calendar"),
]

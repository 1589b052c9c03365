from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, include, path
from django.views.generic import RedirectView

from skatliga import views
from skatliga.checkin import urls as checkin_urls
from skatliga.money import views as money_views
from skatliga.ops.health import healthz
from skatliga.tasks import views as job_views
from skatliga.views import (
    account,
    calls,
    double_entry,
    links,
    lists,
    live,
    notices,
    players,
    public,
    referee,
    series,
)

LIST = "<slug:slug>/series/<id:series>/tables/<id:table>/"

referee_patterns = [
    path("", referee.dashboard, name="dashboard"),
    path("new/", referee.tournament_create, name="tournament-create"),
    path("import/", referee.archive_upload, name="archive-upload"),
    path("jobs/<uuid:job_id>/", job_views.job_page, name="job"),
    path("jobs/<uuid:job_id>/status.json", job_views.job_status, name="job-status"),
    path("<slug:slug>/", players.tournament_detail, name="tournament"),
    path("<slug:slug>/players/", players.players_add, name="players-add"),
    path("<slug:slug>/players/search/", players.player_search, name="player-search"),
    path(
        "<slug:slug>/registrations/<id:pk>/remove/",
        players.registration_remove,
        name="registration-remove",
    ),
    path(
        "<slug:slug>/registrations/<id:pk>/withdraw/",
        players.registration_withdraw,
        name="registration-withdraw",
    ),
    path("<slug:slug>/teams/", players.teams_assign, name="teams-assign"),
    path("<slug:slug>/teams/new/", players.team_create, name="team-create"),
    path("<slug:slug>/draw/", players.series_draw, name="draw"),
    path("<slug:slug>/apart/", players.pair_forbid, name="pair-forbid"),
    path("<slug:slug>/apart/<int:pk>/remove/", players.pair_allow, name="pair-allow"),
    *checkin_urls.referee_patterns(),
    path("<slug:slug>/settings/", referee.tournament_settings, name="tournament-settings"),
    path("<slug:slug>/referees/", referee.referee_add, name="referee-add"),
    path("<slug:slug>/referees/<id:pk>/remove/", referee.referee_remove, name="referee-remove"),
    path("<slug:slug>/archive.json", referee.archive_download, name="archive-download"),
    path("<slug:slug>/series/<id:series>/", series.series_detail, name="series"),
    path("<slug:slug>/series/<id:series>/swap/", series.seats_swap, name="swap"),
    path("<slug:slug>/series/<id:series>/status.json", live.series_status, name="series-status"),
    path("<slug:slug>/series/<id:series>/table-cards.pdf", links.cards_pdf, name="table-cards"),
    path("<slug:slug>/series/<id:series>/seat-slips.pdf", links.seat_slips, name="seat-slips"),
    path("<slug:slug>/series/<id:series>/blank.pdf", links.blank_sheets_pdf, name="blank-sheets"),
    path("<slug:slug>/series/<id:series>/publish/", series.series_publish, name="publish"),
    path("<slug:slug>/series/<id:series>/withdraw/", series.series_withdraw, name="withdraw"),
    path("<slug:slug>/changes/", referee.change_log, name="changes"),
    path("<slug:slug>/calls/<id:pk>/seen/", calls.call_acknowledge, name="call-acknowledge"),
    path("<slug:slug>/objections/<id:pk>/keep/", calls.objection_keep, name="objection-keep"),
    path("<slug:slug>/money/", money_views.money, name="money"),
    path("<slug:slug>/money.pdf", money_views.money_pdf, name="money-pdf"),
    path(LIST, lists.table_list, name="list"),
    path(LIST + "preview/", lists.table_preview, name="preview"),
    path(LIST + "close/", lists.table_close, name="close"),
    path(LIST + "reopen/", lists.table_reopen, name="reopen"),
    path(LIST + "delete-last/", lists.game_delete_last, name="delete-last"),
    path(LIST + "substitute/", lists.substitute_appoint, name="substitute"),
    path(LIST + "substitute/remove/", lists.substitute_remove, name="substitute-remove"),
    path(LIST + "sign/", lists.signature_confirm, name="sign-confirm"),
    path(LIST + "second/", double_entry.second_entry, name="second-entry"),
    path(LIST + "pick/", double_entry.pick_entry, name="pick-entry"),
    path(LIST + "link/renew/", links.link_renew, name="link-renew"),
    path(LIST + "link/revoke/", links.link_revoke, name="link-revoke"),
]

T = "tournaments/<slug:slug>/"
S = T + "series/<id:number>/"
public_patterns = [
    path("tournaments/", public.tournaments, name="tournaments"),
    path(T, public.tournament, name="standings"),
    path(T + "hall/", public.hall, name="hall"),
    path(T + "results.pdf", public.tournament_results_pdf, name="tournament-results-pdf"),
    path(T + "teams.pdf", public.tournament_teams_pdf, name="tournament-teams-pdf"),
    path(S, public.series, name="series"),
    path(S + "results.pdf", public.series_results_pdf, name="series-results-pdf"),
    path(S + "sheets.pdf", public.series_sheets_pdf, name="series-sheets-pdf"),
    path(S + "tables/<id:table>/", public.table, name="table"),
    path(S + "seats/", public.seats, name="seats"),
    path(S + "seats.pdf", public.seats_pdf, name="seats-pdf"),
    path("seasons/<slug:slug>/", public.season, name="season"),
    path("seasons/<slug:slug>/results.pdf", public.season_results_pdf, name="season-results-pdf"),
    path("seasons/<slug:slug>/teams.pdf", public.season_teams_pdf, name="season-teams-pdf"),
    path("players/<id:pk>/", public.player, name="player"),
    path("ratings/", public.ratings, name="ratings"),
    path("teams/<id:pk>/", public.team, name="team"),
    path("leagues/<slug:slug>/", public.league, name="league"),
    path("divisions/<id:pk>/", public.division, name="division"),
    path("divisions/<id:pk>/embed/", public.division_embed, name="division-embed"),
    path("impressum/", notices.imprint, name="imprint"),
    path("datenschutz/", notices.privacy, name="privacy"),
]


# Unprefixed URLs are always German and /en/... English. set_language sits inside the pattern
# too, so that the switch posted from an English page resolves its `next` URL in English.
class FaviconView(RedirectView):
    """``/favicon.ico``, which browsers ask for by themselves, leads to the hashed icon."""

    permanent = False

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("skatliga/favicon.svg")


urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", FaviconView.as_view()),
]
urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include(account.patterns)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include(public_patterns)),
    path("referee/", include((referee_patterns, "referee"))),
    path("t/", include("skatliga.table.urls")),
    path("c/", include("skatliga.checkin.urls")),
    path("me/", include("skatliga.personal.urls")),
    path("league/", include("skatliga.league.urls")),
    path("team/", include("skatliga.league.team_urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=False,
)
# The API speaks the language of Accept-Language; its URLs carry none.
urlpatterns += [path("", include("skatliga.api.urls"))]

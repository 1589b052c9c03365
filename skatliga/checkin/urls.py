"""Check-in URLs: the players' (``/c/<token>/``, public) and the referee's desk (mounted
under the referee's tournament URLs)."""

from django.urls import URLPattern, path

from skatliga.checkin import desk, views

app_name = "checkin"

urlpatterns = [
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/search/", views.search, name="search"),
    path("<str:token>/<str:claim>/", views.claim, name="claim"),
    path("<str:token>/<str:claim>/status.json", views.claim_status, name="claim-status"),
]


def referee_patterns() -> list[URLPattern]:
    """The desk's URLs, built when ``skatliga.urls`` has registered its ``id`` converter."""
    return [
        path("<slug:slug>/checkin/", desk.desk, name="checkin"),
        path("<slug:slug>/checkin/status.json", desk.desk_status, name="checkin-status"),
        path("<slug:slug>/checkin/renew/", desk.desk_renew, name="checkin-renew"),
        path("<slug:slug>/checkin/poster.pdf", desk.poster, name="checkin-poster"),
        path("<slug:slug>/checkin/<id:pk>/", desk.desk_mark, name="checkin-mark"),
        path(
            "<slug:slug>/checkin/claims/<id:pk>/confirm/",
            desk.desk_confirm,
            name="checkin-confirm",
        ),
        path("<slug:slug>/checkin/claims/<id:pk>/refuse/", desk.desk_refuse, name="checkin-refuse"),
    ]

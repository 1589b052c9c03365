"""Check-in URLs: the players' (``/c/<token>/``, public) and the referee's desk (mounted
under the referee's tournament URLs)."""

from django.urls import path

from skatliga.checkin import views

app_name = "checkin"

urlpatterns = [
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/search/", views.search, name="search"),
    path("<str:token>/<str:arrival>/", views.arrived, name="arrived"),
]

referee_patterns = [
    path("<slug:slug>/checkin/", views.desk, name="checkin"),
    path("<slug:slug>/checkin/status.json", views.desk_status, name="checkin-status"),
    path("<slug:slug>/checkin/renew/", views.desk_renew, name="checkin-renew"),
    path("<slug:slug>/checkin/poster.pdf", views.poster, name="checkin-poster"),
    path("<slug:slug>/checkin/<int:pk>/", views.desk_mark, name="checkin-mark"),
]

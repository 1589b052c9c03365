"""The players' personal links: ``/me/<token>/`` and its poll."""

from django.urls import path

from skatliga.personal import objections, views

app_name = "personal"

urlpatterns = [
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/status.json", views.status, name="status"),
    path(
        "<str:token>/objection/<int:series>/<int:number>/",
        objections.objection,
        name="objection",
    ),
]

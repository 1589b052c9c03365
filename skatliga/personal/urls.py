"""The players' personal links: ``/me/<token>/`` and its poll."""

from django.urls import path

from skatliga.personal import views

app_name = "personal"

urlpatterns = [
    path("<str:token>/", views.page, name="page"),
    path("<str:token>/status.json", views.status, name="status"),
]

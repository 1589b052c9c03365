"""The table audience: what a table link (or its short code) opens, nothing else."""

from django.urls import path

from skatliga.table import views

app_name = "table"

urlpatterns = [
    path("", views.code, name="code"),
    path("<str:token>/", views.entry, name="entry"),
    path("<str:token>/preview/", views.preview, name="preview"),
    path("<str:token>/device/", views.device, name="device"),
]

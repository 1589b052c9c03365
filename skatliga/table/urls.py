"""The table audience: what a table link (or its short code) opens, nothing else."""

from django.urls import path

from skatliga.table import calls, signing, views

app_name = "table"

urlpatterns = [
    path("", views.code, name="code"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("<str:token>/", views.entry, name="entry"),
    path("<str:token>/preview/", views.preview, name="preview"),
    path("<str:token>/device/", views.device, name="device"),
    path("<str:token>/help/", calls.help_page, name="help"),
    path("<str:token>/help.json", calls.help_status, name="help-status"),
    path("<str:token>/help/call/", calls.call, name="call"),
    path("<str:token>/help/objection/", calls.objection, name="objection"),
    path("<str:token>/sign/", signing.sign, name="sign"),
    path("<str:token>/sign/<id:position>/", signing.sign_seat, name="sign-seat"),
    path(
        "<str:token>/sign/<id:position>/substitute/",
        signing.sign_seat,
        {"substitute": True},
        name="sign-substitute",
    ),
]

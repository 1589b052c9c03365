"""The imprint and the privacy notice: the operator's texts (``models.Notice``, edited in the
admin), or a note that none is there yet."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from skatliga.models import Notice


def notice(request: HttpRequest, kind: str) -> HttpResponse:
    found = Notice.objects.filter(kind=kind).first()
    return render(
        request,
        "public/notice.html",
        {"title": Notice.Kind(kind).label, "text": found.text if found else ""},
    )


def imprint(request: HttpRequest) -> HttpResponse:
    return notice(request, Notice.Kind.IMPRINT)


def privacy(request: HttpRequest) -> HttpResponse:
    return notice(request, Notice.Kind.PRIVACY)

"""A referee's own account: changing the password, and resetting a forgotten one by e-mail
where the site can send mail (``settings.EMAIL_URL``, from ``SKATLIGA_EMAIL_URL``). Every
step is Django's view under the site's one page ``registration/account.html``."""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import URLPattern, path, reverse_lazy
from django.utils.translation import gettext as _

PAGE = "registration/account.html"


def by_email(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """``view`` where the site sends e-mail; where it does not, who sets a new password."""

    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.EMAIL_URL:
            return render(request, PAGE, {"title": _("Passwort vergessen?"), "no_email": True})
        return view(request, *args, **kwargs)

    return answer


patterns: list[URLPattern] = [
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(template_name=PAGE),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name=PAGE),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        by_email(auth_views.PasswordResetView.as_view(template_name=PAGE)),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        by_email(auth_views.PasswordResetDoneView.as_view(template_name=PAGE)),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        by_email(
            auth_views.PasswordResetConfirmView.as_view(
                template_name=PAGE, success_url=reverse_lazy("password_reset_complete")
            )
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        by_email(auth_views.PasswordResetCompleteView.as_view(template_name=PAGE)),
        name="password_reset_complete",
    ),
]

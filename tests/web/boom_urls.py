"""The site's URLs plus one page that fails, to see what a failing request does."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import path

from skatliga.urls import urlpatterns as site_patterns


class Boom(Exception):
    """The failure of the test page."""


def boom(request):
    raise Boom("a failure in a view")


urlpatterns = [*site_patterns, *i18n_patterns(path("boom/", boom), prefix_default_language=False)]

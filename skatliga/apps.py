from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SkatligaConfig(AppConfig):
    name = "skatliga"
    verbose_name = _("Skatliga")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.urls import register_converter

        from skatliga import revisions  # noqa: F401  (connects the cache's signal receivers)
        from skatliga.forms.parsing import IdConverter
        from skatliga.services import rating
        from skatliga.table import redaction
        from skatliga.tasks.rating import enqueue

        redaction.install()
        rating.recompute_with(enqueue)  # a stale rating is recomputed in the background
        # Before any URLconf is imported, so that each area's ``urls.py`` loads on its own.
        register_converter(IdConverter, "id")  # every whole number in a path

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SkatligaConfig(AppConfig):
    name = "skatliga"
    verbose_name = _("Skatliga")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from skatliga import revisions  # noqa: F401  (connects the cache's signal receivers)
        from skatliga.table import redaction

        redaction.install()

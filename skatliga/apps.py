from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SkatligaConfig(AppConfig):
    name = "skatliga"
    verbose_name = _("Skatliga")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from skatliga.table import redaction

        redaction.install()

"""The operator's texts: the imprint and the privacy notice, edited in the admin and shown
at /impressum/ and /datenschutz/, linked at the foot of every page."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Notice(models.Model):
    class Kind(models.TextChoices):
        IMPRINT = "impressum", _("Impressum")
        PRIVACY = "datenschutz", _("Datenschutz")

    kind = models.CharField(_("Seite"), max_length=12, choices=Kind.choices, unique=True)
    text = models.TextField(_("Text"), help_text=_("Absätze durch Leerzeilen getrennt."))

    class Meta:
        verbose_name = _("Hinweisseite")
        verbose_name_plural = _("Hinweisseiten")

    def __str__(self) -> str:
        return str(self.Kind(self.kind).label)

"""A player's personal link to his evening (``/me/<token>/``): one per registration."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from skatliga.models.tournaments import Registration


class PersonalLink(models.Model):
    """``token`` is the unguessable part of ``/me/<token>/``: it opens one registered
    player's evening in one tournament and nothing else. Stored as issued, as table and
    check-in tokens are (docs/security.md)."""

    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="personal_link"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["registration"]
        verbose_name = _("persönlicher Link")
        verbose_name_plural = _("persönliche Links")

    def __str__(self) -> str:
        return str(self.registration)

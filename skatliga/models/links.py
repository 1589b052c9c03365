"""What every capability link shares: the table's (``/t/<token>/``) and the team's
(``/team/<token>/``). A link opens one thing without an account: by its unguessable
``token`` in a URL or QR code, or by its short ``code`` typed on a phone. Renewing revokes
the old link and issues a new one; only an unrevoked link opens."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Link(models.Model):
    token = models.CharField(max_length=64, unique=True)
    code = models.CharField(max_length=12, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

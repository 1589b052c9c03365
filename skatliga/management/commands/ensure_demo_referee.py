from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

USERNAME = "referee"
PASSWORD = "skat"


class Command(BaseCommand):
    help = (
        f"Make sure the superuser {USERNAME!r} with password {PASSWORD!r} exists. "
        "Only for the local SQLite development database with DEBUG on."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG or connection.vendor != "sqlite":
            raise CommandError(
                "ensure_demo_referee only runs against the SQLite development database "
                "with SKATLIGA_DEBUG on."
            )
        user, created = get_user_model().objects.get_or_create(username=USERNAME)
        user.is_staff = True
        user.is_superuser = True
        user.is_active = True
        user.set_password(PASSWORD)
        user.save()
        action = "Created" if created else "Updated"
        self.stdout.write(f"{action} the superuser {USERNAME!r} (password {PASSWORD!r}).")

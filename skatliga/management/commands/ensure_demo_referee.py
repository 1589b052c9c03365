from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

USERNAME = "referee"
PASSWORD = "skat"


class Command(BaseCommand):
    help = (
        f"Make sure the superuser {USERNAME!r} exists: created with password {PASSWORD!r} "
        "when missing, left alone (password and sessions) when there. "
        "Only for the local SQLite development database with DEBUG on."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG or connection.vendor != "sqlite":
            raise CommandError(
                "ensure_demo_referee only runs against the SQLite development database "
                "with SKATLIGA_DEBUG on."
            )
        users = get_user_model().objects
        if users.filter(username=USERNAME).exists():
            # Setting the password again would log out the referee's open session.
            self.stdout.write(f"The superuser {USERNAME!r} exists; left as it is.")
            return
        users.create_superuser(USERNAME, password=PASSWORD)
        self.stdout.write(f"Created the superuser {USERNAME!r} (password {PASSWORD!r}).")

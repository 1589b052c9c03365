"""``python manage.py check_backup [DIRECTORY]``: is the newest backup at most a day old?"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from skatliga.ops.health import backup_warning


class Command(BaseCommand):
    help = (
        "Exit status 1 when the newest *.backup in DIRECTORY (default SKATLIGA_BACKUP_DIR) is "
        "older than a day or missing: for monitoring, or OnFailure= of the backup timer."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", nargs="?", type=Path, default=settings.BACKUP_DIR)

    def handle(self, *args: Any, directory: Path | None, **options: Any) -> None:
        if directory is None:
            raise CommandError("Name the backup directory, or set SKATLIGA_BACKUP_DIR.")
        warning = backup_warning(directory)
        if warning:
            raise CommandError(warning)
        self.stdout.write(f"The newest backup in {directory} is less than a day old.")

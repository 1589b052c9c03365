"""``python manage.py backup FILE``: a backup of the whole database (see skatliga.ops.backup)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.ops.backup import BackupError, backup


class Command(BaseCommand):
    help = "Write a backup of the whole database to FILE, safely while the site runs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="where to write the backup")

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        try:
            backup(file)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_("Gesichert: %(file)s") % {"file": file})

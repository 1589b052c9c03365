"""``python manage.py restore FILE [--force]``: a backup back into an empty database."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.ops.backup import BackupError, restore
from skatliga.ops.health import problems


class Command(BaseCommand):
    help = (
        "Restore a backup made by manage.py backup into this database. Refuses a database "
        "that holds data unless --force is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace the data of a database that is not empty",
        )

    def handle(self, *args: Any, file: Path, force: bool, **options: Any) -> None:
        try:
            restore(file, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_("Wiederhergestellt: %(file)s") % {"file": file})
        for problem in problems():
            self.stderr.write(problem)

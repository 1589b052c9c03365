"""``python manage.py restore FILE [--force]``: a backup in the live database's place, once it
has restored, migrated and checked cleanly in a scratch database (skatliga.ops.restore)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.ops.backup import BackupError
from skatliga.ops.health import problems
from skatliga.ops.restore import comparison, restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by manage.py backup. It is first restored, migrated and "
        "checked in a scratch database; only then does it take the live database's place, "
        "which is kept under another name. Refuses a database that holds data unless --force "
        "is given. On PostgreSQL the site must be stopped and the user may create databases."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace the data of a database that is not empty (it is kept aside)",
        )

    def handle(self, *args: Any, file: Path, force: bool, **options: Any) -> None:
        try:
            restored = restore(file, force=force)
        except BackupError as error:
            raise CommandError(str(error)) from None
        for line in comparison(restored.before, restored.after):
            self.stdout.write(line)
        self.stdout.write(_("Wiederhergestellt: %(file)s") % {"file": file})
        if restored.kept:
            self.stdout.write(
                _("Die Daten davor bleiben erhalten in %(kept)s (ohne Bedarf löschen).")
                % {"kept": restored.kept}
            )
        for problem in problems():
            self.stderr.write(problem)

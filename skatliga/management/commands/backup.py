"""``python manage.py backup FILE|DIRECTORY``: a backup of the whole database (see
skatliga.ops.backup); a directory gets a new file named by the moment."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.ops.backup import BackupError, backup, stamped_name


class Command(BaseCommand):
    help = (
        "Write a backup of the whole database, safely while the site runs: to FILE, or to a "
        "new file skatliga-YYYY-MM-DD-HHMMSS.backup in DIRECTORY, so that none replaces another."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup file, or a directory for a new one")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        path = Path(file)
        if file.endswith("/") or path.is_dir():
            if not path.is_dir():
                raise CommandError(_("%(path)s ist kein Verzeichnis.") % {"path": file})
            path = stamped_name(path)
        try:
            replaced = backup(path)
        except BackupError as error:
            raise CommandError(str(error)) from None
        if replaced:
            self.stdout.write(
                _("Gesichert: %(file)s (die vorige Sicherung dieses Namens ist ersetzt)")
                % {"file": path}
            )
        else:
            self.stdout.write(_("Gesichert: %(file)s") % {"file": path})

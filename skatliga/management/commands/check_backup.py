"""``python manage.py check_backup [PATH] [--trial]``: is the newest backup at most a day old,
and (``--trial``) does it restore, migrate and check cleanly, beside the live data?"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.ops.backup import BackupError
from skatliga.ops.health import backup_warning
from skatliga.ops.restore import comparison, counts, discard, try_backup


class Command(BaseCommand):
    help = (
        "Exit status 1 when the newest *.backup in DIRECTORY (default SKATLIGA_BACKUP_DIR) is "
        "older than a day or missing: for monitoring, or OnFailure= of the backup timer. "
        "With --trial, also restore that backup (or the FILE named) into a scratch database, "
        "migrate and check it, compare its counts with the live database's and drop it "
        "again: the live data is not touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path",
            nargs="?",
            type=Path,
            default=settings.BACKUP_DIR,
            help="a directory of backups (default SKATLIGA_BACKUP_DIR) or, with --trial, a file",
        )
        parser.add_argument(
            "--trial",
            action="store_true",
            help="restore the backup into a scratch database and check it there",
        )

    def handle(self, *args: Any, path: Path | None, trial: bool, **options: Any) -> None:
        if path is None:
            raise CommandError("Name the backup directory, or set SKATLIGA_BACKUP_DIR.")
        if path.is_dir():
            warning = backup_warning(path)
            if warning:
                raise CommandError(warning)
            self.stdout.write(f"The newest backup in {path} is less than a day old.")
            if not trial:
                return
            path = max(path.glob("*.backup"), key=lambda p: p.stat().st_mtime)
        elif not trial:
            raise CommandError(f"{path} is no directory (a single file takes --trial).")
        try:
            proven = try_backup(path)
        except BackupError as error:
            raise CommandError(str(error)) from None
        discard(proven)
        for line in comparison(counts(), proven.counts):
            self.stdout.write(line)
        self.stdout.write(
            _("%(file)s lässt sich wiederherstellen; die Datenbank blieb unberührt.")
            % {"file": path}
        )

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from skatliga.archive import ArchiveError, load_archive
from skatliga.models import Game
from skatliga.tasks.archive import start_import


class Command(BaseCommand):
    help = (
        "Import a tournament from a skatliga-archive/1 JSON file (or - for standard input). "
        "Nothing is saved unless the whole file is valid; the last line printed is the new "
        "tournament's slug."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive file, or - for standard input")
        parser.add_argument(
            "--background",
            action="store_true",
            help="leave the import to the task worker and print its progress page's address",
        )
        parser.add_argument(
            "--again",
            action="store_true",
            help="import even if the same tournament (name, date, venue) is here already",
        )

    def handle(
        self, *args: Any, file: str, again: bool = False, background: bool = False, **options: Any
    ) -> None:
        name = _("Standardeingabe") if file == "-" else file
        text = read(file)
        data = parse(text, name)
        if background:
            job = start_import(text, again=again)
            self.stdout.write(
                _("Im Hintergrund: %(url)s") % {"url": reverse("referee:job", args=[job.pk])}
            )
            return
        try:
            tournament = load_archive(data, once=not again)
        except ArchiveError as error:
            for problem in error.problems:
                self.stderr.write(f"{name}: {problem}")
            count = len(error.problems)
            raise CommandError(
                ngettext(
                    "Nichts importiert: %(count)d Fehler.",
                    "Nichts importiert: %(count)d Fehler.",
                    count,
                )
                % {"count": count}
            ) from None
        games = Game.objects.filter(table__series__tournament=tournament).count()
        self.stdout.write(
            _("Importiert: %(name)s (%(series)d Serien, %(games)d Spiele)")
            % {"name": tournament.name, "series": tournament.series.count(), "games": games}
        )
        self.stdout.write(tournament.slug)


def read(file: str) -> str:
    """The text of ``file`` (``-``: standard input), as UTF-8; CommandError if unreadable."""
    try:
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except FileNotFoundError:
        raise CommandError(_("Datei nicht gefunden: %(file)s") % {"file": file}) from None
    except OSError as error:
        raise CommandError(
            _("Datei nicht lesbar: %(file)s (%(error)s)") % {"file": file, "error": error.strerror}
        ) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CommandError(
            _("%(file)s ist nicht in UTF-8 kodiert (Byte %(position)d)")
            % {"file": file, "position": error.start}
        ) from None


def parse(text: str, name: str) -> object:
    """The JSON document in ``text``; CommandError naming line and column if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(
            _("%(file)s ist kein gültiges JSON (Zeile %(line)d, Spalte %(column)d: %(error)s)")
            % {"file": name, "error": error.msg, "line": error.lineno, "column": error.colno}
        ) from None
    except RecursionError:
        raise CommandError(_("%(file)s ist zu tief verschachtelt") % {"file": name}) from None

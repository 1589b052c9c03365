import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.archive import dump_archive
from skatliga.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament as a skatliga-archive/1 JSON document (UTF-8) to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")

    def handle(self, *args: Any, slug: str, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(_("Kein Turnier mit dem Kürzel %(slug)s.") % {"slug": slug})
        text = json.dumps(dump_archive(tournament), ensure_ascii=False, indent=2) + "\n"
        buffer = getattr(self.stdout, "buffer", None)
        if buffer is None:
            self.stdout.write(text, ending="")
        else:
            self.stdout.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()

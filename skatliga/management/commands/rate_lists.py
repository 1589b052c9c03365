"""``python manage.py rate_lists``: rate the closed lists again (docs/rating.md)."""

import datetime
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from skatliga.services import rating


class Command(BaseCommand):
    help = (
        "Rate the closed lists again: what is owed (after a change of the rating's parameters, "
        "or a replay too long for a request), every list (--all), or every list from a day "
        "on (--from YYYY-MM-DD)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="every list from the first")
        parser.add_argument("--from", dest="since", help="every list from this day (YYYY-MM-DD)")

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.perf_counter()
        if options["all"]:
            done: rating.Replay | None = rating.rate_everything()
        elif options["since"]:
            try:
                day = datetime.date.fromisoformat(options["since"])
            except ValueError:
                message = _("Kein Datum: %(value)s") % {"value": options["since"]}
                raise CommandError(message) from None
            done = rating.replay((day, 0, 0, 0), everyone=True, most=None)
        else:
            done = rating.rate_owed()
        if done is None:
            self.stdout.write(_("Die Wertungszahlen sind auf dem neuesten Stand."))
            return
        self.stdout.write(
            ngettext(
                "%(lists)d Liste bewertet, %(players)d Spieler, %(seconds).1f s",
                "%(lists)d Listen bewertet, %(players)d Spieler, %(seconds).1f s",
                done.lists,
            )
            % {
                "lists": done.lists,
                "players": len(done.players),
                "seconds": time.perf_counter() - began,
            }
        )

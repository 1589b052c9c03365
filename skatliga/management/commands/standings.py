"""``python manage.py standings SLUG [--series N] --format json|csv``."""

from __future__ import annotations

import csv
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from skatliga.export import spreadsheet_cell
from skatliga.models import ListResult, Tournament
from skatliga.standings.rankings import COMMAND


class Command(BaseCommand):
    help = "Print a tournament's standings, overall or for one series, as JSON or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("--series", type=int, help="one series' standings (its number)")
        parser.add_argument("--format", choices=("json", "csv"), default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(_("Kein Turnier mit dem Kürzel „%s“.") % options["slug"])
        results = ListResult.objects.for_tournament(tournament)
        if options["series"] is not None:
            series = tournament.series.filter(number=options["series"]).first()
            if series is None:
                raise CommandError(
                    _("Das Turnier hat keine Serie %(number)s.") % {"number": options["series"]}
                )
            results = results.for_series(series)
        rows = COMMAND.api(results.standings(lots_of=tournament))
        if options["format"] == "json":
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
        else:
            writer = csv.DictWriter(self.stdout, fieldnames=COMMAND.columns, lineterminator="\n")
            writer.writeheader()
            writer.writerows(
                {column: spreadsheet_cell(value) for column, value in row.items()} for row in rows
            )

"""``python manage.py check_results``: are the stored result rows what the games give?"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from skatliga.ops.consistency import inconsistent_tables


class Command(BaseCommand):
    help = (
        "Recompute every list's result rows from its games and compare them with the stored "
        "rows; exit status 1 names the lists that differ."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        wrong = [str(table) for table in inconsistent_tables()]
        if wrong:
            raise CommandError(
                _("%(count)d Listen stimmen nicht mit ihren Spielen überein: %(lists)s")
                % {"count": len(wrong), "lists": "; ".join(wrong)}
            )
        self.stdout.write(_("Alle Listen stimmen mit ihren Spielen überein."))

"""``manage.py add_referee NAME [--league] [--email ADDRESS]``: an account in the role
Turnierleiter (with ``--league`` Ligaleitung too). A new account's password is asked for
twice at a terminal, or read from the first line of standard input
(``printf '%s\\n' "$PASSWORD" | manage.py add_referee anna``); an existing account keeps its
password and joins the roles."""

import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

REFEREE, LEAGUE = "Turnierleiter", "Ligaleitung"


class Command(BaseCommand):
    help = "Add a referee (role Turnierleiter; with --league also Ligaleitung)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The login name.")
        parser.add_argument("--league", action="store_true", help="Also the role Ligaleitung.")
        parser.add_argument("--email", default="", help="For password reset by e-mail.")

    def handle(self, *args: Any, name: str, league: bool, email: str, **options: Any) -> None:
        users = get_user_model()
        user = users.objects.filter(username=name).first()
        created = user is None
        if user is None:
            user = users(username=name, email=email)
            password = self.password()
            try:
                password_validation.validate_password(password, user)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from error
            user.set_password(password)
        elif email:
            user.email = email
        roles = [REFEREE, LEAGUE] if league else [REFEREE]
        groups = list(Group.objects.filter(name__in=roles))
        if len(groups) != len(roles):
            raise CommandError(_("Die Rollen fehlen: erst manage.py migrate."))
        with transaction.atomic():
            user.save()
            user.groups.add(*groups)
        line = (
            _("Angelegt: %(name)s, %(roles)s.") if created else _("Ergänzt: %(name)s, %(roles)s.")
        )
        self.stdout.write(line % {"name": name, "roles": ", ".join(roles)})

    def password(self) -> str:
        if not sys.stdin.isatty():
            password = sys.stdin.readline().rstrip("\n")
            if not password:
                raise CommandError(_("Kein Passwort in der Standardeingabe."))
            return password
        password = getpass.getpass(_("Passwort: "))
        if password != getpass.getpass(_("Passwort (noch einmal): ")):
            raise CommandError(_("Die beiden Passwörter sind verschieden."))
        return password

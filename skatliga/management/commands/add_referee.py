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
            raise CommandError("The roles are missing: run manage.py migrate first.")
        with transaction.atomic():
            user.save()
            user.groups.add(*groups)
        action = "Added" if created else "Updated"
        self.stdout.write(f"{action} {name!r}: {', '.join(roles)}.")

    def password(self) -> str:
        if not sys.stdin.isatty():
            password = sys.stdin.readline().rstrip("\n")
            if not password:
                raise CommandError("No password on standard input.")
            return password
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The passwords differ.")
        return password

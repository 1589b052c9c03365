"""Referees' accounts: the roles Turnierleiter and Ligaleitung as groups made by a migration,
``manage.py add_referee``, changing one's password, and a reset by e-mail where the site can
send mail (``SKATLIGA_EMAIL_URL``)."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import Group, User
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "Kreuz-Bube-18"


def add_referee(monkeypatch, *args, password=PASSWORD):
    monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
    out = io.StringIO()
    call_command("add_referee", *args, stdout=out)
    return out.getvalue()


def test_add_referee_asks_for_the_password_in_german_at_a_terminal(monkeypatch):
    prompts: list[str] = []

    def getpass(prompt: str) -> str:
        prompts.append(prompt)
        return PASSWORD

    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", getpass)
    out = io.StringIO()
    call_command("add_referee", "greta", stdout=out)

    assert prompts == ["Passwort: ", "Passwort (noch einmal): "]
    assert out.getvalue() == "Angelegt: greta, Turnierleiter.\n"


def test_the_roles_are_groups_with_the_permissions_the_views_ask_for():
    referee = Group.objects.get(name="Turnierleiter")
    league = Group.objects.get(name="Ligaleitung")
    assert referee.permissions.filter(codename="add_tournament").exists()
    assert not referee.permissions.filter(codename="change_player").exists()
    assert league.permissions.filter(codename__in=["add_tournament", "change_player"]).count() == 2


def test_a_referee_added_by_the_command_may_create_tournaments(client, monkeypatch):
    assert "Turnierleiter" in add_referee(monkeypatch, "anna", "--email", "anna@example.org")
    user = User.objects.get(username="anna")
    assert user.check_password(PASSWORD) and user.email == "anna@example.org"
    assert not user.is_staff and not user.is_superuser
    client.force_login(user)
    assert client.get(reverse("referee:tournament-create")).status_code == 200
    assert client.get(reverse("league:home")).status_code == 403


def test_with_league_the_referee_manages_the_league_too(client, monkeypatch):
    add_referee(monkeypatch, "bert")
    out = add_referee(monkeypatch, "bert", "--league", password="")  # kept, not asked
    assert "Ligaleitung" in out
    user = User.objects.get(username="bert")
    assert user.check_password(PASSWORD)
    client.force_login(user)
    assert client.get(reverse("league:home")).status_code == 200


def test_a_weak_password_is_refused(monkeypatch):
    with pytest.raises(CommandError):
        add_referee(monkeypatch, "carl", password="1234")
    assert not User.objects.filter(username="carl").exists()


def test_a_referee_changes_his_password_on_a_page_of_the_site(client, monkeypatch):
    add_referee(monkeypatch, "dora")
    client.force_login(User.objects.get(username="dora"))
    page = client.get(reverse("password_change"))
    assert page.status_code == 200
    assert 'class="site-footer"' in page.content.decode()
    assert 'href="/password/"' in page.content.decode()  # the footer's link
    done = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "Pik-Dame-23x",
            "new_password2": "Pik-Dame-23x",
        },
        follow=True,
    )
    assert "Ihr Passwort wurde geändert." in done.content.decode()
    assert User.objects.get(username="dora").check_password("Pik-Dame-23x")


def test_without_email_a_forgotten_password_is_set_by_the_league(client, settings):
    settings.EMAIL_URL = ""
    page = client.get(reverse("password_reset"))
    assert "ein neues Passwort setzt die Ligaleitung" in page.content.decode()
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()


def test_with_email_a_forgotten_password_is_reset_by_a_link(client, settings, monkeypatch):
    settings.EMAIL_URL = "smtp://mail.example.org"
    add_referee(monkeypatch, "emil", "--email", "emil@example.org")
    sent = client.post(reverse("password_reset"), {"email": "emil@example.org"}, follow=True)
    assert "eine E-Mail mit einem Link unterwegs" in sent.content.decode()
    (message,) = mail.outbox
    link = re.search(r"http://testserver(/password/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    new = {"new_password1": "Herz-As-11-zz", "new_password2": "Herz-As-11-zz"}
    client.post(form.redirect_chain[-1][0], new, follow=True)
    assert User.objects.get(username="emil").check_password("Herz-As-11-zz")


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp+tls://anna%40club.de:g%3Aheim@mail.club.de",
            "mail.club.de 587 anna@club.de g:heim True False",
        ),
        ("smtps://mail.club.de:2465", "mail.club.de 2465   False True"),
    ],
)
def test_the_email_url_gives_the_mail_settings(run_manage, url, expected):
    code = (
        "from django.conf import settings as s; print(s.EMAIL_HOST, s.EMAIL_PORT, "
        "s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL)"
    )
    result = run_manage("shell", "-c", code, env={"SKATLIGA_EMAIL_URL": url})
    assert result.stdout.strip().splitlines()[-1] == expected, result.stderr


def test_a_bad_email_url_is_named_at_start(run_manage):
    result = run_manage("check", env={"SKATLIGA_EMAIL_URL": "mail.club.de"})
    assert result.returncode != 0 and "SKATLIGA_EMAIL_URL" in result.stderr

from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation

from skatliga.management.commands import ensure_demo_referee


@pytest.mark.django_db
def test_home_renders_in_german_by_default(client):
    response = client.get("/")

    assert response.status_code == 200
    assert response.context["LANGUAGE_CODE"] == "de"
    assert "Skatturniere und Ligen" in response.content.decode()


@pytest.mark.django_db
def test_home_renders_in_english_under_en_prefix(client):
    response = client.get("/en/")

    assert response.status_code == 200
    assert response.context["LANGUAGE_CODE"] == "en"
    assert "Skat tournaments and leagues" in response.content.decode()


def test_language_switch_redirects_to_the_same_page_in_the_chosen_language(client):
    with translation.override("de"):
        switch_on_german_page = reverse("set_language")
    with translation.override("en"):
        switch_on_english_page = reverse("set_language")

    to_english = client.post(switch_on_german_page, {"language": "en", "next": "/"})
    back_to_german = client.post(switch_on_english_page, {"language": "de", "next": "/en/"})

    assert (to_english.status_code, to_english.url) == (302, "/en/")
    assert (back_to_german.status_code, back_to_german.url) == (302, "/")


def test_login_page_renders(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert "registration/login.html" in [t.name for t in response.templates]
    assert set(response.context["form"].fields) == {"username", "password"}


def test_login_without_a_page_to_return_to_lands_on_the_dashboard(client, django_user_model):
    django_user_model.objects.create_user(username="anna", password="kreuz-bube-11")

    response = client.post(reverse("login"), {"username": "anna", "password": "kreuz-bube-11"})

    assert (response.status_code, response.url) == (302, reverse("referee:dashboard"))


def test_logout_is_a_post_that_ends_the_session(client, django_user_model):
    user = django_user_model.objects.create_user(username="anna", password="kreuz-bube-11")
    client.force_login(user)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_manage_py_check_passes(run_manage):
    result = run_manage("check", "--fail-level", "WARNING")

    assert result.returncode == 0, result.stderr


@pytest.fixture
def demo_database(settings, monkeypatch):
    """DEBUG on and a database the command takes for SQLite, whatever the test run uses."""
    settings.DEBUG = True
    monkeypatch.setattr(ensure_demo_referee, "connection", SimpleNamespace(vendor="sqlite"))


@pytest.mark.django_db
def test_ensure_demo_referee_makes_a_superuser_that_can_log_in(demo_database, django_user_model):
    call_command("ensure_demo_referee")
    call_command("ensure_demo_referee")

    user = django_user_model.objects.get(username="referee")
    assert user.is_superuser and user.is_staff
    assert user.check_password("skat")


@pytest.mark.django_db
def test_ensure_demo_referee_leaves_an_existing_referee_and_his_session_alone(
    demo_database, django_user_model, client
):
    call_command("ensure_demo_referee")
    user = django_user_model.objects.get(username="referee")
    user.set_password("kreuz-bube-11")
    user.save()
    client.force_login(user)

    call_command("ensure_demo_referee")

    assert django_user_model.objects.get(username="referee").check_password("kreuz-bube-11")
    assert client.get(reverse("referee:dashboard")).status_code == 200


def test_ensure_demo_referee_refuses_when_debug_is_off(demo_database, settings):
    settings.DEBUG = False

    with pytest.raises(CommandError):
        call_command("ensure_demo_referee")


def test_ensure_demo_referee_refuses_other_databases(demo_database, monkeypatch):
    monkeypatch.setattr(ensure_demo_referee, "connection", SimpleNamespace(vendor="postgresql"))

    with pytest.raises(CommandError):
        call_command("ensure_demo_referee")

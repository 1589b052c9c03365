"""The Django admin lists every model, with search, for operators."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_superuser("betrieb", password="x-y-z-123")
    client.force_login(user)
    return user


def test_every_model_is_in_the_admin_with_search():
    for model in apps.get_app_config("skatliga").get_models():
        assert admin.site.is_registered(model), model
        assert admin.site._registry[model].search_fields, model


@pytest.mark.parametrize("model", [m for m in apps.get_app_config("skatliga").get_models()])
def test_every_changelist_searches(client, operator, small_season, model):
    url = reverse(f"admin:skatliga_{model._meta.model_name}_changelist")
    response = client.get(url, {"q": "a1"})
    assert response.status_code == 200


def test_derived_rows_cannot_be_edited_by_hand(client, operator, small_season):
    assert client.get(reverse("admin:skatliga_game_add")).status_code == 403
    assert client.get(reverse("admin:skatliga_listresult_add")).status_code == 403

"""The roles as groups, with the permissions the views ask for:

- Turnierleiter: create tournaments (``views.referee.may_create_tournaments``); a referee
  writes to the tournaments he created or was named referee of.
- Ligaleitung: that, and the league's seasons, teams, clubs and players
  (``league.views.may_manage``).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Turnierleiter": ["add_tournament", "change_tournament", "view_tournament"],
    "Ligaleitung": [
        "add_tournament",
        "change_tournament",
        "view_tournament",
        *(
            f"{action}_{model}"
            for model in ("season", "team", "club", "player")
            for action in ("add", "change", "view")
        ),
    ],
}


def add_roles(apps, schema_editor):
    # Permissions are made after all migrations ran: make this app's now, for a new database.
    config = apps.get_app_config("skatliga")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _created = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="skatliga", codename__in=codenames)
        )


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("skatliga", "0023_tournament_start_address"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(add_roles, remove_roles)]

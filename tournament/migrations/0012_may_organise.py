"""The "may organise" permission and the Organisers group that holds it
(``permissions.may_organise``, docs/deploy.md "Who may organise").

Everyone who already owns a tournament or a series joins the group: they organised
before the setting existed, and an installation that turns on ``ORGANISERS=granted``
(the default of a server on the internet) keeps its organisers. The administrator adds
others in the admin pages (Users → the account → Groups), or removes them.
"""

from django.conf import settings
from django.db import migrations

GROUP = "Organisers"
CODENAME = "organise"
NAME = "May organise: create tournaments and series, keep the register of people"


def add_organisers(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Tournament = apps.get_model("tournament", "Tournament")
    Series = apps.get_model("tournament", "Series")
    # Django makes the permission after the migrations (post_migrate); the group needs it now.
    content_type, _ = ContentType.objects.get_or_create(app_label="tournament", model="tournament")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename=CODENAME, defaults={"name": NAME}
    )
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(permission)
    owners = set(Tournament.objects.exclude(owner=None).values_list("owner_id", flat=True))
    owners |= set(Series.objects.exclude(owner=None).values_list("owner_id", flat=True))
    for user in User.objects.filter(pk__in=owners):
        user.groups.add(group)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_people_and_series"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={
                "ordering": ["-date", "name"],
                "permissions": [("organise", NAME)],
            },
        ),
        # Undone, the group stays: it may hold accounts the administrator added since.
        migrations.RunPython(add_organisers, migrations.RunPython.noop),
    ]

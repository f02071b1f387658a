"""Invitations: one-time links by which an organiser brings a scorer
(``services.invitations``, docs/scorers.md, "How to invite a scorer"). Only each link's SHA-256 is
stored; the secret itself is shown once to the organiser and never kept.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0012_may_organise"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Invitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("username", models.CharField(max_length=150)),
                ("secret_hash", models.CharField(max_length=64, unique=True)),
                ("created", models.DateTimeField(default=django.utils.timezone.now)),
                ("expires", models.DateTimeField()),
                ("used_at", models.DateTimeField(blank=True, null=True)),
                ("withdrawn_at", models.DateTimeField(blank=True, null=True)),
                (
                    "account",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="tournament.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["created", "pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("expires__gt", models.F("created"))),
                        name="invitation_expires_later",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("used_at", None), ("withdrawn_at", None), _connector="OR"
                        ),
                        name="invitation_used_or_withdrawn",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("username", ""), _negated=True),
                        name="invitation_names_someone",
                    ),
                ],
            },
        ),
    ]

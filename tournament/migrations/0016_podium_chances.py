"""Podium chances (public.chances): one row a tournament holding the figures worked out
after its last public change, and the generation they were made for. Derived data."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0015_rule_sets'),
    ]

    operations = [
        migrations.CreateModel(
            name='PodiumChances',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('made_for', models.DateTimeField()),
                ('figures', models.JSONField(blank=True, default=dict)),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='podium_chances', to='tournament.tournament')),
            ],
        ),
    ]

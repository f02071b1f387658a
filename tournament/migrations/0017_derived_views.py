"""The derived state of a tournament (models.derived): its public and organiser's views
worked out once per change, the standings version that says when they are behind, the
podium chances keyed by what they were made from, the task claims and the format
advisor's kept answers. All of it derived: the old chances are dropped, worked out again
by the task worker (the views of existing tournaments by its first sweep)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def drop_old_chances(apps, schema_editor):
    apps.get_model("tournament", "PodiumChances").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0016_podium_chances'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_old_chances, migrations.RunPython.noop),
        migrations.CreateModel(
            name='TaskClaim',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=100, unique=True)),
                ('claimed_at', models.DateTimeField()),
            ],
        ),
        migrations.RemoveField(
            model_name='podiumchances',
            name='made_for',
        ),
        migrations.AddField(
            model_name='podiumchances',
            name='fingerprint',
            field=models.CharField(default='', max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='tournament',
            name='standings_version',
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.CreateModel(
            name='AdvisorAnswer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('question_key', models.CharField(max_length=64, unique=True)),
                ('question', models.JSONField()),
                ('answer', models.JSONField(blank=True, null=True)),
                ('failure', models.TextField(blank=True)),
                ('asked_at', models.DateTimeField()),
                ('answered_at', models.DateTimeField(blank=True, null=True)),
                ('asked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='DerivedView',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('public', 'public'), ('organiser', 'organiser')], max_length=10)),
                ('made_for', models.PositiveBigIntegerField()),
                ('fingerprint', models.CharField(max_length=64)),
                ('chances_key', models.CharField(blank=True, max_length=64)),
                ('made_at', models.DateTimeField()),
                ('standings', models.JSONField()),
                ('tables', models.JSONField()),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='derived_views', to='tournament.tournament')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('tournament', 'kind'), name='derived_view_once')],
            },
        ),
    ]

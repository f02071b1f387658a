"""Entry at the table: table codes, the phones that saved a sheet, idempotency keys and
the tournament's settings for it.

On SQLite, rebuilding the table of tables (to make its new code unique) breaks the
triggers of 0005, which name it: they are dropped first and made again after, both ways.
"""

import importlib

import django.db.models.deletion
import tournament.kernel.codes
from django.conf import settings
from django.db import migrations, models


def give_tables_codes(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    taken = set()
    for table in Table.objects.filter(code__isnull=True).only("pk"):
        code = tournament.kernel.codes.new_table_code()
        while code in taken:
            code = tournament.kernel.codes.new_table_code()
        taken.add(code)
        Table.objects.filter(pk=table.pk).update(code=code)


_TRIGGERS = importlib.import_module("tournament.migrations.0005_seat_round_matches_table")
_SQLITE_DROP = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP})
_SQLITE_MAKE = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP + _TRIGGERS.SQLITE})


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0009_open_door'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_SQLITE_DROP, _SQLITE_MAKE),
        migrations.CreateModel(
            name='TablePhone',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('token', models.CharField(max_length=64)),
                ('created', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['number'],
            },
        ),
        migrations.AddField(
            model_name='sheet',
            name='confirmed_by_phone',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='sheet',
            name='entered_by_phone',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='sheet',
            name='retyped',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='sheet',
            name='retyped_by_phone',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='sheetversion',
            name='key',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.AddField(
            model_name='sheetversion',
            name='phone',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        # Every existing table gets a code of its own: added empty, filled in one by one,
        # then made unique (a callable default is called once for all existing rows).
        migrations.AddField(
            model_name='table',
            name='code',
            field=models.CharField(max_length=8, null=True),
        ),
        migrations.RunPython(give_tables_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='table',
            name='code',
            field=models.CharField(default=tournament.kernel.codes.new_table_code, max_length=8, unique=True),
        ),
        migrations.AddField(
            model_name='tournament',
            name='table_confirm',
            field=models.BooleanField(default=False, help_text='A second phone at the same table can confirm a sheet typed at the table by re-typing it blind, without a scorer.'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='table_entry',
            field=models.BooleanField(default=True, help_text='Each printed score sheet carries a table code: a phone at the table opens it and types the sheet in; a scorer confirms it at the desk.'),
        ),
        migrations.AddConstraint(
            model_name='sheetversion',
            constraint=models.UniqueConstraint(condition=models.Q(('key', ''), _negated=True), fields=('sheet', 'key'), name='sheet_version_key_unique'),
        ),
        migrations.AddField(
            model_name='tablephone',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='phones', to='tournament.table'),
        ),
        migrations.AddConstraint(
            model_name='tablephone',
            constraint=models.UniqueConstraint(fields=('table', 'number'), name='table_phone_number_unique'),
        ),
        migrations.AddConstraint(
            model_name='tablephone',
            constraint=models.UniqueConstraint(fields=('table', 'token'), name='table_phone_token_unique'),
        ),
        migrations.RunPython(_SQLITE_MAKE, _SQLITE_DROP),
    ]

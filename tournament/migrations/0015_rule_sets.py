"""Rule sets (scoring.rulesets): a tournament's rule set and house rules, Caidis scoring,
each deal's lying-down order, and the seat sums an odd break-even and Caidis need; seats
up to 8 (the largest table any rule set seats).

On SQLite, changing the seats' constraints rebuilds the table of seats, which breaks the
triggers of 0005: they are dropped first and made again after, both ways (as in 0014).
"""

import importlib

from django.conf import settings
from django.db import migrations, models

_TRIGGERS = importlib.import_module("tournament.migrations.0005_seat_round_matches_table")
_SQLITE_DROP = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP})
_SQLITE_MAKE = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP + _TRIGGERS.SQLITE})


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0014_leaves_and_adjustments'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_SQLITE_DROP, _SQLITE_MAKE),
        migrations.RemoveConstraint(
            model_name='deal',
            name='deal_last_in_is_a_seat',
        ),
        migrations.RemoveConstraint(
            model_name='dealresult',
            name='result_seat_in_range',
        ),
        migrations.RemoveConstraint(
            model_name='seat',
            name='seat_position_in_range',
        ),
        migrations.RemoveConstraint(
            model_name='tournament',
            name='tournament_known_scoring',
        ),
        migrations.AddField(
            model_name='deal',
            name='laid_down',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_payments',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_rounding',
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name='tournament',
            name='house_rules',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='tournament',
            name='rule_set',
            field=models.CharField(choices=[('standard', "Willughby and Parlett's table (3 to 6)"), ('willughby-four-thirteen', "Willughby's four-handed larger pot"), ('du-coeur', "Justin du Coeur's larger tables (3 to 8)"), ('du-coeur-low-stakes', "Justin du Coeur's larger tables, low stakes at eight"), ('house', 'House rules (the numbers below)')], default='standard', max_length=30),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='scoring',
            field=models.CharField(choices=[('winner-advantage', 'Winner-advantage (1 point per pair)'), ('classic-stakes', 'Classic stakes (net units)'), ('caidis', 'Compendium Caidis (stakes paid on lying down)')], default='winner-advantage', max_length=20),
        ),
        migrations.AddConstraint(
            model_name='deal',
            constraint=models.CheckConstraint(condition=models.Q(('last_in__gte', 1), ('last_in__lte', 8)), name='deal_last_in_is_a_seat'),
        ),
        migrations.AddConstraint(
            model_name='dealresult',
            constraint=models.CheckConstraint(condition=models.Q(('seat__gte', 1), ('seat__lte', 8)), name='result_seat_in_range'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__gte', 1), ('position__lte', 8)), name='seat_position_in_range'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('scoring__in', ['winner-advantage', 'classic-stakes', 'caidis'])), name='tournament_known_scoring'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('rule_set__in', ['standard', 'willughby-four-thirteen', 'du-coeur', 'du-coeur-low-stakes', 'house'])), name='tournament_known_rule_set'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('rule_set', 'house'), _negated=True), ('house_rules__isnull', False), _connector='OR'), name='tournament_house_rules_have_numbers'),
        ),
        migrations.RunPython(_SQLITE_MAKE, _SQLITE_DROP),
    ]

"""A player who leaves mid-round, and penalties or awards.

- ``Table.left`` / ``Sheet.pending_left`` / ``SheetVersion.left``: the seats that left a
  table after a deal (confirmed, being typed, and in each version of the history).
- ``Seat.sum_stakes`` / ``sum_prizes`` / ``sum_break_even``: the classic-stakes sums at
  the size each deal was dealt at; existing seats played every deal at their table's size,
  so they are filled in from the sums they already have.
- ``Adjustment``: a penalty or award for a player in a round.
- ``Player.door_tapped_at``: when the player's name was last tapped at the door, so
  that the door's Undo does not depend on a shared cache.

On SQLite, adding columns rebuilds the tables of tables and seats, which breaks the
triggers of 0005: they are dropped first and made again after, both ways.
"""

import importlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from scoring.rulesets import STANDARD

TABLE_PARAMS = {table.players: table for table in STANDARD.tables}


def fill_classic_sums(apps, schema_editor):
    Seat = apps.get_model("tournament", "Seat")
    sizes = {}
    for table_id in Seat.objects.values_list("table_id", flat=True):
        sizes[table_id] = sizes.get(table_id, 0) + 1
    changed = []
    for seat in Seat.objects.filter(sum_deals__gt=0):
        params = TABLE_PARAMS[sizes[seat.table_id]]
        seat.sum_stakes = (
            seat.sum_dealt * params.dealer_stake
            + (seat.sum_deals - seat.sum_dealt) * params.other_stake
        )
        seat.sum_prizes = seat.sum_last_in * params.last_in_prize
        seat.sum_break_even = seat.sum_deals * params.break_even
        changed.append(seat)
    Seat.objects.bulk_update(
        changed, ["sum_stakes", "sum_prizes", "sum_break_even"], batch_size=500
    )


_TRIGGERS = importlib.import_module("tournament.migrations.0005_seat_round_matches_table")
_SQLITE_DROP = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP})
_SQLITE_MAKE = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP + _TRIGGERS.SQLITE})


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_invitations"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_SQLITE_DROP, _SQLITE_MAKE),
        migrations.AddField(
            model_name="seat",
            name="sum_break_even",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="sum_prizes",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="sum_stakes",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="sheet",
            name="pending_left",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="sheetversion",
            name="left",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="table",
            name="left",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.CreateModel(
            name="Adjustment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("points", models.IntegerField()),
                ("reason", models.CharField(max_length=120)),
                ("created", models.DateTimeField(default=django.utils.timezone.now)),
                ("removed_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="adjustments",
                        to="tournament.player",
                    ),
                ),
                (
                    "removed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="adjustments",
                        to="tournament.round",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="adjustments",
                        to="tournament.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["round__number", "created", "pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("points", 0), _negated=True), name="adjustment_not_zero"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("points__gte", -1000), ("points__lte", 1000)),
                        name="adjustment_in_range",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="adjustment_has_reason",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="player",
            name="door_tapped_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_classic_sums, migrations.RunPython.noop),
        migrations.RunPython(_SQLITE_MAKE, _SQLITE_DROP),
    ]

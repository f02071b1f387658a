"""Each seat keeps its sums over its table's deals; existing deals fill them in.

On SQLite, adding a column with a default rebuilds the table, which drops the triggers
of 0005 (a seat's round is its table's round): they are made again after the rebuild,
both ways.
"""

import importlib
from dataclasses import astuple

from django.db import migrations, models

from scoring.rules import DealFacts
from scoring.systems import table_sums

SUM_FIELDS = (
    "sum_deals",
    "sum_won",
    "sum_last_in",
    "sum_last_in_left_over",
    "sum_dealt",
    "sum_dealt_left_over",
)


def fill_seat_sums(apps, schema_editor):
    """Each seat's sums over the deals its table already has."""
    Seat = apps.get_model("tournament", "Seat")
    Deal = apps.get_model("tournament", "Deal")
    DealResult = apps.get_model("tournament", "DealResult")
    won = {}
    for deal_id, seat, cards in DealResult.objects.order_by("deal_id", "seat").values_list(
        "deal_id", "seat", "won"
    ):
        won.setdefault(deal_id, []).append(cards)
    deals = {}
    for deal_id, table_id, last_in, left_over in Deal.objects.order_by(
        "table_id", "number"
    ).values_list("pk", "table_id", "last_in", "left_over"):
        deals.setdefault(table_id, []).append(
            DealFacts(tuple(won.get(deal_id, ())), last_in, left_over)
        )
    seats = {}
    for seat in Seat.objects.filter(table_id__in=deals).order_by("table_id", "position"):
        seats.setdefault(seat.table_id, []).append(seat)
    changed = []
    for table_id, table_seats in seats.items():
        for seat, sums in zip(table_seats, table_sums(deals[table_id], len(table_seats))):
            for name, value in zip(SUM_FIELDS, astuple(sums)):
                setattr(seat, name, value)
            changed.append(seat)
    Seat.objects.bulk_update(changed, SUM_FIELDS, batch_size=500)


_TRIGGERS = importlib.import_module("tournament.migrations.0005_seat_round_matches_table")
_SQLITE_TRIGGERS_AGAIN = _TRIGGERS._run({"sqlite": _TRIGGERS.SQLITE_DROP + _TRIGGERS.SQLITE})


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0005_seat_round_matches_table'),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, _SQLITE_TRIGGERS_AGAIN),
        migrations.AddField(
            model_name='seat',
            name='sum_deals',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_dealt',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_dealt_left_over',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_last_in',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_last_in_left_over',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='sum_won',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(fill_seat_sums, migrations.RunPython.noop),
        migrations.RunPython(_SQLITE_TRIGGERS_AGAIN, migrations.RunPython.noop),
    ]

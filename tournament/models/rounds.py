"""Rounds and their seating: tables, the seats at them, and the players sitting out.

Each seat keeps its sums over its table's confirmed deals (cards won, deals last in and
dealt, with their left-over cards), written in the same transaction as the deals: they
hold no scores, so re-scoring still works.
"""

from dataclasses import astuple

from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property

from scoring.rules import MAX_TABLE_SIZE
from scoring.systems import SeatSums
from tournament.kernel.codes import CODE_LENGTH, new_table_code
from tournament.kernel.tracked import Tracked
from tournament.models.players import Player
from tournament.models.tournaments import Tournament


class Round(Tracked):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    # Until a round is started its seating may be regenerated and swapped freely.
    started = models.BooleanField(default=False)
    # Its confirmed results count on public pages only once the organiser releases it.
    released = models.BooleanField(default=False)
    seed = models.IntegerField(default=0)
    # The round clock: running, it ends at ``clock_ends``; paused, ``clock_left`` seconds
    # remain; never started, both are empty (rounds.clock).
    clock_ends = models.DateTimeField(null=True, blank=True)
    clock_left = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(clock_ends__isnull=True) | Q(clock_left__isnull=True),
                name="round_clock_running_or_paused",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Table(Tracked):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The table code printed on its score sheet (tournament.kernel.codes), which opens the
    # table's entry page on a phone without an account; renewed by the organiser.
    code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_table_code)
    # The confirmed sheet's leaves, like its ``Deal`` rows: [{"seat": 3, "after_deal": 7}]
    # (scoring.rules.Leave).
    left = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    @cached_property
    def size(self) -> int:
        return self.seats.count()


class Seat(models.Model):
    """Seat 1 deals the first deal of a round; the deal passes to seat 2, and so on."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Repeats table.round so that the database itself can refuse a player seated twice
    # in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # This seat's sums over its table's confirmed deals (scoring.systems.SeatSums),
    # written with the deals themselves, so that standings read one row per seat rather
    # than adding up every deal.
    sum_deals = models.PositiveIntegerField(default=0)
    sum_won = models.PositiveIntegerField(default=0)
    sum_last_in = models.PositiveIntegerField(default=0)
    sum_last_in_left_over = models.PositiveIntegerField(default=0)
    sum_dealt = models.PositiveIntegerField(default=0)
    sum_dealt_left_over = models.PositiveIntegerField(default=0)
    sum_stakes = models.PositiveIntegerField(default=0)
    sum_prizes = models.PositiveIntegerField(default=0)
    sum_break_even = models.PositiveIntegerField(default=0)
    # An odd break-even's half units and Caidis's payments, summed deal by deal.
    sum_rounding = models.IntegerField(default=0)
    sum_payments = models.IntegerField(default=0)

    SUM_FIELDS = (
        "sum_deals",
        "sum_won",
        "sum_last_in",
        "sum_last_in_left_over",
        "sum_dealt",
        "sum_dealt_left_over",
        "sum_stakes",
        "sum_prizes",
        "sum_break_even",
        "sum_rounding",
        "sum_payments",
    )

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=MAX_TABLE_SIZE),
                name="seat_position_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.position}"

    @property
    def sums(self) -> SeatSums:
        return SeatSums(*(getattr(self, name) for name in self.SUM_FIELDS))

    @staticmethod
    def sum_values(sums: SeatSums) -> dict[str, int]:
        """The sum fields' values for ``sums``."""
        return dict(zip(Seat.SUM_FIELDS, astuple(sums), strict=True))


class Bye(models.Model):
    """A player sitting out a round under the byes table policy."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="bye_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.round}"

"""What the score sheets record: the confirmed deals, and each sheet's way to them.

A table's ``Deal`` rows hold the facts of its latest confirmed sheet, never derived
scores; the ``Sheet`` holds what is being typed or awaits confirmation, its
``SheetVersion`` rows every saved state, and ``TablePhone`` the phones that typed it.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact

from scoring.rules import MAX_TABLE_SIZE
from tournament.models.rounds import Table


def _is_even(field: str) -> Exact:
    return Exact(Mod(field, 2), 0)


class Deal(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    last_in = models.PositiveSmallIntegerField()
    left_over = models.PositiveSmallIntegerField()
    # The seats in the order they lay down, first out first (scoring.rules.DealFacts),
    # where the sheet records it (Caidis scoring); empty elsewhere.
    laid_down = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="deal_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(
                condition=Q(last_in__gte=1, last_in__lte=MAX_TABLE_SIZE),
                name="deal_last_in_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(left_over__gte=2) & Q(_is_even("left_over")),
                name="deal_left_over_even_at_least_two",
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number}"


class DealResult(models.Model):
    """The cards one seat won in one deal."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    won = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seat"], name="result_one_per_seat"),
            models.CheckConstraint(
                condition=Q(seat__gte=1, seat__lte=MAX_TABLE_SIZE), name="result_seat_in_range"
            ),
            models.CheckConstraint(
                condition=Q(won__gte=0) & Q(_is_even("won")), name="result_won_even"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat}: {self.won} cards won"


class TablePhone(models.Model):
    """A phone that saved something of a table's sheet through its table code: "phone 2"
    of that table in the sheet's history. ``token`` is the random key the phone keeps in
    its session; ``number`` counts the table's phones in the order they first saved."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="phones")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="table_phone_number_unique"),
            models.UniqueConstraint(fields=["table", "token"], name="table_phone_token_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table}, phone {self.number}"


class SheetStatus(models.TextChoices):
    NOT_STARTED = "not_started", "Not started"
    DRAFT = "draft", "Entering"
    ENTERED = "entered", "Awaiting confirmation"
    CONFIRMED = "confirmed", "Confirmed"


class Sheet(models.Model):
    """The score sheet of one table in one round, as it moves from typing to confirmed.

    The ``Deal`` rows of a table always hold its latest *confirmed* facts: what public
    standings and tournament files use. What is being typed or awaits confirmation lives
    in ``pending`` (rows as typed: ``{"won": [...], "last_in": ..., "left_over": ...}``)
    until it is confirmed. ``version`` grows with every save, so that a save made from an
    older copy of the sheet is noticed instead of overwriting someone else's work.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet")
    status = models.CharField(
        max_length=12, choices=SheetStatus.choices, default=SheetStatus.NOT_STARTED
    )
    version = models.PositiveIntegerField(default=0)
    pending = models.JSONField(default=list, blank=True)
    # The leaves of the rows in ``pending``: [{"seat": 3, "after_deal": 7}]; the confirmed
    # ones are ``Table.left``.
    pending_left = models.JSONField(default=list, blank=True)
    # Marked complete with fewer deals than a round has (the table stopped early).
    stopped_early = models.BooleanField(default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Typed at the table (``TablePhone.number``) rather than by a user: "table 4, phone 1".
    entered_by_phone = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_by_phone = models.PositiveSmallIntegerField(null=True, blank=True)
    # A second phone's blind re-type that did not match the entered sheet: shown to both
    # phones to settle from the paper, until the sheet is saved or confirmed.
    retyped = models.JSONField(default=list, blank=True)
    retyped_by_phone = models.PositiveSmallIntegerField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Sheet of {self.table} ({self.get_status_display()})"


class SheetVersion(models.Model):
    """One saved state of a sheet, kept forever: who did what, when, and what changed."""

    sheet = models.ForeignKey(Sheet, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=20)
    status = models.CharField(max_length=12, choices=SheetStatus.choices)
    deals = models.JSONField(default=list)
    # Cells that differ from the previous version: [{"deal": 3, "field": "won", "seat": 2,
    # "before": 4, "after": 6}, ...]
    changes = models.JSONField(default=list)
    # The leaves this version records: [{"seat": 3, "after_deal": 7}].
    left = models.JSONField(default=list, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Saved at the table, by this phone of it (``TablePhone.number``), not by a user.
    phone = models.PositiveSmallIntegerField(null=True, blank=True)
    # The idempotency key the saving page sent: a retried submission carrying it again
    # is recognised and recorded once. Blank when the page sent none.
    key = models.CharField(max_length=64, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "number"], name="sheet_version_unique"),
            models.UniqueConstraint(
                fields=["sheet", "key"], condition=~Q(key=""), name="sheet_version_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"Version {self.number} of {self.sheet}"

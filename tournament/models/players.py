"""A tournament's players, the pairs kept apart, and its door check-in while open."""

from django.db import models
from django.db.models import Q

from tournament.kernel import limits
from tournament.kernel.tracked import Tracked
from tournament.models.people import Person
from tournament.models.tournaments import Tournament


class Player(Tracked):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    # The player's id in tournament files ("p1"); stable across export and import.
    ref = models.CharField(max_length=limits.PLAYER_ID_MAX)
    name = models.CharField(max_length=limits.NAME_MAX)
    club = models.CharField(max_length=limits.CLUB_MAX, blank=True)
    # False once the player has dropped out: later rounds do not seat them.
    active = models.BooleanField(default=True)
    checked_in = models.BooleanField(default=False)
    # When the player's name was last tapped at the door (door.services): an Undo on any
    # tablet, in any worker, keeps a player whose name was tapped again since.
    door_tapped_at = models.DateTimeField(null=True, blank=True)
    # Accessibility: the player always sits at this table number.
    fixed_table = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=limits.FIXED_TABLE.validators()
    )
    # Who the player is across tournaments; a person plays at most once in a tournament.
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "ref"], name="player_ref_unique"),
            models.UniqueConstraint(
                fields=["tournament", "person"], name="player_person_once_a_tournament"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class KeepApart(models.Model):
    """Two players never seated at the same table (family, partners)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="keep_apart_unique"),
            models.CheckConstraint(
                condition=~Q(first=models.F("second")), name="keep_apart_two_players"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class OpenDoor(models.Model):
    """A tournament's door check-in while it is open (``door.services``): the random part
    of its address, who opened it and when it closes by itself. Closing the door deletes
    the row; opening it again replaces the random part, so an old address stops working."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="+")
    nonce = models.CharField(max_length=64)
    opened_by = models.CharField(max_length=150, blank=True)
    opened_at = models.DateTimeField()
    closes_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Door of {self.tournament_id}"

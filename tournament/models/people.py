"""The register of people kept across tournaments, to whom players are linked."""

from typing import Any

from django.db import models
from django.db.models import Q

from tournament.kernel import limits, names


class Person(models.Model):
    """Somebody kept across tournaments (a guild's or league's member), to whom the
    players of many tournaments may be linked (``Player.person``); the series and careers
    (``series.services``) count their linked players' public results."""

    name = models.CharField(max_length=limits.NAME_MAX)
    club = models.CharField(max_length=limits.CLUB_MAX, blank=True)
    # The guild's own number ("M0123"), unique on the installation; blank when none.
    member = models.CharField(max_length=limits.MEMBER_MAX, blank=True)
    # ``names.key`` of the name and the club, kept for matching players to people.
    name_key = models.CharField(max_length=limits.NAME_MAX, editable=False, db_index=True)
    club_key = models.CharField(max_length=limits.CLUB_MAX, editable=False, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Moves at every save, so that what shows the person (series pages) knows to redo it.
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name_key", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["member"], condition=~Q(member=""), name="person_member_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = names.key(self.name)
        self.club_key = names.key(self.club)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "name_key", "club_key"}
        super().save(*args, **kwargs)

    @property
    def identifier(self) -> str:
        """How exports name the person: the member number, or a stable id without one."""
        return self.member or f"{PERSON_ID_PREFIX}{self.pk}"


# The stable id of a person without a member number ("person-17"); member numbers may
# not start with it.
PERSON_ID_PREFIX = "person-"

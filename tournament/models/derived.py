"""What is worked out from the facts, stored so that every surface reads the same thing.

Terms:

- *standings version* (``Tournament.standings_version``): a counter moved, in the
  transaction of the change, by every change to what the standings are made of (a sheet
  confirmed, a round started, released or withheld, a penalty, a player who left or was
  renamed, the tournament's rules). ``shared.public_changes`` decides what moves it.
- *view* (``DerivedView``): one tournament's standings as one audience sees them, worked
  out once per standings version and read by every page, file and command:
  the **public** view counts the released rounds (what anonymous visitors see), the
  **organiser's** every started round. Each holds the rows (rank or no result yet,
  points with penalties and awards, each round's total, the tiebreak figures and what
  decided each place), the tables without a result, and each round's tables.
- *fingerprint*: a digest of what a view was made from; a new version with the same
  fingerprint (a change that did not reach the standings) is not worked out again.
- *chances key*: a digest of what the podium chances of the public view would be made
  from (the view's fingerprint, the next round's seating, who plays on, the rules, the
  ratings used, the method's version); the stored chances (``PodiumChances``) are shown
  only while their key is the view's.

- *installation generation* (``InstallationGeneration``): when anything shown publicly
  beyond one tournament last changed (the list of tournaments, a series, a person's
  career); the read API's lists, series and careers are cached under it. One row,
  moved after the commit of such a change (``shared.public_changes``).

None of it is a fact: a backup leaves it out and a restore works it out again.
"""

from django.conf import settings
from django.db import models

from tournament.models.tournaments import Tournament

DIGEST_LENGTH = 64


class DerivedView(models.Model):
    class Kind(models.TextChoices):
        PUBLIC = "public", "public"
        ORGANISER = "organiser", "organiser"

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="derived_views"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The standings version the view was worked out for.
    made_for = models.PositiveBigIntegerField()
    fingerprint = models.CharField(max_length=DIGEST_LENGTH)
    # The public view's chances key; empty where no chances apply (and for the organiser).
    chances_key = models.CharField(max_length=DIGEST_LENGTH, blank=True)
    made_at = models.DateTimeField()
    # The rows and what they need (``shared.derived``), and each round's tables apart:
    # a round's page reads only those.
    standings = models.JSONField()
    tables = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind"], name="derived_view_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} view of {self.tournament_id} at {self.made_for}"


class TaskClaim(models.Model):
    """A task running for ``key`` ("chances:12"): one at a time per key, on every
    database (a unique key, which SQLite honours as PostgreSQL does). A claim older than
    ``shared.tasks.DEAD_AFTER`` belongs to a worker that died and is taken over."""

    key = models.CharField(max_length=100, unique=True)
    claimed_at = models.DateTimeField()

    def __str__(self) -> str:
        return self.key


class AdvisorAnswer(models.Model):
    """The format advisor's answer to one question (players, minutes, rules…), asked
    once and kept: the same question is answered from here, never worked out twice."""

    # A digest of the question's canonical form.
    question_key = models.CharField(max_length=DIGEST_LENGTH, unique=True)
    question = models.JSONField()
    # None while the task works it out.
    answer = models.JSONField(null=True, blank=True)
    # Why it could not be answered, in words; empty otherwise.
    failure = models.TextField(blank=True)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    asked_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"advisor answer {self.question_key[:8]}"


class InstallationGeneration(models.Model):
    """The one row whose ``changed`` moves whenever anything public across tournaments
    may have changed: a key of cached data, never a fact. A time, not a count, so that a
    database restored or made afresh never meets the keys of data cached before."""

    changed = models.DateTimeField()

    def __str__(self) -> str:
        return f"installation generation {self.changed.isoformat()}"

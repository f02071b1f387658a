"""A tournament and its settings: how it scores, seats, checks sheets and shows itself.

Scores are never stored: they are computed from the facts of the score sheets
(``scoring``), so a tournament can be re-scored under the other system at any time.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from scoring.errors import UserError
from scoring.rulesets import HOUSE, RULE_SETS, STANDARD, RuleSet, house_rules, sizes_text
from scoring.systems import ScoringSystem, allowed_sizes
from scoring.tiebreaks import DEFAULT_TIEBREAKS
from tournament.kernel import limits
from tournament.kernel.tracked import Tracked

SCORING_CHOICES = [(system.value, system.label) for system in ScoringSystem]
RULE_SET_CHOICES = [(key, rule_set.name) for key, rule_set in RULE_SETS.items()] + [
    (HOUSE, "House rules (the numbers below)")
]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class TablePolicy(models.TextChoices):
    MIXED = "mixed", "Mixed tables (5s, with 4s or 6s absorbing the remainder)"
    BYES = "byes", "Tables of five; the remainder sits out (byes rotate)"


class ByeScore(models.TextChoices):
    ZERO = "zero", "0 points"
    AVERAGE = "average", "The average of a round (26 × rotations under winner-advantage)"


def default_table_sizes() -> list[int]:
    return [4, 5, 6]


class Tournament(Tracked):
    # Moved in the database by ``shared.public_changes``: a form's save of the whole row
    # never sets them back.
    kept_by_database = ("public_changed", "standings_version")

    name = models.CharField(max_length=limits.NAME_MAX)
    slug = models.SlugField(
        max_length=limits.SLUG_MAX, unique=True, validators=limits.slug_validators()
    )
    date = models.DateField(null=True, blank=True)
    scoring = models.CharField(
        max_length=20, choices=SCORING_CHOICES, default=ScoringSystem.WINNER_ADVANTAGE.value
    )
    # The table of deals and stakes (scoring.rulesets): a preset's key, or "house" with
    # the organiser's numbers in house_rules (RuleSet.as_data's shape).
    rule_set = models.CharField(max_length=30, choices=RULE_SET_CHOICES, default=STANDARD.key)
    house_rules = models.JSONField(null=True, blank=True)
    rotations_per_round = models.PositiveSmallIntegerField(
        default=1, validators=limits.ROTATIONS.validators()
    )
    # The tiebreak keys applied after points, in order (see scoring.standings).
    tiebreaks = models.JSONField(default=default_tiebreaks)
    venue = models.CharField(max_length=limits.VENUE_MAX, blank=True)
    planned_rounds = models.PositiveSmallIntegerField(
        default=4, validators=limits.PLANNED_ROUNDS.validators()
    )
    table_policy = models.CharField(
        max_length=10, choices=TablePolicy.choices, default=TablePolicy.MIXED
    )
    # Allowed table sizes under the mixed policy (3 is used only when nothing else works).
    table_sizes = models.JSONField(default=default_table_sizes)
    bye_score = models.CharField(max_length=10, choices=ByeScore.choices, default=ByeScore.ZERO)
    # Players of one club are kept apart in rounds 1..keep_clubs_apart_rounds.
    keep_clubs_apart_rounds = models.PositiveSmallIntegerField(
        default=0, validators=limits.KEEP_CLUBS_APART_ROUNDS.validators()
    )
    two_person_check = models.BooleanField(
        default=True,
        help_text="A sheet entered by one scorer counts publicly only once another confirms it.",
    )
    # The seating engine's plan for the rounds still to come, and the roster and history
    # it was made for (re-planned when either changes); see rounds.seating.
    seating_plan = models.JSONField(null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organised_tournaments",
    )
    scorers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="scored_tournaments"
    )
    published = models.BooleanField(default=False)
    # The last rounds whose results stay hidden until the organiser reveals the final
    # results (keeps the suspense of the last rounds).
    hold_back_rounds = models.PositiveSmallIntegerField(
        default=0, validators=limits.HOLD_BACK_ROUNDS.validators()
    )
    # A started round's seating (tables, seats, who deals first) is public before its
    # results are released, so players can find their table.
    seating_public = models.BooleanField(
        default=True,
        help_text="Players find their table on the public pages as soon as a round starts.",
    )
    # The round clock's length, set going by the organiser when play starts.
    round_minutes = models.PositiveSmallIntegerField(
        default=45, validators=limits.ROUND_MINUTES.validators()
    )
    # Players type their table's sheet on a phone, opened by the table code printed on
    # the sheet (sheets.at_table); a scorer or a second phone then confirms it.
    table_entry = models.BooleanField(
        default=True,
        help_text="Each printed score sheet carries a table code: a phone at the table "
        "opens it and types the sheet in; a scorer confirms it at the desk.",
    )
    # A second phone at the table may confirm a sheet entered at the table by re-typing
    # it blind (the opponents confirm at the table, as in bridge).
    table_confirm = models.BooleanField(
        default=False,
        help_text="A second phone at the same table can confirm a sheet typed at the "
        "table by re-typing it blind, without a scorer.",
    )
    # Marked by the organiser; until then (or until the last planned round is released)
    # the public pages call the standings provisional.
    finished = models.BooleanField(default=False)
    # When anything shown on the public pages last changed; part of their cache keys.
    public_changed = models.DateTimeField(default=timezone.now)
    # Moved by every change to what the standings are made of (models.derived).
    standings_version = models.PositiveBigIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    # A rehearsal is a private copy of another tournament, seated at round 1, that its
    # organiser plays through with simulated deals (``rehearsals``): never published,
    # never in a series, its public pages opened only with ``rehearsal_token`` (the
    # private link). Still a rehearsal when the tournament it copied is gone.
    rehearsal_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rehearsals"
    )
    rehearsal_token = models.CharField(max_length=64, blank=True)
    # What a task is doing to the rehearsal ("copying", "playing round 2"); empty when
    # nothing is: its pages say it is being worked out meanwhile.
    rehearsal_work = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["-date", "name"]
        # "May organise" (``permissions.may_organise``), given to the Organisers group.
        permissions = [
            (
                "organise",
                "May organise: create tournaments and series, keep the register of people",
            )
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(rotations_per_round__gte=1), name="tournament_rotations_at_least_one"
            ),
            models.CheckConstraint(
                condition=Q(scoring__in=[s.value for s in ScoringSystem]),
                name="tournament_known_scoring",
            ),
            models.CheckConstraint(
                condition=Q(rule_set__in=[key for key, _ in RULE_SET_CHOICES]),
                name="tournament_known_rule_set",
            ),
            models.CheckConstraint(
                condition=~Q(rule_set=HOUSE) | Q(house_rules__isnull=False),
                name="tournament_house_rules_have_numbers",
            ),
            # A rehearsal has its private link and is never published; nothing else has one.
            models.CheckConstraint(
                condition=Q(rehearsal_of__isnull=True, rehearsal_token="", rehearsal_work="")
                | (Q(published=False) & ~Q(rehearsal_token="")),
                name="tournament_rehearsal_private",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("standings", args=[self.slug])

    @property
    def is_rehearsal(self) -> bool:
        return bool(self.rehearsal_token)

    @property
    def scoring_system(self) -> ScoringSystem:
        return ScoringSystem(self.scoring)

    @property
    def rules(self) -> RuleSet:
        """The rule set the tournament plays under (its preset, or its house rules)."""
        if self.rule_set == HOUSE:
            try:
                return house_rules(self.house_rules or {})
            except UserError:
                # Saved only once checked (tournaments.forms, the tournament file).
                raise AssertionError(f"{self.slug}: house rules saved unchecked") from None
        return RULE_SETS[self.rule_set]

    @property
    def sizes_allowed(self) -> tuple[int, ...]:
        """The table sizes the rule set and the scoring system allow."""
        return allowed_sizes(self.scoring_system, self.rules)

    @property
    def table_policy_words(self) -> str:
        """The table policy said from the sizes really seated: "Mixed tables (5s, with 4s,
        6s, 7s or 8s absorbing the remainder)" for du Coeur's tables up to eight, "Mixed
        tables of 7 and 8" without fives; the byes policy as its choice says."""
        if self.table_policy != TablePolicy.MIXED:
            return str(self.get_table_policy_display())
        allowed = self.sizes_allowed
        sizes = sorted(size for size in self.table_sizes if size in allowed)
        if not sizes:
            return str(self.get_table_policy_display())
        if 5 not in sizes:
            return f"Mixed tables of {sizes_text(sizes)}"
        others = [f"{size}s" for size in sizes if size != 5]
        if not others:
            return "Tables of five"
        told = others[0] if len(others) == 1 else ", ".join(others[:-1]) + f" or {others[-1]}"
        return f"Mixed tables (5s, with {told} absorbing the remainder)"

"""What a tournament records: the facts from the score sheets, never derived scores.

Scores are computed from these facts (``scoring``), so a tournament can be re-scored
under the other system at any time. Each seat also keeps its sums over its table's
deals (cards won, deals last in and dealt, with their left-over cards), written in the
same transaction as the deals: they hold no scores either, so re-scoring still works.

Every table of the app is here, where Django looks for them; the module is over 400 lines
because each model keeps the constraints that guard its facts beside its fields.
"""

from dataclasses import astuple
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from scoring.rules import MAX_TABLE_SIZE
from scoring.systems import ScoringSystem, SeatSums
from scoring.tiebreaks import DEFAULT_TIEBREAKS
from tournament.kernel import limits, names
from tournament.kernel.codes import CODE_LENGTH, new_table_code

SCORING_CHOICES = [(system.value, system.label) for system in ScoringSystem]


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


def _is_even(field: str) -> Exact:
    return Exact(Mod(field, 2), 0)


class Tournament(models.Model):
    name = models.CharField(max_length=limits.NAME_MAX)
    slug = models.SlugField(
        max_length=limits.SLUG_MAX, unique=True, validators=limits.slug_validators()
    )
    date = models.DateField(null=True, blank=True)
    scoring = models.CharField(
        max_length=20, choices=SCORING_CHOICES, default=ScoringSystem.WINNER_ADVANTAGE.value
    )
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
    # it was made for (re-planned when either changes); see services.seating.
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
    # the sheet (services.table_entry); a scorer or a second phone then confirms it.
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
    created = models.DateTimeField(auto_now_add=True)

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
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("standings", args=[self.slug])

    @property
    def scoring_system(self) -> ScoringSystem:
        return ScoringSystem(self.scoring)


class Person(models.Model):
    """Somebody kept across tournaments (a guild's or league's member), to whom the
    players of many tournaments may be linked (``Player.person``); the series and careers
    (``services.series``) count their linked players' public results."""

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


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    # The player's id in tournament files ("p1"); stable across export and import.
    ref = models.CharField(max_length=limits.PLAYER_ID_MAX)
    name = models.CharField(max_length=limits.NAME_MAX)
    club = models.CharField(max_length=limits.CLUB_MAX, blank=True)
    # False once the player has dropped out: later rounds do not seat them.
    active = models.BooleanField(default=True)
    checked_in = models.BooleanField(default=False)
    # When the player's name was last tapped at the door (services.door): an Undo on any
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
    """A tournament's door check-in while it is open (``services.door``): the random part
    of its address, who opened it and when it closes by itself. Closing the door deletes
    the row; opening it again replaces the random part, so an old address stops working."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="+")
    nonce = models.CharField(max_length=64)
    opened_by = models.CharField(max_length=150, blank=True)
    opened_at = models.DateTimeField()
    closes_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Door of {self.tournament_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    # Until a round is started its seating may be regenerated and swapped freely.
    started = models.BooleanField(default=False)
    # Its confirmed results count on public pages only once the organiser releases it.
    released = models.BooleanField(default=False)
    seed = models.IntegerField(default=0)
    # The round clock: running, it ends at ``clock_ends``; paused, ``clock_left`` seconds
    # remain; never started, both are empty (services.clock).
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


class Table(models.Model):
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


class Deal(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    last_in = models.PositiveSmallIntegerField()
    left_over = models.PositiveSmallIntegerField()

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


class SeriesScheme(models.TextChoices):
    """How a series scores a tournament (``scoring.series`` computes each)."""

    FIELD_SHARE = "field-share", "Field share: the share of the field finishing below"
    PLACING = "placing", "Placing: points by place from a list"
    TOURNAMENT_POINTS = "tournament-points", "Tournament points: the tournament's own total"


def default_placing() -> list[int]:
    return [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


class Series(models.Model):
    """A season, a league or "all time": tournaments whose public results add up to a
    series standings and ratings of the people who played them (``services.series``)."""

    name = models.CharField(max_length=limits.NAME_MAX)
    slug = models.SlugField(
        max_length=limits.SLUG_MAX, unique=True, validators=limits.slug_validators()
    )
    scheme = models.CharField(
        max_length=20, choices=SeriesScheme.choices, default=SeriesScheme.FIELD_SHARE
    )
    # Points by place under the placing scheme (1st, 2nd, …; later places score 0).
    placing = models.JSONField(default=default_placing)
    # Each person's best results counted; None counts them all.
    count_best = models.PositiveSmallIntegerField(null=True, blank=True)
    # People with fewer tournaments are listed after the ranked ones, unranked.
    min_events = models.PositiveSmallIntegerField(default=1)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organised_series",
    )
    tournaments: "models.ManyToManyField[Tournament, SeriesTournament]" = models.ManyToManyField(
        Tournament, through="SeriesTournament", related_name="series"
    )
    created = models.DateTimeField(auto_now_add=True)
    # Moves at every save of the series or of its tournaments (``services.series``).
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(scheme__in=SeriesScheme.values), name="series_known_scheme"
            ),
            models.CheckConstraint(condition=Q(count_best__gte=1), name="series_count_best"),
            models.CheckConstraint(condition=Q(min_events__gte=1), name="series_min_events"),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesTournament(models.Model):
    """A tournament in a series. One of another organiser's tournaments counts only once
    that organiser has accepted (``accepted``); the series' own organiser's, and those
    added by the site administrator's command, are accepted at once."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series_entries"
    )
    accepted = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} in {self.series}"


class Invitation(models.Model):
    """A one-time link that makes a scorer's account for one tournament
    (``services.invitations``): the organiser names the account, whoever opens the link
    sets its password. The link carries a random secret and only its SHA-256 is kept here,
    so that reading the database (or a backup) opens no invitation. A link stops working
    once used, withdrawn or past ``expires``; the row stays, so that the page can say which."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(max_length=150)
    secret_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    # The account the link made: kept after use, for the Scorers page and the admin.
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(expires__gt=models.F("created")), name="invitation_expires_later"
            ),
            models.CheckConstraint(
                condition=Q(used_at=None) | Q(withdrawn_at=None),
                name="invitation_used_or_withdrawn",
            ),
            models.CheckConstraint(condition=~Q(username=""), name="invitation_names_someone"),
        ]

    def __str__(self) -> str:
        return f"Invitation of {self.username} to {self.tournament_id}"


class Adjustment(models.Model):
    """A penalty (negative points) or an award the organiser gives a player in a round,
    in the tournament's scoring system, with its reason: added to the player's total for
    that round once the round is released. Removing one keeps the row (``removed_at``),
    so that the history says who gave it, who took it back and when."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="adjustments")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="adjustments")
    points = models.IntegerField()
    reason = models.CharField(max_length=limits.REASON_MAX)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round__number", "created", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(points=0), name="adjustment_not_zero"),
            models.CheckConstraint(
                condition=Q(points__gte=-limits.ADJUSTMENT_MAX, points__lte=limits.ADJUSTMENT_MAX),
                name="adjustment_in_range",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.points:+d} for {self.player} in {self.round} ({self.reason})"

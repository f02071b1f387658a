"""The format advisor's questions, bounded (``scoring.simulation.advisor``):

- a question is *small* up to ``REQUEST_WORK`` players × deals: answered in the request;
- *large* up to ``TASK_WORK``: answered by the task worker, the page following it; the
  answer is kept (``AdvisorAnswer``), so the same question is answered from it, never
  worked out twice; one question an account at a time;
- above that, refused in words.

The advisor's task comes after the views' and the chances' (a lower priority): the
room's standings never wait for it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import IntegrityError, transaction
from django.http import QueryDict
from django.utils import timezone
from django_tasks import task

from scoring.rulesets import HOUSE, RULE_SETS, RuleSet, house_rules
from scoring.seating.request import DEFAULT_SIZES
from scoring.simulation.advisor import (
    REQUEST_WORK,
    TASK_WORK,
    Advice,
    AdvisorError,
    Format,
    advise,
    question_work,
)
from scoring.systems import ScoringSystem, allowed_sizes
from tournament.models import AdvisorAnswer
from tournament.shared.tasks import DEAD_AFTER, enqueue_after_commit

ADVISOR_PRIORITY = -10
# Moved when the advisor answers a question differently (2: splits of tables of 7 and 8).
VERSION = 2


@dataclass(frozen=True)
class Question:
    players: int
    minutes: int
    minutes_per_deal: float
    scoring: str
    rule_set: str
    # The house rules' numbers (``RuleSet.as_data``) when ``rule_set`` is "house".
    house: dict[str, Any] | None
    sizes: tuple[int, ...] | None

    @classmethod
    def of(
        cls,
        players: int,
        minutes: int,
        minutes_per_deal: float,
        system: ScoringSystem,
        rules: RuleSet,
        sizes: tuple[int, ...] | None,
    ) -> Question:
        return cls(
            players,
            minutes,
            float(minutes_per_deal),
            system.value,
            rules.key,
            rules.as_data() if rules.is_house else None,
            None if sizes is None else tuple(sizes),
        )

    @property
    def rules(self) -> RuleSet:
        if self.rule_set == HOUSE:
            return house_rules(self.house or {})
        return RULE_SETS[self.rule_set]

    @property
    def key(self) -> str:
        """The question's answer is kept under it: with the advisor's ``VERSION``, so that
        an answer kept before the advisor tried large tables is not given again."""
        text = json.dumps({**asdict(self), "version": VERSION}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def answer(self) -> Advice:
        return advise(
            self.players,
            self.minutes,
            ScoringSystem(self.scoring),
            self.rules,
            self.minutes_per_deal,
            sizes=self.sizes,
        )

    def work(self) -> int:
        players, deals = question_work(
            self.players,
            self.minutes,
            ScoringSystem(self.scoring),
            self.rules,
            self.minutes_per_deal,
            self.sizes,
        )
        return players * deals

    @property
    def words(self) -> str:
        return f"{self.players} players, {self.minutes} minutes"


@dataclass(frozen=True)
class Asked:
    """What the page shows: the advice, or the kept answer being worked out."""

    advice: Advice | None = None
    pending: AdvisorAnswer | None = None


def ask(question: Question, user: AbstractBaseUser | AnonymousUser) -> Asked:
    """The answer to ``question``: at once when small, else the kept answer (worked out
    by the worker, asked for here when new). ``AdvisorError`` in words when it is too
    large, or when the account waits for another large question."""
    work = question.work()
    if work <= REQUEST_WORK:
        return Asked(advice=question.answer())
    if work > TASK_WORK:
        players, deals = question_work(
            question.players,
            question.minutes,
            ScoringSystem(question.scoring),
            question.rules,
            question.minutes_per_deal,
            question.sizes,
        )
        raise AdvisorError(
            f"{players:,} players × {deals:,} deals is more than the advisor works out "
            f"({TASK_WORK:,}): give fewer players, less time or more minutes per deal."
        )
    kept = AdvisorAnswer.objects.filter(question_key=question.key).first()
    if kept is not None and _abandoned(kept):
        kept.delete()
        kept = None
    if kept is not None:
        return _read(kept)
    account = user if isinstance(user, User) else None
    waiting = (
        AdvisorAnswer.objects.filter(
            asked_by=account,
            answer__isnull=True,
            failure="",
            asked_at__gt=timezone.now() - DEAD_AFTER,
        )
        .exclude(question_key=question.key)
        .first()
        if account is not None
        else None
    )
    if waiting is not None:
        earlier = waiting.question
        raise AdvisorError(
            f"Your earlier question ({earlier['players']} players, {earlier['minutes']} "
            "minutes) is still being worked out: one at a time. Its answer comes first."
        )
    try:
        with transaction.atomic():
            kept = AdvisorAnswer.objects.create(
                question_key=question.key,
                question=asdict(question),
                asked_by=account,
                asked_at=timezone.now(),
            )
            enqueue_after_commit(answer_question, kept.pk)
    except IntegrityError:
        # Asked at the same moment by someone else: theirs is ours.
        kept = AdvisorAnswer.objects.get(question_key=question.key)
    kept.refresh_from_db()
    return _read(kept)


def _abandoned(kept: AdvisorAnswer) -> bool:
    """Asked long ago and never answered (its task failed): asked again."""
    old = kept.asked_at < timezone.now() - 2 * DEAD_AFTER
    return kept.answer is None and not kept.failure and old


def _read(kept: AdvisorAnswer) -> Asked:
    if kept.failure:
        raise AdvisorError(kept.failure)
    if kept.answer is None:
        return Asked(pending=kept)
    return Asked(advice=Advice.from_data(kept.answer))


@task(priority=ADVISOR_PRIORITY)
def answer_question(answer_id: int) -> str:
    kept = AdvisorAnswer.objects.filter(pk=answer_id).first()
    if kept is None or kept.answer is not None:
        return "nothing to do"
    data = dict(kept.question)
    data["sizes"] = None if data["sizes"] is None else tuple(data["sizes"])
    question = Question(**data)
    try:
        answer = question.answer().as_data()
    except AdvisorError as refused:
        AdvisorAnswer.objects.filter(pk=answer_id).update(
            failure=str(refused), answered_at=timezone.now()
        )
        return "refused"
    AdvisorAnswer.objects.filter(pk=answer_id).update(answer=answer, answered_at=timezone.now())
    return "answered"


# "Use this format": the new tournament's (or Settings') fields an answer fills, by the
# names of TournamentForm's fields, carried as query parameters.
FORMAT_FIELDS = ("planned_rounds", "rotations_per_round", "scoring", "rule_set", "table_sizes")


def format_query(chosen: Format, advice: Advice, question: Question) -> str:
    """The query that fills the tournament form with ``chosen``: its rounds and rotations,
    the question's scoring and rule set (not house rules, which only their tournament
    has), and the table sizes: those the question allowed for the usual split, the large
    split's own sizes for a split of 7s and 8s (the seating engine then seats it so)."""
    rules = question.rules
    system = ScoringSystem(question.scoring)
    if chosen.split and chosen.split != advice.split:
        sizes = chosen.sizes
    else:
        seated = allowed_sizes(system, rules)
        wanted = DEFAULT_SIZES if question.sizes is None else question.sizes
        sizes = tuple(size for size in wanted if size in seated) or seated
    query = QueryDict(mutable=True)
    query["planned_rounds"] = str(chosen.rounds)
    query["rotations_per_round"] = str(chosen.rotations)
    query["scoring"] = question.scoring
    if not rules.is_house:
        query["rule_set"] = rules.key
    query.setlist("table_sizes", [str(size) for size in sizes])
    return query.urlencode()


def advised_initial(query: QueryDict) -> dict[str, Any]:
    """The tournament form's initial values from a "Use this format" link's query: only
    its own fields; a value the form does not take shows as given and is refused, naming
    the field, when the form is saved."""
    initial: dict[str, Any] = {}
    for name in FORMAT_FIELDS:
        if name == "table_sizes":
            if name in query:
                initial[name] = [value for value in query.getlist(name) if value.isdigit()]
        elif name in query:
            initial[name] = query[name]
    return initial

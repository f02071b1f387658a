"""Who may write a score sheet, by the sheet's stage: the one rule the desk, the phone at
the table and the confirmation pages all ask (docs/score-sheets.md shows it as a table).

Terms:

- *writer*: a phone at the table (opened with the table code, no account), a scorer, or
  the organiser (both at the desk, logged in).
- *stage*: where the sheet is in its life. A sheet that has never been confirmed is
  *not started*, a *draft* (saved part-way) or *entered* (complete, awaiting a second
  person's confirmation). Once confirmed it is *confirmed*; a new version of it is a
  *correction draft* or a *correction entered*, until that is confirmed in turn.
- *act*: *open* (see the sheet's page), *save* (a draft or a complete sheet), *confirm*
  (as the second person).

A phone writes only a sheet that has never been confirmed, in a round that has started,
of a tournament that has table entry on: a correction is the desk's alone, so a table
code never reopens a confirmed sheet. Among phones, a sheet awaiting confirmation belongs
to the phone that entered it (the others may only confirm it, blind, where the tournament
lets phones confirm). A round *released* with tables that have no result keeps their
codes open: their phones still type and submit the sheet, but only the desk confirms it
(a release is the organiser's word that the round's results are public, and a sheet
that joins them late is checked at the desk). At the desk, the scorer and the organiser
have the same rights: any stage may be saved (saving a confirmed sheet starts a
correction); confirming needs a sheet awaiting confirmation, entered by someone else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db.models import Exists, OuterRef, Q

from tournament.models import Deal, Round, Sheet, SheetStatus, SheetVersion, Table, Tournament


class Writer(StrEnum):
    PHONE = "phone"
    SCORER = "scorer"
    ORGANISER = "organiser"


class Stage(StrEnum):
    NOT_STARTED = "not started"
    DRAFT = "draft"
    ENTERED = "entered"
    CONFIRMED = "confirmed"
    CORRECTION_DRAFT = "correction draft"
    CORRECTION_ENTERED = "correction entered"


class Act(StrEnum):
    OPEN = "open"
    SAVE = "save"
    CONFIRM = "confirm"


NEVER_CONFIRMED = frozenset({Stage.NOT_STARTED, Stage.DRAFT, Stage.ENTERED})
AWAITING_CONFIRMATION = frozenset({Stage.ENTERED, Stage.CORRECTION_ENTERED})
CORRECTIONS = frozenset({Stage.CORRECTION_DRAFT, Stage.CORRECTION_ENTERED})


def stage_of(status: str, *, ever_confirmed: bool) -> Stage:
    """The stage of a sheet in ``status`` (``SheetStatus``); ``ever_confirmed``: whether
    the table has had confirmed deals (a draft or entered sheet is then a correction)."""
    if status == SheetStatus.CONFIRMED:
        return Stage.CONFIRMED
    if status == SheetStatus.ENTERED:
        return Stage.CORRECTION_ENTERED if ever_confirmed else Stage.ENTERED
    if status == SheetStatus.DRAFT:
        return Stage.CORRECTION_DRAFT if ever_confirmed else Stage.DRAFT
    return Stage.CONFIRMED if ever_confirmed else Stage.NOT_STARTED


@dataclass(frozen=True)
class SheetFacts:
    """What the rule needs to know of a sheet, its round and its tournament."""

    stage: Stage
    round_started: bool
    round_released: bool
    table_entry: bool
    table_confirm: bool
    # The sheet was entered (last saved) by a phone at the table, not at the desk.
    entered_at_table: bool = False
    # The writer asking is the one who entered the sheet (the same phone, or user).
    writer_entered_it: bool = False


@dataclass(frozen=True)
class Refusal:
    """Why a writer may not act; ``closed`` when the sheet is closed to that writer
    altogether (a phone is then shown the same "closed" page whatever the reason)."""

    reason: str
    closed: bool = False


CLOSED_AT_TABLE = Refusal(
    "this sheet can no longer be changed at the table: it has been confirmed, or entry at "
    "the table was turned off; ask a scorer at the desk",
    closed=True,
)

CONFIRMED_AT_THE_DESK_ONCE_RELEASED = Refusal(
    "this round's results are released: a scorer at the desk confirms its sheets now, not a "
    "phone; hand the paper sheet in at the desk"
)


def refusal(writer: Writer, act: Act, facts: SheetFacts) -> Refusal | None:
    """Why ``writer`` may not ``act`` on the sheet described by ``facts``; None when it may."""
    if writer is Writer.PHONE:
        return _phone_refusal(act, facts)
    return _desk_refusal(act, facts)


def _phone_refusal(act: Act, facts: SheetFacts) -> Refusal | None:
    if not facts.table_entry or not facts.round_started or facts.stage not in NEVER_CONFIRMED:
        return CLOSED_AT_TABLE
    if act is Act.OPEN:
        return None
    if act is Act.SAVE:
        if facts.stage is Stage.ENTERED and not facts.writer_entered_it:
            return Refusal(
                "another phone or a scorer submitted this sheet: it awaits confirmation, and "
                "is no longer typed here"
            )
        return None
    if facts.stage is not Stage.ENTERED:
        return Refusal("this sheet is not awaiting confirmation: it has not been submitted yet")
    if facts.round_released:
        return CONFIRMED_AT_THE_DESK_ONCE_RELEASED
    if not facts.table_confirm:
        return Refusal(
            "this tournament has sheets confirmed by a scorer at the desk, not at the table: "
            "hand the paper sheet in"
        )
    if not facts.entered_at_table:
        return Refusal(
            "this sheet was entered by a scorer: it is confirmed at the desk, not at the table"
        )
    if facts.writer_entered_it:
        return Refusal(
            "this phone submitted the sheet: another phone at the table, or a scorer at the "
            "desk, must confirm it"
        )
    return None


def phones_confirm(round_: Round) -> bool:
    """Whether a sheet of ``round_`` (with its tournament loaded) that a phone submits may
    be confirmed by another phone at the table, as the rule has it now: what a phone's
    pages say of who confirms it."""
    tournament = round_.tournament
    submitted = SheetFacts(
        stage=Stage.ENTERED,
        round_started=round_.started,
        round_released=round_.released,
        table_entry=tournament.table_entry,
        table_confirm=tournament.table_confirm,
        entered_at_table=True,
    )
    return refusal(Writer.PHONE, Act.CONFIRM, submitted) is None


def code_opens_once_started(stage: Stage, round_: Round, tournament: Tournament) -> bool:
    """Whether a table code opens a sheet in ``stage`` of ``round_`` (of ``tournament``),
    now or once the round has started: what a printed score sheet asks before it prints
    the code, since sheets are printed before their round starts."""
    facts = SheetFacts(
        stage=stage,
        round_started=True,
        round_released=round_.released,
        table_entry=tournament.table_entry,
        table_confirm=tournament.table_confirm,
    )
    return refusal(Writer.PHONE, Act.OPEN, facts) is None


def _desk_refusal(act: Act, facts: SheetFacts) -> Refusal | None:
    if not facts.round_started:
        return Refusal("the round has not started yet: its sheets can be entered once it has")
    if act is not Act.CONFIRM:
        return None
    if facts.stage not in AWAITING_CONFIRMATION:
        return Refusal("this sheet is not awaiting confirmation")
    if facts.writer_entered_it:
        return Refusal("you entered this sheet: a different person must confirm it")
    return None


def confirmed_before(table: str = "pk") -> Q:
    """For a query of tables (``table`` names the table's key in it: ``"table"`` in a
    query of sheets): whether the table has ever had its sheet confirmed (its confirmed
    deals, or a confirmed version in its history)."""
    return Exists(Deal.objects.filter(table=OuterRef(table))) | Exists(
        SheetVersion.objects.filter(sheet__table=OuterRef(table), status=SheetStatus.CONFIRMED)
    )


def ever_confirmed(sheet: Sheet) -> bool:
    """Whether the sheet's table has ever had confirmed deals: then a table code no longer
    opens it, and a new version of it is a correction. Read with the sheet where it was
    loaded with ``confirmed_before`` (``sheets.reading.peek_sheet``)."""
    if sheet.status == SheetStatus.CONFIRMED:
        return True
    known = getattr(sheet, "confirmed_before", None)
    if known is not None:
        return bool(known)
    return Table.objects.filter(pk=sheet.table_id).filter(confirmed_before()).exists()


def sheet_stage(sheet: Sheet) -> Stage:
    return stage_of(sheet.status, ever_confirmed=ever_confirmed(sheet))


def facts_of(sheet: Sheet, *, writer_entered_it: bool = False) -> SheetFacts:
    """The facts of ``sheet`` (with its table's round and tournament loaded)."""
    round_ = sheet.table.round
    tournament = round_.tournament
    return SheetFacts(
        stage=sheet_stage(sheet),
        round_started=round_.started,
        round_released=round_.released,
        table_entry=tournament.table_entry,
        table_confirm=tournament.table_confirm,
        entered_at_table=sheet.entered_by_phone is not None,
        writer_entered_it=writer_entered_it,
    )

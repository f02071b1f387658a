"""A round's life after it is seated: started, released to the public or held back, and
the final reveal.

Terms:

- *started*: the seating is frozen and its sheets may be entered (``rounds.seating``
  seats and re-seats; only a table with no scores may be re-seated once started).
- *released*: the round's confirmed results are on the public pages. *Withholding* a
  released round hides them again.
- *table without a result*: a table of the round with no confirmed deal (its sheet was
  never confirmed). Its players show on the public pages as "no result yet"; releasing a
  round with such tables is refused unless the organiser was asked and went ahead. The
  release closes nothing: such a table's code still opens its sheet on a phone, which may
  type and submit it, and a scorer at the desk confirms it (``sheets.access``: no phone
  confirms a sheet of a released round). The question says so (``after_release``).
- *held back*: one of the tournament's last ``hold_back_rounds`` rounds, which cannot be
  released one by one: the *final reveal* releases every started round at once.

Every change here locks the rounds it concerns first, in the order ``shared.locks``
gives, so a sheet saved at the same moment either commits before the change or sees it.
Each tells the tournament's webhooks what happened (``webhooks.services.tell``), sent
after the commit by the task worker.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from scoring.errors import UserError
from tournament.models import Round, SheetStatus, Table, Tournament
from tournament.rounds.swaps import seating_token
from tournament.shared import public_changes
from tournament.shared.locks import lock_round, lock_rounds
from tournament.standings.services import and_list
from tournament.webhooks import services as webhooks
from tournament.webhooks.messages import (
    ROUND_RELEASED,
    ROUND_STARTED,
    ROUND_WITHHELD,
    TOURNAMENT_FINISHED,
)


class PreviousRoundUnfinished(UserError):
    """Starting a round while the round before it still has tables with no confirmed
    sheet: the organiser may go ahead, but is asked first."""

    def __init__(self, round_number: int, tables: list[int]) -> None:
        self.round_number = round_number
        self.previous = round_number - 1
        self.tables = tables
        self.table_list = and_list(tables)
        noun = "table" if len(tables) == 1 else "tables"
        verb = "has" if len(tables) == 1 else "have"
        super().__init__(
            f"Round {self.previous}: {noun} {self.table_list} {verb} no confirmed sheet. "
            f"Start round {round_number} anyway?"
        )


def unconfirmed_tables(round_: Round) -> list[int]:
    """The numbers of the round's tables whose sheet is missing or not confirmed yet."""
    return list(
        Table.objects.filter(round=round_)
        .filter(Q(sheet__isnull=True) | ~Q(sheet__status=SheetStatus.CONFIRMED))
        .order_by("number")
        .values_list("number", flat=True)
    )


def after_release(tables: str, count: int, *, table_entry: bool) -> str:
    """What becomes of ``count`` tables without a result (``tables``: "table 3", "those
    tables") once their round is released, in words for the question that asks first."""
    one = count == 1
    sheets, its, it = ("sheet", "its", "it") if one else ("sheets", "their", "them")
    if not table_entry:
        return (
            f"Once released, the {sheets} of {tables} can still be entered and confirmed at "
            "the desk."
        )
    codes, open_ = ("code", "opens") if one else ("codes", "open")
    return (
        f"Once released, the {codes} of {tables} still {open_} {its} {sheets}: the players "
        f"can still type and send {it} from their phones, and a scorer at the desk confirms "
        f"{it} (once a round is released, no phone confirms a sheet)."
    )


class TablesWithoutResult(UserError):
    """Releasing a round while some of its tables have no confirmed sheet: the organiser
    may go ahead, but is asked first, and the tables are named, with what becomes of them
    (``afterwards``: their phones can still send their sheets, the desk confirms them)."""

    def __init__(self, round_number: int, tables: list[int], *, table_entry: bool) -> None:
        self.round_number = round_number
        self.tables = tables
        self.table_list = and_list(tables)
        self.count = len(tables)
        noun = "table" if len(tables) == 1 else "tables"
        verb = "has" if len(tables) == 1 else "have"
        self.afterwards = after_release(
            f"{noun} {self.table_list}", self.count, table_entry=table_entry
        )
        super().__init__(
            f"Round {round_number}: {noun} {self.table_list} {verb} no confirmed sheet. "
            f"Release round {round_number} anyway?"
        )


class RoundsWithoutResult(UserError):
    """Revealing the final results while started rounds about to be released have tables
    with no confirmed sheet: asked first, as a single release is, naming every table, with
    what becomes of them (``afterwards``)."""

    def __init__(self, missing: list[tuple[int, list[int]]], *, table_entry: bool) -> None:
        self.missing = missing
        self.count = sum(len(tables) for _, tables in missing)
        self.afterwards = after_release(
            "that table" if self.count == 1 else "those tables",
            self.count,
            table_entry=table_entry,
        )
        parts = []
        for number, tables in missing:
            noun = "table" if len(tables) == 1 else "tables"
            verb = "has" if len(tables) == 1 else "have"
            parts.append(f"round {number}: {noun} {and_list(tables)} {verb} no confirmed sheet")
        text = "; ".join(parts)
        super().__init__(f"{text[0].upper()}{text[1:]}. Reveal the final results anyway?")


def tables_without_result(round_: Round) -> list[int]:
    """The numbers of the round's tables with no confirmed deal: their sheet was never
    confirmed (a sheet being corrected keeps its confirmed deals meanwhile)."""
    return list(
        Table.objects.filter(round=round_, deals__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
        .distinct()
    )


def start_round(
    round_: Round, *, seating: str | None = None, despite_unfinished: bool = True
) -> None:
    """Start the round, freezing its seating. With ``seating`` (``seating_token`` of the
    seating the organiser was shown), refused when the round was seated again or had
    players swapped meanwhile: the organiser starts the seating they checked, or none.

    With ``despite_unfinished=False`` (the round page's first press of Start), raises
    ``PreviousRoundUnfinished`` naming the tables of the round before that have no
    confirmed sheet yet, so that the organiser is asked before going ahead."""
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        if not round_.tables.exists():
            raise UserError(f"round {round_.number} has no tables to start")
        if seating is not None and not round_.started and seating != seating_token(round_):
            raise UserError(
                f"round {round_.number} was seated again, or had players swapped, since your "
                "page was loaded: check the seating shown now, then start it"
            )
        if not round_.started and not despite_unfinished:
            previous = Round.objects.filter(
                tournament_id=round_.tournament_id, number=round_.number - 1
            ).first()
            unfinished = unconfirmed_tables(previous) if previous is not None else []
            if unfinished:
                raise PreviousRoundUnfinished(round_.number, unfinished)
        was_started = round_.started
        round_.started = True
        round_.save(update_fields=["started"])
        if not was_started and round_.tournament.seating_public:
            webhooks.tell(round_.tournament_id, ROUND_STARTED, round_.number)


def held_back(round_: Round) -> bool:
    """Whether the round is one of the last rounds kept hidden until the final reveal."""
    tournament = round_.tournament
    return round_.number > tournament.planned_rounds - tournament.hold_back_rounds


def release_round(round_: Round, *, despite_missing: bool = False) -> None:
    """Show a round's confirmed results on the public pages.

    Refused with ``TablesWithoutResult``, naming them, while tables of the round have no
    confirmed sheet, unless ``despite_missing`` (the organiser was asked and went ahead):
    their players then show as "no result yet" until the sheet is confirmed. Their codes
    stay open to phones, which may still type and submit the sheet; the desk confirms it.

    The round is locked: a sheet being confirmed meanwhile either commits first (and the
    release then clears the public pages' cache) or finds the round released (and clears
    it itself); neither can leave a public page cached without the other."""
    _set_released(round_, True, despite_missing=despite_missing)


def withhold_round(round_: Round) -> None:
    """Hide a released round's results from the public pages again (locked as
    ``release_round`` is)."""
    _set_released(round_, False)


def _set_released(round_: Round, release: bool, *, despite_missing: bool = False) -> None:
    with transaction.atomic():
        round_ = lock_round(round_.pk)
        if release and not round_.started:
            raise UserError(f"round {round_.number} has not started: there is nothing to release")
        if release and held_back(round_):
            raise UserError(
                f"round {round_.number} is one of the last {round_.tournament.hold_back_rounds} "
                "rounds held back for the final reveal: use “Reveal the final results”"
            )
        # Asked under the lock: a sheet confirmed meanwhile is no longer named.
        if release and not round_.released and not despite_missing:
            missing = tables_without_result(round_)
            if missing:
                raise TablesWithoutResult(
                    round_.number, missing, table_entry=round_.tournament.table_entry
                )
        was_released, was_final = round_.released, webhooks.final_results_out(round_.tournament)
        round_.released = release
        round_.save(update_fields=["released"])
        if release != was_released:
            webhooks.tell(
                round_.tournament_id, ROUND_RELEASED if release else ROUND_WITHHELD, round_.number
            )
        if release and not was_final and webhooks.final_results_out(round_.tournament):
            webhooks.tell(round_.tournament_id, TOURNAMENT_FINISHED)


def reveal_final_results(tournament: Tournament, *, despite_missing: bool = False) -> int:
    """Release every started round, the held-back ones included; how many were released.

    Refused with ``RoundsWithoutResult``, naming them, while tables of those rounds have
    no confirmed sheet, unless ``despite_missing`` (the organiser was asked and went
    ahead), as ``release_round`` is."""
    # One transaction: released rounds behind a stale public cache would stay unseen.
    with transaction.atomic():
        # Locked in number order first, as ``shared.locks`` has it: an UPDATE would lock
        # them in whatever order it meets them.
        lock_rounds(tournament.pk)
        if not despite_missing:
            missing = [
                (round_.number, tables)
                for round_ in Round.objects.filter(
                    tournament=tournament, started=True, released=False
                ).order_by("number")
                if (tables := tables_without_result(round_))
            ]
            if missing:
                raise RoundsWithoutResult(missing, table_entry=tournament.table_entry)
        was_final = webhooks.final_results_out(tournament)
        revealed = list(
            Round.objects.filter(tournament=tournament, started=True, released=False)
            .order_by("number")
            .values_list("number", flat=True)
        )
        count = Round.objects.filter(tournament=tournament, started=True, released=False).update(
            released=True
        )
        public_changes.mark_changed(tournament.pk)
        for number in revealed:
            webhooks.tell(tournament.pk, ROUND_RELEASED, number)
        if not was_final and webhooks.final_results_out(tournament):
            webhooks.tell(tournament.pk, TOURNAMENT_FINISHED)
    return count

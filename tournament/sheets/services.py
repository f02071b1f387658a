"""Score sheets: typing them in, saving drafts, confirming them, correcting them.

Over 400 lines: cleaning, checking and writing a sheet share the row helpers and one
locking discipline (``kernel.locks``); the sections below keep them apart.

Terms:

- *row*: one deal as typed (``Row``): ``{"won": [...], "last_in": ..., "left_over": ...}``
  and, when the scorer filled counts in from the checksum, ``"derived"``; values are whole
  numbers once cleaned, or whatever was typed when they are not.
- *draft*: a sheet saved part-way; its rows are kept exactly as typed, problems and all.
- *entered*: a complete, valid sheet awaiting a second person's confirmation (when the
  tournament has the two-person check; otherwise saving confirms it at once).
- *confirmed*: the sheet's rows are written as ``Deal`` rows: the official facts.
- *correction*: a new version of a confirmed sheet. Until it is confirmed in turn, the
  official facts stay those of the last confirmed version.

Every save names the ``version`` it was made from. A save from an older version is
refused with ``SheetChangedError`` (showing both), so that two scorers saving the same
table never silently lose one of the saves; submitting the same rows twice (a double
click) records them once. A save may also carry an idempotency *key* (the page makes one
per submission): a submission retried with its key, say after the network dropped the
answer, is recognised and recorded once, whatever happened to the sheet meanwhile.

Who saves is a user (a scorer or the organiser) or a phone at the table (``AtTable``),
which opened the table's entry page with its table code. A phone is known by a token it
keeps in its session and is numbered in the table's history ("table 4, phone 2").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from django.db import transaction
from django.db.models import Case, Count, Prefetch, Value, When

from scoring.errors import UserError
from scoring.rules import (
    DealFacts,
    Leave,
    RuleBreak,
    absent_seats,
    dealer_at,
    dealers,
    deals_in_round,
    missing_value,
    validate_deal,
    validate_leaves,
)
from scoring.systems import SeatSums, score_deal, table_sums
from tournament.kernel.cells import LAST_IN, LEFT_OVER, WON, cell_name, cell_part
from tournament.kernel.locks import hold_round
from tournament.models import (
    Deal,
    DealResult,
    Seat,
    Sheet,
    SheetStatus,
    SheetVersion,
    Table,
    TablePhone,
    Tournament,
)
from tournament.sheets import access as access
from tournament.sheets.leaves import (
    as_items,
    current_leaves,
    drop_leavers,
    leave_problems,
    new_seats,
    stored_leaves,
    unplayed_leaves,
)

# What a row's cell holds: a whole number once cleaned, else blank (None) or the text as
# typed, kept so that the rules can say what is wrong with it.
CellValue = int | str | None


class Row(TypedDict):
    """One deal of a sheet: each seat's cards won (seat 1 first), the seat last in and the
    cards left over; ``derived`` names (as ``tournament.kernel.cells`` parts: ``s3``,
    ``left_over``) the counts filled in from the checksum rather than read off the paper."""

    won: list[CellValue]
    last_in: CellValue
    left_over: CellValue
    derived: NotRequired[list[str]]


@dataclass(frozen=True)
class AtTable:
    """A phone at the table saving through the table code, known by the random token it
    keeps in its session (not a user)."""

    token: str


# Who saves or confirms a sheet: a user, or a phone at the table.
Author = Any


# The action of the version a re-seat gives a sheet: it changes no deal, but a page that
# shows the old seating must not be saved.
RESEATED = "reseated"


def deal_facts(row: Row) -> DealFacts:
    """A valid row's deal: {"won": [...], "last_in": seat, "left_over": cards}; a seat that
    had left the table has None for its cards won."""
    # Valid means every value is a whole number, or blank for a seat that had left: the
    # rules checked it.
    return DealFacts(
        tuple(cast(list[int | None], row["won"])),
        cast(int, row["last_in"]),
        cast(int, row["left_over"]),
    )


def seat_sums(rows: Sequence[Row], size: int, leaves: Sequence[Leave] = ()) -> tuple[SeatSums, ...]:
    """Each seat's sums over a table's valid rows (deal 1 first), seat 1 first."""
    return table_sums([deal_facts(row) for row in rows], size, leaves)


class SheetInvalidError(UserError):
    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class SheetChangedError(UserError):
    """The sheet was saved by someone else since this copy was loaded."""

    def __init__(self, sheet: Sheet, current_rows: list[Row]) -> None:
        self.sheet = sheet
        self.current_rows = current_rows
        latest = (
            SheetVersion.objects.filter(sheet=sheet, number=sheet.version)
            .select_related("by")
            .first()
        )
        self.reseated = latest is not None and latest.action == RESEATED
        if self.reseated:
            by = latest.by if latest is not None else None
            organiser = f"the organiser ({by.get_username()})" if by else None
            super().__init__(
                f"{organiser or 'the organiser'} re-seated this table while you were typing "
                f"(the sheet is now version {sheet.version}): check the players' names "
                "against the paper sheet, then save again"
            )
            return
        who = sheet.entered_by.get_username() if sheet.entered_by else "someone else"
        super().__init__(
            f"this sheet was changed by {who} while you were typing (it is now version "
            f"{sheet.version}); compare the two and save again"
        )


@dataclass(frozen=True)
class Mismatch:
    deal: int
    field: str
    seat: int | None
    entered: object
    retyped: object

    @property
    def cell(self) -> str:
        """The form field name of the cell, as in the sheet template."""
        return cell_name(self.deal, self.field, self.seat)


class SheetMismatchError(UserError):
    def __init__(self, mismatches: Sequence[Mismatch]) -> None:
        self.mismatches = list(mismatches)
        count = len(self.mismatches)
        super().__init__(
            f"{count} {'cell differs' if count == 1 else 'cells differ'} from the sheet as "
            "entered; check them against the paper together"
        )


# Cleaning and checking --------------------------------------------------------------


def clean_value(value: object) -> CellValue:
    """A typed cell: blank is None, digits are a whole number, anything else is kept as
    typed so that the rules can say what is wrong with it."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    # NUL cannot be typed, and PostgreSQL cannot store it in the draft's JSON.
    text = str(value).replace("\x00", "").strip()
    if text == "":
        return None
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return text


def clean_row(row: Row, size: int) -> Row:
    """A row with its cells cleaned. A row may also name its counts that were *derived*
    from the checksum rather than read off the paper (``"derived": ["s3"]`` or
    ``["left_over"]``); names of blank or unknown cells are dropped."""
    won = list(row.get("won") or [])
    won = (won + [None] * size)[:size]
    cleaned: Row = {
        "won": [clean_value(v) for v in won],
        "last_in": clean_value(row.get("last_in")),
        "left_over": clean_value(row.get("left_over")),
    }
    marked = row.get("derived")
    if isinstance(marked, list | tuple):
        counts = {cell_part(WON, seat): value for seat, value in enumerate(cleaned["won"], start=1)}
        counts[cell_part(LEFT_OVER)] = cleaned["left_over"]
        derived = sorted(
            {name for name in marked if isinstance(name, str) and counts.get(name) is not None}
        )
        if derived:
            cleaned["derived"] = derived
    return cleaned


def is_blank(row: Row) -> bool:
    return (
        all(v is None for v in row["won"]) and row["last_in"] is None and row["left_over"] is None
    )


def trim(rows: list[Row]) -> list[Row]:
    """The rows without the blank ones at the end (the unused lines of the paper sheet)."""
    end = len(rows)
    while end and is_blank(rows[end - 1]):
        end -= 1
    return rows[:end]


@dataclass(frozen=True)
class RowCheck:
    deal: int
    dealer: int
    problems: tuple[str, ...]
    problem_cells: tuple[str, ...]
    points: tuple[int, ...] | None
    # (cell name, value) when a single blank count can be derived from the checksum.
    derived: tuple[str, int] | None


@dataclass(frozen=True)
class SheetCheck:
    rows: tuple[RowCheck, ...]
    totals: tuple[int, ...]
    cards: tuple[int, ...]
    problems: tuple[str, ...] = field(default=())
    # Cards left over in the deals without problems (the paper sheet totals it too).
    left_over: int = 0
    # Worth telling, but no reason to refuse the sheet (see ``stop_warning``).
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def _is_missing(problem: RuleBreak, row: Row) -> bool:
    if problem.field == WON and problem.seat:
        return row["won"][problem.seat - 1] is None
    if problem.field == LAST_IN:
        return row["last_in"] is None
    return problem.field == LEFT_OVER and row["left_over"] is None


def check_rows(
    rows: list[Row],
    table: Table,
    *,
    final: bool,
    stopped_early: bool = False,
    typing: int | None = None,
    leaves: Sequence[Leave] = (),
) -> SheetCheck:
    """Check cleaned rows of ``table``'s sheet: every problem located by deal and seat,
    running totals per seat, and values that can be derived from the checksum.

    With ``final`` the sheet must be complete: no blank deal before a filled one, and
    either every deal of the round or ``stopped_early``. ``typing`` is the deal the
    scorer is typing in: its blank cells are not reported as missing yet. ``leaves``
    are the seats that left mid-round (valid ones: ``leave_problems``): the deal passes
    among the seats left, and each deal after a leave is checked at its smaller size.
    """
    tournament = table.round.tournament
    size = table.size
    most = deals_in_round(size, tournament.rotations_per_round, leaves)
    totals = [0] * size
    cards = [0] * size
    left_over = 0
    checks = []
    problems: list[str] = []
    filled = trim(rows)
    for number, row in enumerate(rows, start=1):
        dealer = dealer_at(number, size, leaves)
        absent = absent_seats(number, leaves)
        if is_blank(row):
            if number <= len(filled):
                message = f"deal {number}: blank, but later deals are filled in"
                problems.append(message)
                checks.append(RowCheck(number, dealer, (message,), (), None, None))
            else:
                checks.append(RowCheck(number, dealer, (), (), None, None))
            continue
        found = validate_deal(row["won"], row["last_in"], row["left_over"], size, absent)
        reported = [p for p in found if not (number == typing and _is_missing(p, row))]
        located = tuple(f"deal {number}: {p}" for p in reported)
        problems.extend(located)
        cells = tuple(cell_name(number, p.field, p.seat) for p in reported)
        derived = None
        counts = [*row["won"], row["left_over"]]
        if found and all(v is None or isinstance(v, int) for v in counts):
            # Only blanks and whole numbers, as just checked.
            guess = missing_value(
                cast(list[int | None], row["won"]), cast(int | None, row["left_over"]), absent
            )
            if guess is not None:
                field_name, seat, value = guess
                derived = (cell_name(number, field_name, seat), value)
        points = None
        if not found:
            facts = deal_facts(row)
            points = score_deal(facts, dealer, tournament.scoring_system)
            for seat in range(size):
                totals[seat] += points[seat]
                cards[seat] += facts.cards(seat + 1)
            left_over += facts.left_over
        checks.append(RowCheck(number, dealer, located, cells, points, derived))
    if len(filled) > most:
        problems.append(
            f"{len(filled)} deals, but a table of {size} plays at most {most} in a round"
            + (" with these players leaving" if leaves else "")
        )
    warnings = []
    if stopped_early and len(filled) >= most:
        problems.append(
            f"the table is marked as stopped early, but all {most} deals of the round are "
            "filled in: a table that played every deal did not stop early — untick “stopped "
            "early”"
        )
    elif stopped_early and filled and (warning := stop_warning(len(filled), size, leaves)):
        warnings.append(warning)
    if final:
        if not filled:
            problems.append("no deals filled in")
        elif unplayed := unplayed_leaves(leaves, len(filled)):
            problems.extend(unplayed)
        elif len(filled) < most and not stopped_early:
            problems.append(
                f"deals {len(filled) + 1}–{most} are empty: fill them in, or mark the table "
                "as stopped early"
            )
    return SheetCheck(
        tuple(checks), tuple(totals), tuple(cards), tuple(problems), left_over, tuple(warnings)
    )


def stop_warning(deals: int, size: int, leaves: Sequence[Leave] = ()) -> str | None:
    """A table should stop at the end of a rotation, so that everyone has dealt equally:
    every seat still playing as often as the others."""
    order = dealers(size, deals + 1, leaves)[:deals]
    playing = set(range(1, size + 1)) - absent_seats(deals + 1, leaves)
    dealt = {seat: order.count(seat) for seat in playing}
    short = sum(1 for count in dealt.values() if count < max(dealt.values()))
    if not short:
        return None
    return (
        f"the table stopped after deal {deals}, not at the end of a rotation: "
        f"{short} player{'s' if short != 1 else ''} dealt one deal fewer than the others"
    )


# Reading ------------------------------------------------------------------------------


def confirmed_rows(table: Table) -> list[Row]:
    """The confirmed deals as rows; a seat that had left has no count (None) in a deal."""
    size = table.size
    rows: dict[int, Row] = {}
    for number, last_in, left_over, seat, won in (
        DealResult.objects.filter(deal__table=table)
        .order_by("deal__number", "seat")
        .values_list("deal__number", "deal__last_in", "deal__left_over", "seat", "won")
    ):
        row = rows.setdefault(
            number, {"won": [None] * size, "last_in": last_in, "left_over": left_over}
        )
        row["won"][seat - 1] = won
    return [rows[n] for n in sorted(rows)]


def sheet_of(table: Table) -> Sheet:
    """The table's sheet; a table imported from a file with deals is already confirmed."""
    sheet = Sheet.objects.filter(table=table).first()
    if sheet is None:
        status = SheetStatus.CONFIRMED if table.deals.exists() else SheetStatus.NOT_STARTED
        sheet, _ = Sheet.objects.get_or_create(table=table, defaults={"status": status})
    return sheet


def peek_sheet(table: Table) -> Sheet:
    """The table's sheet for reading, like ``sheet_of`` but never writing: a table nobody
    has saved a sheet for gets an unsaved one at version 0 (what the first save expects)."""
    found: Sheet | None = (
        Sheet.objects.filter(table=table)
        .select_related("entered_by", "confirmed_by")
        .annotate(confirmed_before=access.confirmed_before("table"))
        .first()
    )
    if found is None:
        confirmed = table.deals.exists()
        status = SheetStatus.CONFIRMED if confirmed else SheetStatus.NOT_STARTED
        found = Sheet(table=table, status=status)
        found.confirmed_before = confirmed  # type: ignore[attr-defined]
    else:
        # The caller's table, with its round and seats loaded, not a fresh copy of it.
        found.table = table
    return found


def current_rows(sheet: Sheet) -> list[Row]:
    """What the sheet shows now: the rows being typed or awaiting confirmation, else the
    confirmed facts."""
    if sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
        return list(sheet.pending)
    return confirmed_rows(sheet.table)


def deals_beyond_rotations(tournament: Tournament, rotations: int) -> list[str]:
    """The tables that hold more deals than a round of ``rotations`` allows: confirmed
    deals, and the rows of drafts and of sheets awaiting confirmation. Empty when
    ``rotations`` suits every sheet recorded so far."""
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .select_related("round", "sheet")
        .annotate(
            seat_count=Count("seats", distinct=True), deal_count=Count("deals", distinct=True)
        )
        .order_by("round__number", "number")
    )
    found = []
    for table in tables:
        sheet = getattr(table, "sheet", None)
        typed = 0
        if sheet is not None and sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
            typed = len(sheet.pending)
        left = sheet.pending_left if typed and sheet is not None else table.left
        leaves = stored_leaves(left)
        most = deals_in_round(table.seat_count, rotations, leaves)
        if max(table.deal_count, typed) <= most:
            # A draft's leave may lie beyond its rows: it must still fit the shorter round.
            if leaves and (beyond := validate_leaves(leaves, table.seat_count, rotations)):
                found.append(f"round {table.round.number}, table {table.number}: {beyond[0]}")
            continue
        if typed > table.deal_count:
            state = (
                "in a draft"
                if typed and sheet and sheet.status == SheetStatus.DRAFT
                else "awaiting confirmation"
            )
            held = f"{typed} deals {state}"
        else:
            held = f"{table.deal_count} deals recorded"
        found.append(
            f"round {table.round.number}, table {table.number} already has {held}; a table "
            f"of {table.seat_count} at {rotations} rotation{'s' if rotations != 1 else ''} "
            f"plays {most}{' with its players who left' if left else ''}"
        )
    return found


def rotations_refusal(rotations: int, too_many: Sequence[str]) -> str:
    """Why the rotations cannot go below ``rotations``: ``too_many`` from
    ``deals_beyond_rotations``."""
    shown = list(too_many[:ROTATIONS_TABLES_NAMED])
    more = len(too_many) - len(shown)
    if more:
        shown.append(f"and {more} more table{'s' if more != 1 else ''} like these")
    return (
        f"Not fewer than {rotations} rotations: "
        + "; ".join(shown)
        + ". Those deals would no longer fit a round: correct those sheets first."
    )


# A refusal names this many tables; a tournament well under way could list every table.
ROTATIONS_TABLES_NAMED = 3


# Writing ------------------------------------------------------------------------------


def _as_held(table: Table) -> Table:
    """``table`` as it is now, its round held (``locks.hold_round``) until the transaction
    ends: its seats, its round and the tournament's settings stay as read here."""
    round_ = hold_round(table.round_id)
    held = Table.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    ).get(pk=table.pk)
    held.round = round_
    return held


def diff(before: list[Row], after: list[Row]) -> list[dict[str, Any]]:
    """Cells that differ between two versions of a sheet."""
    changes: list[dict[str, Any]] = []
    for index in range(max(len(before), len(after))):
        old = before[index] if index < len(before) else None
        new = after[index] if index < len(after) else None
        number = index + 1
        if old is None or new is None:
            changes.append(
                {"deal": number, "field": "deal", "seat": None, "before": old, "after": new}
            )
            continue
        for seat, (a, b) in enumerate(zip(old["won"], new["won"], strict=False), start=1):
            if a != b:
                changes.append(
                    {"deal": number, "field": "won", "seat": seat, "before": a, "after": b}
                )
        for key in ("last_in", "left_over"):
            if old[key] != new[key]:
                changes.append(
                    {
                        "deal": number,
                        "field": key,
                        "seat": None,
                        "before": old[key],
                        "after": new[key],
                    }
                )
    return changes


def _write_deals(table: Table, rows: list[Row], leaves: Sequence[Leave]) -> None:
    """Write ``rows`` and ``leaves`` as the table's confirmed facts."""
    Deal.objects.filter(table=table).delete()
    table.left = as_items(leaves)
    Table.objects.filter(pk=table.pk).update(left=table.left)
    facts = [deal_facts(row) for row in rows]
    deals = Deal.objects.bulk_create(
        Deal(table=table, number=number, last_in=deal.last_in, left_over=deal.left_over)
        for number, deal in enumerate(facts, start=1)
    )
    DealResult.objects.bulk_create(
        DealResult(deal=deal, seat=seat, won=won)
        for deal, one in zip(deals, facts, strict=True)
        for seat, won in enumerate(one.won, start=1)
        # A seat that had left the table has no count in the deal.
        if won is not None
    )
    write_seat_sums(table, rows, leaves)


def write_seat_sums(table: Table, rows: list[Row], leaves: Sequence[Leave] = ()) -> None:
    """Store each seat's sums over ``rows``, the table's deals as just written (and its
    ``leaves``), in one UPDATE of the table's seats. Whatever writes a table's deals calls
    this in the same transaction: the standings read these sums, not the deals."""
    size = len(rows[0]["won"]) if rows else 0
    values = [Seat.sum_values(sums) for sums in seat_sums(rows, size, leaves)]
    Seat.objects.filter(table=table).update(
        **{
            name: Case(
                *(
                    When(position=position, then=Value(seat[name]))
                    for position, seat in enumerate(values, start=1)
                ),
                default=Value(0),
            )
            for name in Seat.SUM_FIELDS
        }
    )


def record_reseat(sheet: Sheet, changes: list[dict[str, Any]], user: Any) -> None:
    """A new version of ``sheet`` (locked by the caller) whose table was re-seated:
    ``changes`` names each seat's player before and after."""
    # Through the queryset: a re-seat is no save of the sheet, so "last saved" stays.
    sheet.version += 1
    Sheet.objects.filter(pk=sheet.pk).update(version=sheet.version)
    SheetVersion.objects.create(
        sheet=sheet,
        number=sheet.version,
        action=RESEATED,
        status=sheet.status,
        deals=current_rows(sheet),
        left=as_items(current_leaves(sheet)),
        changes=changes,
        by=user,
    )
    Sheet.objects.filter(pk=sheet.pk).update(retyped=[], retyped_by_phone=None)


def _phone_number(table: Table, phone: AtTable) -> int:
    """The number of ``phone`` at ``table``, given on its first save. The caller holds the
    table's sheet, so two phones saving at once are numbered one after the other."""
    known = TablePhone.objects.filter(table=table, token=phone.token).first()
    if known is not None:
        return known.number
    latest = TablePhone.objects.filter(table=table).order_by("-number").first()
    number = latest.number + 1 if latest else 1
    TablePhone.objects.create(table=table, number=number, token=phone.token)
    return number


@dataclass(frozen=True)
class _Who:
    """An author as the sheet records them: a user, or the number of a table's phone."""

    user: Any
    phone: int | None

    def same_as(self, user_id: int | None, phone: int | None) -> bool:
        if self.phone is not None:
            return phone == self.phone
        return user_id is not None and user_id == getattr(self.user, "pk", None)


def _who(table: Table, author: Author) -> _Who:
    if isinstance(author, AtTable):
        return _Who(None, _phone_number(table, author))
    return _Who(author, None)


class ClosedAtTableError(UserError):
    """The table's sheet can no longer be typed at the table: it was confirmed, its round
    released, or table entry turned off, since the phone's page was loaded."""

    def __init__(self) -> None:
        super().__init__(access.CLOSED_AT_TABLE.reason)


class SaveRefusedError(UserError):
    """This writer may not save the sheet in its present stage (``sheet_access``)."""


class ReplayMismatchError(UserError):
    """A submission retried with its idempotency key, but carrying other numbers than the
    save recorded under that key: neither is silently kept over the other."""

    def __init__(self, table: Table) -> None:
        super().__init__(
            f"round {table.round.number}, table {table.number}: this save was already "
            "recorded with other numbers: reload the sheet"
        )


def _writer(table: Table, author: Author) -> access.Writer:
    if isinstance(author, AtTable):
        return access.Writer.PHONE
    if table.round.tournament.owner_id == getattr(author, "pk", None):
        return access.Writer.ORGANISER
    return access.Writer.SCORER


def _entered_it(table: Table, sheet: Sheet, author: Author) -> bool:
    """Whether ``author`` is who entered (last saved) ``sheet``; a phone's number is looked
    up without giving it one."""
    if isinstance(author, AtTable):
        number = (
            TablePhone.objects.filter(table=table, token=author.token)
            .values_list("number", flat=True)
            .first()
        )
        return number is not None and sheet.entered_by_phone == number
    return sheet.entered_by_id is not None and sheet.entered_by_id == getattr(author, "pk", None)


def refusal_for(
    table: Table, sheet: Sheet, author: Author, act: access.Act
) -> access.Refusal | None:
    """Why ``author`` (a user, or a phone at the table: ``AtTable``) may not ``act`` on
    ``sheet`` now: the sheet's one rule (``sheet_access``), which the desk, the phone and
    the confirmation pages show and the services enforce. None when they may."""
    sheet.table = table
    facts = access.facts_of(sheet, writer_entered_it=_entered_it(table, sheet, author))
    return access.refusal(_writer(table, author), act, facts)


def _check_may(table: Table, sheet: Sheet, author: Author, act: access.Act) -> None:
    """``refusal_for``, asked under the locks: what the page showed may have changed while
    the request was on its way."""
    refused = refusal_for(table, sheet, author, act)
    if refused is None:
        return
    if refused.closed:
        raise ClosedAtTableError
    if act is access.Act.CONFIRM:
        raise ConfirmRefusedError(refused.reason)
    raise SaveRefusedError(refused.reason)


def _recorded(sheet: Sheet, key: str | None) -> SheetVersion | None:
    """The version of ``sheet`` already recorded for this submission, if any."""
    if not key:
        return None
    return SheetVersion.objects.filter(sheet=sheet, key=key).first()


def carried_same(recorded: list[Row], rows: list[Row], carried: Sequence[int] | None) -> bool:
    """Whether a retried submission carries the numbers its first try recorded: every row
    (``carried`` None), or only the deals it carried (a phone's deal page sends one; its
    review sends none)."""
    if carried is None:
        return _numbers(recorded) == _numbers(rows)
    return all(_numbers(recorded[n - 1 : n]) == _numbers(rows[n - 1 : n]) for n in carried)


def _numbers(rows: Sequence[Row]) -> list[tuple[Any, ...]]:
    """What a row says, without how it was typed (``derived``)."""
    return [(tuple(r["won"]), r["last_in"], r["left_over"]) for r in rows]


def _repeat(
    table: Table,
    sheet: Sheet,
    key: str | None,
    rows: list[Row] | None,
    carried: Sequence[int] | None = None,
) -> bool:
    """Whether this submission was already recorded; refused when it was, with other
    numbers. ``rows`` None: the submission carried no numbers to compare."""
    recorded = _recorded(sheet, key)
    if recorded is None:
        return False
    if rows is not None and not carried_same(list(recorded.deals), rows, carried):
        raise ReplayMismatchError(table)
    return True


def _record(
    sheet: Sheet,
    action: str,
    rows: list[Row],
    before: list[Row],
    who: _Who,
    key: str | None = None,
    leaves: Sequence[Leave] = (),
) -> None:
    sheet.version += 1
    # A re-type that did not match was of the sheet as it was: it no longer stands.
    sheet.retyped = []
    sheet.retyped_by_phone = None
    sheet.save()
    SheetVersion.objects.create(
        sheet=sheet,
        number=sheet.version,
        action=action,
        status=sheet.status,
        deals=rows,
        left=as_items(leaves),
        changes=diff(before, rows),
        by=who.user,
        phone=who.phone,
        key=key or "",
    )


@dataclass(frozen=True)
class SaveResult:
    sheet: Sheet
    status: str
    warnings: tuple[str, ...] = ()
    repeated: bool = False
    # The players this save recorded as leaving, dropped from later rounds: one sentence
    # each to tell whoever saved (``sheet_leaves.drop_leavers``).
    dropped: tuple[str, ...] = ()


def save_sheet(
    table: Table,
    user: Author,
    rows: list[Row],
    *,
    expected_version: int,
    final: bool,
    stopped_early: bool = False,
    key: str | None = None,
    carried: Sequence[int] | None = None,
    left: Sequence[Leave] | None = None,
) -> SaveResult:
    """Save the sheet of ``table`` as a draft (``final=False``) or as complete.

    ``key`` is the submission's idempotency key; ``carried`` the deals whose numbers the
    submission itself carried (None: all of ``rows``), compared with a save already
    recorded under the key. ``left`` are the seats that left mid-round (None: those the
    sheet records already); they must be possible even in a draft, since the rows are
    read with them. A seat the sheet did not show as left before drops its player from
    later rounds once the save has committed (``sheet_leaves``).

    A complete sheet must pass every rule; it then awaits confirmation by another person,
    or is confirmed at once when the tournament does not use the two-person check. A sheet
    typed at the table (``user`` is ``AtTable``) always awaits confirmation. The rules are
    those in force when the save commits: the round is held meanwhile, so the organiser
    cannot re-seat the table or lower the rotations under it.
    """
    with transaction.atomic():
        table = _as_held(table)
        size = table.size
        rows = trim([clean_row(row, size) for row in rows])
        two_person = table.round.tournament.two_person_check or isinstance(user, AtTable)
        sheet = sheet_of(table)
        # Nothing joined (no select_related): a save that waited for the lock gets the
        # sheet row as the other save left it, but joined rows as they were before
        # (PostgreSQL re-reads only the locked row), so ``entered_by`` would name the
        # wrong person in SheetChangedError.
        sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
        sheet.table = table
        shown_leaves = current_leaves(sheet)
        leaves = shown_leaves if left is None else tuple(sorted(left))
        if problems := leave_problems(leaves, table):
            raise SheetInvalidError(problems)
        if final:
            check = check_rows(rows, table, final=True, stopped_early=stopped_early, leaves=leaves)
            if not check.ok:
                raise SheetInvalidError(check.problems)
        if _repeat(table, sheet, key, rows, carried):
            return SaveResult(sheet, sheet.status, repeated=True)
        _check_may(table, sheet, user, access.Act.SAVE)
        who = _who(table, user)
        now = current_rows(sheet)
        if final:
            target = SheetStatus.ENTERED if two_person else SheetStatus.CONFIRMED
        else:
            target = SheetStatus.DRAFT
        if sheet.version != expected_version:
            if now == rows and shown_leaves == leaves and sheet.status == target:
                return SaveResult(sheet, sheet.status, repeated=True)
            raise SheetChangedError(sheet, now)
        if sheet.status == SheetStatus.CONFIRMED:
            before = confirmed_rows(table)
            correcting = bool(before)
        else:
            before = now
            correcting = access.ever_confirmed(sheet)
        sheet.status = target
        sheet.stopped_early = stopped_early and final
        sheet.entered_by = who.user
        sheet.entered_by_phone = who.phone
        if target == SheetStatus.CONFIRMED:
            _write_deals(table, rows, leaves)
            sheet.pending = []
            sheet.pending_left = []
            sheet.confirmed_by = who.user
            sheet.confirmed_by_phone = who.phone
            changed = diff(before, rows) or shown_leaves != leaves
            action = "corrected" if correcting and changed else "confirmed"
        else:
            sheet.pending = rows
            sheet.pending_left = as_items(leaves)
            if final:
                action = "correction" if correcting else "entered"
            else:
                action = "correction_draft" if correcting else "draft"
        _record(sheet, action, rows, before, who, key, leaves)
    warning = stop_warning(len(rows), size, leaves) if final and stopped_early else None
    dropped = drop_leavers(table, leaves, new_seats(shown_leaves, leaves))
    return SaveResult(sheet, sheet.status, (warning,) if warning else (), dropped=tuple(dropped))


class ConfirmRefusedError(UserError):
    """The sheet cannot be confirmed by this person or phone, or not at all now."""


def confirm_sheet(
    table: Table,
    user: Author,
    *,
    expected_version: int,
    retyped: list[Row] | None = None,
    key: str | None = None,
    retyped_left: Sequence[Leave] | None = None,
) -> SaveResult:
    """A second person confirms an entered sheet, by re-typing it blind (``retyped``, with
    the seats that left: ``retyped_left``) or by reviewing it against the paper
    (``retyped=None``).

    A phone at the table (``AtTable``) confirms only by re-typing blind, only a sheet
    typed at the table by another phone, and only when the tournament allows it
    (``table_confirm``). A phone's re-type that does not match is kept on the sheet
    (``Sheet.retyped``), so that the phone that entered it sees the differences too.
    """
    mismatches: list[Mismatch] = []
    with transaction.atomic():
        # Held as a save holds it: a release meanwhile waits, then sees this confirmation
        # (and clears the public pages' cache), or comes first and is seen here.
        table = _as_held(table)
        # Nothing joined, as in save_sheet.
        sheet = Sheet.objects.select_for_update().filter(table=table).first()
        if sheet is None:
            raise ConfirmRefusedError("this sheet is not awaiting confirmation")
        cleaned = None if retyped is None else trim([clean_row(r, table.size) for r in retyped])
        if _repeat(table, sheet, key, cleaned) or (
            sheet.status == SheetStatus.CONFIRMED and sheet.version == expected_version + 1
        ):
            return SaveResult(sheet, sheet.status, repeated=True)
        at_table = isinstance(user, AtTable)
        _check_may(table, sheet, user, access.Act.CONFIRM)
        if sheet.version != expected_version:
            raise SheetChangedError(sheet, current_rows(sheet))
        if at_table and cleaned is None:
            raise ConfirmRefusedError("a phone at the table confirms by re-typing the sheet blind")
        who = _who(table, user)
        rows = list(sheet.pending)
        leaves = stored_leaves(sheet.pending_left)
        # Entered under the rules then in force; they still hold unless the organiser
        # found a way round the checks, which must not reach the official facts.
        if problems := leave_problems(leaves, table):
            raise SheetInvalidError(problems)
        check = check_rows(
            rows, table, final=True, stopped_early=sheet.stopped_early, leaves=leaves
        )
        if not check.ok:
            raise SheetInvalidError(check.problems)
        if cleaned is not None and retyped_left is not None and set(retyped_left) != set(leaves):
            raise LeavesMismatchError(table, retyped_left)
        if cleaned is not None:
            mismatches = compare(rows, cleaned)
        if mismatches:
            if at_table:
                Sheet.objects.filter(pk=sheet.pk).update(
                    retyped=cleaned, retyped_by_phone=who.phone
                )
        else:
            before = confirmed_rows(table)
            _write_deals(table, rows, leaves)
            sheet.status = SheetStatus.CONFIRMED
            sheet.pending = []
            sheet.pending_left = []
            sheet.confirmed_by = who.user
            sheet.confirmed_by_phone = who.phone
            action = "correction_confirmed" if before else "confirmed"
            _record(sheet, action, rows, before, who, key, leaves)
    if mismatches:
        raise SheetMismatchError(mismatches)
    return SaveResult(sheet, sheet.status)


class LeavesMismatchError(UserError):
    """A blind re-type records other players leaving than the sheet as entered. The
    entered leaves are not shown: the confirmer has still not seen the sheet."""

    def __init__(self, table: Table, retyped: Sequence[Leave]) -> None:
        typed = "; ".join(
            f"seat {leave.seat} left after deal {leave.after_deal}" for leave in sorted(retyped)
        )
        super().__init__(
            f"round {table.round.number}, table {table.number}: the players who left differ "
            f"from the sheet as entered (re-typed: {typed or 'nobody left'}); check them "
            "against the paper together. Nothing was saved"
        )


def compare(entered: list[Row], retyped: list[Row]) -> list[Mismatch]:
    mismatches = []
    for change in diff(entered, retyped):
        if change["field"] == "deal":
            for key in ("last_in", "left_over"):
                old = (change["before"] or {}).get(key)
                new = (change["after"] or {}).get(key)
                mismatches.append(Mismatch(change["deal"], key, None, old, new))
        else:
            mismatches.append(
                Mismatch(
                    change["deal"],
                    change["field"],
                    change["seat"],
                    change["before"],
                    change["after"],
                )
            )
    return mismatches

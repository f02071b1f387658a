"""The facts of one deal and the rules they must obey.

Terms (docs/rules.md tells the rules in full):

- *table size* ``n``: players at a table, 3 to 8 as the rule set allows. Seats are
  numbered 1..n clockwise.
- *deal number* ``d``: 1, 2, ... at one table in one round. Seat 1 deals deal 1 and the
  deal passes to the left, so seat ``((d - 1) mod n) + 1`` deals deal ``d``.
- *rotation*: n deals, one dealt by each seat. A round of k rotations is ``k * n`` deals.
- *won*: the cards each seat won during play, in seat order. Always even, never negative.
- *last in*: the seat still holding cards when play stopped.
- *left over*: the cards not won during play (the last-in hand plus the table). Even, >= 2.
- *checksum*: ``sum(won) + left_over == 52``.
- *lying-down order* (``laid_down``): the seats in the order they lay down, first out
  first; every seat playing the deal but the last in, once. Recorded where the rule set
  scores it (Caidis), and kept wherever it was recorded.
- *leave*: a seat that left the table after a deal (``Leave``). Its turns to deal after it
  left are skipped, so the deal passes among the seats left and every one of them still
  deals as often as the round's rotations say; the deals after it are dealt at the smaller
  size, and the seat's ``won`` is ``None`` in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import UserError

CARDS_IN_PACK = 52


@dataclass(frozen=True)
class TableParams:
    """How one table size is dealt and staked (the table sizes of docs/rules.md)."""

    players: int
    cards_each: int
    table_cards: int
    dealer_stake: int
    other_stake: int
    pot: int
    last_in_prize: int
    break_even: int

    def stake(self, seat: int, dealer: int) -> int:
        return self.dealer_stake if seat == dealer else self.other_stake


# The smallest and largest tables any rule set seats (``scoring.rulesets`` gives each
# rule set's own sizes and numbers).
MIN_TABLE_SIZE = 3
MAX_TABLE_SIZE = 8


class DealError(UserError):
    """A deal that breaks the rules; ``problems`` lists every broken rule at once."""

    def __init__(self, problems: Sequence[RuleBreak]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class RuleBreak:
    """One broken rule of a deal. ``field`` is ``won``, ``last_in``, ``left_over``,
    ``checksum`` or ``laid_down``; ``seat`` is set when the problem belongs to one seat's count."""

    field: str
    message: str
    seat: int | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class DealFacts:
    """The facts of one deal as written on the score sheet, already validated. A seat
    that had left the table before this deal has ``None`` for its cards won."""

    won: tuple[int | None, ...]
    last_in: int
    left_over: int
    # The seats in the order they lay down (the last in never does), when recorded.
    laid_down: tuple[int, ...] = ()

    @property
    def table_size(self) -> int:
        """The seats of the table, those that have left included."""
        return len(self.won)

    @property
    def players(self) -> int:
        """The players who took part in this deal: the size it was dealt at."""
        return sum(1 for cards in self.won if cards is not None)

    def cards(self, seat: int) -> int:
        """Seat ``seat``'s cards won, 0 for a seat that had left."""
        return self.won[seat - 1] or 0


@dataclass(frozen=True, order=True)
class Leave:
    """Seat ``seat`` left the table after deal ``after_deal`` and took no part afterwards."""

    after_deal: int
    seat: int


def leaves_of(items: Sequence[dict[str, int]]) -> tuple[Leave, ...]:
    """Leaves as a sheet or a file stores them, ``[{"seat": 3, "after_deal": 7}]``, in the
    order they happened."""
    return tuple(sorted(Leave(item["after_deal"], item["seat"]) for item in items))


def absent_seats(deal_number: int, leaves: Sequence[Leave]) -> frozenset[int]:
    """The seats that had left the table before deal ``deal_number``."""
    return frozenset(leave.seat for leave in leaves if leave.after_deal < deal_number)


def dealers(table_size: int, rotations: int, leaves: Sequence[Leave] = ()) -> tuple[int, ...]:
    """The dealer of every deal of a round, deal 1 first.

    The deal passes left round the whole table, ``rotations`` times; a turn that falls to a
    seat that has left is skipped. So the seats left each deal as often as without the
    leave, and a seat that left dealt only its turns before it left."""
    order: list[int] = []
    for turn in range(table_size * rotations):
        seat = turn % table_size + 1
        if seat not in absent_seats(len(order) + 1, leaves):
            order.append(seat)
    return tuple(order)


def dealer_at(deal_number: int, table_size: int, leaves: Sequence[Leave] = ()) -> int:
    """The seat that deals deal ``deal_number``, at a round of any length."""
    if not leaves:
        return dealer_of(deal_number, table_size)
    rotations = -(-deal_number // max(1, table_size - len(leaves)))
    return dealers(table_size, rotations + 1, leaves)[deal_number - 1]


def deals_in_round(table_size: int, rotations: int, leaves: Sequence[Leave] = ()) -> int:
    """How many deals a round of ``rotations`` holds at this table, leaves counted."""
    return len(dealers(table_size, rotations, leaves))


def validate_leaves(leaves: Sequence[Leave], table_size: int, rotations: int) -> list[str]:
    """Every reason these leaves cannot be: each named by its seat."""
    problems = []
    seen: set[int] = set()
    for leave in sorted(leaves, key=lambda leave: (leave.after_deal, leave.seat)):
        where = f"seat {leave.seat} left after deal {leave.after_deal}"
        if not 1 <= leave.seat <= table_size:
            problems.append(f"{where}: there is no seat {leave.seat} at a table of {table_size}")
            continue
        if leave.seat in seen:
            problems.append(f"{where}: seat {leave.seat} has already left")
            continue
        seen.add(leave.seat)
        if leave.after_deal < 1:
            problems.append(
                f"{where}: a player who leaves before deal 1 did not play — re-seat the "
                "table instead"
            )
            continue
        if table_size - len(seen) < MIN_TABLE_SIZE:
            # Named once, below, with every leaver: which of them is one too many is the
            # table's to say, not the order they were typed in.
            continue
        # The round as it is with this leave and those before it: the leaver's later turns
        # to deal are skipped, so a leave after the last of the shortened round's deals
        # leaves nothing to leave.
        earlier = [other for other in leaves if other.seat in seen]
        total = deals_in_round(table_size, rotations, earlier)
        if leave.after_deal >= total:
            problems.append(
                f"{where}: the round has {total} deals, so after deal {leave.after_deal} "
                "there is nothing left to leave"
                + (
                    f" (leaving skips seat {leave.seat}'s later turns to deal, so the round "
                    f"ends at deal {total})"
                    if total
                    < deals_in_round(table_size, rotations, [o for o in earlier if o != leave])
                    else ""
                )
            )
    gone = list(
        {
            leave.seat: leave
            for leave in sorted(leaves, key=lambda leave: (leave.after_deal, leave.seat))
            if 1 <= leave.seat <= table_size and leave.after_deal >= 1
        }.values()
    )
    staying = table_size - len(gone)
    if gone and staying < MIN_TABLE_SIZE:
        who = " and ".join(
            [
                ", ".join(
                    f"seat {leave.seat} left after deal {leave.after_deal}" for leave in gone[:-1]
                ),
                f"seat {gone[-1].seat} left after deal {gone[-1].after_deal}",
            ]
            if len(gone) > 1
            else [f"seat {gone[0].seat} left after deal {gone[0].after_deal}"]
        )
        problems.append(
            f"{who}: {staying} players would be left, and a table needs at least "
            f"{MIN_TABLE_SIZE} — mark the table as stopped early instead"
        )
    return problems


def dealer_of(deal_number: int, table_size: int) -> int:
    """The seat that deals deal ``deal_number`` (seat 1 deals first, the deal passes left)."""
    return (deal_number - 1) % table_size + 1


def deals_per_round(table_size: int, rotations: int) -> int:
    return table_size * rotations


def _whole_number(value: object) -> int | None:
    # bool is an int in Python, but True is not a count of cards.
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


# Longest typed value quoted in a message: a message must stay readable whatever was
# pasted into a cell or a file.
_SHOWN_MAX = 40


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    if len(text) > _SHOWN_MAX:
        text = text[: _SHOWN_MAX - 1] + "…"
    return f"“{text}”" if isinstance(value, str) else text


def validate_deal(
    won: Sequence[object],
    last_in: object,
    left_over: object,
    table_size: int,
    absent: frozenset[int] = frozenset(),
    laid_down: Sequence[object] | None = None,
    *,
    order_needed: bool = False,
) -> list[RuleBreak]:
    """Every rule this deal breaks, in sheet order (seats, left over, last in, checksum,
    lying-down order). ``absent`` are the seats that had left the table before this deal:
    their cards won must be blank, and none of them can be last in or lie down.
    ``laid_down`` is checked when given; ``order_needed``: the rule set scores it."""
    problems = _deal_problems(won, last_in, left_over, table_size, absent)
    if laid_down or order_needed:
        problems += order_problems(laid_down or (), last_in, table_size, absent)
    return problems


def order_problems(
    laid_down: Sequence[object], last_in: object, table_size: int, absent: frozenset[int]
) -> list[RuleBreak]:
    """Every reason ``laid_down`` is not the order in which this deal's seats lay down."""
    where = "lying-down order"
    playing = [seat for seat in range(1, table_size + 1) if seat not in absent]
    if not laid_down:
        return [
            RuleBreak(
                "laid_down",
                f"{where}: missing — give the seats in the order they lay down, first out "
                "first (the last in never lies down)",
            )
        ]
    problems: list[RuleBreak] = []
    seen: set[int] = set()
    for value in laid_down:
        seat = _whole_number(value)
        if seat is None:
            problems.append(RuleBreak("laid_down", f"{where}: {_shown(value)} is not a seat"))
        elif not 1 <= seat <= table_size:
            problems.append(
                RuleBreak(
                    "laid_down",
                    f"{where}: seat {seat} is not a seat at this table (seats 1–{table_size})",
                )
            )
        elif seat in absent:
            problems.append(
                RuleBreak("laid_down", f"{where}: seat {seat} had left the table", seat)
            )
        elif seat in seen:
            problems.append(
                RuleBreak("laid_down", f"{where}: seat {seat} lies down only once", seat)
            )
        elif seat == last_in:
            problems.append(
                RuleBreak(
                    "laid_down",
                    f"{where}: seat {seat} was last in, so it never lay down",
                    seat,
                )
            )
        else:
            seen.add(seat)
    if not problems:
        missing = [seat for seat in playing if seat not in seen and seat != last_in]
        if missing:
            named = ", ".join(f"seat {seat}" for seat in missing)
            problems.append(
                RuleBreak(
                    "laid_down",
                    f"{where}: {named} never lay down — every seat but the last in lies down",
                    missing[0],
                )
            )
    return problems


def _deal_problems(
    won: Sequence[object],
    last_in: object,
    left_over: object,
    table_size: int,
    absent: frozenset[int],
) -> list[RuleBreak]:
    problems: list[RuleBreak] = []
    counts: list[int] = []
    if len(won) != table_size:
        problems.append(
            RuleBreak(
                "won",
                f"{len(won)} counts of cards won for a table of {table_size}; "
                f"give one count per seat",
            )
        )
    for seat, value in enumerate(won, start=1):
        if seat in absent:
            if not (value is None or value == ""):
                problems.append(
                    RuleBreak(
                        "won",
                        f"seat {seat}: {_shown(value)} cards won, but seat {seat} had left "
                        "the table — leave its count blank",
                        seat,
                    )
                )
            continue
        if value is None or value == "":
            problems.append(RuleBreak("won", f"seat {seat}: cards won is missing", seat))
            continue
        count = _whole_number(value)
        if count is None:
            problems.append(
                RuleBreak("won", f"seat {seat}: {_shown(value)} is not a whole number", seat)
            )
        elif count < 0:
            problems.append(RuleBreak("won", f"seat {seat}: {count} cards won is negative", seat))
        elif count % 2:
            problems.append(
                RuleBreak(
                    "won", f"seat {seat}: {count} cards won is odd — cards are won in pairs", seat
                )
            )
        else:
            counts.append(count)

    leftover: int | None = None
    if left_over is None or left_over == "":
        problems.append(RuleBreak("left_over", "left over: missing"))
    elif (leftover := _whole_number(left_over)) is None:
        problems.append(
            RuleBreak("left_over", f"left over: {_shown(left_over)} is not a whole number")
        )
    elif leftover % 2:
        problems.append(
            RuleBreak("left_over", f"left over: {leftover} is odd — cards are left over in pairs")
        )
        leftover = None
    elif leftover < 2:
        problems.append(
            RuleBreak(
                "left_over",
                f"left over: {leftover} is less than 2 — the last-in player always "
                "still holds cards",
            )
        )
        leftover = None

    if last_in is None or last_in == "":
        problems.append(RuleBreak("last_in", "last in: missing — which seat was last in?"))
    elif (seat_in := _whole_number(last_in)) is None:
        problems.append(RuleBreak("last_in", f"last in: {_shown(last_in)} is not a seat number"))
    elif not 1 <= seat_in <= table_size:
        problems.append(
            RuleBreak(
                "last_in",
                f"last in: seat {seat_in} is not a seat at this table (seats 1–{table_size})",
            )
        )
    elif seat_in in absent:
        problems.append(
            RuleBreak(
                "last_in",
                f"last in: seat {seat_in} had left the table — name a seat still playing",
            )
        )

    playing = table_size - len(absent & set(range(1, table_size + 1)))
    all_counts_usable = len(counts) == playing and len(won) == table_size
    if all_counts_usable and leftover is not None and sum(counts) + leftover != CARDS_IN_PACK:
        total = sum(counts) + leftover
        problems.append(
            RuleBreak("checksum", f"cards won plus left over is {total}, not {CARDS_IN_PACK}")
        )
    return problems


def make_deal(
    won: Sequence[object],
    last_in: object,
    left_over: object,
    table_size: int,
    absent: frozenset[int] = frozenset(),
    laid_down: Sequence[object] | None = None,
    *,
    order_needed: bool = False,
) -> DealFacts:
    """A validated ``DealFacts``, or ``DealError`` listing every problem."""
    problems = validate_deal(
        won, last_in, left_over, table_size, absent, laid_down, order_needed=order_needed
    )
    if problems:
        raise DealError(problems)
    counts = tuple(None if seat in absent else cards for seat, cards in enumerate(won, 1))
    order = tuple(laid_down or ())
    return DealFacts(counts, last_in, left_over, order)  # type: ignore[arg-type]


def missing_value(
    won: Sequence[int | None], left_over: int | None, absent: frozenset[int] = frozenset()
) -> tuple[str, int | None, int] | None:
    """When exactly one count (a seat's cards won, or the left over) is blank and the rest
    are whole numbers, the value that makes the row add up to 52: ``(field, seat, value)``.
    None when there is no single blank or the value would not be a valid count. The seats
    in ``absent`` had left the table: their blanks are not counts."""
    blanks = [
        seat for seat, value in enumerate(won, start=1) if value is None and seat not in absent
    ]
    if left_over is None:
        blanks.append(0)
    if len(blanks) != 1:
        return None
    known = sum(v for v in won if v is not None) + (left_over or 0)
    value = CARDS_IN_PACK - known
    if value < 0 or value % 2:
        return None
    if blanks[0] == 0:
        return ("left_over", None, value) if value >= 2 else None
    return ("won", blanks[0], value)

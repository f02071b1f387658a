"""Players who leave a table mid-round, as a score sheet records them (docs/rules.md, "A
player leaves mid-round").

Terms:

- *leaves*: a sheet's list of ``{"seat": 3, "after_deal": 7}`` (``scoring.rules.Leave``),
  stored as typed rows are: ``Sheet.pending_left`` with the rows of a draft or of a sheet
  awaiting confirmation, ``Table.left`` with the confirmed deals, ``SheetVersion.left``
  with each version.
- *new leave*: a seat that a save records as left and that the sheet did not show as left
  before the save. Its player is dropped from later rounds (``Player.active``), as the
  Players page's "Drop out" does; "Return" brings them back. Removing the leave from the
  sheet later does not bring them back: whether they play on is the organiser's call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.rules import Leave, leaves_of, validate_leaves
from scoring.rulesets import sizes_text
from tournament.models import Seat, Sheet, SheetStatus, Table
from tournament.players.services import set_status

# A leave as a sheet stores it.
LeaveItem = dict[str, int]


def as_items(leaves: Iterable[Leave]) -> list[LeaveItem]:
    """Leaves as a sheet stores them, in the order they happened."""
    return [{"seat": leave.seat, "after_deal": leave.after_deal} for leave in sorted(leaves)]


def stored_leaves(items: object) -> tuple[Leave, ...]:
    """The well-formed leaves of a stored list (a sheet's JSON, a file's), in the order
    they happened; anything else is no leave."""
    if not isinstance(items, list):
        return ()
    return leaves_of(
        [
            item
            for item in items
            if isinstance(item, dict)
            and _whole(item.get("seat"))
            and _whole(item.get("after_deal"))
        ]
    )


def _whole(value: object) -> bool:
    # bool is an int in Python, but True is no seat.
    return isinstance(value, int) and not isinstance(value, bool)


def current_leaves(sheet: Sheet) -> tuple[Leave, ...]:
    """The leaves the sheet shows now: those of the rows being typed or awaiting
    confirmation, else the confirmed ones (a correction starts from them)."""
    if sheet.status in (SheetStatus.DRAFT, SheetStatus.ENTERED):
        return stored_leaves(sheet.pending_left)
    return stored_leaves(sheet.table.left)


def leave_problems(leaves: Sequence[Leave], table: Table) -> list[str]:
    """Every reason these leaves cannot be at ``table``, each naming its seat and deal: the
    rules of leaving, and the sizes the tournament's rules seat."""
    tournament = table.round.tournament
    problems = validate_leaves(leaves, table.size, tournament.rotations_per_round)
    if problems:
        return problems
    return size_problems(leaves, table.size, tournament.sizes_allowed, tournament.rules.name)


def size_problems(
    leaves: Sequence[Leave], size: int, sizes: Sequence[int], rules: str
) -> list[str]:
    """The leaves after which a table of ``size`` would deal at a size not in ``sizes``
    (those of the rules named ``rules``), each naming its seat and deal."""
    problems = []
    for gone, leave in enumerate(sorted(leaves), start=1):
        players = size - gone
        if players not in sizes:
            problems.append(
                f"seat {leave.seat} left after deal {leave.after_deal}: the deals after it "
                f"would be dealt at {players} players, and {rules} seat "
                f"{sizes_text(sizes)} — mark the table as stopped early instead"
            )
    return problems


def unplayed_leaves(leaves: Sequence[Leave], deals: int) -> list[str]:
    """A complete sheet of ``deals`` deals cannot record a leave after a deal it lacks."""
    return [
        f"seat {leave.seat} left after deal {leave.after_deal}, but the sheet has "
        f"{deals} deal{'s' if deals != 1 else ''}: correct the deal, or remove the leave"
        for leave in leaves
        if leave.after_deal >= deals
    ]


def new_seats(before: Sequence[Leave], after: Sequence[Leave]) -> list[int]:
    """The seats ``after`` shows as left that ``before`` did not."""
    gone = {leave.seat for leave in before}
    return [leave.seat for leave in sorted(after) if leave.seat not in gone]


def drop_leavers(table: Table, leaves: Sequence[Leave], seats: Sequence[int]) -> list[str]:
    """Drop the players of ``seats`` (new leaves of ``table``, just saved) from later
    rounds, as the Players page's "Drop out" does; what to tell whoever saved, one
    sentence each. Called once the save has committed: dropping a player locks the
    tournament, which a sheet save must not take before its round (``shared.locks``)."""
    after = {leave.seat: leave.after_deal for leave in leaves}
    told = []
    for seat in Seat.objects.filter(table=table, position__in=seats).select_related("player"):
        player = seat.player
        warning = set_status(player, active=False)
        text = (
            f"{player.name} left after deal {after[seat.position]} and is dropped from later "
            "rounds; Return on the Players page brings them back"
        )
        told.append(f"{text} ({warning})" if warning else text)
    return told


def leave_in_words(leave: Leave, names: dict[int, str]) -> str:
    """ "seat 3 (Ann Lee) left after deal 7"."""
    name = names.get(leave.seat)
    seat = f"seat {leave.seat} ({name})" if name else f"seat {leave.seat}"
    return f"{seat} left after deal {leave.after_deal}"


def leave_changes(before: object, after: object, names: dict[int, str]) -> list[str]:
    """How a version's leaves differ from the previous version's, in words."""
    old, new = set(stored_leaves(before)), set(stored_leaves(after))
    return [
        *(leave_in_words(leave, names) for leave in sorted(new - old)),
        *(f"no longer recorded: {leave_in_words(leave, names)}" for leave in sorted(old - new)),
    ]

"""What a save or a confirmation of a score sheet came to: one ``Outcome``. A page answers
a save its own way (the next deal, the round's home) and a refusal with its face's one
function (``sheets.desk.answers``, ``sheets.phone.answers``).

Its *kind* says what happened, in words a scorer would use:

- ``SAVED``: the sheet was saved or confirmed (``repeated``: it had been already, with
  these numbers);
- ``INVALID``: the rows break the rules (``problems``); nothing was saved;
- ``MISMATCH``: a blind re-type differs from the sheet as entered, in its cells
  (``mismatches``) or in the players who left; nothing was confirmed;
- ``CHANGED``: someone saved the sheet since this copy was loaded (``changed`` holds both
  copies);
- ``CLOSED``: the sheet can no longer be typed at the table;
- ``REFUSED``: this person or phone may not act on the sheet now, or the sheet as entered
  cannot be confirmed;
- ``REPLAYED``: a submission sent again with its key, carrying other numbers than its
  first try recorded.

Anything but ``SAVED`` carries the refusal (``refusal``), whose words name the round,
table, deal and seat. A caller that cannot go on without the save (a command, a bench)
asks ``or_raise``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from scoring.errors import UserError
from scoring.rules import Leave
from tournament.models import Sheet, SheetVersion, Table
from tournament.sheets.authors import ClosedAtTableError
from tournament.sheets.checking import SheetInvalidError
from tournament.sheets.rows import Mismatch, Row
from tournament.sheets.versions import RESEATED, ReplayMismatchError


class OutcomeKind(Enum):
    SAVED = "saved"
    INVALID = "invalid"
    MISMATCH = "mismatch"
    CHANGED = "changed"
    CLOSED = "closed"
    REFUSED = "refused"
    REPLAYED = "replayed"


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


class SheetMismatchError(UserError):
    def __init__(self, mismatches: Sequence[Mismatch]) -> None:
        self.mismatches = list(mismatches)
        count = len(self.mismatches)
        super().__init__(
            f"{count} {'cell differs' if count == 1 else 'cells differ'} from the sheet as "
            "entered; check them against the paper together"
        )


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


# Each refusal's kind, the first that fits; any other is the sheet's rule refusing.
_KINDS: tuple[tuple[type[UserError], OutcomeKind], ...] = (
    (ClosedAtTableError, OutcomeKind.CLOSED),
    (SheetInvalidError, OutcomeKind.INVALID),
    (SheetMismatchError, OutcomeKind.MISMATCH),
    (LeavesMismatchError, OutcomeKind.MISMATCH),
    (SheetChangedError, OutcomeKind.CHANGED),
    (ReplayMismatchError, OutcomeKind.REPLAYED),
)


@dataclass(frozen=True)
class Outcome:
    kind: OutcomeKind
    # Saved: the sheet as saved, its status, what to warn of, and whether it was saved
    # before (nothing changed).
    sheet: Sheet | None = None
    status: str = ""
    warnings: tuple[str, ...] = ()
    repeated: bool = False
    # The players this save recorded as leaving, dropped from later rounds: one sentence
    # each to tell whoever saved (``sheets.leaves.drop_leavers``).
    dropped: tuple[str, ...] = ()
    # Not saved: why.
    refusal: UserError | None = None

    @classmethod
    def refused(cls, refusal: UserError, kind: OutcomeKind | None = None) -> Outcome:
        """The outcome of a save or a confirmation that ``refusal`` stopped; ``kind``
        where the caller knows better than the refusal's class."""
        found = kind or next(
            (kind for error, kind in _KINDS if isinstance(refusal, error)), OutcomeKind.REFUSED
        )
        return cls(found, refusal=refusal)

    @property
    def saved(self) -> bool:
        return self.kind is OutcomeKind.SAVED

    @property
    def problems(self) -> tuple[str, ...]:
        """What an invalid sheet breaks, one sentence each."""
        return tuple(self.refusal.problems) if isinstance(self.refusal, SheetInvalidError) else ()

    @property
    def mismatches(self) -> list[Mismatch]:
        """The cells a blind re-type differs in; none when it differs in who left."""
        return self.refusal.mismatches if isinstance(self.refusal, SheetMismatchError) else []

    @property
    def changed(self) -> SheetChangedError:
        """Both copies of a sheet changed meanwhile."""
        assert isinstance(self.refusal, SheetChangedError), self.kind
        return self.refusal

    def or_raise(self) -> Outcome:
        """This outcome if saved; its refusal raised otherwise."""
        if self.refusal is not None:
            raise self.refusal
        return self

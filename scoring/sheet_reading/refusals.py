"""Why a photo is not read: a reason a program can act on and words a scorer can.

Each ``PhotoRefusal`` names one of ``REFUSALS`` and says, in a sentence, what is wrong with the
photo and what to do about it (take it again flatter, with more light, the whole sheet in
view...). The words never blame the scorer's phone or name a library.
"""

from __future__ import annotations

from dataclasses import dataclass

REFUSALS = (
    "not_our_sheet",
    "other_tournament",
    "other_round",
    "other_table",
    "blurred",
    "dark",
    "cut_off",
    "unreadable_file",
    "too_large",
)


@dataclass(frozen=True)
class PhotoRefusal:
    """A photo not read: ``reason`` one of ``REFUSALS``, ``words`` a sentence for a scorer."""

    reason: str
    words: str

    def __post_init__(self) -> None:
        if self.reason not in REFUSALS:
            raise ValueError(f"no refusal is called {self.reason!r}")

"""A tournament file's problems: how they are worded and counted.

A file with any problem changes nothing; every problem is counted at once, and the first
``PROBLEMS_SHOWN`` are worded (a file of 200,000 bad players must not make 600,000
messages). Text quoted from the file is cut short (``short``), and a place in it is
written as a JSON path with 0-based indexes (``json_path``: ``players[5].name``), a key
that is not a plain word in quotes and brackets (``json_key``: ``rule_set.tables["05"]``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import UserError
from scoring.rulesets import SIZE_KEYS

# A person reads the first problems and fixes the cause; the rest are counted.
PROBLEMS_SHOWN = 100


def _problems(count: int) -> str:
    return f"{count} problem{'s' if count != 1 else ''}"


class TournamentFileError(UserError):
    """A tournament file that cannot be imported: ``problems`` lists the first problems
    (every one, unless there are more than ``PROBLEMS_SHOWN``), ``total`` counts all."""

    def __init__(self, problems: Iterable[str], total: int | None = None) -> None:
        self.problems = list(problems)
        self.total = len(self.problems) if total is None else total
        more = self.total - len(self.problems)
        super().__init__(
            f"{_problems(self.total)} in the tournament file:\n"
            + "\n".join(f"  - {p}" for p in self.problems)
            + (f"\n  … and {more} more problem{'s' if more != 1 else ''}" if more else "")
        )


@dataclass(frozen=True)
class Problems:
    """The first problems of a file, worded, and how many there are in all."""

    shown: tuple[str, ...]
    total: int

    def __bool__(self) -> bool:
        return self.total > 0

    def error(self) -> TournamentFileError:
        return TournamentFileError(self.shown, self.total)


def short(text: str, limit: int = 40) -> str:
    """Text from the file quoted in a problem, cut short (a 10 MB name must not make a
    10 MB message), its control and invisible characters shown by their codes (a name
    that is only a line break must not make a message that seems to say nothing)."""
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return "".join(
        f"U+{ord(char):04X}" if unicodedata.category(char) in ("Cc", "Cf") else char
        for char in text
    )


# A house-rule key that names no table size ("05", "٥", "²", "9"), where it is named.
NOT_A_SIZE_KEY = (
    "“{key}” is not a table size of the house rules: their keys are "
    + ", ".join(f"“{key}”" for key in SIZE_KEYS[:-1])
    + f" and “{SIZE_KEYS[-1]}”, in plain digits, each once"
)


def json_key(key: str) -> str:
    """A key of an object as a place names it, in brackets: ``"05"`` (cut short, its
    invisible characters shown by their codes)."""
    return f'"{short(key)}"'


def json_path(path: Iterable[object]) -> str:
    text = ""
    for part in path:
        shown = short(str(part))
        text += f"[{part}]" if isinstance(part, int) else (f".{shown}" if text else shown)
    return text or "the file"

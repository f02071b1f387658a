"""How names are checked, and how people's names and clubs are compared when matching a
tournament's players to the register of people (``people.services``).

- *key*: a name or club as compared: accents dropped ("Zoë" → "zoe"), case folded
  ("MacLeod" → "macleod"), and every run of spaces, hyphens, dots and apostrophes made
  one space, so "Anne-Marie  O'Neil" and "anne marie o neil" are the same person's name.
- *text_problem*: one rule for every name (a tournament's, a series', a player's, a
  person's), club, member number and reason, typed, imported from a list or a tournament
  file, or given to a command: it has a visible character, and no invisible one that
  could make it look like another name (a zero-width space) or turn the text around it
  (a direction override). Forms ask it through ``kernel.forms``.
- *without_hidden*: what is left of a text once the characters ``text_problem`` refuses
  are taken out: how a restore reads a name an older version let through
  (``backup.older``).
"""

from __future__ import annotations

import re
import unicodedata

_SEPARATORS = re.compile(r"[\s\-.'’‘_]+")


def key(text: str) -> str:
    """``text`` as names and clubs are compared (see the module's docstring)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _SEPARATORS.sub(" ", bare.casefold()).strip()


# Characters that turn the direction of the text around them: a name holding one can
# show as another name, or carry the rest of its row along.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Joiners shape the letters of several scripts (and emoji): they belong in a name.
JOINERS = frozenset("\u200c\u200d")
# Letters that draw nothing: a name of them alone looks empty.
BLANK_LETTERS = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def _invisible(char: str) -> bool:
    """A character that shows nothing and is not a space: a format or control character
    (a zero-width space, a byte order mark), or one never assigned."""
    return unicodedata.category(char) in ("Cf", "Cc", "Co", "Cs", "Cn") and char not in JOINERS


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_LETTERS


def _refused(char: str) -> bool:
    return char in BIDI_CONTROLS or _invisible(char)


def without_hidden(value: str) -> str:
    """``value`` without the characters ``text_problem`` refuses; a line break or a tab
    among them (control characters) stands for a space, and spaces are then tidied.
    Unchanged when it holds none."""
    if not any(_refused(char) for char in value):
        return value
    kept = "".join(" " if char.isspace() else "" if _refused(char) else char for char in value)
    return " ".join(kept.split())


def text_problem(value: str, what: str = "name") -> str | None:
    """What is wrong with ``value``, a ``what`` (a name, a club…) as it will be stored
    (spaces already normalised), in words for the organiser; None when nothing is."""
    if any(char in BIDI_CONTROLS for char in value):
        return f"the {what} has invisible direction-changing characters"
    if value and not any(_visible(char) for char in value):
        return f"the {what} has no visible characters"
    hidden = next((char for char in value if _invisible(char)), None)
    if hidden is not None:
        code = f"U+{ord(hidden):04X}"
        label = unicodedata.name(hidden, "")
        return f"the {what} has an invisible character ({code}{' ' + label if label else ''})"
    return None

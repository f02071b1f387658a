"""How people's names and clubs are compared when matching a tournament's players to the
register of people (``people.services``).

- *key*: a name or club as compared: accents dropped ("Zoë" → "zoe"), case folded
  ("MacLeod" → "macleod"), and every run of spaces, hyphens, dots and apostrophes made
  one space, so "Anne-Marie  O'Neil" and "anne marie o neil" are the same person's name.
- *text_problem*: one rule for every name, club, member number and reason, typed or
  imported: it has a visible character, and no invisible one that could make it look
  like another name (a zero-width space) or turn the text around it (a direction
  override).
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


def text_problem(value: str, what: str = "name") -> str | None:
    """What is wrong with a player's ``what`` (name or club) as it will be stored
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

"""How people's names and clubs are compared when matching a tournament's players to the
register of people (``services.people``).

- *key*: a name or club as compared: accents dropped ("Zoë" → "zoe"), case folded
  ("MacLeod" → "macleod"), and every run of spaces, hyphens, dots and apostrophes made
  one space, so "Anne-Marie  O'Neil" and "anne marie o neil" are the same person's name.
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

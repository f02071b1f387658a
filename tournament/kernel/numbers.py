"""Numbers as every page shows them: a negative one with a minus sign (U+2212, "−3"),
as a penalty's "−2" is shown, never a hyphen ("-3"). Classic stakes' nets, round totals
and points below zero, and a skill rating below the mean, all read alike."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

MINUS = "\u2212"
_NEGATIVE_TEXT = re.compile(r"-\d+(\.\d+)?")


def shown(value: object) -> object:
    """``value`` with a minus sign when it is a negative number (or a number's text such
    as "-5.3"); anything else as it is."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Fraction | Decimal) and value < 0:
        return f"{MINUS}{-value}"
    if isinstance(value, str) and _NEGATIVE_TEXT.fullmatch(value):
        return MINUS + value[1:]
    return value

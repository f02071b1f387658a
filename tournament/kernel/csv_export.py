"""CSV files the app writes, made safe to open in a spreadsheet.

Terms: a *formula start* is a first character that makes Excel or LibreOffice read a
cell as a formula or a link (``=``, ``+``, ``-``, ``@``, their full-width forms, a tab,
a line break), also after leading spaces or invisible characters. A
text cell that begins with one is *neutralised* by a leading apostrophe, as OWASP's
CSV-injection advice has it: the spreadsheet shows the text, the apostrophe included,
and evaluates nothing. Numbers are written as numbers (a score of -3 stays a number a
spreadsheet can sum); only text is ever neutralised. Every text cell is quoted, so a
name with a comma or a line break stays one cell.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")

# Excel reads a CSV file without a byte order mark in the machine's legacy code page,
# so "Zoë" would show as "ZoÃ«"; with it, as UTF-8.
DOWNLOAD_ENCODING = "utf-8-sig"

Cell = str | int | None


def _after_blanks(text: str) -> str:
    """``text`` from its first character that is neither a space nor invisible: a
    spreadsheet may skip those before it reads a formula."""
    for index, char in enumerate(text):
        if not (char.isspace() or unicodedata.category(char) in ("Cf", "Cc", "Zs")):
            return text[index:]
    return ""


def neutralised(value: Cell) -> Cell:
    if isinstance(value, str) and (
        value.startswith(FORMULA_STARTS) or _after_blanks(value).startswith(FORMULA_STARTS)
    ):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> str:
    """``header`` and ``rows`` as CSV text: text cells quoted and neutralised, whole
    numbers bare, None an empty cell."""
    out = io.StringIO()
    # QUOTE_NONNUMERIC writes None as an empty quoted cell, which a spreadsheet reads as
    # empty text, not zero.
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow([neutralised(cell) for cell in header])
    for row in rows:
        for cell in row:
            # A float or a bool would be written as "3.0" or "True"; only whole numbers
            # and text belong in these files.
            assert cell is None or type(cell) in (str, int), cell
        writer.writerow(["" if cell is None else neutralised(cell) for cell in row])
    return out.getvalue()


def csv_download(text: str) -> bytes:
    """A CSV file's bytes for a download, readable by Excel as well as by programs."""
    return text.encode(DOWNLOAD_ENCODING)

"""Table codes: the short code printed on a table's score sheet (and carried by its QR
code) that opens the table's entry page on a phone, without an account.

A code is eight characters of Crockford's base 32 (digits and capital letters without
I, L, O and U), about 10¹² codes: at the rate limit on wrong codes
(``sheets.at_table``) nobody guesses one in the life of a tournament. It is printed
in two groups of four ("K7QM-3RXD"); typed back, case, spaces and hyphens do not matter,
and the letters people confuse with digits (O, I, L) read as those digits.
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 8
# What a typed code may hold before it is cleaned (hyphens, spaces): anything longer is
# no code, and is not looked up.
TYPED_MAX = 32

_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_table_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(typed: str) -> str | None:
    """The code ``typed`` stands for, or None when it cannot be a code at all."""
    if len(typed) > TYPED_MAX:
        return None
    code = "".join(typed.split()).replace("-", "").upper().translate(_READ_AS)
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def shown_code(code: str) -> str:
    """The code as printed and shown: two groups of four."""
    half = CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"

"""Finite fields GF(q) for the designs: addition and multiplication, as functions
(``galois_operations``, for the cyclic design, which needs a few values of a big field)
or as tables (``galois_field``, for the unital design, which reads them all)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

Operation = Callable[[int, int], int]


def galois_operations(q: int) -> tuple[Operation, Operation] | None:
    """Addition and multiplication in GF(q), or None when q is not a prime power.

    Elements are the numbers whose base-p digits are polynomial coefficients; the
    multiplication comes from the powers of x modulo the first primitive polynomial.
    Nothing is tabulated: GF(1,024)'s tables would take 3 s and 45 MB to build.
    """
    p = next(d for d in range(2, q + 1) if q % d == 0) if q > 1 else 0
    degree, rest = 0, q
    while p and rest % p == 0:
        rest, degree = rest // p, degree + 1
    if not p or rest != 1:
        return None

    def digits(x: int) -> list[int]:
        return [x // p**i % p for i in range(degree)]

    def number(ds: Iterable[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    for low in range(1, q):
        tail = digits(low)  # x**degree == -(tail polynomial)
        powers = [1]
        for _ in range(q - 1):
            ds = digits(powers[-1])
            shifted = [0, *ds[:-1]]
            powers.append(number((s - ds[-1] * c) % p for s, c in zip(shifted, tail, strict=True)))
        if powers[-1] == 1 and len(set(powers[:-1])) == q - 1:
            break
    log = {v: i for i, v in enumerate(powers[:-1])}

    def add(x: int, y: int) -> int:
        return number((u + v) % p for u, v in zip(digits(x), digits(y), strict=True))

    def mul(x: int, y: int) -> int:
        return powers[(log[x] + log[y]) % (q - 1)] if x and y else 0

    return add, mul


def galois_field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q) (``galois_operations``), or None when
    q is not a prime power."""
    operations = galois_operations(q)
    if operations is None:
        return None
    add, mul = operations
    return (
        [[add(x, y) for y in range(q)] for x in range(q)],
        [[mul(x, y) for y in range(q)] for x in range(q)],
    )

"""Finite fields GF(q) for the designs: addition and multiplication tables."""

from __future__ import annotations

from collections.abc import Iterable


def galois_field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(q), or None when q is not a prime power.

    Elements are the numbers whose base-p digits are polynomial coefficients; the
    multiplication comes from the powers of x modulo the first primitive polynomial.
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

    add = [
        [number((u + v) % p for u, v in zip(digits(x), digits(y), strict=True)) for y in range(q)]
        for x in range(q)
    ]
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
    mul = [
        [powers[(log[x] + log[y]) % (q - 1)] if x and y else 0 for y in range(q)] for x in range(q)
    ]
    return add, mul

"""Keep-apart pairs in index form, as one value: ``ApartPairs``.

- *always apart* (``SeatingRequest.keep_apart``, family): never at one table in any
  planned round; a seating that cannot honour them raises ``SeatingError``.
- *early* (``SeatingRequest.keep_apart_early``, same club): apart as far as possible in the
  first ``early_rounds`` planned rounds, together with the always-apart pairs.

``partners(r)`` is who each player is kept apart from in planned round ``r`` (None when
nobody is): every step reads the pairs through it, so early and always-apart pairs are
one rule everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from scoring.seating.request import PlayerId, SeatingError, SeatingRequest

Partners = Sequence[frozenset[int]]


@dataclass(frozen=True)
class ApartPairs:
    always: tuple[frozenset[int], ...]
    by_round: tuple[tuple[frozenset[int], ...] | None, ...]

    @classmethod
    def from_request(
        cls,
        request: SeatingRequest,
        index: dict[PlayerId, int],
        fixed: Sequence[int],
        rounds: int,
        unseated: int,
    ) -> ApartPairs:
        """The request's pairs among the active players; a pair both fixed to one table
        is an error when always apart, and dropped when only early."""
        n = len(index)

        def partner_sets(
            pairs: Iterable[tuple[PlayerId, PlayerId]], hard: bool = True
        ) -> list[set[int]]:
            partners: list[set[int]] = [set() for _ in range(n)]
            for x, y in pairs:
                a, b = index.get(x), index.get(y)
                if a is None or b is None or a == b:
                    continue
                if fixed[a] == fixed[b] != unseated:
                    if not hard:
                        continue
                    raise SeatingError(
                        f"{x} and {y} must be kept apart but are both fixed to "
                        f"table {fixed[a] + 1}."
                    )
                partners[a].add(b)
                partners[b].add(a)
            return partners

        always = partner_sets(request.keep_apart)
        early = partner_sets(
            request.keep_apart_early if request.early_rounds > 0 else (), hard=False
        )
        late_sets = tuple(frozenset(s) for s in always) if any(always) else None
        early_sets = tuple(frozenset(s | e) for s, e in zip(always, early, strict=True))
        early_sets_or_none = early_sets if any(early_sets) else None
        return cls(
            always=tuple(frozenset(s) for s in always),
            by_round=tuple(
                early_sets_or_none if r < request.early_rounds else late_sets for r in range(rounds)
            ),
        )

    def partners(self, r: int) -> tuple[frozenset[int], ...] | None:
        return self.by_round[r]

    def any(self) -> bool:
        return any(self.always) or any(
            partners is not None and any(partners) for partners in self.by_round
        )

    def always_apart(self, a: int, b: int) -> bool:
        return b in self.always[a]

    def clashes(self, r: int, table: Sequence[int]) -> list[tuple[int, int]]:
        """The kept-apart pairs seated together at ``table`` in round ``r``."""
        partners = self.by_round[r]
        if partners is None:
            return []
        return [(a, b) for a, b in combinations(table, 2) if b in partners[a]]

    def pairs(self, r: int) -> list[tuple[int, int]]:
        """Every pair kept apart in round ``r``, smaller player first."""
        partners = self.by_round[r]
        if partners is None:
            return []
        return [(a, b) for a in range(len(partners)) for b in partners[a] if a < b]


def clash_change(partners: Partners, where: Sequence[int], p: int, q: int) -> int:
    """How many more kept-apart pairs share a table once ``p`` and ``q`` (at different
    tables, ``where`` being every player's table in the round) have swapped."""
    home, there = where[p], where[q]
    change = 0
    for z in partners[p]:
        if z != q:
            change += (where[z] == there) - (where[z] == home)
    for z in partners[q]:
        if z != p:
            change += (where[z] == home) - (where[z] == there)
    return change

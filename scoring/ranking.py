"""Ranking players on the tiebreak keys, and what decided each place.

Terms:

- *tiebreak keys*: ``points`` then the tournament's keys in order; each key is a class in
  ``scoring.tiebreaks`` (what it compares, larger is better, and what a row shows). The
  keys in order, ``points`` first, are the *chain*.
- *rank*: players equal on every key share a rank and the next rank skips (1, 2, 2, 4);
  within a shared rank players are listed by name.
- *decided by*: the first key on which a player differs from the player listed just above
  (None for the first row and for a shared rank): why A is above B.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

from scoring.errors import UserError
from scoring.plays import Entrant
from scoring.tiebreaks import POINTS, TIEBREAKS, Tally, tiebreak

POINTS_KEY = POINTS.key


def check_tiebreaks(keys: Sequence[object]) -> list[str]:
    """Problems with a tiebreak order (the keys after ``points``), as messages."""
    problems = []
    seen: set[object] = set()
    for position, key in enumerate(keys, start=1):
        if key == POINTS_KEY:
            problems.append(
                f"tiebreak {position}: points always comes first; list only the keys after it"
            )
        elif key not in TIEBREAKS:
            known = ", ".join(TIEBREAKS)
            problems.append(f"tiebreak {position}: unknown key {key!r} (known keys: {known})")
        elif key in seen:
            problems.append(f"tiebreak {position}: {key!r} is listed twice")
        seen.add(key)
    return problems


def validated_tiebreaks(keys: Sequence[object]) -> tuple[str, ...]:
    problems = check_tiebreaks(keys)
    if problems:
        raise UserError("; ".join(problems))
    return tuple(str(k) for k in keys)


Place = tuple[int, bool]  # a rank, and whether it is shared


def places_of(tallies: dict[Hashable, Tally], chain: Sequence[str]) -> dict[Hashable, Place]:
    """Each entrant's rank and whether it is shared, as ``rank_players`` makes them (without
    the order by name within a shared rank). Larger is better on every key, and no key's
    comparable value is a proper prefix of another's (tested for every key), so sorting the
    values in descending order matches ``rank_players``'s ascending sort of them negated."""
    tiebreaks = [tiebreak(key) for key in chain]
    compared = sorted(
        ((tuple(tb.comparable(tally) for tb in tiebreaks), key) for key, tally in tallies.items()),
        key=itemgetter(0),
        reverse=True,
    )
    places: dict[Hashable, Place] = {}
    position = 1
    for _, group in groupby(compared, key=itemgetter(0)):
        keys = [key for _, key in group]
        for key in keys:
            places[key] = (position, len(keys) > 1)
        position += len(keys)
    return places


@dataclass(frozen=True)
class Ranked:
    """An entrant in their place: the rank, whether it is shared, and the values
    compared, one for each key of the chain."""

    rank: int
    shared: bool
    entrant: Entrant
    tally: Tally
    values: tuple[tuple[int, ...], ...]


def rank_players(
    entrants: Iterable[Entrant], tallies: dict[Hashable, Tally], chain: Sequence[str]
) -> list[Ranked]:
    """The entrants best first on the keys of ``chain`` in turn; those equal on every key
    share a rank (the next rank skips) and are listed by name, the same way every time."""
    tiebreaks = [tiebreak(key) for key in chain]
    compared = []
    for entrant in entrants:
        tally = tallies[entrant.key]
        values = tuple(tb.comparable(tally) for tb in tiebreaks)
        order = (
            tuple(tuple(-v for v in value) for value in values),
            entrant.name.casefold(),
            entrant.name,
            str(entrant.key),
        )
        compared.append((order, values, entrant, tally))
    compared.sort(key=lambda entry: entry[0])

    ranks = []
    rank = 0
    above: tuple[tuple[int, ...], ...] | None = None
    for position, (_, values, _, _) in enumerate(compared, start=1):
        if values != above:
            rank = position
        ranks.append(rank)
        above = values
    sizes = Counter(ranks)
    return [
        Ranked(rank, sizes[rank] > 1, entrant, tally, values)
        for rank, (_, values, entrant, tally) in zip(ranks, compared, strict=True)
    ]


def decided_by(chain: Sequence[str], above: Ranked | None, place: Ranked) -> str | None:
    """The first key of ``chain`` on which ``place`` differs from the entrant ranked just
    above it: what placed it lower (None for the first and for a shared rank)."""
    if above is None:
        return None
    return next(
        (key for key, a, b in zip(chain, above.values, place.values, strict=True) if a != b),
        None,
    )

"""Quality: the meeting figures of a seating and the one counting lower bound.

*Meetings*, *repeat meetings*, *most meetings*, *spread* and the *counting lower bound*
are defined in ``scoring.seating``; ``quality`` computes them for any seating (one an
organiser edited by hand too), ``pair_counts`` the histogram of meetings the searches
keep in step with every move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from scoring.seating.request import (
    PlayerId,
    Quality,
    RoundSeating,
    sort_key,
)


def quality(
    rounds: Iterable[RoundSeating],
    history: Iterable[Sequence[PlayerId]] = (),
    players: Iterable[PlayerId] = (),
) -> Quality:
    """Meeting figures for ``history`` plus ``rounds``; ``players`` adds anyone not seated."""
    rounds = list(rounds)
    tables = [tuple(t) for t in history] + [t for r in rounds for t in r.tables]
    everyone = set(players)
    for table in tables:
        everyone.update(table)
    for r in rounds:
        everyone.update(r.byes)
    index = {p: i for i, p in enumerate(sorted(everyone, key=sort_key))}
    meetings: dict[tuple[int, int], int] = {}
    seats_met = [0] * len(index)
    for table in tables:
        seated = sorted(index[p] for p in table)
        for i in seated:
            seats_met[i] += len(seated) - 1
        for pair in combinations(seated, 2):
            meetings[pair] = meetings.get(pair, 0) + 1
    others = max(1, len(index) - 1)
    forced = sum(max(0, s - others) for s in seats_met)
    return Quality(
        repeat_meetings=sum(c - 1 for c in meetings.values()),
        max_meetings=max(meetings.values(), default=0),
        lower_bound=(forced + 1) // 2,
        max_meetings_lower_bound=max((-(-s // others) for s in seats_met), default=0),
        spread=sum(c * (c - 1) // 2 for c in meetings.values()),
    )


def pair_counts(meetings: Sequence[Sequence[int]], size: int) -> tuple[list[int], int, int]:
    """How many pairs meet c times, for c below ``size`` (pairs that never met are not
    counted), and the repeat meetings and spread those give."""
    histogram = [0] * size
    repeats = spread = 0
    for a, row in enumerate(meetings):
        for b in range(a + 1, len(row)):
            c = row[b]
            if c:
                histogram[c] += 1
                repeats += c - 1
                spread += c * (c - 1) // 2
    return histogram, repeats, spread

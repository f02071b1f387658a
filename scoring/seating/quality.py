"""Quality: the meeting figures of a seating and the one counting lower bound.

*Meetings*, *repeat meetings*, *most meetings*, *spread* and the *counting lower bound*
are defined in ``scoring.seating``; ``quality`` computes them for any seating (one an
organiser edited by hand too), ``PairCounts`` the histogram of meetings the searches
keep in step with every move.

*Meeting rows* (``MeetingRows``): the searches' meeting counts in index form, one row per
player, ``rows[a][b]`` how often a and b met. Each row is an ``array`` of the smallest
unsigned integers that hold the most meetings the plan can reach (``meeting_rows``): one
byte a pair instead of a list's eight-byte pointer, 25 MB rather than 200 MB for 5,000
players, and read and written exactly as a list of lists.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, MutableSequence, Sequence
from itertools import combinations
from typing import TypeAlias

from scoring.seating.request import PlayerId, Quality, RoundSeating, sort_key

MeetingRows: TypeAlias = "list[array[int]]"
# Unsigned type codes, smallest first (1, 2, 4 and 8 bytes on the platforms CPython runs on;
# meeting_rows reads the real widths).
_TYPE_CODES = ("B", "H", "I", "Q")


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
    repeats_bound, most_bound = counting_bound(seats_met)
    return Quality(
        repeat_meetings=sum(c - 1 for c in meetings.values()),
        max_meetings=max(meetings.values(), default=0),
        lower_bound=repeats_bound,
        max_meetings_lower_bound=most_bound,
        spread=sum(c * (c - 1) // 2 for c in meetings.values()),
    )


def counting_bound(seats_met: Sequence[int]) -> tuple[int, int]:
    """The counting lower bounds (repeat meetings, most meetings) for players who have
    each sat across from ``seats_met[p]`` seats, among ``len(seats_met)`` players."""
    others = max(1, len(seats_met) - 1)
    forced = sum(max(0, s - others) for s in seats_met)
    return (forced + 1) // 2, max((-(-s // others) for s in seats_met), default=0)


def meeting_rows(n: int, most: int) -> MeetingRows:
    """n rows of n zero counts, in the smallest integers that hold ``most``."""
    code = next(c for c in _TYPE_CODES if most < 1 << (8 * array(c).itemsize))
    zero = array(code, bytes(n * array(code).itemsize))
    return [zero[:] for _ in range(n)]


def add_meetings(
    meetings: Sequence[MutableSequence[int]], tables: Iterable[Sequence[int]], change: int = 1
) -> None:
    """Count every pair at ``tables`` as meeting ``change`` more times (in index form)."""
    for table in tables:
        for a, b in combinations(table, 2):
            meetings[a][b] += change
            meetings[b][a] += change


class PairCounts:
    """How many pairs meet c times, for c below ``size`` (pairs that never met are not
    counted), and the repeat meetings, spread and most meetings those give; the searches
    keep them in step with every meeting that changes (``change``, then ``settle``)."""

    def __init__(self, meetings: Sequence[Sequence[int]], size: int) -> None:
        self.histogram = histogram = [0] * size
        self.repeats = self.spread = 0
        for a, row in enumerate(meetings):
            for b in range(a + 1, len(row)):
                c = row[b]
                if c:
                    histogram[c] += 1
                    self.repeats += c - 1
                    self.spread += c * (c - 1) // 2
        self.most = max((c for c, pairs in enumerate(histogram) if pairs), default=0)

    def change(self, before: int, after: int) -> None:
        """One pair's meetings go from ``before`` to ``after`` (one more or one fewer)."""
        histogram = self.histogram
        if before:
            histogram[before] -= 1
        if after:
            histogram[after] += 1
        if after > before:
            self.repeats += after >= 2
            self.spread += before
        else:
            self.repeats -= before >= 2
            self.spread -= after

    def settle(self) -> None:
        """Bring ``most`` up to date after the changes of one move."""
        histogram = self.histogram
        while self.most + 1 < len(histogram) and histogram[self.most + 1]:
            self.most += 1
        while self.most > 0 and not histogram[self.most]:
            self.most -= 1

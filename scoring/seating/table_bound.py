"""The table-size lower bound: repeat meetings a new round cannot avoid, given the sizes of
its tables and who sat together in the rounds before.

Terms (``scoring.seating`` defines meetings and repeat meetings):

- *groups* of a past round: its tables, each cut down to the players of the new round.
  Everyone in the new round who did not sit at one of them (sat out, or arrived since) is
  *loose*: a group of one, who has met nobody in that round.
- *pairs met at a table*: a new table holding ``c`` players of one group seats
  ``C(c, 2)`` pairs who met in that past round; each such pair meets again, adding one
  repeat meeting.
- *forced repeats of a past round*: the fewest such pairs over every way to seat the new
  round at tables of the given sizes (with the given number sitting out). Thirteen players
  seated 5+4+4 in round 1 and again 5+4+4 in round 2: the table of five takes its players
  from three groups, so at best 2+2+1 (two pairs who met); each table of four at best
  2+1+1 (one pair); 4 in all.

``forced_repeats`` finds that fewest exactly, as a transportation problem with convex
costs (players of group ``g`` sent to table ``t``; the ``c``-th player of a group at a table
costs ``c - 1`` more pairs) solved by successive shortest paths, one player at a time.
Beyond ``EXACT_UP_TO`` players it takes the larger of two easier bounds instead: every
table filled on its own from the groups, and every group spread on its own over the tables.

The bound on a seating's repeat meetings is then the history's own repeat meetings plus
the largest forced repeats over the past rounds (each past round alone: a pair who met in
several rounds still meets again only once), or the counting bound if that is higher.

*Planned rounds*: rounds planned together, each at the same tables with the same number
sitting out. Any two of them seat together at least ``between_rounds`` pairs who met in
the other (the later round's tables filled from the earlier round's groups), whoever sits
where. A pair meeting ``c`` times lies in ``C(c, 2)`` pairs of rounds and adds ``c - 1``
repeats, at least ``2 / most`` of ``C(c, 2)`` when no pair meets more than ``most``
times: ``planned_repeats`` is the plan's own repeat meetings that forces, and
``planned_most`` the most meetings (the engine's first aim) it forces. Forty players at
five tables of eight for four rounds: any two rounds seat 15 pairs again (each table of
eight draws on five earlier tables: 2+2+2+1+1), six pairs of rounds, so at least 90
repeats while nobody meets anyone three times, where the counting bound says 0. The
search past the bound stops there (``past_bound``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from scoring.seating.request import PlayerId

# Past this many players the exact search (10 ms for 100 players at 20 tables, 50 ms for
# 200 at 40, growing faster beyond) gives way to the two relaxations: weaker, never
# above the exact figure, and instant.
EXACT_UP_TO = 120


def forced_repeats(split: Sequence[int], byes: int, groups: Sequence[int]) -> int:
    """The fewest pairs of one group seated at one table, seating ``sum(groups)`` players
    at tables of ``split`` with ``byes`` sitting out (``sum(split) + byes`` players)."""
    if sum(groups) != sum(split) + byes:
        raise ValueError(f"{sum(groups)} players in groups for {sum(split) + byes} places")
    sizes = [g for g in groups if g > 1]
    loose = sum(groups) - sum(sizes)
    if not sizes:
        return 0
    if sum(groups) > EXACT_UP_TO:
        return max(_tables_alone(split, sizes, loose), _groups_alone(split, byes, sizes))
    return _transport(list(split), byes, sizes, loose)


def _tables_alone(split: Sequence[int], sizes: Sequence[int], loose: int) -> int:
    """Each table filled from the groups as if no other table took any: spread evenly."""
    total = 0
    for seats in split:
        taken = [0] * len(sizes)
        free = loose
        for _ in range(seats):
            if free:
                free -= 1
                continue
            g = min((g for g in range(len(sizes)) if taken[g] < sizes[g]), key=taken.__getitem__)
            total += taken[g]
            taken[g] += 1
    return total


def _groups_alone(split: Sequence[int], byes: int, sizes: Sequence[int]) -> int:
    """Each group spread over the tables (and the byes) as if no other group needed them."""
    total = 0
    for size in sizes:
        at = [0] * len(split)
        out = byes
        for _ in range(size):
            if out:
                out -= 1
                continue
            t = min((t for t in range(len(split)) if at[t] < split[t]), key=at.__getitem__)
            total += at[t]
            at[t] += 1
    return total


def _transport(split: list[int], byes: int, sizes: list[int], loose: int) -> int:
    """Successive shortest paths on source -> group -> table or bye -> sink, one player at
    a time; a group's ``c``-th player at a table costs ``c - 1``."""
    n_groups, n_tables = len(sizes), len(split)
    # Nodes: groups 0..G-1, the loose players G, tables G+1.., the byes, source, sink.
    loose_node, bye_node = n_groups, n_groups + 1 + n_tables
    source, sink = bye_node + 1, bye_node + 2
    caps = [*sizes, loose]  # players each group (and the loose) must place
    at = [[0] * n_tables for _ in range(n_groups + 1)]  # players of group g at table t
    out = [0] * (n_groups + 1)  # players of group g sitting out
    sent = [0] * (n_groups + 1)
    filled = [0] * n_tables
    cost = 0

    def arcs(u: int) -> Iterable[tuple[int, int]]:
        if u == source:
            for g in range(n_groups + 1):
                if sent[g] < caps[g]:
                    yield g, 0
        elif u <= loose_node:
            for t in range(n_tables):
                if at[u][t] < split[t]:
                    yield n_groups + 1 + t, (at[u][t] if u < n_groups else 0)
            yield bye_node, 0
        elif u < bye_node:
            t = u - n_groups - 1
            for g in range(n_groups + 1):
                if at[g][t]:
                    yield g, (-(at[g][t] - 1) if g < n_groups else 0)
            if filled[t] < split[t]:
                yield sink, 0
        elif u == bye_node:
            for g in range(n_groups + 1):
                if out[g]:
                    yield g, 0
            if sum(out) < byes:
                yield sink, 0

    for _ in range(sum(caps)):
        dist = {source: 0}
        parent: dict[int, int] = {}
        queue, queued = deque([source]), {source}
        while queue:
            u = queue.popleft()
            queued.discard(u)
            for v, w in arcs(u):
                if v not in dist or dist[u] + w < dist[v]:
                    dist[v], parent[v] = dist[u] + w, u
                    if v not in queued and v != sink:
                        queue.append(v)
                        queued.add(v)
        if sink not in dist:  # cannot happen while the counts agree
            raise AssertionError("no way to seat the next player")
        cost += dist[sink]
        v = sink
        while v != source:
            u = parent[v]
            if u == source:
                sent[v] += 1
            elif v == sink:
                if u == bye_node:
                    pass  # sum(out) counts the byes used
                else:
                    filled[u - n_groups - 1] += 1
            elif u <= loose_node and v == bye_node:
                out[u] += 1
            elif u == bye_node:
                out[v] -= 1
            elif u <= loose_node:
                at[u][v - n_groups - 1] += 1
            else:
                at[v][u - n_groups - 1] -= 1
            v = u
    return cost


def between_rounds(split: Sequence[int], byes: int) -> int:
    """The fewest pairs two planned rounds at tables of ``split`` (with ``byes`` sitting out
    of each) seat together in both: one round's tables filled from the other's groups, its
    byes loose."""
    return forced_repeats(split, byes, [*split, *[1] * byes])


def planned_most(between: int, rounds: int, players: int) -> int:
    """The fewest most meetings of any pair over ``rounds`` planned rounds of ``players``,
    any two of which seat ``between`` pairs together again: 1 when nothing is forced, else
    the least ``most`` whose ``C(most, 2)`` pairs of rounds for each pair of players cover
    the ``C(rounds, 2) * between`` pairs seated again (21 players at tables of seven for
    six rounds: 15 × 15 = 225 pairs seated again, 210 pairs of players, so some pair meets
    three times)."""
    if rounds < 2 or not between:
        return 1
    needed = rounds * (rounds - 1) // 2 * between
    pairs = players * (players - 1) // 2
    most = 2
    while most < rounds and most * (most - 1) // 2 * pairs < needed:
        most += 1
    return most


def planned_repeats(between: int, rounds: int, most: int) -> int:
    """The fewest repeat meetings among ``rounds`` planned rounds, any two of which seat
    ``between`` pairs together again, for seatings in which no pair meets more than
    ``most`` times (a pair meets at most once a round, so ``most`` above ``rounds`` says
    nothing more; below 2 no such seating exists when ``between`` is above 0, and the
    figure is that of 2)."""
    if rounds < 2 or not between:
        return 0
    most = max(2, min(most, rounds))
    pairs_of_rounds = rounds * (rounds - 1) // 2
    return -(-2 * pairs_of_rounds * between // most)


def round_forced_repeats(
    split: Sequence[int],
    byes: int,
    players: Iterable[PlayerId],
    past_rounds: Sequence[Sequence[Sequence[PlayerId]]],
) -> int:
    """The most forced repeats over ``past_rounds`` (each a round's tables) for a new round
    of ``players`` at tables of ``split`` with ``byes`` of them sitting out."""
    everyone = set(players)
    best = 0
    for tables in past_rounds:
        groups = [len(everyone.intersection(table)) for table in tables]
        groups += [1] * (len(everyone) - sum(groups))  # the loose
        best = max(best, forced_repeats(split, byes, groups))
    return best

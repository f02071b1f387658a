"""The seating engine's structures for big fields: compact meeting counts, table numbers
of a design round in linear time, the seat-order search and a big finite field; each
checked against the naive computation it replaces or the property it must keep."""

import random
from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seating import SeatingRequest, plan
from scoring.seating.cyclic import cyclic_design, table_numbers
from scoring.seating.galois import galois_operations
from scoring.seating.problem import UNSEATED, SeatingProblem
from scoring.seating.quality import add_meetings, meeting_rows
from scoring.seating.seat_order import first_cheapest_order
from scoring.seating.state import State

# --- meeting counts -------------------------------------------------------------------


def naive_meetings(n, tables):
    counts = [[0] * n for _ in range(n)]
    for table in tables:
        for a, b in combinations(table, 2):
            counts[a][b] += 1
            counts[b][a] += 1
    return counts


@st.composite
def random_history(draw):
    """Players 1..n and a few rounds cut from shuffles; some tables name a player who has
    left (id 0), as a history may, or (a slip) one player twice."""
    n = draw(st.integers(5, 30))
    rng = random.Random(draw(st.integers(0, 10**6)))
    tables = []
    for _ in range(draw(st.integers(0, 6))):
        line = rng.sample(range(1, n + 1), n)
        size = draw(st.sampled_from([3, 4, 5, 6]))
        tables += [tuple(line[i : i + size]) for i in range(0, n - size + 1, size)]
    if tables and draw(st.booleans()):
        tables[0] = (0, *tables[0])
    if tables and draw(st.booleans()):
        tables[-1] = (*tables[-1], tables[-1][-1])
    return n, tuple(tables)


@settings(max_examples=60, deadline=None)
@given(random_history(), st.integers(1, 5))
def test_the_history_counts_agree_with_a_naive_count(history, rounds):
    n, tables = history
    problem = SeatingProblem(SeatingRequest(tuple(range(1, n + 1)), rounds, history=tables), rounds)
    in_index = [[p - 1 for p in table if p] for table in tables]
    expected = naive_meetings(n, in_index)
    assert [list(row) for row in problem.meeting_counts()] == expected
    assert [[problem.met_before(a, b) for b in range(n)] for a in range(n)] == expected
    assert problem.opponents == [{q for q, c in enumerate(row) if c} for row in expected]
    assert problem.seats_met == [sum(row) for row in expected]
    assert problem.history_most == max(map(max, expected))


@settings(max_examples=40, deadline=None)
@given(random_history(), st.integers(0, 10**6))
def test_meetings_kept_while_seating_and_restoring_agree_with_a_naive_count(history, seed):
    n, tables = history
    rounds = 3
    problem = SeatingProblem(SeatingRequest(tuple(range(1, n + 1)), rounds, history=tables), rounds)
    state = State(problem, [[] for _ in range(rounds)])
    rng = random.Random(seed)
    for r in range(rounds):
        line = rng.sample(range(n), n)
        at = 0
        for t, size in enumerate(problem.split):
            for p in line[at : at + size]:
                state.place(r, p, t)
            at += size
    in_index = [[p - 1 for p in table if p] for table in tables]
    planned = [table for tables in state.tables for table in tables]
    assert [list(row) for row in state.meetings] == naive_meetings(n, in_index + planned)
    snapshot = state.snapshot()
    add_meetings(state.meetings, planned, -1)
    assert [list(row) for row in state.meetings] == naive_meetings(n, in_index)
    state.restore(snapshot)
    assert [list(row) for row in state.meetings] == naive_meetings(n, in_index + planned)


def test_meeting_rows_take_the_smallest_integers_that_hold_the_most_meetings():
    assert [meeting_rows(3, most)[0].itemsize for most in (0, 255, 256, 65_535, 65_536)] == [
        1,
        1,
        2,
        2,
        4,
    ]
    rows = meeting_rows(4, 10)
    rows[1][2] += 3
    assert [list(row) for row in rows] == [[0] * 4, [0, 0, 3, 0], [0] * 4, [0] * 4]


def test_a_field_takes_one_byte_a_pair():
    problem = SeatingProblem(SeatingRequest(tuple(range(1, 201)), 10), 10)
    rows = problem.meeting_counts()
    assert len(rows) == 200
    assert {(len(row), row.itemsize) for row in rows} == {(200, 1)}


def test_a_pair_that_met_more_often_than_a_byte_holds_is_still_counted():
    table = (1, 2, 3, 4, 5)
    result = plan(SeatingRequest(table, 2, history=(table,) * 300))
    assert result.quality.max_meetings == 302


# --- table numbers of a design round ----------------------------------------------------


def numbers_before(tables, split, number_of, fixed_at):
    """The numbering as it was (cubic in the tables): the reference for the linear one."""
    numbers = {}
    for d, slots in enumerate(tables):
        wanted = {fixed_at[slot] for slot in slots} - {UNSEATED}
        for t in sorted(wanted):
            if t not in numbers.values() and split[t] == len(slots):
                numbers[d] = t
                break
    for d, slots in enumerate(tables):
        if d not in numbers:
            numbers[d] = next(
                t for t in number_of if t not in numbers.values() and split[t] == len(slots)
            )
    return [numbers[d] for d in range(len(tables))]


@st.composite
def design_rounds(draw):
    k = draw(st.integers(4, 6))
    m = draw(st.integers(1, 25))
    f = draw(st.integers(0, m))
    rng = random.Random(draw(st.integers(0, 10**6)))
    split = [k - 1] * f + [k] * (m - f)
    rng.shuffle(split)
    number_of = [t for t, s in enumerate(split) if s == k - 1] + [
        t for t, s in enumerate(split) if s == k
    ]
    sizes = [k - 1] * f + [k] * (m - f)
    rng.shuffle(sizes)
    slots = rng.sample(range(sum(sizes)), sum(sizes))
    tables, at = [], 0
    for size in sizes:
        tables.append(slots[at : at + size])
        at += size
    share = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))
    fixed_at = [rng.randrange(m) if rng.random() < share else UNSEATED for _ in slots]
    return tables, tuple(split), number_of, fixed_at


@settings(max_examples=300, deadline=None)
@given(design_rounds())
def test_linear_table_numbers_agree_with_the_cubic_ones(case):
    tables, split, number_of, fixed_at = case
    numbers = table_numbers(tables, split, number_of, fixed_at)
    assert numbers == numbers_before(tables, split, number_of, fixed_at)
    assert sorted(numbers) == list(range(len(split)))
    assert all(split[t] == len(slots) for t, slots in zip(numbers, tables, strict=True))


# --- seat order -----------------------------------------------------------------------


# The engine's costs (powers of 4 and 64, many ties) and any small ones.
seat_costs = st.one_of(st.sampled_from([1, 1, 4, 16, 64, 4096]), st.integers(1, 20))


@settings(max_examples=300, deadline=None)
@given(
    st.integers(3, 6).flatmap(
        lambda k: st.lists(
            st.lists(seat_costs, min_size=k, max_size=k),
            min_size=k,
            max_size=k,
        )
    )
)
def test_the_seat_order_search_finds_the_first_cheapest_order(cost):
    seats = range(len(cost))
    expected = min(permutations(seats), key=lambda order: sum(cost[i][order[i]] for i in seats))
    assert first_cheapest_order(cost) == expected


def test_a_fresh_table_keeps_the_shuffled_order_and_a_tie_goes_to_the_first_order():
    assert first_cheapest_order([[1] * 5 for _ in range(5)]) == (0, 1, 2, 3, 4)
    # (1, 2, 0) and (2, 0, 1) both cost 3; permutations lists (1, 2, 0) first.
    assert first_cheapest_order([[64, 1, 1], [1, 64, 1], [1, 1, 64]]) == (1, 2, 0)


# --- a big finite field ----------------------------------------------------------------


@pytest.mark.parametrize("q", [4, 8, 9, 25, 27, 1024])
def test_galois_operations_make_a_field(q):
    add, mul = galois_operations(q)
    rng = random.Random(q)
    for _ in range(300):
        x, y, z = (rng.randrange(q) for _ in range(3))
        assert add(x, add(y, z)) == add(add(x, y), z)
        assert mul(x, y) == mul(y, x)
        assert mul(x, add(y, z)) == add(mul(x, y), mul(x, z))
        if x:
            assert any(mul(x, w) == 1 for w in range(1, q))


def test_1024_tables_of_five_get_ten_rounds_without_a_repeat():
    design = cyclic_design((5,) * 1024, 10)
    assert len(design) == 10
    pairs = Counter(pair for tables in design for t in tables for pair in combinations(t, 2))
    assert len(pairs) == 10 * 1024 * 10
    assert set(pairs.values()) == {1}

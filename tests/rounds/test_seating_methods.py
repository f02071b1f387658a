"""The seating methods' registry (scoring.seating.methods), shared by the service, the
organiser's form and the seat_round command; and the engine's shared parts: keep-apart
pairs as one value and the pair counts the searches keep in step."""

import io
import random
from itertools import combinations

import pytest
from django.core.management import call_command

from scoring.errors import UserError
from scoring.seating import METHODS, Method, RoundSeating, SeatingRequest, method_keys, methods
from scoring.seating.keep_apart import ApartPairs, clash_change
from scoring.seating.quality import PairCounts, add_meetings
from scoring.seating.request import SeatingError
from tournament.models import Player, Seat, Tournament
from tournament.rounds import seating
from tournament.rounds.forms import SeatRoundForm


@pytest.fixture
def tournament(db):
    tournament = Tournament.objects.create(name="Methods Open", slug="methods-open")
    Player.objects.bulk_create(
        Player(tournament=tournament, ref=f"p{i}", name=f"Player {i:02d}") for i in range(1, 11)
    )
    return tournament


def by_id_descending(request, ranked):
    """A method for the tests: players in falling id order, cut into the tables."""
    line = sorted(request.players, reverse=True)
    return (RoundSeating((tuple(line[:5]), tuple(line[5:]))),)


@pytest.fixture
def fourth_method(monkeypatch):
    extra = Method("descending", "Descending ids", by_id_descending)
    monkeypatch.setattr(methods, "METHODS", (*METHODS, extra))
    return extra


def test_the_form_and_the_command_offer_the_registered_methods(tournament):
    form = SeatRoundForm(splits=[])
    assert [key for key, _ in form.fields["method"].choices] == ["balanced", "standings", "random"]
    assert method_keys() == ["balanced", "standings", "random"]


def test_a_method_added_to_the_registry_is_offered_and_seats_through_service_and_command(
    tournament, fourth_method
):
    form = SeatRoundForm({"method": "descending"}, splits=[])
    assert form.is_valid(), form.errors
    assert ("descending", "Descending ids") in form.fields["method"].choices

    round_ = seating.seat_next_round(tournament, method="descending")
    tables = {}
    for table, position, player in Seat.objects.filter(round=round_).values_list(
        "table__number", "position", "player_id"
    ):
        tables.setdefault(table, []).append((position, player))
    ids = sorted(Player.objects.filter(tournament=tournament).values_list("pk", flat=True))
    assert [p for _, p in sorted(tables[1])] == ids[::-1][:5]

    seating.regenerate_round(round_, method="descending", seed=1)
    out = io.StringIO()
    round_.delete()
    call_command("seat_round", "methods-open", "--method", "descending", stdout=out)
    assert "Round 1" in out.getvalue()


def test_an_unknown_method_is_refused_naming_the_known_ones(tournament):
    with pytest.raises(UserError, match="unknown seating method “alphabetical”") as error:
        seating.seat_next_round(tournament, method="alphabetical")
    assert "balanced, standings, random" in str(error.value)
    assert not SeatRoundForm({"method": "alphabetical"}, splits=[]).is_valid()


# --- keep-apart pairs as one value ---------------------------------------------------------


def keep_apart(**request):
    request = SeatingRequest(players=tuple(range(1, 11)), rounds=3, **request)
    index = {p: p - 1 for p in request.players}
    fixed = [-2] * 10
    for player, table in request.fixed_tables:
        fixed[index[player]] = table - 1
    return ApartPairs.from_request(request, index, fixed, request.rounds, -2)


def test_keep_apart_holds_family_in_every_round_and_clubs_in_the_early_ones():
    apart = keep_apart(keep_apart=((1, 2),), keep_apart_early=((3, 4),), early_rounds=2)
    for r in range(3):
        assert apart.always_apart(0, 1)
        assert apart.always_apart(1, 0)
        assert (0, 1) in apart.pairs(r)
        assert ((2, 3) in apart.pairs(r)) == (r < 2)
        assert apart.clashes(r, [0, 1, 2, 3]) == ([(0, 1), (2, 3)] if r < 2 else [(0, 1)])
    assert not apart.always_apart(2, 3)
    assert apart.any()


def test_keep_apart_with_nobody_to_keep_apart():
    apart = keep_apart(keep_apart_early=((3, 4),), early_rounds=0)
    assert not apart.any()
    assert [apart.partners(r) for r in range(3)] == [None, None, None]
    assert apart.clashes(0, range(10)) == []


def test_keep_apart_names_a_family_fixed_to_one_table_and_drops_such_a_club_pair():
    with pytest.raises(
        SeatingError, match="1 and 2 must be kept apart but are both fixed to table 2"
    ):
        keep_apart(keep_apart=((1, 2),), fixed_tables=((1, 2), (2, 2)))
    apart = keep_apart(keep_apart_early=((1, 2),), early_rounds=3, fixed_tables=((1, 2), (2, 2)))
    assert not apart.any()


@pytest.mark.parametrize("seed", range(5))
def test_clash_change_counts_the_pairs_a_swap_seats_together_and_apart(seed):
    rng = random.Random(seed)
    pairs = {tuple(sorted(rng.sample(range(12), 2))) for _ in range(8)}
    partners = [frozenset(b if a == p else a for a, b in pairs if p in (a, b)) for p in range(12)]
    where = [p // 4 for p in range(12)]
    rng.shuffle(where)
    p, q = next((p, q) for p, q in combinations(range(12), 2) if where[p] != where[q])

    def clashes(where):
        return sum(where[a] == where[b] for a, b in pairs)

    swapped = where[:]
    swapped[p], swapped[q] = where[q], where[p]
    assert clash_change(partners, where, p, q) == clashes(swapped) - clashes(where)


# --- pair counts ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_pair_counts_kept_in_step_equal_a_fresh_count(seed):
    rng = random.Random(seed)
    n = 9
    meetings = [[0] * n for _ in range(n)]
    add_meetings(meetings, [[0, 1, 2], [0, 1, 3], [4, 5, 6, 7], [0, 1, 8]])
    counts = PairCounts(meetings, 8)
    for _ in range(200):
        a, b = rng.sample(range(n), 2)
        before = meetings[a][b]
        after = before + 1 if before == 0 or (before < 6 and rng.random() < 0.5) else before - 1
        meetings[a][b] = meetings[b][a] = after
        counts.change(before, after)
        counts.settle()
        fresh = PairCounts(meetings, 8)
        assert (counts.histogram[1:], counts.repeats, counts.spread, counts.most) == (
            fresh.histogram[1:],
            fresh.repeats,
            fresh.spread,
            fresh.most,
        )

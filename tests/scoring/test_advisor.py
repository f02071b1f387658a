"""The format advisor (scoring/simulation/advisor.py): what fits the time, and figures
that can be reasoned about on tiny fields, with fixed seeds."""

import itertools

import pytest

from scoring.rulesets import DU_COEUR, STANDARD
from scoring.simulation.advisor import (
    BREAK_MINUTES,
    Advice,
    AdvisorError,
    Format,
    advise,
    format_minutes,
    large_split,
    recommend,
)
from scoring.systems import ScoringSystem

WA = ScoringSystem.WINNER_ADVANTAGE


def test_a_formats_minutes_are_its_deals_at_the_largest_table_and_the_breaks():
    # 2 rounds of 1 rotation at tables of 5, 3 minutes a deal: 2 × 15 + one break.
    assert format_minutes(2, 1, 5, 3.0) == 30 + BREAK_MINUTES
    assert format_minutes(1, 2, 6, 2.5) == 30
    assert format_minutes(3, 1, 5, 2.2) == 33 + 2 * BREAK_MINUTES


def test_every_format_listed_fits_the_time_and_every_one_that_fits_is_listed():
    advice = advise(20, 100, WA, STANDARD, tournaments=50)
    assert advice.split == (5, 5, 5, 5)
    assert all(f.minutes <= 100 for f in advice.formats)
    listed = {(f.rounds, f.rotations) for f in advice.formats}
    # At five, 3 minutes a deal: a rotation is 15 minutes, and 5 minutes between rounds.
    assert listed == {
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (1, 3),
        (2, 3),
    }
    assert [f.minutes for f in advice.formats] == sorted(f.minutes for f in advice.formats)


def _longest(advice):
    return max(advice.formats, key=lambda f: (f.rounds * f.rotations, f.rounds))


def test_with_a_huge_skill_gap_the_strongest_nearly_always_wins():
    # One table: the strongest takes its best result every rotation.
    alone = advise(5, 120, WA, STANDARD, spread=50.0, tournaments=300, seed=3)
    assert alone.split == (5,)
    assert _longest(alone).strongest_wins > 0.98
    # Two tables: the second strongest tops the other table whenever they are apart, so
    # winning is less sure, but the strongest is nearly always in the first three.
    apart = advise(10, 120, WA, STANDARD, spread=50.0, tournaments=300, seed=3)
    assert _longest(apart).strongest_wins > 0.6
    assert _longest(apart).strongest_top3 > 0.99
    assert all(f.strongest_top3 >= f.strongest_wins for f in apart.formats)


def test_with_equal_skill_the_strongest_is_anyone():
    advice = advise(10, 60, WA, STANDARD, spread=0.0, tournaments=2000, seed=5)
    for candidate in advice.formats:
        assert candidate.strongest_wins == pytest.approx(0.1, abs=0.03)
        assert candidate.strongest_top3 == pytest.approx(0.3, abs=0.04)
        assert candidate.ties_at_top >= 1.0


def test_more_rounds_never_lower_the_chance_much():
    advice = advise(15, 240, WA, STANDARD, tournaments=1000, seed=11)
    for rotations in (1, 2, 3):
        chances = [f.strongest_wins for f in advice.formats if f.rotations == rotations]
        assert len(chances) >= 2
        for before, after in itertools.pairwise(chances):
            assert after >= before - 0.05
        assert chances[-1] > chances[0]


def test_the_same_seed_gives_the_same_figures():
    first = advise(12, 90, WA, STANDARD, seed=4, tournaments=100)
    assert advise(12, 90, WA, STANDARD, seed=4, tournaments=100) == first


def test_the_organisers_table_sizes_make_the_split():
    assert advise(12, 30, WA, STANDARD, sizes=(4,), tournaments=20).split == (4, 4, 4)
    # Du Coeur's rules seat eight; the default sizes (4 to 6) still seat 16 as 6 + 5 + 5.
    assert advise(16, 30, WA, DU_COEUR, tournaments=20).split == (6, 5, 5)
    assert advise(16, 30, WA, DU_COEUR, sizes=(8,), tournaments=20).split == (8, 8)


def test_too_little_time_lists_nothing_and_recommends_nothing():
    advice = advise(20, 10, WA, STANDARD, tournaments=20)
    assert advice.formats == ()
    assert advice.recommended is None
    assert advice.as_data()["recommended"] is None


def _format(rounds, rotations, minutes, wins):
    return Format(rounds, rotations, minutes, wins, min(1.0, 2 * wins), 1.0)


def test_the_recommendation_is_the_quickest_format_close_to_the_best_chance():
    quick = _format(2, 1, 35, 0.20)
    close = _format(3, 1, 55, 0.38)
    best = _format(5, 1, 95, 0.40)
    assert recommend([quick, close, best]) == close
    assert recommend([quick, best]) == best
    assert recommend([]) is None


@pytest.mark.parametrize(
    ("players", "minutes", "per_deal", "where"),
    [
        (1, 60, 3.0, "Players"),
        (2, 60, 3.0, "Players"),
        (20, 0, 3.0, "Minutes available"),
        (20, 60, 0.0, "Minutes per deal"),
        # The bounds that keep an answer within seconds.
        (1001, 60, 3.0, "Players: 1001 is more than the advisor plays"),
        (20, 481, 3.0, "Minutes available: 481 is more than the advisor looks at"),
    ],
)
def test_a_question_that_cannot_be_answered_is_refused_naming_the_input(
    players, minutes, per_deal, where
):
    with pytest.raises(AdvisorError, match=where):
        advise(players, minutes, WA, STANDARD, per_deal, tournaments=10)


def test_a_negative_seed_is_refused_in_words():
    with pytest.raises(AdvisorError, match="Seed: -1 must be 0 or more"):
        advise(20, 60, WA, STANDARD, seed=-1, tournaments=10)


@pytest.mark.parametrize(
    ("players", "large", "split"),
    [
        (15, 8, (8, 7)),
        (16, 8, (8, 8)),
        (23, 8, (8, 8, 7)),
        (20, 7, (7, 7, 6)),
        (40, 8, (8, 8, 8, 8, 8)),
        (13, 7, (7, 6)),
        (8, 8, (8,)),
        (5, 8, None),
        (23, 7, None),
    ],
)
def test_a_large_split_seats_the_players_at_the_large_tables_evenly(players, large, split):
    assert large_split(players, large, (3, 4, 5, 6, 7, 8)) == split


def test_du_coeur_is_advised_at_tables_of_seven_and_eight_as_well():
    advice = advise(15, 150, WA, DU_COEUR, tournaments=50)
    assert advice.splits == ((5, 5, 5), (8, 7))
    assert {f.split for f in advice.formats} == {(5, 5, 5), (8, 7)}
    # Eight deals a rotation at the table of eight: 24 minutes, not 15.
    one = {f.split: f.minutes for f in advice.formats if (f.rounds, f.rotations) == (1, 1)}
    assert one == {(5, 5, 5): 15, (8, 7): 24}
    # Caidis scoring seats up to five whatever the rule set: no large tables.
    caidis = advise(15, 150, ScoringSystem.CAIDIS, DU_COEUR, tournaments=20)
    assert caidis.splits == ((5, 5, 5),)
    # The organiser's own sizes bound it: tables of up to 7 allowed, no eights.
    sevens = advise(20, 150, WA, DU_COEUR, tournaments=20, sizes=(4, 5, 6, 7))
    assert sevens.splits == ((5, 5, 5, 5), (7, 7, 6))


def test_an_answer_kept_before_formats_had_their_split_reads_as_the_usual_one():
    kept = advise(12, 60, WA, STANDARD, tournaments=20).as_data()
    for each in [kept["recommended"], *kept["formats"]]:
        del each["split"]
    del kept["splits"]
    again = Advice.from_data(kept)
    assert again.splits == (tuple(kept["split"]),)
    assert all(f.split == again.split for f in again.formats)
    assert again.recommended in again.formats

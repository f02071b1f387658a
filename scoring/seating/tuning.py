"""Every tuning constant of the seating engine, each with why it has its value.

Budgets count steps or units of work, never seconds, so a seed always gives the same
seating on any machine. What the budgets cost in time on the development machine is in
docs/performance.md; change a value here only with the benchmark's figures
(``bench/seating.py`` and ``--sweep``) before and after.
"""

from __future__ import annotations

from scoring.rules import MAX_TABLE_SIZE

# --- seat order (seat_order.py) ----------------------------------------------------------

# Seats counted per player; a table never has more.
SEAT_SLOTS = MAX_TABLE_SIZE
# A seat costs SEAT_BASE ** c to a player who has had it c times, seat 1 (who deals
# first) FIRST_SEAT_BASE ** c: a third turn in seat 1 outweighs anything, then a third
# turn in any seat.
SEAT_BASE = 4
FIRST_SEAT_BASE = 64

# --- annealing (annealing.py) ------------------------------------------------------------

# Tuned on 16-45 players x 5-8 rounds: four times the steps bought little. The cap keeps
# the largest plans within their time budget (docs/performance.md).
STEPS_PER_SEAT = 500
MAX_STEPS = 400_000
HOT = 0.6
COLD = 0.05
# Energy of a pair meeting c >= 2 times is 4**(c - 2) * (c - 1): one pair meeting three
# times costs as much as eight pairs meeting twice, standing in for "most meetings first".
ENERGY_BASE = 4
# A keep-apart clash outweighs a few repeat meetings, so the annealing ends them first.
CLASH_ENERGY = 20

# --- fitting the history onto the cyclic design (history_fit.py) -------------------------

# A keep-apart pair in one design class outweighs any number of past meetings.
APART_WEIGHT = 1000
SLOT_STEPS_PER_PLAYER = 300
MAX_SLOT_STEPS = 20_000

# --- past the bound (past_bound.py, tabu.py, rotation.py) --------------------------------

# Tabu search budget in units of work (moves weighed, see tabu.py). A share goes to fresh
# seatings that keep the design's groups, each tried for a short while: those reach zero
# repeats on tight fields (30 at fives for five rounds) where the open search does not.
TABU_WORK = 6_000_000
TABU_WORK_PER_SEAT = 40_000
TRANSVERSAL_SHARE = 0.5
TRANSVERSAL_WORK_PER_SEAT = 7_000
# Tabu tenure: a random number of steps in this range, so that the search does not cycle
# with a fixed period; then steps without a new best before a kick (a few random swaps),
# kicks before going back to the best seating, and swaps per kick.
TABU_TENURE = (4, 40)
TABU_STABLE_STEPS = 400
TABU_KICKS_BEFORE_RETURN = 6
TABU_KICK_SWAPS = 4
# Rotating rounds take a share of the budget; a pair weighed by their search costs about
# three times as much as a move weighed by the tabu search. The search restarts every 200
# steps, each time in a new random order.
ROTATION_SHARE = 0.75
ROTATION_COST = 3
ROTATION_NODES = 200
# Tries at giving players the base round's places so that keep-apart pairs stay apart.
ROTATION_PLACINGS = 100
# How many cycle lengths the rotating rounds try in turn (rotation.py: the shortest ones
# that leave at most one fixed point per table).
ROTATION_CYCLES = 2

# --- the unital design (unital.py) -------------------------------------------------------

# Search steps for the unital design's rounds.
UNITAL_NODES = 20_000
# Larger unitals (126 players at sixes and up) take too long to build (docs/performance.md).
UNITAL_MAX_Q = 4
# Fitting a history onto the unital: a few short searches, each in its own random order,
# find a fit sooner than one long one.
FIT_TRIES = 6
FIT_STEPS = 300

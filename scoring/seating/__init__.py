"""Seating: which players sit together, at which table and in which seat, round by round.

Terms
-----
- *player*: a hashable, sortable id (an int or a string).
- *table*: a tuple of players in seat order; seat 1 (index 0) deals the first deal.
  Table numbers are 1-based: table ``t`` is ``RoundSeating.tables[t - 1]``.
- *split*: the table sizes of one round in table-number order, e.g. ``(5, 5, 5, 4, 4)``.
- *rule sizes*: the table sizes the rules allow (``scoring.systems.allowed_sizes``: 3 to 6
  under the standard rule set, 3 to 8 under du Coeur's, 3 to 5 under Caidis scoring);
  ``SeatingRequest.rule_sizes``, every size some rule set seats (``EVERY_SIZE``) unless
  given. The *allowed sizes* (``SeatingRequest.sizes``) are the organiser's among them.
- *mixed tables* (the default policy): everyone plays; tables of five, with tables of the
  other allowed sizes (4 and 6 by default; 7 and 8 where the rules seat them) taking up
  the remainder, and a table of 3 only when no other split exists. ``table_splits``
  lists the splits, best first.
- *byes*: every table has five players and ``n mod 5`` players sit the round out. Byes
  rotate: nobody sits out a second time before every active player has sat out once
  (the request carries one ``past_byes`` entry per bye already sat out).
- *meetings* of two players: how many times they have sat at the same table, counting the
  history and the rounds being planned.
- *repeat meetings*: sum over pairs of ``max(0, meetings - 1)``.
- *most meetings*: the largest number of meetings of any pair.
- *spread*: sum over pairs of ``C(meetings, 2)``; among seatings with the same repeat
  meetings it prefers two pairs meeting twice to one pair meeting three times.
- *counting lower bound*: a player who has sat across from ``S`` seats among ``P - 1``
  other players has met somebody again at least ``S - (P - 1)`` times; half the sum over
  players bounds repeat meetings from below, and ``ceil(S / (P - 1))`` bounds most meetings.
- *keep-apart* pairs: ``keep_apart`` never share a table in any planned round (family; a
  seating that cannot honour them raises ``SeatingError``); ``keep_apart_early`` are kept
  apart as far as possible in the first ``early_rounds`` planned rounds (same club: often
  not every club can be spread, and the round must still be seated). A
  caller with a rule "clubs apart until round K" passes ``early_rounds = K - rounds played``.
- *fixed table*: the player sits at that table number in every round they play.
- *seat rotation*: each table (of up to eight) takes the best of its seat orders, a seat
  costing ``4 ** c`` to a player who has had it ``c`` times (``64 ** c`` for seat 1, which
  deals first), counting the seat order of the history tables.
- *search effort*: scales the number of search steps (1.0 by default; 0 skips the search).

The engine minimises, in this order: keep-apart clashes, most meetings, repeat meetings,
spread. Players, keep-apart pairs and fixed tables naming someone who is not active are
ignored, so a roster change needs no clean-up; history may name anyone.

Public API
----------
- ``table_splits(n_players, sizes=(4, 5, 6), limit=10, rule_sizes=EVERY_SIZE)
  -> list[tuple[int, ...]]``
- ``plan(request) -> Plan``: seat ``request.rounds`` rounds jointly.
- ``seat_by_standings(ranked_players, request) -> RoundSeating``: one round, top ranks together.
- ``seat_randomly(request) -> RoundSeating``: one round, shuffled then split.
- ``METHODS``, ``method_named(key)``, ``method_keys()``, ``method_choices()``: the three
  methods by key and label, for the service, the form and the commands.
- ``quality(rounds, history=(), players=()) -> Quality``: figures for any seating,
  including one an organiser edited by hand.
- ``SeatingError``: a request that cannot be seated, worded for the organiser.

Modules, in the order of the steps (docs/seating.md has the long version)
-------------------------------------------------------------------------
- ``request``: the request and result types; ``splits``: table splits;
  ``quality``: the figures, the one counting bound and the pair counts; ``problem``: the
  request in index form; ``keep_apart``: keep-apart pairs as one value, ``ApartPairs``;
  ``state``: the seating being built.
- ``byes``: who sits out.
- Designs: ``cyclic`` (with ``galois`` for the field), ``unital``, and ``history_fit``
  (the rounds played and keep-apart pairs fitted onto the cyclic design).
- ``greedy``: the rounds no design seats.
- Improvement: ``annealing``; then ``past_bound`` while above the counting bound, with
  ``rotation`` (rotating rounds) and ``tabu`` (the tabu search).
- ``seat_order``: who sits in which seat.
- The methods: ``balanced`` (``plan``), ``by_standings``, ``at_random``, chosen by key
  in ``methods``.
- ``tuning``: every tuning constant, with why.

Everything random flows from ``random.Random(seed)`` and step budgets, never the clock,
so a seed always gives the same seating.
"""

from scoring.seating.at_random import seat_randomly
from scoring.seating.balanced import plan
from scoring.seating.by_standings import seat_by_standings
from scoring.seating.methods import METHODS, Method, method_choices, method_keys, method_named
from scoring.seating.quality import quality
from scoring.seating.request import (
    DEFAULT_SIZES,
    EVERY_SIZE,
    NORMAL_TABLE,
    Plan,
    PlayerId,
    Quality,
    RoundSeating,
    SeatingError,
    SeatingRequest,
    Table,
)
from scoring.seating.splits import table_splits

__all__ = [
    "DEFAULT_SIZES",
    "EVERY_SIZE",
    "METHODS",
    "NORMAL_TABLE",
    "Method",
    "Plan",
    "PlayerId",
    "Quality",
    "RoundSeating",
    "SeatingError",
    "SeatingRequest",
    "Table",
    "method_choices",
    "method_keys",
    "method_named",
    "plan",
    "quality",
    "seat_by_standings",
    "seat_randomly",
    "table_splits",
]

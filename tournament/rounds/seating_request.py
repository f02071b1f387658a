"""What the seating engine is asked for a stored tournament: who is seated, who sat with
whom before, and the constraints (``scoring.seating.SeatingRequest``).

Terms:

- *checked in*: once any active player is checked in, rounds seat only the active players
  who are; before that, every active player.
- *history*: the tables of the earlier rounds, as the players who sat at each.
- *seating sizes*: the table sizes a round may use: the organiser's
  (``Tournament.table_sizes``) that the rules allow (``Tournament.sizes_allowed``: the
  rule set and the scoring system), with a fallback (``seating_sizes``).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from django.db.models import QuerySet

from scoring.seating import NORMAL_TABLE, SeatingRequest
from tournament.models import Bye, KeepApart, Player, Round, Seat, TablePolicy, Tournament


def players_to_seat(tournament: Tournament) -> QuerySet[Player]:
    """The players a new round seats: the active ones, and only those checked in once
    check-in has begun."""
    active = Player.objects.filter(tournament=tournament, active=True)
    if active.filter(checked_in=True).exists():
        return active.filter(checked_in=True)
    return active


def not_checked_in(tournament: Tournament) -> int:
    """How many active players the next round leaves out for not being checked in."""
    active = Player.objects.filter(tournament=tournament, active=True)
    if not active.filter(checked_in=True).exists():
        return 0
    return active.filter(checked_in=False).count()


def seating_sizes(tournament: Tournament) -> tuple[int, ...]:
    """The organiser's table sizes that the rules allow, smallest first: a size the rule
    set or the scoring system refuses is never used.

    Fallback: when that leaves no size beside five although the organiser allowed one
    (sixes chosen under Caidis scoring, which seats 3 to 5), or leaves no size at all
    (house rules without the organiser's sizes), a round uses five and the sizes the rules
    allow nearest to it on either side (4 under Caidis scoring; 4 and 6 under every
    preset, as the default sizes), so that the round is still seated, mostly at fives.
    An organiser who chose five alone keeps five alone (tables of 3 only when nothing
    else works).
    """
    allowed = tournament.sizes_allowed
    chosen = set(tournament.table_sizes)
    kept = sorted(chosen.intersection(allowed))
    if kept and (set(kept) - {NORMAL_TABLE} or not chosen - {NORMAL_TABLE}):
        return tuple(kept)
    below = [size for size in allowed if size < NORMAL_TABLE]
    above = [size for size in allowed if size > NORMAL_TABLE]
    nearest = [size for size in allowed if size == NORMAL_TABLE]
    if below:
        nearest.append(max(below))
    if above:
        nearest.append(min(above))
    return tuple(sorted(nearest))


def seating_history(tournament: Tournament, before: int | None = None) -> list[tuple[int, ...]]:
    seats = Seat.objects.filter(round__tournament=tournament)
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in seats.order_by(
        "round__number", "table__number", "position"
    ).values_list("table_id", "player_id"):
        tables[table_id].append(player_id)
    return [tuple(players) for players in tables.values()]


def seating_request(
    tournament: Tournament,
    *,
    rounds: int,
    seed: int,
    before: int | None = None,
    split: tuple[int, ...] | None = None,
) -> SeatingRequest:
    """What the engine needs to seat ``rounds`` rounds after the rounds before ``before``
    (all rounds when None), at tables of ``split`` when the organiser chose one."""
    players = list(players_to_seat(tournament).values_list("pk", "club", "fixed_table"))
    byes = Bye.objects.filter(round__tournament=tournament)
    if before is not None:
        byes = byes.filter(round__number__lt=before)
    played = Round.objects.filter(tournament=tournament)
    if before is not None:
        played = played.filter(number__lt=before)
    early_rounds = max(0, tournament.keep_clubs_apart_rounds - played.count())
    clubs: dict[str, list[int]] = defaultdict(list)
    for pk, club, _ in players:
        if club.strip():
            clubs[club.strip().casefold()].append(pk)
    same_club = tuple(
        pair for members in clubs.values() for pair in combinations(sorted(members), 2)
    )
    return SeatingRequest(
        players=tuple(sorted(pk for pk, _, _ in players)),
        rounds=rounds,
        sizes=seating_sizes(tournament),
        byes=tournament.table_policy == TablePolicy.BYES,
        split=split if tournament.table_policy == TablePolicy.MIXED else None,
        history=tuple(seating_history(tournament, before)),
        past_byes=tuple(sorted(byes.values_list("player_id", flat=True))),
        keep_apart=tuple(
            KeepApart.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("first_id", "second_id")
        ),
        keep_apart_early=same_club if early_rounds else (),
        early_rounds=early_rounds,
        fixed_tables=tuple((pk, fixed) for pk, _, fixed in players if fixed is not None),
        seed=seed,
        rule_sizes=tournament.sizes_allowed,
    )

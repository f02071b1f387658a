"""The podium chances as the pages read them: the stored figures
(``derived.chances.work_out`` makes them, ``PodiumChances`` keeps them), a chance in
words ("31 %", "< 1 %", "0 %" only where proved out of reach), what a player needs, and
how they are worked out, one tap away."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournament.shared.results import and_list


@dataclass(frozen=True)
class PlayerChances:
    win: float
    top3: float
    # About how many points more than the leader the player needs in the rounds left,
    # None when the player wins too rarely for a figure (or is the leader).
    need: int | None
    # False only where a bound proves the place out of reach, whatever the deals: the
    # pages then say "0 %"; a place reached in no simulated finish but not proved out of
    # reach is "< 1 %".
    win_reachable: bool = True
    top3_reachable: bool = True


@dataclass(frozen=True)
class StoredChances:
    """The stored figures as the pages read them."""

    after_round: int
    rounds_left: int
    finishes: int
    tiebreaks: tuple[str, ...]
    seated: bool
    leader: int
    players: dict[int, PlayerChances]
    # The series whose ratings gave the players' skill; "" for equal skill.
    ratings_of: str = ""
    # The tables of released rounds still without a result, simulated as still to play:
    # (round, table) pairs.
    pending: tuple[tuple[int, int], ...] = ()

    @property
    def finishes_words(self) -> str:
        return f"{self.finishes:,}"

    @property
    def next_round(self) -> int:
        return self.after_round + 1

    @property
    def last_round(self) -> int:
        return self.after_round + self.rounds_left

    @property
    def rounds_words(self) -> str:
        """ "round 5", "rounds 4 to 5", "table 3 of round 4" (a table of a released round
        without a result, still to play), or both: "table 3 of round 4 and round 5"."""
        pending = _pending_words(self.pending)
        if self.rounds_left == 0:
            return pending
        if self.rounds_left == 1:
            rounds = f"round {self.next_round}"
        else:
            rounds = f"rounds {self.next_round} to {self.last_round}"
        return f"{pending} and {rounds}" if pending else rounds


def _pending_words(pending: tuple[tuple[int, int], ...]) -> str:
    if not pending:
        return ""
    by_round: dict[int, list[int]] = {}
    for number, table in pending:
        by_round.setdefault(number, []).append(table)
    parts = [
        f"table{'s' if len(tables) > 1 else ''} {and_list(sorted(tables))} of round {number}"
        for number, tables in sorted(by_round.items())
    ]
    return " and ".join(parts)


def chances_from_figures(figures: dict[str, Any]) -> StoredChances | None:
    if not figures:
        return None
    players = {}
    for pk, values in figures["players"].items():
        win, top3, need, *reach = values
        players[int(pk)] = PlayerChances(win, top3, need, *(bool(each) for each in reach))
    return StoredChances(
        after_round=figures["after_round"],
        rounds_left=figures["rounds_left"],
        finishes=figures["finishes"],
        tiebreaks=tuple(figures["tiebreaks"]),
        seated=figures["seated"],
        leader=figures["leader"],
        ratings_of=figures.get("ratings_of", ""),
        pending=tuple((number, table) for number, table in figures.get("pending", ())),
        players=players,
    )


def percent(fraction: float, reachable: bool = True) -> str:
    """ "31 %"; "< 1 %" for a chance that is not nothing (reached in too few simulated
    finishes, or in none while no bound rules it out); "0 %" only for a place proved out
    of reach; "> 99 %" for one short of certain. No-break spaces: a chance never breaks
    across lines."""
    if fraction <= 0:
        return "0\u00a0%" if not reachable else "<\u00a01\u00a0%"
    if fraction < 0.005:
        return "<\u00a01\u00a0%"
    if 0.995 <= fraction < 1:
        return ">\u00a099\u00a0%"
    return f"{round(fraction * 100)}\u00a0%"


_TIEBREAK_WORDS = {
    "last_in": "deals last in",
    "table_wins": "table wins",
    "best_round": "best round",
    "countback": "countback",
}


@dataclass(frozen=True)
class ChancesView:
    """What a page shows of the chances: ``pending`` while they apply but are not stored
    for the view yet ("being worked out"); ``stored`` once they are."""

    pending: bool
    stored: StoredChances | None

    @property
    def shown(self) -> bool:
        return self.stored is not None

    @property
    def method(self) -> str:
        """How the chances are worked out, in a few sentences (one tap away)."""
        stored = self.stored
        if stored is None:
            return ""
        order = ", then ".join(["points", *(_TIEBREAK_WORDS[key] for key in stored.tiebreaks)])
        skill = (
            f"each player's skill from their rating in {stored.ratings_of} before this "
            "tournament (a player without one of the field's average)"
            if stored.ratings_of
            else "every player of equal skill"
        )
        parts = []
        if stored.pending:
            parts.append(
                "each table of a released round without a result yet is played by its own "
                "players as if its round were still to come"
            )
        if stored.rounds_left:
            parts.append(
                f"round {stored.next_round} as it is seated"
                if stored.seated
                else f"round {stored.next_round} seated at random into the tables of the evening"
            )
            if stored.rounds_left > 1:
                parts.append("the rounds after it at random")
        return (
            f"{stored.finishes:,} simulated finishes of {stored.rounds_words}: every table "
            "plays deals from the game's simulator under this tournament's rules and "
            f"scoring, {skill}; " + ", ".join(parts) + f". Players are ranked by {order}; "
            "players still level are put in a random order. A place no finish can reach "
            "(its points are out of reach whatever the deals) shows 0 %; one reached in "
            "too few finishes to count shows < 1 %. What you need is the middle (median) "
            "of your points over the leader's in what is left, in the finishes you win."
        )

    def of(self, player_id: int) -> PlayerChances | None:
        return self.stored.players.get(player_id) if self.stored else None


def need_words(stored: StoredChances, player_id: int, leader_name: str) -> str:
    """ "to pass the leader you need about 6 points more than Ann Lee in round 5", or
    empty for the leader and a player who wins too rarely for a figure."""
    mine = stored.players.get(player_id)
    if mine is None or mine.need is None or player_id == stored.leader:
        return ""
    when = f"in {stored.rounds_words}"
    if mine.need <= 0:
        return (
            f"in the finishes you win you score about as many points as the leader, "
            f"{leader_name}, {when}"
        )
    points = "point" if mine.need == 1 else "points"
    return f"to pass the leader you need about {mine.need} {points} more than {leader_name} {when}"

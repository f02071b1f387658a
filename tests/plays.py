"""Helpers for tests of the pure standings: entrants by letter, a table's play and a
winner-advantage deal."""

from scoring.plays import Entrant, TablePlay
from scoring.rules import make_deal


def wa_deal(points, last_in):
    won = [2 * p for p in points]
    won[last_in - 1] -= 2
    return make_deal(won, last_in, 2, len(points))


def play(round_number, seats, *deals):
    return TablePlay(round_number, tuple(seats), tuple(enumerate(deals, start=1)))


def entrants(names):
    return [Entrant(name, name) for name in names]

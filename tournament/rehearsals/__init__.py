"""Rehearsing an evening: a private copy of a tournament seated at round 1, its rounds
played by the simulator as if typed at the tables, confirmed, released, printed and
projected as on the night (docs/rehearsal.md)."""

"""Rounds and seating: seating a round, swapping, starting, releasing, the clock.

docs/architecture.md describes every package, what it owns and what it may import."""

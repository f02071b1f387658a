"""The public pages (standings, rounds, players, the projector) and their cache.

docs/architecture.md describes every package, what it owns and what it may import."""

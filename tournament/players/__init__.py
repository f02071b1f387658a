"""A tournament's players: registering, checking in, keeping apart, penalties and awards.

docs/architecture.md describes every package, what it owns and what it may import."""

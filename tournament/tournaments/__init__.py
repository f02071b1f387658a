"""The tournament itself: creating it, its settings and tiebreaks, its dashboard and
publishing.

docs/architecture.md describes every package, what it owns and what it may import."""

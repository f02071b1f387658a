"""The tournament file (lld-tournament/4): checking, loading and writing it.

docs/architecture.md describes every package, what it owns and what it may import."""

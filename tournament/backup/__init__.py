"""The backup of a whole installation and its restore.

docs/architecture.md describes every package, what it owns and what it may import."""

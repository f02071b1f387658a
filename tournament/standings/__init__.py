"""A tournament's standings as read from the database, as a table and as files.

docs/architecture.md describes every package, what it owns and what it may import."""

"""Entry at the table: a phone types its table's sheet with the table's code.

docs/architecture.md describes every package, what it owns and what it may import."""

"""Check-in at the door on a tablet.

docs/architecture.md describes every package, what it owns and what it may import."""

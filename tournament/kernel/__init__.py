"""What every part of the app needs and that knows no model (the lowest layer).

docs/architecture.md describes every package, what it owns and what it may import."""

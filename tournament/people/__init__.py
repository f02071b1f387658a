"""The register of people shared by every tournament, and linking players to it.

docs/architecture.md describes every package, what it owns and what it may import."""

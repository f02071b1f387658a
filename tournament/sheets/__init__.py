"""The score sheet: typing, checking, confirming, its history, and the round desk.

docs/architecture.md describes every package, what it owns and what it may import."""

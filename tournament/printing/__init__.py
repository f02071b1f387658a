"""What an organiser prints: seating lists, score sheets with QR codes, rules cards.

docs/architecture.md describes every package, what it owns and what it may import."""

"""Series and ratings: a season's standings, ratings, careers and clubs.

docs/architecture.md describes every package, what it owns and what it may import."""

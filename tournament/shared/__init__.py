"""What every concept shares and that reads the models: permissions, the lock order and
the public-changed marker.

docs/architecture.md describes every package, what it owns and what it may import."""

"""Accounts and a tournament's scorers: logging in, invitations, adding and removing
scorers.

docs/architecture.md describes every package, what it owns and what it may import."""

"""The score sheet: typing, checking, confirming, its history, and its two faces, the
desk (``desk``) and a phone at the table (``phone``), which share ``pages``.

docs/architecture.md describes every package, what it owns and what it may import."""

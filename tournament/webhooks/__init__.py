"""A tournament's webhooks: telling other systems and a guild's chat channel what happens
to it (docs/webhooks.md)."""

"""The public read API under ``/api/v1/``: what the public pages show, as JSON described by
an OpenAPI schema (docs/api.md)."""

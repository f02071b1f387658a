from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that decide what a change changes (the public pages'
        # generation, the standings version). The views are worked out again after every
        # change to the standings, whatever made it (a page, a command, an import):
        # derived.refresh registers itself with the marker.
        from tournament.derived import refresh  # noqa: F401
        from tournament.shared import public_changes  # noqa: F401

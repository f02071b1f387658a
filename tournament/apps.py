from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that keep the public pages' cache fresh.
        # The podium chances are worked out after every public change, whatever made it
        # (a page, a command, a restore): public.chances registers itself with the marker.
        from tournament.public import chances  # noqa: F401
        from tournament.shared import public_changes  # noqa: F401

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that keep the public pages' cache fresh.
        from tournament.shared import public_changes  # noqa: F401

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
        from tournament.printing.pages import table_layout
        from tournament.shared import public_changes  # noqa: F401
        from tournament.sheets.photos import layouts

        # A photo of a sheet is read by where printing put its boxes; the sheet cannot
        # import printing (which builds on it), so it is told here.
        layouts.lay_out_with(table_layout)

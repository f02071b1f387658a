"""The players page's table: a row per player, swapped alone by htmx after a check-in."""

import django_tables2 as tables


class PlayersTable(tables.Table):
    name = tables.TemplateColumn(
        template_name="players/players_name_cell.html", verbose_name="Player"
    )
    club = tables.Column(default="")
    status = tables.TemplateColumn(
        template_name="players/players_status_cell.html", verbose_name="Status", orderable=False
    )
    fixed_table = tables.Column(verbose_name="Fixed table", default="")
    actions = tables.TemplateColumn(
        template_name="players/players_actions_cell.html", verbose_name="", orderable=False
    )

    class Meta:
        orderable = False
        attrs = {"class": "standings players"}
        empty_text = "No players yet: add them one by one below, or import a list (CSV)."
        # Each row is the players page's partial (its id and class there), which htmx
        # swaps alone after a check-in.
        template_name = "players/players_table.html"

    def __init__(self, *args, duplicates: set[int], slug: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.duplicates = duplicates
        self.slug = slug

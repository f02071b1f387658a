import re

import django_tables2 as tables
from django.urls import reverse

from scoring.standings import TIEBREAK_LABELS
from tournament.services.standings import TournamentStandings, rank_label

# Columns shown for each tiebreak key; countback is shown by the round columns.
_KEY_COLUMNS = ("last_in", "table_wins", "best_round", "opponents")


def _number_column(verbose_name: str, orderable: bool = True) -> tables.Column:
    return tables.Column(
        verbose_name=verbose_name, attrs={"th": {"class": "num"}}, orderable=orderable
    )


class StandingsTable(tables.Table):
    """The standings. django-tables2 gives the headers, sorting and pages; the rows are
    drawn by ``standings_table.html`` from each record's ready-made ``cells`` (class,
    value), as drawing a thousand rows cell by cell through the columns is slow."""

    rank = tables.Column(verbose_name="Rank", order_by="rank_number")
    name = tables.Column(verbose_name="Player")
    club = tables.Column(verbose_name="Club", default="")
    points = _number_column("Points")
    deals = _number_column("Deals")

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        template_name = "standings_table.html"

    # Set by the public pages: each name links to the player's page.
    link_players = False


_SORTABLE = re.compile(
    rf"-?(?:rank|name|club|points|deals|{'|'.join(_KEY_COLUMNS)}|round_[1-9][0-9]?)"
)


def standings_sort(value: str) -> str:
    """``value`` if it names a column the standings can be sorted by (a ``sort``
    parameter), else empty."""
    return value if _SORTABLE.fullmatch(value) else ""


HONOURS = {1: "Winner", 2: "Runner-up", 3: "Runner-up"}
PER_PAGE = 100


def _cell(value: object, decided: bool) -> tuple[str, object]:
    # A difference in points needs no pointing out; a tiebreak that decided does.
    return ("decided" if decided else "", "–" if value is None else value)


def standings_table(
    result: TournamentStandings, *, orderable: bool = False, name_filter: str = ""
) -> StandingsTable:
    """The standings with the tiebreak values in the tournament's order, then the round
    totals (which countback reads from the latest round backwards). ``name_filter`` keeps
    the rows whose name contains it; ranks stay those of the whole field."""
    standings = result.standings
    keys = [key for key in standings.tiebreaks if key in _KEY_COLUMNS]
    slug = result.tournament.slug
    wanted = name_filter.casefold()
    # Before any round counts publicly everyone shares rank 1: nobody has won anything.
    honours = HONOURS if standings.round_numbers else {}
    records = []
    for row in standings.rows:
        if wanted and wanted not in row.name.casefold():
            continue
        record = {
            "rank": rank_label(row),
            "rank_number": row.rank,
            "name": row.name,
            "url": reverse("player", args=[slug, row.key]),
            "honour": honours.get(row.rank, ""),
            "club": result.info(row).club,
            "points": row.points,
            "deals": row.deals,
            "row_class": "podium" if row.rank in honours else "",
        }
        record.update({key: row.value(key) for key in keys})
        countback = row.decided_by == "countback"
        record["cells"] = [
            _cell(row.points, False),
            _cell(row.deals, False),
            *(_cell(row.value(key), row.decided_by == key) for key in keys),
            *(_cell(total, countback) for total in row.rounds),
        ]
        records.append(record)
    extra = [
        (key, _number_column(TIEBREAK_LABELS[key].capitalize(), key != "best_round"))
        for key in keys
    ]
    extra += [
        (f"round_{number}", _number_column(f"R{number}", orderable=False))
        for number in standings.round_numbers
    ]
    return StandingsTable(
        records,
        extra_columns=extra,
        orderable=orderable,
        empty_text="No player matches that name." if wanted else "No players yet.",
    )


class PlayersTable(tables.Table):
    name = tables.TemplateColumn(
        template_name="organiser/players_name_cell.html", verbose_name="Player"
    )
    club = tables.Column(default="")
    status = tables.TemplateColumn(
        template_name="organiser/players_status_cell.html", verbose_name="Status", orderable=False
    )
    fixed_table = tables.Column(verbose_name="Fixed table", default="")
    actions = tables.TemplateColumn(
        template_name="organiser/players_actions_cell.html", verbose_name="", orderable=False
    )

    class Meta:
        orderable = False
        attrs = {"class": "standings players"}
        row_attrs = {"class": lambda record: "" if record.active else "dropped"}

    def __init__(self, *args, duplicates: set[int], slug: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.duplicates = duplicates
        self.slug = slug

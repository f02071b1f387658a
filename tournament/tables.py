import django_tables2 as tables

from scoring.standings import TIEBREAK_LABELS
from tournament.services.standings import TournamentStandings, rank_label

# Columns shown for each tiebreak key; countback is shown by the round columns.
_KEY_COLUMNS = ("last_in", "table_wins", "best_round", "opponents")


def _decided_class(key: str):
    # A difference in points needs no pointing out; a tiebreak that decided does.
    def css_class(record: dict) -> str:
        return "decided" if key != "points" and record["decided_by"] == key else ""

    return css_class


def _number_column(key: str, verbose_name: str, orderable: bool = True) -> tables.Column:
    return tables.Column(
        verbose_name=verbose_name,
        attrs={"td": {"class": _decided_class(key)}, "th": {"class": "num"}},
        default="–",
        orderable=orderable,
    )


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name="Rank", attrs={"td": {"class": "rank"}}, order_by="rank_number"
    )
    name = tables.TemplateColumn(template_name="standings_name_cell.html", verbose_name="Player")
    club = tables.Column(verbose_name="Club", default="")
    points = _number_column("points", "Points")
    deals = tables.Column(verbose_name="Deals", attrs={"th": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        row_attrs = {"class": lambda record: record["row_class"]}


HONOURS = {1: "Winner", 2: "Runner-up", 3: "Runner-up"}


def standings_table(
    result: TournamentStandings, *, orderable: bool = False, name_filter: str = ""
) -> StandingsTable:
    """The standings with the tiebreak values in the tournament's order, then the round
    totals (which countback reads from the latest round backwards). ``name_filter`` keeps
    the rows whose name contains it; ranks stay those of the whole field."""
    standings = result.standings
    wanted = name_filter.casefold()
    records = []
    for row in standings.rows:
        if wanted and wanted not in row.name.casefold():
            continue
        record = {
            "rank": rank_label(row),
            "rank_number": row.rank,
            "name": row.name,
            "player_pk": row.key,
            "slug": result.tournament.slug,
            "honour": HONOURS.get(row.rank, ""),
            "club": result.info(row).club,
            "points": row.points,
            "deals": row.deals,
            "decided_by": row.decided_by,
            "row_class": "podium" if row.rank <= 3 else "",
        }
        record.update({key: row.value(key) for key in _KEY_COLUMNS})
        for number, total in zip(standings.round_numbers, row.rounds, strict=True):
            record[f"round_{number}"] = total
        records.append(record)
    extra = [
        (key, _number_column(key, TIEBREAK_LABELS[key].capitalize(), key != "best_round"))
        for key in standings.tiebreaks
        if key in _KEY_COLUMNS
    ]
    extra += [
        (f"round_{number}", _number_column("countback", f"R{number}", orderable=False))
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

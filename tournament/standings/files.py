"""A tournament's standings as files: the JSON of the ``standings`` command, the CSV of
the standings page and the command, and the command's plain text (docs/standings.md
describes each). Totals include the penalties and awards counted; each row lists them.
"""

from __future__ import annotations

from typing import Any

from scoring.standings import StandingRow
from scoring.tiebreaks import decided_words, one_figure_tiebreaks, order_in_words
from tournament.kernel.csv_export import csv_text
from tournament.standings.services import NO_RESULT_YET, TournamentStandings


def file_rank(row: StandingRow) -> int | str:
    """The rank as files write it: a number, "7=" for a shared 7th (a spreadsheet
    would evaluate the pages' "=7" as a formula), or empty for a player with no rank."""
    if row.rank is None:
        return ""
    return f"{row.rank}=" if row.shared else row.rank


def as_json(result: TournamentStandings) -> dict[str, Any]:
    standings = result.standings
    return {
        "tournament": result.tournament.slug,
        "scoring": standings.system.value,
        "rule_set": result.tournament.rules.key,
        "tiebreaks": list(standings.tiebreaks),
        "round_numbers": list(standings.round_numbers),
        "rows": [
            {
                "rank": row.rank,
                "shared": row.shared,
                "player_id": result.info(row).ref,
                "name": row.name,
                "club": result.info(row).club,
                "points": row.points,
                "deals": row.deals,
                **{tb.key: tb.value(row.tally) for tb in one_figure_tiebreaks()},
                "rounds": list(row.rounds),
                "decided_by": row.decided_by,
                # The rounds whose result at the player's table is not in yet (their
                # "rounds" entry is null); "rank" is null while others of such a round
                # have theirs.
                "no_result_yet": list(row.waiting),
                # The penalties and awards counted in "points" and "rounds".
                "adjustments": [
                    {"round": each.round_number, "points": each.points, "reason": each.reason}
                    for each in row.tally.adjustments
                ],
            }
            for row in standings.rows
        ],
        "incomplete_tables": [
            {"round": t.round, "table": t.table, "deals": t.deals, "expected": t.expected}
            for t in result.incomplete_tables
        ],
        "tables_without_result": [
            {"round": t.round, "table": t.table} for t in result.missing_tables
        ],
    }


def _flat_rows(result: TournamentStandings) -> tuple[list[str], list[list[int | str]]]:
    standings = result.standings
    figures = one_figure_tiebreaks()
    header = [
        "rank",
        "name",
        "club",
        "points",
        "deals",
        *(tb.key for tb in figures),
        *(f"round_{number}" for number in standings.round_numbers),
        "decided_by",
        "adjustments",
        "adjustment_reasons",
    ]
    rounds = list(standings.round_numbers)
    rows: list[list[int | str]] = [
        [
            file_rank(row),
            row.name,
            result.info(row).club,
            row.points,
            row.deals,
            *("" if value is None else value for value in (tb.value(row.tally) for tb in figures)),
            *(
                NO_RESULT_YET if number in row.waiting else "" if total is None else total
                for number, total in zip(rounds, row.rounds, strict=True)
            ),
            decided_words(row, above, rounds) if row.ranked else "",
            row.tally.adjustment_total,
            "; ".join(
                f"round {each.round_number}: {each.points:+d} ({each.reason})"
                for each in row.tally.adjustments
            ),
        ]
        for row, above in zip(standings.rows, (None, *standings.rows), strict=False)
    ]
    return header, rows


def as_csv(result: TournamentStandings) -> str:
    return csv_text(*_flat_rows(result))


def as_text(result: TournamentStandings) -> str:
    header, rows = _flat_rows(result)
    cells = [header, *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    chain = order_in_words(result.standings.tiebreaks, joiner=", ")
    lines = [
        f"{result.tournament.name} — {result.standings.system.label}",
        f"Ranked by {chain}.",
        "",
    ]
    for row in cells:
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    if result.missing_tables:
        lines.append("")
        lines.extend(f"{sentence}." for sentence in result.missing_words)
        if result.unranked:
            lines.append("Players waiting for their table's result are listed last, unranked.")
    if result.incomplete_tables:
        lines.append("")
        lines.append("Tables with fewer deals than a round has (stopped early, or not all in):")
        lines.extend(
            f"  round {t.round}, table {t.table}: {t.deals} of {t.expected} deals"
            for t in result.incomplete_tables
        )
    return "\n".join(line.rstrip() for line in lines) + "\n"

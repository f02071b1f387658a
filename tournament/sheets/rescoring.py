"""Re-scoring what is recorded when a tournament's rules change.

Terms: the *rules* are the scoring system and the rule set (``scoring.rulesets``). The
facts of a sheet never depend on them, but each seat's stored sums do (stakes, prizes,
break-evens, an odd break-even's rounding, Caidis's payments): a change of rule set
rewrites them all (``rescore``), in the transaction that saves the change. A change is
refused (``rule_change_problems``) when something already seated or recorded cannot be
scored under the new rules: a table of a size they do not seat, or, under Caidis, a deal
(confirmed, or on a sheet awaiting confirmation) with no lying-down order. A sheet still
being typed is checked against the new rules when it is saved.
"""

from __future__ import annotations

from scoring.rules import leaves_of
from scoring.rulesets import RuleSet, sizes_text
from scoring.systems import ScoringSystem, allowed_sizes
from tournament.models import Deal, Sheet, SheetStatus, Table, Tournament
from tournament.sheets.facts import write_seat_sums
from tournament.sheets.leaves import size_problems
from tournament.sheets.reading import confirmed_rows

# A refusal names this many places, then says how many more there are.
SHOWN = 5


def rule_change_problems(
    tournament: Tournament, system: ScoringSystem, rule_set: RuleSet
) -> list[str]:
    """Why the tournament's seated tables and recorded deals cannot be scored under
    ``system`` and ``rule_set``, each naming its round and table (or deal)."""
    sizes = allowed_sizes(system, rule_set)
    problems = []
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .select_related("round")
        .order_by("round__number", "number")
    )
    pending = dict(
        Sheet.objects.filter(
            table__round__tournament=tournament,
            status__in=[SheetStatus.DRAFT, SheetStatus.ENTERED],
        ).values_list("table_id", "pending_left")
    )
    for table in tables:
        where = f"round {table.round.number}, table {table.number}"
        if table.size not in sizes:
            problems.append(
                f"{where} seats {table.size} players, and {rule_set.name} under "
                f"{system.label} seats {sizes_text(sizes)}"
            )
            continue
        # The players who left it, confirmed or on the sheet being typed: the deals after
        # a leave are dealt at the smaller size.
        for left in (table.left, pending.get(table.pk, [])):
            found = size_problems(leaves_of(left), table.size, sizes, rule_set.name)
            problems.extend(f"{where}: {problem}" for problem in found[:1])
    if system.needs_order:
        unordered = (
            Deal.objects.filter(table__round__tournament=tournament, laid_down=[])
            .select_related("table__round")
            .order_by("table__round__number", "table__number", "number")
        )
        problems.extend(
            f"round {deal.table.round.number}, table {deal.table.number}, deal "
            f"{deal.number}: no lying-down order recorded, which {system.label} needs"
            for deal in unordered
        )
        awaiting = (
            Sheet.objects.filter(table__round__tournament=tournament, status=SheetStatus.ENTERED)
            .select_related("table__round")
            .order_by("table__round__number", "table__number")
        )
        for sheet in awaiting:
            missing = [
                number
                for number, row in enumerate(sheet.pending, start=1)
                if not row.get("laid_down")
            ]
            if missing:
                problems.append(
                    f"round {sheet.table.round.number}, table {sheet.table.number}: the "
                    f"sheet awaiting confirmation has no lying-down order for deal "
                    f"{missing[0]}" + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
                )
    return problems


def refusal(problems: list[str]) -> str:
    """The problems as one message: the first ``SHOWN``, then how many more."""
    shown = "; ".join(problems[:SHOWN])
    more = len(problems) - SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def rescore(tournament: Tournament) -> int:
    """Rewrite every played table's seat sums under the tournament's rules as now saved;
    the number of tables re-scored."""
    tables = (
        Table.objects.filter(round__tournament=tournament, deals__isnull=False)
        .select_related("round__tournament")
        .distinct()
    )
    count = 0
    for table in tables:
        write_seat_sums(table, confirmed_rows(table), leaves_of(table.left))
        count += 1
    return count

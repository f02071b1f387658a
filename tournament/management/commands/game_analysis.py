"""``manage.py game_analysis``: what the game is like, measured on simulated deals
(docs/game-analysis.md; the figures are ``scoring.simulation.analysis``'s)."""

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from scoring.rulesets import RULE_SETS, RuleSet
from scoring.simulation.analysis import (
    QUANTILES,
    Z_95,
    Distribution,
    Estimate,
    TableAnalysis,
    analyse,
    tables,
)
from scoring.systems import ScoringSystem
from tournament.management.arguments import rule_set_named, table_sizes

# A whole number of rotations at every size from 3 to 8 (840 is their least common
# multiple), so that every seat deals as often as any other.
DEFAULT_DEALS = 24 * 840
DEFAULT_SEED = 1


class Command(BaseCommand):
    help = (
        "Measure the game on simulated deals for each rule set, table size and scoring: "
        "cards won, points, who is last in, the dealer's and the last in's advantage, "
        "what strategy is worth, Caidis's ties (docs/game-analysis.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rule-set",
            type=rule_set_named,
            default=None,
            help="a preset's key (default: every one)",
        )
        parser.add_argument(
            "--scoring",
            choices=[system.value for system in ScoringSystem],
            default=None,
            help="default: every scoring",
        )
        parser.add_argument(
            "--sizes",
            type=table_sizes,
            default=None,
            help="table sizes like 4,5 (default: every size each rule set seats)",
        )
        parser.add_argument(
            "--deals",
            type=int,
            default=DEFAULT_DEALS,
            help=f"deals a table (default {DEFAULT_DEALS:,}: whole rotations at 3 to 8)",
        )
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
        parser.add_argument("--format", choices=["markdown", "json"], default="markdown")

    def handle(
        self,
        *args: object,
        rule_set: RuleSet | None,
        scoring: str | None,
        sizes: tuple[int, ...] | None,
        deals: int,
        seed: int,
        format: str,
        **options: object,
    ) -> None:
        rule_sets = list(RULE_SETS.values()) if rule_set is None else [rule_set]
        systems = list(ScoringSystem) if scoring is None else [ScoringSystem(scoring)]
        try:
            rows = analyse(tables(rule_sets, systems, sizes), deals, seed)
        except UserError as error:
            raise CommandError(str(error)) from None
        if format == "json":
            data = {
                "deals": deals,
                "seed": seed,
                "confidence": 0.95,
                "method": "normal approximation",
                "rows": [row_json(row) for row in rows],
            }
            self.stdout.write(json.dumps(data, indent=1))
        else:
            self.stdout.write(markdown(rows, deals, seed), ending="")


def position_name(position: int) -> str:
    """0 the dealer, 1 the eldest, then 2nd, 3rd… to play."""
    if position == 0:
        return "dealer"
    if position == 1:
        return "eldest"
    suffix = {2: "nd", 3: "rd"}.get(position, "th")
    return f"{position}{suffix}"


def _estimate_json(estimate: Estimate) -> dict[str, float]:
    return {"mean": estimate.mean, "low": estimate.low, "high": estimate.high}


def _distribution_json(spread: Distribution) -> dict[str, object]:
    return {
        "mean": spread.mean,
        "sd": spread.sd,
        "lowest": spread.lowest,
        "quantiles": {str(q): value for q, value in zip(QUANTILES, spread.quantiles, strict=True)},
        "highest": spread.highest,
    }


def row_json(row: TableAnalysis) -> dict[str, object]:
    return {
        "scoring": row.system.value,
        "players": row.players,
        "rule_sets": list(row.rule_sets),
        "deals": row.deals,
        "cards_won": _distribution_json(row.cards_won),
        "points": _distribution_json(row.points),
        "last_in": [
            {"position": position_name(position), **_estimate_json(found)}
            for position, found in enumerate(row.last_in)
        ],
        "dealer_advantage": _estimate_json(row.dealer_advantage),
        "last_in_advantage": _estimate_json(row.last_in_advantage),
        "willughby_among_naive": _estimate_json(row.willughby_among_naive),
        "naive_among_willughby": _estimate_json(row.naive_among_willughby),
        "tied_for_most": None if row.tied_for_most is None else _estimate_json(row.tied_for_most),
    }


def _rule_sets_text(row: TableAnalysis) -> str:
    if len(RULE_SETS) > 1 and set(row.rule_sets) == set(RULE_SETS):
        return "every preset"
    return ", ".join(row.rule_sets)


def _signed(estimate: Estimate) -> str:
    return f"{estimate.mean:+.2f} ± {estimate.half_width:.2f}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    """A markdown table: the size and the numbers right-aligned, the rule sets left."""
    aligns = ["---:", "---"] + ["---:"] * (len(head) - 2)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(aligns) + "|"]
    return lines + ["| " + " | ".join(cells) + " |" for cells in rows]


def _spread_table(rows: tuple[TableAnalysis, ...], figure: str) -> list[str]:
    head = ["players", "rule sets", "mean", "sd", "lowest"]
    head += [f"{q:.0%}".replace("%", " %") if q != 0.5 else "median" for q in QUANTILES]
    head += ["highest"]
    cells = []
    for row in rows:
        spread: Distribution = getattr(row, figure)
        cells.append(
            [str(row.players), _rule_sets_text(row), f"{spread.mean:.2f}", f"{spread.sd:.2f}"]
            + [str(value) for value in (spread.lowest, *spread.quantiles, spread.highest)]
        )
    return _table(head, cells)


def _last_in_table(rows: tuple[TableAnalysis, ...]) -> list[str]:
    most = max(row.players for row in rows)
    head = ["players", "rule sets"] + [position_name(p) for p in range(most)] + ["± at most"]
    cells = []
    for row in rows:
        shares = [f"{found.mean:.1%}".replace("%", "") for found in row.last_in]
        widest = max(found.half_width for found in row.last_in)
        blanks = [""] * (most - row.players)
        cells.append(
            [
                str(row.players),
                _rule_sets_text(row),
                *shares,
                *blanks,
                f"{widest:.1%}".replace("%", ""),
            ]
        )
    return _table(head, cells)


def _advantage_table(rows: tuple[TableAnalysis, ...]) -> list[str]:
    caidis = any(row.tied_for_most is not None for row in rows)
    head = ["players", "rule sets", "dealer", "last in"]
    head += ["Willughby among naive", "naive among Willughby"]
    head += ["tied for most, %"] if caidis else []
    cells = []
    for row in rows:
        line = [str(row.players), _rule_sets_text(row), _signed(row.dealer_advantage)]
        line += [_signed(row.last_in_advantage), _signed(row.willughby_among_naive)]
        line += [_signed(row.naive_among_willughby)]
        if caidis:
            tied = row.tied_for_most
            line += ["" if tied is None else f"{100 * tied.mean:.1f} ± {100 * tied.half_width:.1f}"]
        cells.append(line)
    return _table(head, cells)


def markdown(rows: tuple[TableAnalysis, ...], deals: int, seed: int) -> str:
    """The figures as markdown: a heading line and four tables a scoring, ending with a
    blank line."""
    lines: list[str] = []
    for system in ScoringSystem:
        mine = tuple(row for row in rows if row.system is system)
        if not mine:
            continue
        unit = "points" if system is ScoringSystem.WINNER_ADVANTAGE else "units"
        lines += [
            f"**{system.label}**: {deals:,} deals a table, seed {seed}; ± is the half width "
            f"of a 95 % confidence interval (normal approximation, z = {Z_95:.2f}).",
            "",
            "Cards won, a seat a deal:",
            "",
            *_spread_table(mine, "cards_won"),
            "",
            f"{unit.capitalize()}, a seat a deal:",
            "",
            *_spread_table(mine, "points"),
            "",
            "Last in, % of deals, by position from the dealer (the eldest is the "
            "dealer's left, the 2nd the eldest's left):",
            "",
            *_last_in_table(mine),
            "",
            f"Advantage, {unit} a deal: the dealer's and the last in's against the table's "
            "average; a strategy's (seat 1 among players of the other) against the other "
            "players' average:",
            "",
            *_advantage_table(mine),
            "",
        ]
    return "\n".join(lines) + "\n"

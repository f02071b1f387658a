"""docs/series.md's worked example is what the code computes: the series tables of each
scheme from the tournaments' table, and the ratings of the one-table example."""

import re
from fractions import Fraction
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from scoring.series import DEFAULT_PLACING, Placing, SeriesEntry, rank_series, scheme

DOC = (Path(__file__).resolve().parents[2] / "docs" / "series.md").read_text()
SECTIONS = {
    "field-share": "**Field share.**",
    "placing": "**Placing**",
    "tournament-points": "**Tournament points.**",
}


def table_after(marker: str) -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table after ``marker``."""
    text = DOC[DOC.index(marker) :]
    lines = re.search(r"((?:^\|.*\|\n)+)", text, flags=re.MULTILINE)
    assert lines is not None
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[1].splitlines()]
    return rows[2:]


def tournaments():
    rows = table_after("## Worked example")
    header = DOC[DOC.index("| person | January") :].splitlines()[0]
    fields = [int(n) for n in re.findall(r"N = (\d+)", header)]
    results = {}
    for name, *cells in rows:
        results[name] = [
            None if cell == "—" else re.fullmatch(r"(=?)(\d+) \((\d+)\)", cell).groups()
            for cell in cells
        ]
    return fields, results


def number(cell: str) -> Fraction:
    return Fraction(cell.strip("()").replace("−", "-"))


@pytest.mark.parametrize("key", list(SECTIONS))
def test_the_worked_example_scores_as_the_document_says(key):
    fields, results = tournaments()
    rule = scheme(key)
    assert "**best 2**" in DOC
    assert "from **2**" in DOC
    entries, played = [], {}
    for name, cells in results.items():
        points, slots = [], []
        for index, cell in enumerate(cells):
            if cell is None:
                continue
            shared, rank, total = cell
            sharing = sum(
                1
                for other in results.values()
                if other[index] is not None and other[index][1] == rank
            )
            assert (sharing > 1) == bool(shared)
            placing = Placing(int(rank), sharing, fields[index], Fraction(int(total)))
            points.append(rule.points(placing, DEFAULT_PLACING))
            slots.append(index)
        entries.append(SeriesEntry(name, name.lower(), tuple(points)))
        played[name] = slots
    ranked = rank_series(entries, 2, 2)
    expected = table_after(SECTIONS[key])
    assert [row[1] for row in expected] == [row.key for row in ranked]
    for row, (label, name, *cells, counted) in zip(ranked, expected, strict=True):
        if row.rank is None:
            assert label == "–"
        else:
            assert label == (f"={row.rank}" if row.shared else str(row.rank))
        assert round(row.total, 2) == number(counted)
        shown = [cell for cell in cells if cell != "—"]
        assert [index for index, cell in enumerate(cells) if cell != "—"] == played[name]
        for value, flag, cell in zip(
            (e for e in entries if e.key == name).__next__().points, row.counted, shown, strict=True
        ):
            assert round(value, 2) == number(cell)
            assert cell.startswith("(") == (not flag)


def test_the_rating_example_is_openskills():
    rows = table_after("**Example.**")
    model = PlackettLuce()
    assert (model.mu, round(model.sigma, 2)) == (25.0, 8.33)
    ranks = [float(place.strip("=")) for _, place, *_ in rows]
    rated = model.rate([[model.rating()] for _ in rows], ranks=ranks)
    for (name, _, mu, sigma, rating), (result,) in zip(rows, rated, strict=True):
        assert (round(result.mu, 2), round(result.sigma, 2)) == (float(mu), float(sigma)), name
        assert round(result.mu - 3 * result.sigma, 2) == float(rating.replace("−", "-")), name

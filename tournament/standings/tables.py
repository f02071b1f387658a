import re
from urllib.parse import quote

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from scoring.tiebreaks import Adjusted, decided_column, one_figure_tiebreaks, standings_columns
from tournament.kernel.numbers import shown
from tournament.players.adjustments import signed
from tournament.shared.results import PLACES
from tournament.standings.services import NO_RESULT_YET, TournamentStandings, rank_label


def _number_column(verbose_name: str, orderable: bool = True) -> tables.Column:
    return tables.Column(
        verbose_name=verbose_name, attrs={"th": {"class": "num"}}, orderable=orderable
    )


class StandingsTable(tables.Table):
    """The standings. django-tables2 gives the headers, sorting and pages; the rows are
    drawn by ``standings/standings_table.html`` from each record's ready-made ``cells`` (class,
    value), as drawing a thousand rows cell by cell through the columns is slow."""

    rank = tables.Column(verbose_name="Rank", order_by="rank_number")
    name = tables.Column(verbose_name="Player")
    club = tables.Column(verbose_name="Club", default="")
    points = _number_column("Points")
    deals = _number_column("Deals")

    class Meta:
        orderable = False
        attrs = {"class": "standings ranked"}
        template_name = "standings/standings_table.html"

    # Set by the public pages: each name links to the player's page.
    link_players = False


_SORTABLE = re.compile(r"-?(?:rank|name|club|points|deals|round_[1-9][0-9]?)")


def standings_sort(value: str) -> str:
    """``value`` if it names a column the standings can be sorted by (a ``sort``
    parameter), else empty."""
    column = value.removeprefix("-")
    if _SORTABLE.fullmatch(value) or column in {tb.key for tb in one_figure_tiebreaks()}:
        return value
    return ""


HONOURS = PLACES
PER_PAGE = 100


def _cell(value: object, decided: bool) -> tuple[str, object]:
    # A difference in points needs no pointing out; a tiebreak that decided does.
    return ("decided" if decided else "", "–" if value is None else shown(value))


class _Cells(tuple[tuple[str, object], ...]):
    """A row's number cells, ``(css class, value)`` pairs, drawn as ``<td>``s in one go
    when the template shows them: a page of a hundred rows has some fifteen hundred
    cells, and looking each up in the template costs a sixth of the page's time."""

    def __html__(self) -> SafeString:
        # The values are escaped here; the classes are our own words.
        return mark_safe(
            "".join(
                f'<td class="{css}">{conditional_escape(str(value))}</td>'
                if css
                else f"<td>{conditional_escape(str(value))}</td>"
                for css, value in self
            )
        )

    # Templates turn what they show into text first, then escape it.
    __str__ = __html__


def _order_value(value: int | None) -> int:
    # Sorting puts "no value" (no round played) below every total, zero included.
    return -1 if value is None else value


_ANY_ID = 987654321


def _extra(club: str, labelled: list[tuple[str, tuple[str, object]]]) -> SafeString:
    """What a phone shows under the name in place of the columns it has no room for: the
    club, then each number with its header ("Deals 12 · Deals last in 3")."""
    figures = " · ".join(
        f'<span class="{css}">{conditional_escape(label)} {conditional_escape(str(value))}</span>'
        if css
        else f"{conditional_escape(label)} {conditional_escape(str(value))}"
        for label, (css, value) in labelled
    )
    club_part = f'<span class="club">{conditional_escape(club)}</span> ' if club else ""
    return mark_safe(f'<span class="row-extra">{club_part}{figures}</span>')


def adjustment_words(adjustments: tuple[Adjusted, ...]) -> str:
    """ "round 2: −2 (misdeal); round 3: +1 (dispute settled)"."""
    return "; ".join(
        f"round {each.round_number}: {signed(each.points)} ({each.reason})" for each in adjustments
    )


def _points_with_mark(points: int, adjustments: tuple[Adjusted, ...]) -> SafeString:
    """The total with a mark saying it includes penalties or awards, their reasons on
    hover (the name's details show them on a tap)."""
    words = conditional_escape(f"includes {adjustment_words(adjustments)}")
    return mark_safe(
        f'{shown(points)}<span class="adjusted-mark" title="{words}" aria-hidden="true">*</span>'
        f'<span class="visually-hidden"> ({words})</span>'
    )


def _adjustment_details(adjustments: tuple[Adjusted, ...]) -> SafeString:
    """Under the name: the penalties and awards, a tap away (``<details>``, no script)."""
    total = sum(each.points for each in adjustments)
    kind = "penalty" if total < 0 else "award" if total > 0 else "adjusted"
    items = "".join(
        f"<li>Round {each.round_number}: {conditional_escape(signed(each.points))} "
        f"({conditional_escape(each.reason)})</li>"
        for each in adjustments
    )
    title = conditional_escape(adjustment_words(adjustments))
    return mark_safe(
        f'<details class="adjustments"><summary class="badge {kind}" title="{title}">'
        f"{signed(total)} {kind}</summary><ul>{items}</ul></details>"
    )


def standings_table(
    result: TournamentStandings,
    *,
    orderable: bool = False,
    name_filter: str = "",
    honours: bool = False,
    highlight: bool = True,
) -> StandingsTable:
    """The standings with the tiebreak values in the tournament's order (``standings_columns``).
    ``name_filter`` keeps the rows whose name contains it; ranks stay those of the whole
    field. ``honours`` marks the winner and runners-up (final standings only);
    ``highlight`` marks the value that placed each player below the one above, which is
    true only while the rows are shown in the ranking's order."""
    standings = result.standings
    columns = standings_columns(standings.tiebreaks, standings.round_numbers)
    slug = result.tournament.slug
    wanted = name_filter.casefold()
    # Before any round counts publicly everyone shares rank 1: nobody has won anything.
    shown_honours = HONOURS if honours and standings.round_numbers else {}
    # One reverse() for the whole field, not one per player (a thousand cost 40 ms): the
    # player's id is the last part of the address.
    head, _, tail = reverse("player", args=[slug, _ANY_ID]).rpartition(str(_ANY_ID))
    career_head, _, career_tail = reverse("career", args=[_ANY_ID]).rpartition(str(_ANY_ID))
    records = []
    # Sorted by rank, the players with no rank yet come after every ranked player.
    unranked = len(standings.rows) + 1
    for row, above in zip(standings.rows, (None, *standings.rows), strict=False):
        if wanted and wanted not in row.name.casefold():
            continue
        decided = decided_column(row, above, standings.round_numbers) if highlight else None
        info = result.info(row)
        club = info.club
        record = {
            "rank": rank_label(row),
            "rank_number": unranked if row.rank is None else row.rank,
            "name": row.name,
            "url": f"{head}{row.key}{tail}",
            # The person's career page, for a player linked to a person.
            "career": f"{career_head}{quote(info.person)}{career_tail}" if info.person else "",
            "honour": shown_honours.get(row.rank or 0, ""),
            "club": club,
            "points": row.points,
            "deals": row.deals,
            "row_class": "podium" if row.rank in shown_honours else "",
            # "No result yet for round 3 (table 2)", for a player whose table's result is
            # not in: the words of the card and the player's page.
            "waiting": result.waiting_words(row),
        }
        adjusted = row.tally.adjustments
        points: object = row.points if row.has_result else None
        if adjusted and row.has_result:
            points = _points_with_mark(row.points, adjusted)
        cells = [_cell(points, False), _cell(row.deals, False)]
        labelled = [("Deals", cells[1])]
        waiting = {f"round_{number}" for number in row.waiting}
        for column in columns:
            value = column.figure(row.tally)
            record[column.name] = _order_value(value)
            if column.name in waiting:
                cells.append(("no-result", NO_RESULT_YET))
            else:
                cells.append(_cell(value, column.name == decided))
            labelled.append((column.label, cells[-1]))
        record["cells"] = _Cells(cells)
        record["extra"] = _extra(club, labelled)
        record["adjustments"] = _adjustment_details(adjusted) if adjusted else ""
        records.append(record)
    extra = [
        (
            column.name,
            tables.Column(
                verbose_name=column.label,
                attrs={"th": {"class": "num", "title": column.title}},
            ),
        )
        for column in columns
    ]
    return StandingsTable(
        records,
        extra_columns=extra,
        orderable=orderable,
        empty_text="No player matches that name." if wanted else "No players yet.",
    )

"""The projector runs the room: the seating and the clock while a round is played, the
standings (provisional until final, tiebreaks in words) once it is released."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.standings import Standings
from tests.factories import DealFactory, TournamentFactory, a_deal, make_players, seated_round
from tournament.models import Round, Seat, Sheet, SheetStatus
from tournament.public.projector import MOST, READABLE, layout, split
from tournament.public.room import deals_in_words, lead
from tournament.rounds import clock, seating
from tournament.rounds import services as rounds
from tournament.shared.public_changes import mark_changed


@pytest.fixture
def playing(make_played):
    """Round 1 released of 3 planned; round 2 started and being played."""
    tournament = make_played(players=14, rounds=1, planned_rounds=3)
    round_two = seating.seat_next_round(tournament)
    rounds.start_round(round_two)
    return tournament


def projector(client, tournament, **query):
    return client.get(reverse("projector", args=[tournament.slug]), query).content.decode()


def test_while_a_round_is_played_the_projector_seats_the_room(client, playing):
    round_two = Round.objects.get(tournament=playing, number=2)
    html = projector(client, playing)
    assert "Round 2 — find your table" in html
    assert 'class="board seating"' in html
    names = re.findall(r'<td class="name"><span class="who">([^<]+)</span></td>', html)
    assert names == sorted(names, key=str.casefold)
    assert len(names) == 14
    # Each player's table and seat, and who deals first.
    seat = Seat.objects.select_related("player").get(round=round_two, table__number=1, position=1)
    row = re.search(
        rf'<tr class="first-dealer"><td class="name"><span class="who">{seat.player.name}</span></td>'
        r'<td class="num table-no">(\d+)</td><td class="num">(\d+)</td><td>first</td>',
        html,
    )
    assert row.groups() == ("1", "1")
    assert html.count("<td>first</td>") == round_two.tables.count()
    # No clock until the organiser starts it; then the end time, without JavaScript.
    assert "round-clock" not in html
    clock.start_clock(round_two)
    html = projector(client, playing)
    assert "data-clock" in html
    assert "ends at " in html


def test_once_released_the_projector_shows_the_provisional_standings(client, playing):
    rounds.release_round(Round.objects.get(tournament=playing, number=2), despite_missing=True)
    html = projector(client, playing)
    assert 'class="board standings-board"' in html
    assert "Standings after round 2 of 3 — provisional" in html
    assert ">Leader</span>" in html
    assert "Winner" not in html
    assert "Runner-up" not in html
    # Final once the last planned round is in, or the organiser says so.
    playing.finished = True
    playing.save(update_fields=["finished"])
    html = projector(client, playing)
    assert "Final standings after round 2" in html
    assert "provisional" not in html
    assert ">Winner</span>" in html
    assert html.count(">Runner-up</span>") >= 1
    assert ">Third</span>" in html or html.count(">Runner-up</span>") >= 2


def test_private_seating_keeps_the_standings_up(client, playing):
    playing.seating_public = False
    playing.save(update_fields=["seating_public"])
    html = projector(client, playing)
    assert "find your table" not in html
    assert "Standings after round 1 of 3 — provisional" in html


def test_before_any_round_the_projector_says_no_results_yet(client, make_played):
    tournament = make_played(players=8, rounds=1)
    Round.objects.filter(tournament=tournament).update(released=False, started=False)
    mark_changed(tournament.pk)
    html = projector(client, tournament)
    assert "No results yet" in html
    assert "Leader" not in html


def test_the_seating_is_paged_with_every_page_in_the_response(client, make_played):
    tournament = make_played(players=70, rounds=1, planned_rounds=2)
    rounds.start_round(seating.seat_next_round(tournament))
    html = projector(client, tournament, page="2")
    # 70 players: two pages of 35, each in columns read down one then the next.
    assert html.count('<section class="board-page') == 2
    assert re.search(r'class="board-page current" data-page="2"', html)
    assert "page 2 of 2" in html
    pages = re.findall(r"<section .*?</section>", html, re.S)
    names = [
        re.findall(r'<td class="name"><span class="who">([^<]+)</span></td>', page)
        for page in pages
    ]
    assert [len(page) for page in names] == [35, 35]
    everyone = [name for page in names for name in page]
    assert everyone == sorted(everyone, key=str.casefold)
    tables = re.findall(r"<table .*?</table>", pages[0], re.S)
    assert [table.count("<tr") - 1 for table in tables] == [18, 17]


@pytest.mark.parametrize(
    ("count", "pages"),
    [(0, [0]), (1, [1]), (12, [12]), (13, [13]), (60, [60]), (61, [31, 30]), (121, [41, 40, 40])],
)
def test_rows_are_shared_evenly_between_pages_and_none_is_left_alone(count, pages):
    board = layout(list(range(count)), 12.6)
    assert [sum(len(column) for column in page) for page in board.pages] == pages
    for page in board.pages:
        lengths = [len(column) for column in page]
        assert max(lengths) - min(lengths) <= 1
        assert len(page) == (board.columns if count else 1)
    # Read down each column, then the next, page after page: the rows in order.
    assert [row for page in board.pages for column in page for row in column] == list(range(count))


def test_a_screen_holds_sixty_rows_in_columns_and_twelve_in_one():
    assert layout(list(range(12)), 12.6).columns == 1
    assert layout(list(range(12)), 12.6).size >= READABLE
    full = layout(list(range(MOST)), 12.6)
    assert (len(full.pages), full.columns) == (1, 3)
    assert full.size >= 20
    # A board too wide for three columns at a readable size (many round totals) takes
    # another page rather than type too small to read.
    wide = layout(list(range(MOST)), 60)
    assert len(wide.pages) > 1
    assert all(len(page[0]) > 1 for page in wide.pages)


def test_split_keeps_the_order_and_the_longest_runs_first():
    assert split(list(range(7)), 3) == [[0, 1, 2], [3, 4], [5, 6]]
    assert split([], 2) == [[], []]


def test_a_screen_of_sixty_seats_everyone_on_one_page(client, make_played):
    tournament = make_played(players=60, rounds=1, planned_rounds=2)
    rounds.start_round(seating.seat_next_round(tournament))
    html = projector(client, tournament)
    assert html.count('<section class="board-page') == 1
    assert html.count('<table class="board seating">') == 3
    assert "data-page-label" not in html
    # Nothing on the seating board is a 0 that is not one: tables and seats count from 1.
    assert not re.search(r'<td class="num">0</td>', html)


def board_rows(html):
    """The standings board's header labels, and each row's cells by player name."""
    labels = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', html)
    rows = {}
    for row in re.findall(r"<tr[^>]*>\s*(<td class=\"rank\">.*?)</tr>", html, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        name = (
            re.match(
                r"<td class=\"rank\">[^<]*</td>\s*<td class=\"name\"><span class=\"who\">([^<]+)",
                row,
            )
            .group(1)
            .strip()
        )
        rows[name] = dict(zip(labels, cells, strict=False))
    return rows


def test_a_player_not_scored_yet_shows_a_mark_and_the_foot_says_so(client, db):
    tournament = TournamentFactory(published=True)
    field = make_players(tournament, 12)
    # Round 1 released with table 3's sheet not confirmed; round 2 all in.
    rounds_played = [
        seated_round(
            tournament,
            field if number == 1 else field[::-1],
            number=number,
            released=True,
            deals=lambda table, size, number=number: (
                None if (number, table) == (1, 3) else [a_deal(size)] * size
            ),
        )
        for number in (1, 2)
    ]
    waiting = {seat.player.name for seat in rounds_played[0].tables.get(number=3).seats.all()}
    html = projector(client, tournament)
    rows = board_rows(html)
    assert len(rows) == 12
    for name, cells in rows.items():
        if name in waiting:
            # Round 2's total is in; round 1's, the points and every total are not.
            assert cells["Rank"] == "–"
            assert cells["Points"] == "–"
            assert cells["R1"] == "–"
            assert cells["R2"].isdigit()
            assert {
                value
                for label, value in cells.items()
                if label not in ("Player", "R2", "Win · top 3")
            } == {"–"}
            # Their table of round 1 is still to play: they have chances, never a bare 0.
            assert cells["Win · top 3"].endswith("%")
            assert not cells["Win · top 3"].startswith("0")
        else:
            assert cells["Points"].isdigit()
            assert "–" not in cells.values()
    assert '<span class="board-unscored">– not scored yet</span>' in html
    # Once the sheet is in, nothing to explain.
    table = rounds_played[0].tables.get(number=3)
    for number in range(1, 4):
        DealFactory(table=table, number=number)
    Sheet.objects.filter(table=table).update(status=SheetStatus.CONFIRMED)
    mark_changed(tournament.pk)
    html = projector(client, tournament)
    assert "not scored yet" not in html
    assert all(cells["Points"].isdigit() for cells in board_rows(html).values())


def test_before_any_result_nobody_shows_zero_points(client, make_played):
    tournament = make_played(players=8, rounds=1)
    Round.objects.filter(tournament=tournament).update(released=False, started=False)
    mark_changed(tournament.pk)
    html = projector(client, tournament)
    assert not re.search(r'<td class="num[^"]*">0</td>', html)
    assert html.count('<td class="num">–</td>') == 8
    assert "– not scored yet" in html


def test_tiebreak_values_that_decide_are_highlighted(client, make_played):
    tournament = make_played(players=23, rounds=4, seed=7, planned_rounds=4)
    html = projector(client, tournament)
    assert 'class="num tiebreak decided"' in html
    # The columns keep their widths from page to page.
    assert '<col class="c-rank"><col class="c-name"><col class="c-points">' in html


@pytest.mark.parametrize(
    ("turn", "words"), [(1, "deals first"), (2, "deals second"), (6, "deals sixth")]
)
def test_deals_in_words(turn, words):
    assert deals_in_words(turn) == words


def standings_of(rows, tiebreaks=("last_in",), round_numbers=(1,)):
    from scoring.standings import StandingRow
    from scoring.tiebreaks import Tally

    made = []
    for rank, shared, name, points, last_in, decided_by in rows:
        tally = Tally(points, 4, last_in, 0, 0, (points,))
        made.append(StandingRow(rank, shared, name, name, tally, decided_by))
    return Standings(
        rows=tuple(made), system=None, tiebreaks=tiebreaks, round_numbers=round_numbers
    )


def test_the_leaders_margin_in_words():
    cases = [
        # A tiebreak decides: say which and by what.
        (
            [(1, False, "Ann", 40, 10, None), (2, False, "Joan Penhallow", 40, 9, "last_in")],
            "ahead of Joan Penhallow on deals last in, 10 to 9",
        ),
        # Points decide: by how many.
        (
            [(1, False, "Ann", 50, 1, None), (2, False, "Joan", 40, 9, "points")],
            "10 points ahead of Joan",
        ),
        # Level on everything: no margin, two leaders.
        ([(1, True, "Ann", 40, 9, None), (1, True, "Joan", 40, 9, None)], ""),
    ]
    for rows, words in cases:
        found = lead(standings_of(rows))
        assert found.margin == words
    assert [row.name for row in lead(standings_of(cases[2][0])).leaders] == ["Ann", "Joan"]


def test_the_projector_says_the_leaders_margin(client, make_played):
    tournament = make_played(players=23, rounds=4, seed=7, planned_rounds=4)
    html = projector(client, tournament)
    assert re.search(r'<p class="margin">[^<]+ is (\d+ points? ahead of|ahead of) ', html)

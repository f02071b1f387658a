import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from scoring.sheet_reading.identity import SheetIdentity, qr_text
from tests.pages import ROWS
from tournament.kernel.codes import shown_code
from tournament.models import Bye, Player, Seat, Table
from tournament.printing import qr
from tournament.printing.layout import QR_RECT
from tournament.printing.views import printouts as printing
from tournament.sheets.confirming import confirm_sheet
from tournament.sheets.saving import save_sheet


def _url(name, round_, **query):
    url = reverse(f"print:{name}", args=[round_.tournament.slug, round_.number])
    if query:
        url += "?" + "&".join(f"{key}={value}" for key, value in query.items())
    return url


def _html(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _article(html, table_number):
    """The printed block of one table (a seating card or a score sheet)."""
    match = re.search(
        rf'<article class="[^"]*" data-table="{table_number}">(.*?)</article>', html, re.S
    )
    assert match, f"no table {table_number}"
    return match.group(1)


def _seating(round_):
    """{table number: [names in seat order]} as stored."""
    tables = {}
    for seat in Seat.objects.filter(round=round_).select_related("table", "player"):
        tables.setdefault(seat.table.number, {})[seat.position] = seat.player.name
    return {number: [seats[p] for p in sorted(seats)] for number, seats in tables.items()}


def _entry_url(round_, table_number):
    """What a sheet's QR code opens with table entry on (the default): the phone page of
    the table's code."""
    code = Table.objects.get(round=round_, number=table_number).code
    return f"http://testserver/e/{code}/"


def _scorer_url(round_, table_number):
    path = reverse("scorer:sheet", args=[round_.tournament.slug, round_.number, table_number])
    return f"http://testserver{path}"


def _qr_code(round_, table_number, entry_url):
    """The QR code a sheet carries: its entry URL, with the sheet named after a "#"."""
    identity = SheetIdentity(round_.tournament.slug, round_.number, table_number)
    return qr.qr_svg(qr_text(entry_url, identity), QR_RECT)


def _in_order(text, parts):
    positions = [text.index(part) for part in parts]
    return positions == sorted(positions)


# The seating list


def test_seating_lists_each_table_with_its_players_in_seat_order(organiser_client, seated_round):
    html = _html(organiser_client, _url("seating", seated_round))
    assert "Round 1: seating by table" in html
    assert "Seat 1 deals first" in html
    for number, names in _seating(seated_round).items():
        card = _article(html, number)
        assert f"Table {number}" in card
        assert len(names) == 4
        assert _in_order(card, [f"Seat {position}" for position in range(1, 5)])
        assert _in_order(card, names)
        assert "deals first" in card.split(names[0])[1].split("Seat 2")[0]


def test_find_your_table_lists_everyone_alphabetically_with_table_and_seat(
    organiser_client, seated_round
):
    # Renamed so that alphabetical order is not seating order.
    first = Seat.objects.get(round=seated_round, table__number=3, position=4).player
    first.name = "aaron Abbott"
    first.save()
    last = Seat.objects.get(round=seated_round, table__number=1, position=1).player
    last.name = "Zoë Zimmer"
    last.save()

    html = _html(organiser_client, _url("seating", seated_round))
    finder = html.split("find your table")[1]
    entries = re.findall(
        r'<span class="player-name">([^<]+)</span> <span class="where">([^<]+)</span>', finder
    )
    names = [name for name, _ in entries]
    assert len(names) == 12
    assert names[0] == "aaron Abbott"
    assert names[-1] == "Zoë Zimmer"
    assert names == sorted(names, key=str.casefold)
    assert ("aaron Abbott", "Table 3, seat 4") in entries
    assert ("Zoë Zimmer", "Table 1, seat 1") in entries


def test_byes_are_shown_in_both_lists(organiser_client, seated_round):
    sitting_out = Player.objects.create(
        tournament=seated_round.tournament, ref="p99", name="Bertie Bye"
    )
    Bye.objects.create(round=seated_round, player=sitting_out)

    html = _html(organiser_client, _url("seating", seated_round))
    by_table, finder = html.split("find your table")
    assert "Sitting out round 1" in by_table
    assert "Bertie Bye" in by_table.split("Sitting out round 1")[1]
    assert '<span class="player-name">Bertie Bye</span> <span class="where">sits out</span>' in (
        finder
    )


def test_without_byes_there_is_no_sitting_out_list(organiser_client, seated_round):
    assert "Sitting out" not in _html(organiser_client, _url("seating", seated_round))


def test_the_print_pages_link_the_print_stylesheet_and_say_how_to_print(
    organiser_client, seated_round
):
    for name in ["seating", "sheets"]:
        html = _html(organiser_client, _url(name, seated_round))
        assert "css/print.css" in html
        assert "Print (Ctrl-P" in html
        assert "<script>" not in html.split("</head>")[1]


def test_a_round_not_yet_seated_says_so(organiser_client, seated_round):
    from tournament.models import Round

    empty = Round.objects.create(tournament=seated_round.tournament, number=2)
    assert "has not been seated yet" in _html(organiser_client, _url("seating", empty))
    assert "has not been seated yet" in _html(organiser_client, _url("sheets", empty))


# The score sheets


@pytest.mark.parametrize("rotations", [1, 2])
def test_each_table_has_a_sheet_with_players_and_a_dealer_per_deal(
    organiser_client, seated_round, rotations
):
    tournament = seated_round.tournament
    tournament.rotations_per_round = rotations
    tournament.save()

    html = _html(organiser_client, _url("sheets", seated_round))
    seating = _seating(seated_round)
    assert html.count('<article class="score-sheet') == len(seating) == 3
    for number, names in seating.items():
        sheet = _article(html, number)
        assert "Test Open" in sheet
        assert f"Round 1 · Table {number}" in sheet
        headers = re.findall(
            r'<th scope="col" class="seat-head" data-seat="(\d)">Seat \d'
            r'<span class="player-name">([^<]+)</span>',
            sheet,
        )
        assert headers == [(str(seat), name) for seat, name in enumerate(names, start=1)]
        assert "Left over" in sheet
        assert "Last in" in sheet
        rows = re.findall(
            r'<tr data-deal="(\d+)" data-dealer="(\d)">\s*<th scope="row">\d+</th>\s*'
            r'<td class="dealer"><span class="dealer-seat"[^>]*>\d</span>'
            r'<span class="dealer-name">([^<]+)</span>',
            sheet,
        )
        # Seat 1 deals deal 1 and the deal passes to the left: 1, 2, 3, 4, 1, 2, ...
        assert rows == [
            (str(deal), str((deal - 1) % 4 + 1), names[(deal - 1) % 4])
            for deal in range(1, rotations * 4 + 1)
        ]
        assert "Totals" in sheet
        assert "each row adds up to 52: cards won + left over" in sheet
        assert f"All the totals together make {52 * 4 * rotations}" in sheet
        assert "the seat still holding cards" in sheet
        assert f"Signed for table {number}" in sheet


def test_each_sheet_carries_a_qr_code_of_its_entry_page(organiser_client, seated_round):
    html = _html(organiser_client, _url("sheets", seated_round))
    for number in (1, 2, 3):
        sheet = _article(html, number)
        entry_url = _entry_url(seated_round, number)
        assert f'data-qr-url="{entry_url}"' in sheet
        assert f'<a href="{entry_url}">{entry_url}</a>' in sheet
        # segno is deterministic: the same URL gives the same symbol, so this is the
        # code of exactly this URL (and of no other table's).
        assert _qr_code(seated_round, number, entry_url) in sheet
        assert sheet.count('class="qr-code"') == 1
        assert sheet.count("data-marker=") == 4  # the corner markers, also SVG
        assert 'src="http' not in sheet


def test_the_qr_code_is_a_full_qr_code_of_the_url(monkeypatch, organiser_client, seated_round):
    encoded = []
    make_qr = qr.segno.make_qr

    def recording(content, **kwargs):
        encoded.append(content)
        return make_qr(content, **kwargs)

    monkeypatch.setattr(qr.segno, "make_qr", recording)
    _html(organiser_client, _url("sheets", seated_round))
    assert encoded == [
        f"{_entry_url(seated_round, number)}#sheet={seated_round.tournament.slug}/1/{number}"
        for number in (1, 2, 3)
    ]
    assert not qr.segno.make_qr(encoded[0]).is_micro


def test_the_qr_code_can_carry_the_address_phones_reach(organiser_client, seated_round, settings):
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    sheet = _article(_html(organiser_client, _url("sheets", seated_round)), 1)
    path = printing.entry_path(Table.objects.get(round=seated_round, number=1).code)
    assert f'data-qr-url="http://192.168.1.20:8000{path}"' in sheet
    assert _qr_code(seated_round, 1, f"http://192.168.1.20:8000{path}") in sheet
    assert "No camera? Go to <strong>http://192.168.1.20:8000/e/</strong>" in sheet


def test_each_sheet_prints_its_table_code_beside_the_qr_code(organiser_client, seated_round):
    html = _html(organiser_client, _url("sheets", seated_round))
    for table in Table.objects.filter(round=seated_round):
        sheet = _article(html, table.number)
        assert f'<p class="code">{shown_code(table.code)}</p>' in sheet
        assert "No camera? Go to <strong>http://testserver/e/</strong> and type the code." in sheet
        # Each sheet its own table's code only.
        others = Table.objects.filter(round=seated_round).exclude(pk=table.pk)
        assert not any(shown_code(other.code) in sheet for other in others)


def test_without_table_entry_the_qr_code_opens_the_scorers_sheet(organiser_client, seated_round):
    tournament = seated_round.tournament
    tournament.table_entry = False
    tournament.save()
    html = _html(organiser_client, _url("sheets", seated_round))
    for table in Table.objects.filter(round=seated_round):
        sheet = _article(html, table.number)
        scorer_url = _scorer_url(seated_round, table.number)
        assert f'data-qr-url="{scorer_url}"' in sheet
        assert _qr_code(seated_round, table.number, scorer_url) in sheet
        assert shown_code(table.code) not in sheet
        assert table.code not in sheet
        assert "No camera?" not in sheet


def test_a_confirmed_sheet_is_printed_without_a_code_that_no_longer_opens(
    organiser_client, seated_round, scorer, second_scorer
):
    """Printed again after its sheet was confirmed, table 2's sheet offers the desk's page,
    not a phone page its code no longer opens, and says why; the others keep theirs."""
    table = Table.objects.get(round=seated_round, number=2)
    save_sheet(table, scorer, ROWS, expected_version=0, final=True)
    confirm_sheet(table, second_scorer, expected_version=1)
    html = _html(organiser_client, _url("sheets", seated_round))
    sheet = _article(html, 2)
    assert f'data-qr-url="{_scorer_url(seated_round, 2)}"' in sheet
    assert f"/e/{table.code}/" not in sheet
    assert shown_code(table.code) not in sheet
    assert "This table's sheet is confirmed: its code no longer opens it on a phone." in (
        unescape(sheet)
    )
    assert f'data-qr-url="{_entry_url(seated_round, 1)}"' in _article(html, 1)
    # Every phone page the sheets link to opens.
    for code in re.findall(r'href="http://testserver/e/([^/"]+)/"', html):
        assert Client().get(reverse("table:entry", args=[code])).status_code == 200


def test_the_printed_paths_are_the_phone_pages(organiser_client, seated_round):
    """The QR code and the "No camera?" line lead to the phone pages, which open."""
    code = Table.objects.get(round=seated_round, number=1).code
    assert printing.entry_start_path() == reverse("table:code") == "/e/"
    assert printing.entry_path(code) == reverse("table:entry", args=[code]) == f"/e/{code}/"
    html = _html(organiser_client, _url("sheets", seated_round))
    assert f"/e/{code}/" in _article(html, 1)
    assert Client().get(printing.entry_path(code)).status_code == 200


def test_sheets_follow_the_tournament_scoring_system(organiser_client, seated_round):
    assert "Scoring (winner-advantage)" in _html(organiser_client, _url("sheets", seated_round))
    tournament = seated_round.tournament
    tournament.scoring = "classic-stakes"
    tournament.save()
    html = _html(organiser_client, _url("sheets", seated_round))
    assert "Scoring (classic stakes): the left-over cards go to the dealer" in html


def test_each_sheet_has_a_box_a_digit_and_a_tick_box_a_seat(organiser_client, seated_round):
    sheet = _article(_html(organiser_client, _url("sheets", seated_round)), 1)
    boxes = re.findall(r'<rect class="([^"]+)"[^>]*data-deal="(\d+)" data-field="(\w+)"', sheet)
    # Four deals at four seats: two digits and a tick a seat, two digits left over.
    assert len(boxes) == 4 * (4 * 3 + 2)
    assert sum(field == "last_in" and kind == "box tick" for kind, _, field in boxes) == 16
    assert not any(field == "laid_down" for _, _, field in boxes)
    assert "One figure a box" in sheet


def test_a_sheet_longer_than_a_page_runs_on_without_corner_markers(organiser_client, seated_round):
    tournament = seated_round.tournament
    tournament.rotations_per_round = 10  # 40 deals at four seats
    tournament.save()
    sheet = _article(_html(organiser_client, _url("sheets", seated_round)), 1)
    assert sheet.count('<div class="sheet-block') == 2
    assert "page 1 of 2" in sheet
    assert "page 2 of 2" in sheet
    assert "data-marker=" not in sheet
    assert "it is typed in, not read from a photo" in sheet
    deals = [int(deal) for deal in re.findall(r'<tr data-deal="(\d+)"', sheet)]
    assert deals == list(range(1, 41))
    assert sheet.count("Signed for table 1") == 1


def test_one_table_can_be_printed_alone(organiser_client, seated_round):
    html = _html(organiser_client, _url("sheets", seated_round, table=2))
    assert html.count('<article class="score-sheet') == 1
    assert 'data-table="2"' in html
    assert f'data-qr-url="{_entry_url(seated_round, 2)}"' in html


@pytest.mark.parametrize("table", ["9", "0", "two"])
def test_an_unknown_table_is_404(organiser_client, seated_round, table):
    response = organiser_client.get(_url("sheets", seated_round, table=table))
    assert response.status_code == 404


# Who may print, and how


@pytest.mark.parametrize("name", ["seating", "sheets"])
def test_a_scorer_may_not_print(scorer_client, seated_round, name):
    assert scorer_client.get(_url(name, seated_round)).status_code == 403


@pytest.mark.parametrize("name", ["seating", "sheets"])
def test_an_outsider_gets_404(outsider_client, seated_round, name):
    assert outsider_client.get(_url(name, seated_round)).status_code == 404


@pytest.mark.parametrize("name", ["seating", "sheets"])
def test_anonymous_visitors_are_sent_to_log_in(client, seated_round, name):
    url = _url(name, seated_round)
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("name", ["seating", "sheets"])
def test_an_unknown_round_is_404(organiser_client, seated_round, name):
    url = reverse(f"print:{name}", args=[seated_round.tournament.slug, 7])
    assert organiser_client.get(url).status_code == 404


@pytest.mark.parametrize("name", ["seating", "sheets"])
def test_an_unknown_tournament_is_404(organiser_client, db, name):
    assert organiser_client.get(reverse(f"print:{name}", args=["nope", 1])).status_code == 404


@pytest.mark.parametrize("name", ["seating", "sheets"])
@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_print_pages_are_read_only(organiser_client, seated_round, name, method):
    response = getattr(organiser_client, method)(_url(name, seated_round))
    assert response.status_code == 405


# Query budget


@pytest.mark.parametrize(("name", "queries"), [("seating", 7), ("sheets", 6)])
def test_query_count_does_not_grow_with_tables_and_players(
    make_played, organiser, organiser_client, django_assert_num_queries, name, queries
):
    rounds = []
    for players, byes, slug in [(7, 1, "small"), (43, 4, "large")]:
        tournament = make_played(players=players, rounds=1, published=False, slug=slug)
        tournament.owner = organiser
        tournament.save()
        round_ = tournament.rounds.get()
        for index in range(byes):
            player = Player.objects.create(tournament=tournament, ref=f"b{index}", name=f"B{index}")
            Bye.objects.create(round=round_, player=player)
        rounds.append(round_)

    small, large = rounds
    assert small.tables.count() == 2
    assert large.tables.count() == 9
    for round_ in rounds:
        with django_assert_num_queries(queries):
            _html(organiser_client, _url(name, round_))


def test_find_your_table_tells_players_of_one_name_apart_by_club(organiser_client, seated_round):
    one = Seat.objects.get(round=seated_round, table__number=1, position=2).player
    other = Seat.objects.get(round=seated_round, table__number=3, position=1).player
    Player.objects.filter(pk__in=[one.pk, other.pk]).update(name="Ann Smith")
    Player.objects.filter(pk=one.pk).update(club="Red Lion")
    Player.objects.filter(pk=other.pk).update(club="Crown")
    finder = _html(organiser_client, _url("seating", seated_round)).split("find your table")[1]
    entries = re.findall(
        r'<span class="player-name">([^<]+)</span> <span class="where">([^<]+)</span>', finder
    )
    assert ("Ann Smith (Crown)", "Table 3, seat 1") in entries
    assert ("Ann Smith (Red Lion)", "Table 1, seat 2") in entries
    assert not any(name == "Ann Smith" for name, _ in entries)
